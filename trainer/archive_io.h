#pragma once
// Writing and reading the LibTorch archives synmt keeps (checkpoints, training states, parser
// models) with the guarantees the rest of synmt's outputs have: written to a temporary file,
// sealed with a checksum (core/sealed_zip.h) and renamed into place, so that a full disk, a kill
// or a signal mid-write leaves the previous file intact; read only after the seal is verified, so
// that a truncated or bit-flipped file is refused with its name instead of loading damaged tensors.
// An unsealed archive is refused too (LibTorch 1.13 crashes on some damaged ones, found by
// tests/fuzz/fuzz_checkpoint); scripts/seal_archive.py seals files written before seals. The zip
// directory is checked too (core/zip_members.h): LibTorch allocates what a member claims.
#include <torch/serialize/input-archive.h>
#include <torch/serialize/output-archive.h>

#include <string>

#include "core/error.h"

namespace synmt {

// Errors (a full disk, a file size limit, an unwritable directory) throw naming `path`; `path`
// keeps its previous content.
void save_archive(torch::serialize::OutputArchive& archive, const std::string& path);
// InputError naming `path` (and saying it is a `what`) when it is truncated, damaged, unsealed or
// not a LibTorch archive: any exception from LibTorch's reader (only its code runs in there).
void load_archive(torch::serialize::InputArchive& archive, const std::string& path, const torch::Device& device,
                  const std::string& what);

// The first line with text of an exception's message (LibTorch appends a C++ backtrace to its own;
// TorchScript's error reports start with an empty line).
std::string first_line(const char* message);

// Called inside a catch block around synmt's reads from a loaded archive (its own code runs there
// beside LibTorch's): rethrows the exception in flight as what it means for `path`, a
// `what` (checkpoint, training state, parser model). What a damaged archive makes LibTorch or the
// JSON library throw (c10::Error, TorchScript's error reports, the std::runtime_error its parser
// throws on a damaged code/ file, nlohmann::json errors) becomes an InputError naming the file; synmt's InputErrors pass as they are; a ConfigError (a stored config
// no model accepts) gets the file's name and a hint: the usual cause is a newer build's option read
// by a tool not rebuilt with it (one target rebuilt, the others left as they were). Anything else
// (std::out_of_range, std::bad_alloc, a logic error in synmt's own reading code) is a bug or an
// exhausted machine, not a damaged file, and propagates unchanged: a file must not take the blame,
// and tests/fuzz/fuzz_checkpoint aborts on it.
[[noreturn]] void rethrow_archive_error(const std::string& path, const std::string& what);

// Runs `read` (the reads from a loaded archive: records, the stored JSON, parameters) and turns
// its errors into what they mean for `path` (rethrow_archive_error).
template <class Read>
auto read_archive_records(const std::string& path, const std::string& what, Read&& read) -> decltype(read()) {
  try {
    return read();
  } catch (...) {
    rethrow_archive_error(path, what);
  }
}

}  // namespace synmt
