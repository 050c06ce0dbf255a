#pragma once
// A checksum sealed into a zip archive's own comment field (checkpoints and training states are
// LibTorch zip archives). LibTorch 1.13 reads archive records without checking their CRC-32, so
// a flipped bit inside a tensor loads silently; a sealed file carries the SHA-256 of its bytes in
// the end-of-central-directory comment ("synmt-sha256:<hex>"), which zip readers skip, and
// verify_sealed_zip recomputes it before the archive is trusted. Torch-free: plain file bytes.
#include <string>

namespace synmt {

// Appends the seal to the bytes of a complete zip archive that has no comment yet (what LibTorch
// writes); std::invalid_argument when they do not end in such an end record. Writers seal in
// memory and then write the bytes atomically (core/atomic_file.h).
void seal_zip(std::string& bytes);

// The inverse of seal_zip: cuts a seal off the bytes and zeroes the end record's comment length,
// so that they can be edited and sealed again (tests and the fuzzer damage sealed archives this
// way). Returns false, the bytes unchanged, when they carry no seal.
bool unseal_zip(std::string& bytes);

enum class ZipSeal { kSealed, kUnsealed, kNoEndRecord };
// kSealed: the stored checksum matches the bytes. kUnsealed: a complete zip without a seal (files
// written before seals existed). kNoEndRecord: the file does not end like a zip archive (truncated,
// or not a zip at all; the caller says what it expected). A file whose bytes differ from its seal
// (damaged) is an InputError naming `path`.
ZipSeal verify_sealed_zip(const std::string& path);

}  // namespace synmt
