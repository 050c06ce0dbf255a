#include "preprocess/unicode_classes.h"

#include <unicode/uchar.h>

namespace synmt::uc {
bool is_alpha(char32_t c) { return u_hasBinaryProperty(static_cast<UChar32>(c), UCHAR_ALPHABETIC); }
bool is_alnum(char32_t c) { return is_alpha(c) || u_charType(static_cast<UChar32>(c)) == U_DECIMAL_DIGIT_NUMBER; }
bool is_number(char32_t c) { return (U_GET_GC_MASK(static_cast<UChar32>(c)) & U_GC_N_MASK) != 0; }
bool is_lower(char32_t c) { return u_hasBinaryProperty(static_cast<UChar32>(c), UCHAR_LOWERCASE); }
bool is_currency(char32_t c) { return u_charType(static_cast<UChar32>(c)) == U_CURRENCY_SYMBOL; }
}  // namespace synmt::uc
