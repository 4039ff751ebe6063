#ifndef CICU_H
#define CICU_H

// ICU from the system (Debian: libicu-dev), behind plain C types: collation by a locale's
// rules, and the letters of its alphabetic index. ICU's own types stay in CICU.c, because
// Foundation brings an ICU of its own whose headers define the same names differently, and
// because ICU's functions carry its version in their linked names (ucol_open is a macro for
// ucol_open_72), which Swift cannot call through.

#include <stdint.h>

/// A collator for `locale` (an ICU locale id: `sv_SE`), comparing base letters only when
/// `baseLettersOnly` (case and accents ignored unless a letter of their own); writes the locale
/// whose rules apply ("root" when the locale has none of its own) to `rulesLocale`. NULL when
/// ICU cannot open one.
void *cicu_collator_open(const char *locale, int baseLettersOnly, char *rulesLocale, int32_t rulesLocaleCapacity);

void cicu_collator_close(void *collator);

/// Writes `text`'s sort key to `key` if it fits; returns its length with the final zero.
int32_t cicu_collator_sort_key(const void *collator, const uint16_t *text, int32_t length, uint8_t *key, int32_t capacity);

/// Writes the letters of `locale`'s alphabetic index (A–Z Å Ä Ö in Swedish), each followed by a
/// zero, to `letters` if they fit; returns the length they need (0 when ICU has none).
int32_t cicu_index_letters(const char *locale, uint16_t *letters, int32_t capacity);

/// The script of `scalar` (ICU's UScriptCode), hiragana and katakana as one.
int32_t cicu_script(int32_t scalar);

#endif
