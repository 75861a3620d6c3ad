#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include "sqlite_shim.h"
#include "latin_ascii.h"

#include <stdio.h>
#include <string.h>

/// The `playbackd` tokenizer (latin_ascii.c), made once per connection.
typedef struct {
    fts5_tokenizer methods;
    Fts5Tokenizer *tokenizer;
} Folder;

/// The folded words as they come, in a buffer that grows from the stack's.
typedef struct {
    char *bytes;
    int length;
    int capacity;
    int onHeap;
    int failed;
} Output;

static int append(Output *out, const char *bytes, int count) {
    if (out->length + count > out->capacity) {
        int capacity = (out->length + count) * 2;
        char *grown = sqlite3_malloc(capacity);
        if (!grown) return SQLITE_NOMEM;
        memcpy(grown, out->bytes, out->length);
        if (out->onHeap) sqlite3_free(out->bytes);
        out->bytes = grown;
        out->capacity = capacity;
        out->onHeap = 1;
    }
    memcpy(out->bytes + out->length, bytes, count);
    out->length += count;
    return SQLITE_OK;
}

static int collect(void *context, int flags, const char *token, int count, int start, int end) {
    (void)start;
    (void)end;
    Output *out = context;
    if (flags & FTS5_TOKEN_COLOCATED) return SQLITE_OK;
    if (out->length > 0 && append(out, " ", 1) != SQLITE_OK) return SQLITE_NOMEM;
    return append(out, token, count);
}

static void fold(sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
        sqlite3_result_null(context);
        return;
    }
    Folder *folder = sqlite3_user_data(context);
    const char *text = (const char *)sqlite3_value_text(argv[0]);
    int count = sqlite3_value_bytes(argv[0]);
    char stack[512];
    Output out = {stack, 0, sizeof stack, 0, 0};
    int status = folder->methods.xTokenize(folder->tokenizer, &out, FTS5_TOKENIZE_DOCUMENT, text, count, collect);
    if (status == SQLITE_OK) {
        sqlite3_result_text(context, out.bytes, out.length, SQLITE_TRANSIENT);
    } else {
        sqlite3_result_error_code(context, status);
    }
    if (out.onHeap) sqlite3_free(out.bytes);
}

static void destroy(void *pointer) {
    Folder *folder = pointer;
    if (folder->tokenizer) folder->methods.xDelete(folder->tokenizer);
    sqlite3_free(folder);
}

int playbackd_sqlite_register_fold(sqlite3 *db) {
    int status = playbackd_latin_register(db);
    if (status != SQLITE_OK) return status;
    Folder *folder = sqlite3_malloc(sizeof *folder);
    if (!folder) return SQLITE_NOMEM;
    memset(folder, 0, sizeof *folder);
    status = playbackd_latin_create(db, &folder->methods, &folder->tokenizer);
    if (status != SQLITE_OK) {
        sqlite3_free(folder);
        return status;
    }
    return sqlite3_create_function_v2(
        db, "fold", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, folder, fold, NULL, NULL, destroy);
}

static void key_id(sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
        sqlite3_result_null(context);
        return;
    }
    const unsigned char *text = sqlite3_value_text(argv[0]);
    int count = sqlite3_value_bytes(argv[0]);
    sqlite3_uint64 hash = 14695981039346656037ULL;
    for (int index = 0; index < count; index++) {
        hash ^= text[index];
        hash *= 1099511628211ULL;
    }
    sqlite3_result_int64(context, (sqlite3_int64)(hash >> 2));
}

int playbackd_sqlite_register_key_id(sqlite3 *db) {
    return sqlite3_create_function_v2(
        db, "key_id", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL, key_id, NULL, NULL, NULL);
}

int playbackd_sqlite_bind_text(sqlite3_stmt *stmt, int index, const char *text, int bytes) {
    return sqlite3_bind_text(stmt, index, text, bytes, SQLITE_TRANSIENT);
}

/// A compiled pattern with what matching it needs, kept for a statement.
typedef struct {
    pcre2_code *code;
    pcre2_match_context *context;
    pcre2_match_data *data;
} Pattern;

static void free_pattern(void *pointer) {
    Pattern *pattern = pointer;
    pcre2_match_data_free(pattern->data);
    pcre2_match_context_free(pattern->context);
    pcre2_code_free(pattern->code);
    sqlite3_free(pattern);
}

/// The most steps one value's match may take: a query runs on the daemon's event loop, and a
/// pattern that backtracks without end (`(a+)+$`) must not hold it. A plain pattern on a tag
/// takes a few hundred.
#define PLAYBACKD_REGEXP_MATCH_LIMIT 20000

/// PATTERN compiled as the library compiles every pattern (case-insensitive, Unicode), or NULL
/// with the fault written into MESSAGE.
static pcre2_code *compile(const unsigned char *pattern, size_t bytes, char *message, size_t size) {
    int error = 0;
    PCRE2_SIZE offset = 0;
    pcre2_code *code = pcre2_compile(
        (PCRE2_SPTR)pattern, (PCRE2_SIZE)bytes, PCRE2_UTF | PCRE2_UCP | PCRE2_CASELESS, &error, &offset, NULL);
    if (!code) {
        PCRE2_UCHAR text[160];
        pcre2_get_error_message(error, text, sizeof text);
        snprintf(message, size, "%s at offset %d", (const char *)text, (int)offset);
    }
    return code;
}

static Pattern *compile_pattern(sqlite3_context *context, sqlite3_value *text) {
    Pattern *pattern = sqlite3_malloc(sizeof *pattern);
    if (!pattern) {
        sqlite3_result_error_nomem(context);
        return NULL;
    }
    memset(pattern, 0, sizeof *pattern);
    char message[200];
    pattern->code = compile(sqlite3_value_text(text), (size_t)sqlite3_value_bytes(text), message, sizeof message);
    if (!pattern->code) {
        char *reason = sqlite3_mprintf("regular expression: %s", message);
        sqlite3_result_error(context, reason ? reason : "regular expression: invalid", -1);
        sqlite3_free(reason);
        free_pattern(pattern);
        return NULL;
    }
    pattern->context = pcre2_match_context_create(NULL);
    pattern->data = pcre2_match_data_create_from_pattern(pattern->code, NULL);
    if (!pattern->context || !pattern->data) {
        sqlite3_result_error_nomem(context);
        free_pattern(pattern);
        return NULL;
    }
    pcre2_set_match_limit(pattern->context, PLAYBACKD_REGEXP_MATCH_LIMIT);
    return pattern;
}

/// regexp(PATTERN, TEXT): the compiled pattern is kept for the statement (auxdata), so a query
/// over 100,000 songs compiles it once.
static void regexp(sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void)argc;
    if (sqlite3_value_type(argv[1]) == SQLITE_NULL) {
        sqlite3_result_null(context);
        return;
    }
    Pattern *pattern = sqlite3_get_auxdata(context, 0);
    int compiled = 0;
    if (!pattern) {
        if (!(pattern = compile_pattern(context, argv[0]))) return;
        compiled = 1;
    }
    int status = pcre2_match(
        pattern->code, sqlite3_value_text(argv[1]), (PCRE2_SIZE)sqlite3_value_bytes(argv[1]), 0, 0, pattern->data,
        pattern->context);
    // A value that is not valid UTF-8 does not match; one that needs more steps than the limit
    // does not either.
    sqlite3_result_int(context, status >= 0);
    // Handed over last: SQLite may free it at once.
    if (compiled) sqlite3_set_auxdata(context, 0, pattern, free_pattern);
}

int playbackd_sqlite_register_regexp(sqlite3 *db) {
    return sqlite3_create_function_v2(
        db, "regexp", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL, regexp, NULL, NULL, NULL);
}

int playbackd_regexp_check(const char *pattern, int bytes, char *message, int size) {
    pcre2_code *code = compile((const unsigned char *)pattern, (size_t)bytes, message, (size_t)size);
    int compiled = code != NULL;
    pcre2_code_free(code);
    return compiled ? 0 : -1;
}
