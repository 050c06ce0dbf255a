#pragma once
// The ids every synmt vocabulary gives its special tokens (preprocess/vocab.h writes them first,
// in this order): models and decoders need the ids, not the vocabulary code.
#include <cstdint>

namespace synmt::special {

inline constexpr int32_t kPad = 0;  // <pad>
inline constexpr int32_t kUnk = 1;  // <unk>
inline constexpr int32_t kBos = 2;  // <s>
inline constexpr int32_t kEos = 3;  // </s>

}  // namespace synmt::special
