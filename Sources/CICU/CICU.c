#include "CICU.h"

#include <string.h>
#include <unicode/ucol.h>
#include <unicode/ulocdata.h>
#include <unicode/uscript.h>
#include <unicode/uset.h>
#include <unicode/utf16.h>

void *cicu_collator_open(const char *locale, int baseLettersOnly, char *rulesLocale, int32_t rulesLocaleCapacity) {
    UErrorCode status = U_ZERO_ERROR;
    UCollator *collator = ucol_open(locale, &status);
    if (U_FAILURE(status) || collator == NULL) return NULL;
    if (baseLettersOnly) ucol_setStrength(collator, UCOL_PRIMARY);
    const char *actual = ucol_getLocaleByType(collator, ULOC_ACTUAL_LOCALE, &status);
    if (U_FAILURE(status) || actual == NULL) actual = "root";
    if (rulesLocaleCapacity > 0) {
        strncpy(rulesLocale, actual, (size_t)rulesLocaleCapacity - 1);
        rulesLocale[rulesLocaleCapacity - 1] = 0;
    }
    return collator;
}

void cicu_collator_close(void *collator) { ucol_close((UCollator *)collator); }

int32_t cicu_collator_sort_key(const void *collator, const uint16_t *text, int32_t length, uint8_t *key, int32_t capacity) {
    return ucol_getSortKey((const UCollator *)collator, (const UChar *)text, length, key, capacity);
}

int32_t cicu_index_letters(const char *locale, uint16_t *letters, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    ULocaleData *data = ulocdata_open(locale, &status);
    if (U_FAILURE(status)) return 0;
    USet *set = ulocdata_getExemplarSet(data, NULL, 0, ULOCDATA_ES_INDEX, &status);
    ulocdata_close(data);
    if (U_FAILURE(status) || set == NULL) return 0;
    int32_t needed = 0;
    int32_t count = uset_getItemCount(set);
    for (int32_t item = 0; item < count; item++) {
        UChar32 start, end;
        UChar text[16];
        UErrorCode itemStatus = U_ZERO_ERROR;
        int32_t length = uset_getItem(set, item, &start, &end, text, 16, &itemStatus);
        if (U_FAILURE(itemStatus)) continue;
        if (length > 0) {
            for (int32_t unit = 0; unit < length; unit++, needed++) {
                if (needed < capacity) letters[needed] = text[unit];
            }
            if (needed < capacity) letters[needed] = 0;
            needed++;
            continue;
        }
        for (UChar32 scalar = start; scalar <= end; scalar++) {
            UChar units[2];
            int32_t unitCount = 0;
            UBool isError = 0;
            U16_APPEND(units, unitCount, 2, scalar, isError);
            if (isError) continue;
            for (int32_t unit = 0; unit < unitCount; unit++, needed++) {
                if (needed < capacity) letters[needed] = units[unit];
            }
            if (needed < capacity) letters[needed] = 0;
            needed++;
        }
    }
    uset_close(set);
    return needed;
}

int32_t cicu_script(int32_t scalar) {
    UErrorCode status = U_ZERO_ERROR;
    UScriptCode script = uscript_getScript(scalar, &status);
    if (U_FAILURE(status)) return USCRIPT_INVALID_CODE;
    return script == USCRIPT_KATAKANA ? USCRIPT_HIRAGANA : script;
}
