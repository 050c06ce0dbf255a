#pragma once
// Writing and reading the LibTorch archives synmt keeps (checkpoints, training states, parser
// models) with the guarantees the rest of synmt's outputs have: written to a temporary file,
// sealed with a checksum (core/sealed_zip.h) and renamed into place, so that a full disk, a kill
// or a signal mid-write leaves the previous file intact; read only after the seal is verified, so
// that a truncated or bit-flipped file is refused with its name instead of loading damaged tensors.
#include <torch/serialize/input-archive.h>
#include <torch/serialize/output-archive.h>

#include <string>

namespace synmt {

// Errors (a full disk, a file size limit, an unwritable directory) throw naming `path`; `path`
// keeps its previous content.
void save_archive(torch::serialize::OutputArchive& archive, const std::string& path);
// InputError naming `path` (and saying it is a `what`) when it is truncated, damaged or not a
// LibTorch archive.
void load_archive(torch::serialize::InputArchive& archive, const std::string& path, const torch::Device& device,
                  const std::string& what);

}  // namespace synmt
