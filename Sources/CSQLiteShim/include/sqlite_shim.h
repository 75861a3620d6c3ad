#ifndef PLAYBACKD_SQLITE_SHIM_H
#define PLAYBACKD_SQLITE_SHIM_H

#include <sqlite3.h>

/// Registers the FTS5 tokenizer `playbackd` and the SQL function `fold(TEXT)` on `db`: the
/// words of TEXT as the tokenizer makes them (FTS5's `unicode61` with `remove_diacritics 2`:
/// lower case, diacritics removed, the characters between words dropped; then ICU's
/// Latin-ASCII for letters such as æ, ø, ß, ł), joined by one space; NULL stays NULL. So "Sigur
/// Rós" and "sigur ros", "Straße" and "strasse" fold alike, exactly as the full-text index
/// folds them: one folding for filters and search. SQLite has no such function of its own,
/// and its tokenizers are reachable only through the FTS5 API, which Swift cannot call
/// (function pointers in structs of callbacks). Returns SQLITE_OK, or an error code when FTS5
/// is missing.
int playbackd_sqlite_register_fold(sqlite3 *db);

/// Registers `key_id(TEXT)`: the text's 64-bit FNV-1a hash, its top two bits cleared (a
/// positive integer), or NULL for NULL. Albums, artists and genres are named by a hash of their
/// folded names, so their ids come out the same when the index is rebuilt.
int playbackd_sqlite_register_key_id(sqlite3 *db);

/// Registers `regexp(PATTERN, TEXT)`: 1 when the Perl-compatible regular expression PATTERN
/// (PCRE2, case-insensitive, Unicode) matches anywhere in TEXT, else 0; NULL for NULL TEXT; an
/// error naming the fault for a PATTERN that does not compile. (SQLite declares the REGEXP
/// operator but has no function behind it.)
int playbackd_sqlite_register_regexp(sqlite3 *db);

/// Whether PATTERN (BYTES long) compiles as `regexp` compiles it: 0, or -1 with the fault
/// written into MESSAGE (at most SIZE bytes, terminated).
int playbackd_regexp_check(const char *pattern, int bytes, char *message, int size);

/// sqlite3_bind_text with SQLITE_TRANSIENT (a macro over a cast Swift cannot import): SQLite
/// copies the text.
int playbackd_sqlite_bind_text(sqlite3_stmt *stmt, int index, const char *text, int bytes);

#endif
