#ifndef PLAYBACKD_LATIN_ASCII_H
#define PLAYBACKD_LATIN_ASCII_H

#include <sqlite3.h>

/// Registers the FTS5 tokenizer `playbackd` on `db`: FTS5's `unicode61` with
/// `remove_diacritics 2` (lower case, accents removed), then, for a word that still has a
/// letter outside ASCII, ICU's `Latin-ASCII` transliteration (æ→ae, ø→o, ß→ss, ł→l, þ→th and
/// the rest of Latin; other scripts stay as they are). unicode61 folds only what has a
/// canonical decomposition; the transliteration is ICU's (libicui18n, loaded the first time a
/// word needs it: a library of ASCII names never loads it). Without ICU a word stays as
/// unicode61 made it. Returns SQLITE_OK, or an error code when FTS5 is missing.
int playbackd_latin_register(sqlite3 *db);

/// The tokenizer's methods and a new instance of it, for `fold()`.
int playbackd_latin_create(sqlite3 *db, fts5_tokenizer *methods, Fts5Tokenizer **tokenizer);

#endif
