#include "decoder_libraries.h"

#include <dlfcn.h>
#include <pthread.h>

// Each function's pointer, typed from the list and checked against the library's own
// declaration (unevaluated: no symbol is referenced, so nothing is linked).
#define PLAYBACKD_POINTER_RETURNING(type, name, parameters, arguments)                                              \
    static type(*name##_function) parameters;                                                                        \
    _Static_assert(__builtin_types_compatible_p(__typeof__(&name), __typeof__(name##_function)), #name);
#define PLAYBACKD_POINTER_VOID(name, parameters, arguments)                                                          \
    static void(*name##_function) parameters;                                                                        \
    _Static_assert(__builtin_types_compatible_p(__typeof__(&name), __typeof__(name##_function)), #name);
#define PLAYBACKD_WRAP_RETURNING(type, name, parameters, arguments)                                                  \
    type playbackd_##name parameters { return name##_function arguments; }
#define PLAYBACKD_WRAP_VOID(name, parameters, arguments)                                                             \
    void playbackd_##name parameters { name##_function arguments; }
#define PLAYBACKD_RESOLVE_RETURNING(type, name, parameters, arguments)                                               \
    complete &= (*(void **)&name##_function = dlsym(library, #name)) != NULL;
#define PLAYBACKD_RESOLVE_VOID(name, parameters, arguments)                                                          \
    complete &= (*(void **)&name##_function = dlsym(library, #name)) != NULL;

// One library: its pointers, wrappers, and a load function that runs once, whichever thread
// (a prober, the decoder) asks first.
#define PLAYBACKD_LIBRARY(prefix, soname, FUNCTIONS)                                                                 \
    FUNCTIONS(PLAYBACKD_POINTER_RETURNING, PLAYBACKD_POINTER_VOID)                                                    \
    FUNCTIONS(PLAYBACKD_WRAP_RETURNING, PLAYBACKD_WRAP_VOID)                                                          \
    static pthread_once_t prefix##_once = PTHREAD_ONCE_INIT;                                                         \
    static int prefix##_loaded;                                                                                      \
    static void prefix##_open(void) {                                                                                \
        void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);                                                       \
        if (!library) return;                                                                                        \
        int complete = 1;                                                                                            \
        FUNCTIONS(PLAYBACKD_RESOLVE_RETURNING, PLAYBACKD_RESOLVE_VOID)                                                \
        if (complete) prefix##_loaded = 1;                                                                           \
        else dlclose(library);                                                                                       \
    }                                                                                                                \
    int playbackd_##prefix##_load(void) {                                                                            \
        pthread_once(&prefix##_once, prefix##_open);                                                                 \
        return prefix##_loaded;                                                                                      \
    }

PLAYBACKD_LIBRARY(flac, "libFLAC.so.12", PLAYBACKD_FLAC_FUNCTIONS)
PLAYBACKD_LIBRARY(vorbisfile, "libvorbisfile.so.3", PLAYBACKD_VORBISFILE_FUNCTIONS)
PLAYBACKD_LIBRARY(opusfile, "libopusfile.so.0", PLAYBACKD_OPUSFILE_FUNCTIONS)
PLAYBACKD_LIBRARY(faad, "libfaad.so.2", PLAYBACKD_FAAD_FUNCTIONS)
PLAYBACKD_LIBRARY(avutil, "libavutil.so.57", PLAYBACKD_AVUTIL_FUNCTIONS)
PLAYBACKD_LIBRARY(avcodec, "libavcodec.so.59", PLAYBACKD_AVCODEC_FUNCTIONS)
PLAYBACKD_LIBRARY(avformat, "libavformat.so.59", PLAYBACKD_AVFORMAT_FUNCTIONS)
PLAYBACKD_LIBRARY(soxr, "libsoxr.so.0", PLAYBACKD_SOXR_FUNCTIONS)
PLAYBACKD_LIBRARY(crypto, "libcrypto.so.3", PLAYBACKD_CRYPTO_FUNCTIONS)
PLAYBACKD_LIBRARY(ebur128, "libebur128.so.1", PLAYBACKD_EBUR128_FUNCTIONS)

int playbackd_ffmpeg_load(void) {
    if (!playbackd_avutil_load() || !playbackd_avcodec_load() || !playbackd_avformat_load()) return 0;
    playbackd_av_log_set_level(AV_LOG_QUIET);
    return 1;
}

// libcurl: the listed functions as above, and the two variadic ones resolved beside them.
static CURLcode (*curl_easy_setopt_function)(CURL *, CURLoption, ...);
static CURLcode (*curl_easy_getinfo_function)(CURL *, CURLINFO, ...);
PLAYBACKD_CURL_FUNCTIONS(PLAYBACKD_POINTER_RETURNING, PLAYBACKD_POINTER_VOID)
PLAYBACKD_CURL_FUNCTIONS(PLAYBACKD_WRAP_RETURNING, PLAYBACKD_WRAP_VOID)
static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static int curl_loaded;
static void curl_open(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
    int complete = 1;
    PLAYBACKD_CURL_FUNCTIONS(PLAYBACKD_RESOLVE_RETURNING, PLAYBACKD_RESOLVE_VOID)
    complete &= (*(void **)&curl_easy_setopt_function = dlsym(library, "curl_easy_setopt")) != NULL;
    complete &= (*(void **)&curl_easy_getinfo_function = dlsym(library, "curl_easy_getinfo")) != NULL;
    CURLcode (*global_init)(long) = NULL;
    complete &= (*(void **)&global_init = dlsym(library, "curl_global_init")) != NULL;
    // Once, before any handle, as libcurl asks; here only one thread gets this far.
    if (complete && global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK) curl_loaded = 1;
    else dlclose(library);
}
int playbackd_curl_load(void) {
    pthread_once(&curl_once, curl_open);
    return curl_loaded;
}
CURLcode playbackd_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt_function(handle, option, value);
}
CURLcode playbackd_curl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt_function(handle, option, value);
}
CURLcode playbackd_curl_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt_function(handle, option, value);
}
void playbackd_curl_prepare(CURL *handle, const char *user_agent, const char *ca_file, long connect_timeout_ms,
                            curl_xferinfo_callback progress, curl_write_callback body, curl_write_callback header,
                            void *context) {
    curl_easy_setopt_function(handle, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt_function(handle, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt_function(handle, CURLOPT_USERAGENT, user_agent);
    curl_easy_setopt_function(handle, CURLOPT_CONNECTTIMEOUT_MS, connect_timeout_ms);
    if (ca_file) curl_easy_setopt_function(handle, CURLOPT_CAINFO, ca_file);
    curl_easy_setopt_function(handle, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt_function(handle, CURLOPT_XFERINFOFUNCTION, progress);
    curl_easy_setopt_function(handle, CURLOPT_XFERINFODATA, context);
    curl_easy_setopt_function(handle, CURLOPT_WRITEFUNCTION, body);
    curl_easy_setopt_function(handle, CURLOPT_WRITEDATA, context);
    curl_easy_setopt_function(handle, CURLOPT_HEADERFUNCTION, header);
    curl_easy_setopt_function(handle, CURLOPT_HEADERDATA, context);
}
CURLcode playbackd_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo_function(handle, info, value);
}
CURLcode playbackd_curl_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo_function(handle, info, value);
}
CURLcode playbackd_curl_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo_function(handle, info, value);
}
