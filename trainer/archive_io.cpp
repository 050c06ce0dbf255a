#include "trainer/archive_io.h"

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
  return m.substr(0, m.find('\n'));
}

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
  } catch (const std::exception&) {  // c10::Error, and TorchScript's parser errors on a damaged data.pkl
    throw InputError(path, 0, "not a readable " + what + " (truncated or not a synmt/LibTorch file)");
  }
}

}  // namespace synmt
