#include "trainer/archive_io.h"

#include <sstream>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/sealed_zip.h"

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

void load_archive(torch::serialize::InputArchive& archive, const std::string& path, const torch::Device& device,
                  const std::string& what) {
  if (verify_sealed_zip(path) == ZipSeal::kNoEndRecord)
    throw InputError(path, 0, "not a readable " + what + " (truncated or not a synmt/LibTorch file: no zip end record)");
  try {
    archive.load_from(path, device);
  } catch (const c10::Error&) {
    throw InputError(path, 0, "not a readable " + what + " (truncated or not a synmt/LibTorch file)");
  }
}

}  // namespace synmt
