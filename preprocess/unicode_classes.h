#pragma once
// The Perl/sacremoses character classes the Moses scripts use, answered by ICU's Unicode tables
// (a well-kept library; hand-copied class lists go stale with every Unicode release).
namespace synmt::uc {
bool is_alpha(char32_t c);   // \p{IsAlpha}: Alphabetic
bool is_alnum(char32_t c);   // \p{IsAlnum}: Alphabetic or decimal digit
bool is_number(char32_t c);  // \p{IsN}: general category N*
bool is_lower(char32_t c);   // \p{IsLower}: Lowercase
bool is_currency(char32_t c);  // \p{IsSc}
}  // namespace synmt::uc
