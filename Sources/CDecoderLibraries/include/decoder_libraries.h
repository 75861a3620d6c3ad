#ifndef PLAYBACKD_DECODER_LIBRARIES_H
#define PLAYBACKD_DECODER_LIBRARIES_H

#define OV_EXCLUDE_STATIC_CALLBACKS
#include <FLAC/stream_decoder.h>
#include <curl/curl.h>
#include <ebur128.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <libavutil/log.h>
#include <libavutil/mathematics.h>
#include <libavutil/mem.h>
#include <neaacdec.h>
#include <openssl/evp.h>
#include <opus/opusfile.h>
#include <soxr.h>
#include <vorbis/vorbisfile.h>

/// The decoding libraries other than libmpg123 are loaded when a file of their format is first
/// opened, not when the daemon starts: linked, libFLAC, libvorbisfile and libopusfile with the
/// libraries they need (libogg, libvorbis, libopus) added 0.45 MiB to the RSS of every daemon,
/// one that only ever plays MP3 included (measured playing an MP3 to a sound server). Each
/// load function returns 1 once the library and every function below are there, 0 when they
/// cannot be; it may be called from any thread, at any time. Call a library's functions only
/// after its load function returned 1.
int playbackd_flac_load(void);
int playbackd_vorbisfile_load(void);
int playbackd_opusfile_load(void);
/// libfaad (faad2), the decoder of AAC in MP4: 0.4 MiB where FFmpeg, which Debian links with
/// 114 libraries, adds 28 MiB to the RSS of a daemon playing AAC.
int playbackd_faad_load(void);
/// libavutil, libavcodec and libavformat (FFmpeg 5.1), for MP4, WAV and AIFF; FFmpeg's own log
/// is silenced once they are loaded (library code does not log: errors are returned).
int playbackd_ffmpeg_load(void);
/// libsoxr, the resampler of a Snapcast stream whose rate differs from the item's: loaded
/// when such a stream first opens.
int playbackd_soxr_load(void);
/// libcurl (the OpenSSL flavour, `libcurl.so.4`), the client of `http://` and `https://` items:
/// loaded, and `curl_global_init` called, when the first URL is opened.
int playbackd_curl_load(void);
/// libcrypto (OpenSSL 3, which libcurl loads anyway), for the MD5 that signs Last.fm's
/// requests (`api_sig`): loaded when the first request is signed.
int playbackd_crypto_load(void);
/// libebur128 (the reference implementation of EBU R128 / ITU-R BS.1770-4), for the loudness of
/// files without ReplayGain tags: loaded when the first file is measured.
int playbackd_ebur128_load(void);

// The functions each decoder calls, under a `playbackd_` prefix: RETURNING(type, name,
// parameters, arguments) and VOID(name, parameters, arguments).

// libFLAC starts a native and an Ogg stream with the same callbacks.
#define PLAYBACKD_FLAC_INIT_PARAMETERS                                                                               \
    (FLAC__StreamDecoder * decoder, FLAC__StreamDecoderReadCallback read, FLAC__StreamDecoderSeekCallback seek,      \
     FLAC__StreamDecoderTellCallback tell, FLAC__StreamDecoderLengthCallback length,                                 \
     FLAC__StreamDecoderEofCallback eof, FLAC__StreamDecoderWriteCallback write,                                     \
     FLAC__StreamDecoderMetadataCallback metadata, FLAC__StreamDecoderErrorCallback error, void *client)
#define PLAYBACKD_FLAC_INIT_ARGUMENTS (decoder, read, seek, tell, length, eof, write, metadata, error, client)
#define PLAYBACKD_FLAC_FUNCTIONS(RETURNING, VOID)                                                                    \
    RETURNING(FLAC__StreamDecoder *, FLAC__stream_decoder_new, (void), ())                                           \
    VOID(FLAC__stream_decoder_delete, (FLAC__StreamDecoder * decoder), (decoder))                                    \
    RETURNING(FLAC__bool, FLAC__stream_decoder_set_md5_checking, (FLAC__StreamDecoder * decoder, FLAC__bool value),  \
              (decoder, value))                                                                                      \
    RETURNING(FLAC__bool, FLAC__stream_decoder_set_metadata_respond,                                                 \
              (FLAC__StreamDecoder * decoder, FLAC__MetadataType type), (decoder, type))                             \
    RETURNING(FLAC__StreamDecoderInitStatus, FLAC__stream_decoder_init_stream, PLAYBACKD_FLAC_INIT_PARAMETERS,       \
              PLAYBACKD_FLAC_INIT_ARGUMENTS)                                                                         \
    RETURNING(FLAC__StreamDecoderInitStatus, FLAC__stream_decoder_init_ogg_stream, PLAYBACKD_FLAC_INIT_PARAMETERS,   \
              PLAYBACKD_FLAC_INIT_ARGUMENTS)                                                                         \
    RETURNING(FLAC__bool, FLAC__stream_decoder_process_until_end_of_metadata, (FLAC__StreamDecoder * decoder),       \
              (decoder))                                                                                             \
    RETURNING(FLAC__bool, FLAC__stream_decoder_process_single, (FLAC__StreamDecoder * decoder), (decoder))           \
    RETURNING(FLAC__StreamDecoderState, FLAC__stream_decoder_get_state, (const FLAC__StreamDecoder *decoder),        \
              (decoder))                                                                                             \
    RETURNING(FLAC__bool, FLAC__stream_decoder_seek_absolute, (FLAC__StreamDecoder * decoder, FLAC__uint64 sample),  \
              (decoder, sample))                                                                                     \
    RETURNING(FLAC__bool, FLAC__stream_decoder_flush, (FLAC__StreamDecoder * decoder), (decoder))                    \
    RETURNING(const char *, FLAC__stream_decoder_get_resolved_state_string, (const FLAC__StreamDecoder *decoder),    \
              (decoder))

#define PLAYBACKD_VORBISFILE_FUNCTIONS(RETURNING, VOID)                                                              \
    RETURNING(int, ov_open_callbacks,                                                                                \
              (void *source, OggVorbis_File *vf, const char *initial, long initial_bytes, ov_callbacks callbacks),   \
              (source, vf, initial, initial_bytes, callbacks))                                                       \
    RETURNING(int, ov_clear, (OggVorbis_File * vf), (vf))                                                            \
    RETURNING(vorbis_info *, ov_info, (OggVorbis_File * vf, int link), (vf, link))                                  \
    RETURNING(vorbis_comment *, ov_comment, (OggVorbis_File * vf, int link), (vf, link))                            \
    RETURNING(ogg_int64_t, ov_pcm_total, (OggVorbis_File * vf, int link), (vf, link))                               \
    RETURNING(long, ov_read,                                                                                         \
              (OggVorbis_File * vf, char *buffer, int length, int big_endian, int word, int is_signed, int *link),  \
              (vf, buffer, length, big_endian, word, is_signed, link))                                               \
    RETURNING(int, ov_pcm_seek, (OggVorbis_File * vf, ogg_int64_t position), (vf, position))

#define PLAYBACKD_OPUSFILE_FUNCTIONS(RETURNING, VOID)                                                                \
    RETURNING(OggOpusFile *, op_open_callbacks,                                                                      \
              (void *stream, const OpusFileCallbacks *callbacks, const unsigned char *initial, size_t initial_bytes, \
               int *error),                                                                                          \
              (stream, callbacks, initial, initial_bytes, error))                                                    \
    VOID(op_free, (OggOpusFile * file), (file))                                                                      \
    RETURNING(int, op_channel_count, (const OggOpusFile *file, int link), (file, link))                              \
    VOID(op_set_dither_enabled, (OggOpusFile * file, int enabled), (file, enabled))                                  \
    RETURNING(ogg_int64_t, op_pcm_total, (const OggOpusFile *file, int link), (file, link))                          \
    RETURNING(const OpusTags *, op_tags, (const OggOpusFile *file, int link), (file, link))                          \
    RETURNING(int, op_read, (OggOpusFile * file, opus_int16 * pcm, int samples, int *link),                         \
              (file, pcm, samples, link))                                                                            \
    RETURNING(int, op_pcm_seek, (OggOpusFile * file, ogg_int64_t offset), (file, offset))                            \
    VOID(opus_picture_tag_init, (OpusPictureTag * picture), (picture))                                               \
    RETURNING(int, opus_picture_tag_parse, (OpusPictureTag * picture, const char *tag), (picture, tag))             \
    VOID(opus_picture_tag_clear, (OpusPictureTag * picture), (picture))

#define PLAYBACKD_AVUTIL_FUNCTIONS(RETURNING, VOID)                                                                  \
    RETURNING(void *, av_malloc, (size_t size), (size))                                                              \
    VOID(av_free, (void *pointer), (pointer))                                                                        \
    RETURNING(AVFrame *, av_frame_alloc, (void), ())                                                                 \
    VOID(av_frame_free, (AVFrame * *frame), (frame))                                                                 \
    VOID(av_frame_unref, (AVFrame * frame), (frame))                                                                 \
    RETURNING(AVDictionaryEntry *, av_dict_get,                                                                      \
              (const AVDictionary *dictionary, const char *key, const AVDictionaryEntry *previous, int flags),       \
              (dictionary, key, previous, flags))                                                                    \
    RETURNING(int64_t, av_rescale_q, (int64_t value, AVRational from, AVRational to), (value, from, to))             \
    VOID(av_log_set_level, (int level), (level))                                                                     \
    RETURNING(int, av_strerror, (int error, char *buffer, size_t size), (error, buffer, size))

#define PLAYBACKD_AVCODEC_FUNCTIONS(RETURNING, VOID)                                                                 \
    RETURNING(const AVCodec *, avcodec_find_decoder, (enum AVCodecID id), (id))                                      \
    RETURNING(AVCodecContext *, avcodec_alloc_context3, (const AVCodec *codec), (codec))                             \
    VOID(avcodec_free_context, (AVCodecContext * *context), (context))                                               \
    RETURNING(int, avcodec_parameters_to_context, (AVCodecContext * context, const AVCodecParameters *parameters),   \
              (context, parameters))                                                                                 \
    RETURNING(int, avcodec_open2, (AVCodecContext * context, const AVCodec *codec, AVDictionary **options),          \
              (context, codec, options))                                                                             \
    RETURNING(int, avcodec_send_packet, (AVCodecContext * context, const AVPacket *packet), (context, packet))       \
    RETURNING(int, avcodec_receive_frame, (AVCodecContext * context, AVFrame *frame), (context, frame))              \
    VOID(avcodec_flush_buffers, (AVCodecContext * context), (context))                                               \
    RETURNING(AVPacket *, av_packet_alloc, (void), ())                                                               \
    VOID(av_packet_free, (AVPacket * *packet), (packet))                                                             \
    VOID(av_packet_unref, (AVPacket * packet), (packet))

#define PLAYBACKD_AVFORMAT_FUNCTIONS(RETURNING, VOID)                                                                \
    RETURNING(AVFormatContext *, avformat_alloc_context, (void), ())                                                 \
    RETURNING(AVIOContext *, avio_alloc_context,                                                                     \
              (unsigned char *buffer, int size, int writes, void *opaque,                                            \
               int (*read)(void *opaque, uint8_t *buffer, int size),                                                 \
               int (*write)(void *opaque, uint8_t *buffer, int size),                                                \
               int64_t (*seek)(void *opaque, int64_t offset, int whence)),                                           \
              (buffer, size, writes, opaque, read, write, seek))                                                     \
    VOID(avio_context_free, (AVIOContext * *context), (context))                                                     \
    RETURNING(int, avformat_open_input,                                                                              \
              (AVFormatContext * *context, const char *url, const AVInputFormat *format, AVDictionary **options),    \
              (context, url, format, options))                                                                       \
    RETURNING(int, avformat_find_stream_info, (AVFormatContext * context, AVDictionary **options), (context, options)) \
    RETURNING(int, av_find_best_stream,                                                                              \
              (AVFormatContext * context, enum AVMediaType type, int wanted, int related, const AVCodec **decoder,   \
               int flags),                                                                                           \
              (context, type, wanted, related, decoder, flags))                                                      \
    RETURNING(int, av_read_frame, (AVFormatContext * context, AVPacket *packet), (context, packet))                  \
    RETURNING(int, av_seek_frame, (AVFormatContext * context, int stream, int64_t timestamp, int flags),             \
              (context, stream, timestamp, flags))                                                                   \
    VOID(avformat_close_input, (AVFormatContext * *context), (context))

#define PLAYBACKD_DECLARE_RETURNING(type, name, parameters, arguments) type playbackd_##name parameters;
#define PLAYBACKD_DECLARE_VOID(name, parameters, arguments) void playbackd_##name parameters;
// libsoxr: one resampler per stream format; `soxr_process` with a null input flushes it.
#define PLAYBACKD_FAAD_FUNCTIONS(RETURNING, VOID)                                                                    \
    RETURNING(NeAACDecHandle, NeAACDecOpen, (void), ())                                                              \
    VOID(NeAACDecClose, (NeAACDecHandle decoder), (decoder))                                                         \
    RETURNING(NeAACDecConfigurationPtr, NeAACDecGetCurrentConfiguration, (NeAACDecHandle decoder), (decoder))        \
    RETURNING(unsigned char, NeAACDecSetConfiguration, (NeAACDecHandle decoder, NeAACDecConfigurationPtr config),    \
              (decoder, config))                                                                                     \
    RETURNING(char, NeAACDecInit2,                                                                                   \
              (NeAACDecHandle decoder, unsigned char *config, unsigned long size, unsigned long *rate,               \
               unsigned char *channels),                                                                             \
              (decoder, config, size, rate, channels))                                                               \
    RETURNING(void *, NeAACDecDecode,                                                                                \
              (NeAACDecHandle decoder, NeAACDecFrameInfo * info, unsigned char *buffer, unsigned long size),         \
              (decoder, info, buffer, size))                                                                         \
    VOID(NeAACDecPostSeekReset, (NeAACDecHandle decoder, long frame), (decoder, frame))                              \
    RETURNING(char *, NeAACDecGetErrorMessage, (unsigned char code), (code))

#define PLAYBACKD_SOXR_FUNCTIONS(RETURNING, VOID)                                                                    \
    RETURNING(soxr_t, soxr_create,                                                                                   \
              (double input_rate, double output_rate, unsigned channels, soxr_error_t *error,                        \
               soxr_io_spec_t const *io, soxr_quality_spec_t const *quality, soxr_runtime_spec_t const *runtime),    \
              (input_rate, output_rate, channels, error, io, quality, runtime))                                      \
    RETURNING(soxr_error_t, soxr_process,                                                                            \
              (soxr_t resampler, soxr_in_t input, size_t input_length, size_t *input_used, soxr_out_t output,        \
               size_t output_length, size_t *output_done),                                                           \
              (resampler, input, input_length, input_used, output, output_length, output_done))                      \
    RETURNING(soxr_error_t, soxr_clear, (soxr_t resampler), (resampler))                                            \
    RETURNING(double, soxr_delay, (soxr_t resampler), (resampler))                                                  \
    RETURNING(soxr_io_spec_t, soxr_io_spec, (soxr_datatype_t input, soxr_datatype_t output), (input, output))       \
    RETURNING(soxr_quality_spec_t, soxr_quality_spec, (unsigned long recipe, unsigned long flags), (recipe, flags)) \
    VOID(soxr_delete, (soxr_t resampler), (resampler))

// libcurl's easy interface. `curl_easy_setopt` and `curl_easy_getinfo` take variadic
// arguments, which Swift cannot pass: each is wrapped once per type of value it is given.
#define PLAYBACKD_CURL_FUNCTIONS(RETURNING, VOID)                                                                    \
    RETURNING(CURL *, curl_easy_init, (void), ())                                                                    \
    VOID(curl_easy_cleanup, (CURL * handle), (handle))                                                               \
    RETURNING(CURLcode, curl_easy_perform, (CURL * handle), (handle))                                                \
    RETURNING(const char *, curl_easy_strerror, (CURLcode code), (code))                                             \
    RETURNING(struct curl_slist *, curl_slist_append, (struct curl_slist * list, const char *text), (list, text))   \
    VOID(curl_slist_free_all, (struct curl_slist * list), (list))
CURLcode playbackd_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode playbackd_curl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value);
CURLcode playbackd_curl_setopt_pointer(CURL *handle, CURLoption option, const void *value);
CURLcode playbackd_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode playbackd_curl_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value);
CURLcode playbackd_curl_getinfo_string(CURL *handle, CURLINFO info, const char **value);
/// What every transfer of the daemon sets: no signals, http and https only, `user_agent`,
/// `ca_file` when not NULL, a connection time-out, and the progress, body and header callbacks,
/// each given `context`.
void playbackd_curl_prepare(CURL *handle, const char *user_agent, const char *ca_file, long connect_timeout_ms,
                            curl_xferinfo_callback progress, curl_write_callback body, curl_write_callback header,
                            void *context);

PLAYBACKD_CURL_FUNCTIONS(PLAYBACKD_DECLARE_RETURNING, PLAYBACKD_DECLARE_VOID)

// libcrypto's one-shot digest, for MD5.
#define PLAYBACKD_CRYPTO_FUNCTIONS(RETURNING, VOID)                                                                  \
    RETURNING(int, EVP_Digest,                                                                                       \
              (const void *data, size_t count, unsigned char *digest, unsigned int *size, const EVP_MD *type,        \
               ENGINE *engine),                                                                                      \
              (data, count, digest, size, type, engine))                                                             \
    RETURNING(const EVP_MD *, EVP_md5, (void), ())
PLAYBACKD_CRYPTO_FUNCTIONS(PLAYBACKD_DECLARE_RETURNING, PLAYBACKD_DECLARE_VOID)

// libebur128: a meter per file, fed 16- or 32-bit frames; the gated loudness of one or of several
// together (an album), and each channel's peak.
#define PLAYBACKD_EBUR128_FUNCTIONS(RETURNING, VOID)                                                                 \
    RETURNING(ebur128_state *, ebur128_init, (unsigned int channels, unsigned long rate, int mode),                  \
              (channels, rate, mode))                                                                                \
    VOID(ebur128_destroy, (ebur128_state * *state), (state))                                                         \
    RETURNING(int, ebur128_set_channel, (ebur128_state * state, unsigned int index, int value),                      \
              (state, index, value))                                                                                 \
    RETURNING(int, ebur128_add_frames_short, (ebur128_state * state, const short *source, size_t frames),            \
              (state, source, frames))                                                                               \
    RETURNING(int, ebur128_add_frames_int, (ebur128_state * state, const int *source, size_t frames),                \
              (state, source, frames))                                                                               \
    RETURNING(int, ebur128_loudness_global, (ebur128_state * state, double *loudness), (state, loudness))           \
    RETURNING(int, ebur128_loudness_global_multiple, (ebur128_state * *states, size_t count, double *loudness),     \
              (states, count, loudness))                                                                             \
    RETURNING(int, ebur128_sample_peak, (ebur128_state * state, unsigned int channel, double *peak),                 \
              (state, channel, peak))                                                                                \
    RETURNING(int, ebur128_true_peak, (ebur128_state * state, unsigned int channel, double *peak),                   \
              (state, channel, peak))
PLAYBACKD_EBUR128_FUNCTIONS(PLAYBACKD_DECLARE_RETURNING, PLAYBACKD_DECLARE_VOID)
PLAYBACKD_FLAC_FUNCTIONS(PLAYBACKD_DECLARE_RETURNING, PLAYBACKD_DECLARE_VOID)
PLAYBACKD_SOXR_FUNCTIONS(PLAYBACKD_DECLARE_RETURNING, PLAYBACKD_DECLARE_VOID)
PLAYBACKD_FAAD_FUNCTIONS(PLAYBACKD_DECLARE_RETURNING, PLAYBACKD_DECLARE_VOID)
PLAYBACKD_VORBISFILE_FUNCTIONS(PLAYBACKD_DECLARE_RETURNING, PLAYBACKD_DECLARE_VOID)
PLAYBACKD_OPUSFILE_FUNCTIONS(PLAYBACKD_DECLARE_RETURNING, PLAYBACKD_DECLARE_VOID)
PLAYBACKD_AVUTIL_FUNCTIONS(PLAYBACKD_DECLARE_RETURNING, PLAYBACKD_DECLARE_VOID)
PLAYBACKD_AVCODEC_FUNCTIONS(PLAYBACKD_DECLARE_RETURNING, PLAYBACKD_DECLARE_VOID)
PLAYBACKD_AVFORMAT_FUNCTIONS(PLAYBACKD_DECLARE_RETURNING, PLAYBACKD_DECLARE_VOID)

/// FFmpeg's error codes that are function-like macros, which Swift cannot import.
static const int playbackd_averror_eagain = AVERROR(EAGAIN);
static const int playbackd_averror_eof = AVERROR_EOF;
static const int playbackd_averror_eio = AVERROR(EIO);

/// Whether samples of this format (an `AVFrame`'s `format`) lie in one plane per channel:
/// libavutil's av_sample_fmt_is_planar, written out so as not to call into it for every frame.
static inline int playbackd_sample_format_is_planar(int format) {
    return format >= AV_SAMPLE_FMT_U8P && format <= AV_SAMPLE_FMT_DBLP ? 1 : format == AV_SAMPLE_FMT_S64P;
}

#endif
