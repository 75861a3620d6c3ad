#include "latin_ascii.h"

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>
#include <unicode/ustring.h>
#include <unicode/utrans.h>

// ICU's functions carry its major version in their names (utrans_openU is utrans_openU_72):
// the headers' renaming macros give the names to look up, and the library's file name.
#define PLAYBACKD_TEXT(x) #x
#define PLAYBACKD_NAME(x) PLAYBACKD_TEXT(x)
#define PLAYBACKD_ICU_LIBRARY "libicui18n.so." PLAYBACKD_NAME(U_ICU_VERSION_MAJOR_NUM)

static __typeof__(&utrans_openU) open_function;
static __typeof__(&utrans_transUChars) transliterate_function;
static __typeof__(&utrans_close) close_function;
static __typeof__(&u_strFromUTF8) from_utf8_function;
static __typeof__(&u_strToUTF8) to_utf8_function;
static pthread_once_t icu_once = PTHREAD_ONCE_INIT;
static int icu_loaded;

static void icu_open(void) {
    void *library = dlopen(PLAYBACKD_ICU_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
    // dlsym on the handle searches its dependencies too: u_strFromUTF8 is libicuuc's.
    *(void **)&open_function = dlsym(library, PLAYBACKD_NAME(utrans_openU));
    *(void **)&transliterate_function = dlsym(library, PLAYBACKD_NAME(utrans_transUChars));
    *(void **)&close_function = dlsym(library, PLAYBACKD_NAME(utrans_close));
    *(void **)&from_utf8_function = dlsym(library, PLAYBACKD_NAME(u_strFromUTF8));
    *(void **)&to_utf8_function = dlsym(library, PLAYBACKD_NAME(u_strToUTF8));
    icu_loaded = open_function && transliterate_function && close_function && from_utf8_function && to_utf8_function;
}

/// unicode61, found once per registration.
typedef struct {
    fts5_tokenizer methods;
    void *user;
} Unicode61;

/// One instance: unicode61's, and the transliterator, opened when a word first needs it.
typedef struct {
    Unicode61 *unicode61;
    Fts5Tokenizer *inner;
    UTransliterator *latin;
    int latinFailed;
} Latin;

static int latin_create(void *context, const char **arguments, int count, Fts5Tokenizer **out) {
    (void)arguments;
    (void)count;
    Unicode61 *unicode61 = context;
    Latin *latin = sqlite3_malloc(sizeof *latin);
    if (!latin) return SQLITE_NOMEM;
    memset(latin, 0, sizeof *latin);
    latin->unicode61 = unicode61;
    const char *options[] = {"remove_diacritics", "2"};
    int status = unicode61->methods.xCreate(unicode61->user, options, 2, &latin->inner);
    if (status != SQLITE_OK) {
        sqlite3_free(latin);
        return status;
    }
    *out = (Fts5Tokenizer *)latin;
    return SQLITE_OK;
}

static void latin_delete(Fts5Tokenizer *tokenizer) {
    Latin *latin = (Latin *)tokenizer;
    if (latin->latin) close_function(latin->latin);
    latin->unicode61->methods.xDelete(latin->inner);
    sqlite3_free(latin);
}

/// The transliterator, opened on first use; NULL when ICU is not there.
static UTransliterator *transliterator(Latin *latin) {
    if (latin->latin || latin->latinFailed) return latin->latin;
    pthread_once(&icu_once, icu_open);
    UErrorCode status = U_ZERO_ERROR;
    static const UChar name[] = {'L', 'a', 't', 'i', 'n', '-', 'A', 'S', 'C', 'I', 'I'};
    if (icu_loaded) latin->latin = open_function(name, 11, UTRANS_FORWARD, NULL, 0, NULL, &status);
    if (!latin->latin || U_FAILURE(status)) {
        latin->latin = NULL;
        latin->latinFailed = 1;
    }
    return latin->latin;
}

/// Where a tokenize call hands its words on.
typedef struct {
    Latin *latin;
    void *context;
    int (*token)(void *, int, const char *, int, int, int);
} Forward;

/// A word as unicode61 made it, transliterated when a letter of it is not ASCII (a word too
/// long for the buffers, a word ICU cannot take, goes on as it is).
static int forward(void *context, int flags, const char *token, int count, int start, int end) {
    Forward *forward = context;
    int ascii = 1;
    for (int index = 0; index < count && ascii; index++) ascii = (unsigned char)token[index] < 0x80;
    UTransliterator *latin = ascii ? NULL : transliterator(forward->latin);
    if (!latin) return forward->token(forward->context, flags, token, count, start, end);
    UChar wide[256];
    char narrow[512];
    int32_t length = 0, limit = 0, bytes = 0;
    UErrorCode status = U_ZERO_ERROR;
    from_utf8_function(wide, 128, &length, token, count, &status);
    limit = length;
    if (U_SUCCESS(status)) transliterate_function(latin, wide, &length, 256, 0, &limit, &status);
    if (U_SUCCESS(status)) to_utf8_function(narrow, sizeof narrow, &bytes, wide, length, &status);
    if (U_FAILURE(status) || status == U_STRING_NOT_TERMINATED_WARNING) {
        return forward->token(forward->context, flags, token, count, start, end);
    }
    return forward->token(forward->context, flags, narrow, bytes, start, end);
}

static int latin_tokenize(
    Fts5Tokenizer *tokenizer, void *context, int flags, const char *text, int count,
    int (*token)(void *, int, const char *, int, int, int)) {
    Latin *latin = (Latin *)tokenizer;
    Forward forwarding = {latin, context, token};
    return latin->unicode61->methods.xTokenize(latin->inner, &forwarding, flags, text, count, forward);
}

static const fts5_tokenizer latin_methods = {latin_create, latin_delete, latin_tokenize};

/// The connection's FTS5 API.
static fts5_api *fts5(sqlite3 *db) {
    fts5_api *api = NULL;
    sqlite3_stmt *statement = NULL;
    if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, NULL) != SQLITE_OK) return NULL;
    sqlite3_bind_pointer(statement, 1, (void *)&api, "fts5_api_ptr", NULL);
    sqlite3_step(statement);
    sqlite3_finalize(statement);
    return api;
}

/// unicode61's methods on `db`, kept for as long as the connection (freed with it).
static Unicode61 *unicode61(sqlite3 *db, fts5_api *api) {
    Unicode61 *found = sqlite3_malloc(sizeof *found);
    if (!found) return NULL;
    if (api->xFindTokenizer(api, "unicode61", &found->user, &found->methods) != SQLITE_OK) {
        sqlite3_free(found);
        return NULL;
    }
    (void)db;
    return found;
}

int playbackd_latin_register(sqlite3 *db) {
    fts5_api *api = fts5(db);
    if (!api) return SQLITE_ERROR;
    Unicode61 *found = unicode61(db, api);
    if (!found) return SQLITE_ERROR;
    return api->xCreateTokenizer(api, "playbackd", found, (fts5_tokenizer *)&latin_methods, sqlite3_free);
}

int playbackd_latin_create(sqlite3 *db, fts5_tokenizer *methods, Fts5Tokenizer **tokenizer) {
    fts5_api *api = fts5(db);
    if (!api) return SQLITE_ERROR;
    void *user = NULL;
    int status = api->xFindTokenizer(api, "playbackd", &user, methods);
    if (status != SQLITE_OK) return status;
    return methods->xCreate(user, NULL, 0, tokenizer);
}
