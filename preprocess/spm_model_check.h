#pragma once
// A structural check of a SentencePiece model file before libsentencepiece reads it.
// libsentencepiece 0.1.97 (Debian 12) trusts the model's precompiled normalisation table: a damaged
// file whose double-array trie points outside its units, or whose values point outside the
// normalised strings, makes Encode read out of bounds (found by tests/fuzz/fuzz_spm_model). This
// walks the model's protobuf to the table(s) (normalizer_spec and denormalizer_spec, field 2
// precompiled_charsmap) and checks every trie unit's reach and every value against the blob, the
// way darts-clone's traversal uses them. Torch-free and independent of the sentencepiece headers
// (Debian ships no sentencepiece_model.pb.h).
#include <string>

namespace synmt {

// InputError naming `path` when the file is not a well-formed protobuf at the top level or a
// precompiled table is inconsistent; nothing when it passes (the library still does its own checks).
void check_spm_model_file(const std::string& path);
// The same on the file's bytes (`path` only names it in errors).
void check_spm_model_bytes(const std::string& bytes, const std::string& path);

}  // namespace synmt
