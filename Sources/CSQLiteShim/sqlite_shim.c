#include "sqlite_shim.h"

#include <string.h>

/// The `unicode61` tokenizer, made once per connection with `remove_diacritics 2`.
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
    fts5_api *api = NULL;
    sqlite3_stmt *statement = NULL;
    if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, NULL) != SQLITE_OK) return SQLITE_ERROR;
    sqlite3_bind_pointer(statement, 1, (void *)&api, "fts5_api_ptr", NULL);
    sqlite3_step(statement);
    sqlite3_finalize(statement);
    if (!api) return SQLITE_ERROR;
    Folder *folder = sqlite3_malloc(sizeof *folder);
    if (!folder) return SQLITE_NOMEM;
    memset(folder, 0, sizeof *folder);
    void *user = NULL;
    int status = api->xFindTokenizer(api, "unicode61", &user, &folder->methods);
    const char *arguments[] = {"remove_diacritics", "2"};
    if (status == SQLITE_OK) status = folder->methods.xCreate(user, arguments, 2, &folder->tokenizer);
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
