#include "core/pickle_lengths.h"

#include <cstdint>
#include <cstdio>

#include "core/error.h"

namespace synmt {
namespace {

// What follows an opcode (pickletools' ArgumentDescriptors, protocols 0-5).
enum class Arg { kNone, kFixed1, kFixed2, kFixed4, kFixed8, kLen1, kLen4, kLen8, kLine, kTwoLines, kUnknown };

Arg argument_of(unsigned char op) {
  switch (op) {
    case '(': case '.': case '0': case '1': case '2': case 'N': case 'R': case 'a': case 'b': case 'd':
    case 'e': case 'l': case 's': case 't': case 'u': case ')': case ']': case '}': case 'Q': case 'o':
    case 0x81: case 0x85: case 0x86: case 0x87: case 0x88: case 0x89: case 0x8f: case 0x90: case 0x91:
    case 0x92: case 0x93: case 0x94: case 0x97: case 0x98:
      return Arg::kNone;
    case 'K': case 'h': case 'q': case 0x80: case 0x82:
      return Arg::kFixed1;
    case 'M': case 0x83:
      return Arg::kFixed2;
    case 'J': case 'j': case 'r': case 0x84:
      return Arg::kFixed4;
    case 'G': case 0x95:
      return Arg::kFixed8;
    case 'U': case 'C': case 0x8c: case 0x8a:
      return Arg::kLen1;
    case 'T': case 'B': case 'X': case 0x8b:
      return Arg::kLen4;
    case 0x8d: case 0x8e: case 0x96:
      return Arg::kLen8;
    case 'I': case 'L': case 'F': case 'S': case 'V': case 'P': case 'g': case 'p':
      return Arg::kLine;
    case 'c': case 'i':
      return Arg::kTwoLines;
    default:
      return Arg::kUnknown;
  }
}

uint64_t le(std::string_view p, std::size_t at, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(p[at + i]);
  return v;
}

}  // namespace

void check_pickle_lengths(std::string_view pickle, const std::string& path, const std::string& member) {
  auto fail = [&](std::size_t at, const std::string& what) {
    throw InputError(path, 0, "damaged pickle in member '" + member + "' at byte " + std::to_string(at) + ": " + what);
  };
  // A pickler numbers its memo entries from 0, one per memoized object, so an index at or above
  // the count of opcodes before it is damage; LibTorch resizes its memo table to the index first.
  uint64_t opcodes = 0;
  auto memo_index = [&](std::size_t op_at, uint64_t index) {
    const uint64_t before = opcodes - 1;
    if (index >= before) fail(op_at, "memo index " + std::to_string(index) + " after " + std::to_string(before) + " opcodes");
  };
  std::size_t at = 0;
  while (at < pickle.size()) {
    ++opcodes;
    const std::size_t op_at = at;
    const unsigned char op = static_cast<unsigned char>(pickle[at++]);
    const std::size_t left = pickle.size() - at;
    auto skip = [&](uint64_t n, const char* what) {
      if (n > left) fail(op_at, std::string(what) + " of " + std::to_string(n) + " bytes where " + std::to_string(left) + " remain");
      at += static_cast<std::size_t>(n);
    };
    auto length = [&](int bytes) {
      skip(bytes, "a length field");
      const uint64_t n = le(pickle, at - bytes, bytes);
      // BINSTRING and LONG4 read their length as signed: a negative one is damage as well
      if ((op == 'T' || op == 0x8b) && n >= 0x80000000u) fail(op_at, "a negative length");
      if (n > pickle.size() - at) fail(op_at, "a string of " + std::to_string(n) + " bytes where " + std::to_string(pickle.size() - at) + " remain");
      at += static_cast<std::size_t>(n);
    };
    auto line = [&] {
      const std::size_t end = pickle.find('\n', at);
      if (end == std::string_view::npos) fail(op_at, "a line argument without its newline");
      at = end + 1;
    };
    switch (argument_of(op)) {
      case Arg::kNone: break;
      case Arg::kFixed1: skip(1, "an argument"); break;
      case Arg::kFixed2: skip(2, "an argument"); break;
      case Arg::kFixed4: skip(4, "an argument"); break;
      case Arg::kFixed8: skip(8, "an argument"); break;
      case Arg::kLen1: length(1); break;
      case Arg::kLen4: length(4); break;
      case Arg::kLen8: length(8); break;
      case Arg::kLine: line(); break;
      case Arg::kTwoLines: line(), line(); break;
      case Arg::kUnknown: {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02x", op);
        fail(op_at, std::string("unknown opcode ") + hex);
      }
    }
    if (op == 'q') memo_index(op_at, le(pickle, op_at + 1, 1));        // BINPUT
    if (op == 'r') memo_index(op_at, le(pickle, op_at + 1, 4));        // LONG_BINPUT
    if (op == 'p') {                                                   // PUT: a decimal line
      uint64_t index = 0;
      for (std::size_t k = op_at + 1; k + 1 < at && index < opcodes; ++k)
        index = index * 10 + (pickle[k] >= '0' && pickle[k] <= '9' ? static_cast<uint64_t>(pickle[k] - '0') : 0);
      memo_index(op_at, index);
    }
    if (op == '.') return;  // STOP: what follows is not read
  }
  fail(at, "it ends before its STOP opcode");
}

}  // namespace synmt
