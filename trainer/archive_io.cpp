#include "trainer/archive_io.h"

#include <c10/util/Exception.h>
#include <nlohmann/json.hpp>
#include <torch/csrc/jit/frontend/error_report.h>

#include <algorithm>
#include <sstream>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/pickle_lengths.h"
#include "core/sealed_zip.h"
#include "core/zip_members.h"

namespace synmt {

void save_archive(torch::serialize::OutputArchive& archive, const std::string& path) {
  // Serialised in memory, not by LibTorch into the file: LibTorch 1.13's zip writer aborts the
  // process (an exception from a destructor) when a write fails, e.g. on a full disk. Our own
  // write reports the error with the file's name and keeps the previous file.
  std::ostringstream buffer;
  archive.save_to(buffer);
  std::string bytes = buffer.str();
  seal_zip(bytes);
  AtomicFile out(path);
  out.write(bytes);
  out.commit();
}

std::string first_line(const char* message) {
  const std::string m = message;
  // TorchScript's error reports start with a newline: their first line with text
  const std::size_t start = std::min(m.find_first_not_of(" \n"), m.size());
  return m.substr(start, m.find('\n', start) - start);
}

namespace {
InputError damaged_archive(const std::string& path, const std::string& what, const std::exception& e) {
  return InputError(path, 0, "a damaged " + what + " (" + first_line(e.what()) + ")");
}
}  // namespace

void load_archive(torch::serialize::InputArchive& archive, const std::string& path, const torch::Device& device,
                  const std::string& what) {
  const ZipSeal seal = verify_sealed_zip(path);
  if (seal == ZipSeal::kNoEndRecord)
    throw InputError(path, 0, "not a readable " + what + " (truncated or not a synmt/LibTorch file: no zip end record)");
  // LibTorch 1.13 reads flipped bits without noticing and crashes on some damaged files: only
  // sealed archives, whose bytes are verified, reach it
  if (seal == ZipSeal::kUnsealed)
    throw InputError(path, 0, "a " + what + " without synmt's seal (written before synmt sealed its archives, or not by synmt); "
                              "seal it with scripts/seal_archive.py if you trust its bytes");
  // the seal proves the bytes are the ones written, not that the sizes in them are sane: LibTorch
  // allocates what a zip member or a pickled string claims before it checks the claim
  std::vector<ZipMember> pickles = check_zip_members(path);
  pickles.erase(std::remove_if(pickles.begin(), pickles.end(),  // keep data.pkl, constants.pkl, *.debug_pkl
                               [](const ZipMember& m) { return m.name.size() < 3 || m.name.compare(m.name.size() - 3, 3, "pkl") != 0; }),
                pickles.end());
  const std::vector<std::string> bytes = read_zip_members(path, pickles);
  for (std::size_t i = 0; i < pickles.size(); ++i) check_pickle_lengths(bytes[i], path, pickles[i].name);
  try {
    archive.load_from(path, device);
  } catch (const std::exception& e) {
    // Only LibTorch's reader runs here, so whatever it throws means the bytes are not a readable
    // archive: c10::Error, TorchScript's error reports and parser errors on a damaged code/ file,
    // and even a std::out_of_range from a map lookup on a damaged data.pkl (found by fuzz_checkpoint)
    throw damaged_archive(path, what, e);
  }
}

void rethrow_archive_error(const std::string& path, const std::string& what) {
  const auto damaged = [&](const std::exception& e) { return damaged_archive(path, what, e); };
  try {
    throw;
  } catch (const InputError&) {
    throw;
  } catch (const ConfigError& e) {
    throw InputError(path, 0,
                     "the " + what + "'s stored configuration: " + e.what() +
                         " (written by another build of synmt? rebuild every tool: cmake --build build)");
  } catch (const c10::Error& e) {  // LibTorch's checks (TORCH_CHECK), its subclasses included
    throw damaged(e);
  } catch (const torch::jit::ErrorReport& e) {  // TorchScript's type parser on a damaged data.pkl
    throw damaged(e);
  } catch (const nlohmann::json::exception& e) {  // the stored configuration
    throw damaged(e);
  } catch (const std::runtime_error& e) {  // TorchScript's lexer and parser on a damaged code/ file
    throw damaged(e);
  }
}

}  // namespace synmt
