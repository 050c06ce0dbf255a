#pragma once
// The lengths inside a pickle (the data.pkl of a LibTorch archive) checked before LibTorch's
// unpickler reads it: that unpickler sizes a string to the length its opcode claims before it
// reads the bytes (and its memo table to the index a PUT names), so a damaged 4-byte length made a
// 68 KB checkpoint fill 4 GiB of memory and a damaged index asked for 31 GB (found by
// tests/fuzz/fuzz_checkpoint). Walking the opcodes (Python's pickletools documents every one)
// costs a pass over a few kilobytes. Torch-free.
#include <string>
#include <string_view>

namespace synmt {

// InputError naming `path` and `member` when an opcode is unknown, an argument or a length-prefixed
// string runs past the end, a memo index exceeds what a pickler could have numbered, or the pickle
// ends before its STOP opcode.
void check_pickle_lengths(std::string_view pickle, const std::string& path, const std::string& member);

}  // namespace synmt
