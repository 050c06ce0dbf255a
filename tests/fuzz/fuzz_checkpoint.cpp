// Checkpoints and training states as synmt-translate / --resume / averaging read them: LibTorch's
// archive reader over a damaged file, then synmt's format, config and parameter checks. Seeds are
// real (tiny) checkpoints; mutations of them must end in a clear error, never a crash.
//
// Each input is read twice. As it is, the seal (core/sealed_zip.h) stops nearly every mutation
// before LibTorch sees it, so that pass fuzzes the seal check. The second pass takes the input's
// own seal off and seals the mutated bytes anew, as a writer would have (fuzz_parse_cache_h5 writes
// valid checksums the same way): LibTorch's reader and synmt's checks behind it are what is fuzzed
// there. Inputs that no longer end in a zip end record cannot be sealed and get the first pass only.
#include <c10/util/Exception.h>

#include <optional>
#include <stdexcept>
#include <string>

#include "core/sealed_zip.h"
#include "tests/fuzz/fuzz_util.h"
#include "trainer/models/checkpoint.h"
#include "trainer/train/training_state.h"

namespace {

// The bytes sealed as a writer seals them; nullopt when they do not end like a zip archive.
std::optional<std::string> resealed(const uint8_t* data, std::size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  synmt::unseal_zip(bytes);  // an existing seal is cut; bytes without one are sealed as they are
  try {
    synmt::seal_zip(bytes);
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
  return bytes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace synmt;
  const std::string path = fuzz::write_input("model.pt", data, size);
  fuzz::expect_clear_errors([&] { load_checkpoint(path); });
  fuzz::expect_clear_errors([&] { training_state_matches(path, "{}"); });
  if (auto sealed = resealed(data, size)) {
    const std::string sealed_path =
        fuzz::write_input("sealed.pt", reinterpret_cast<const uint8_t*>(sealed->data()), sealed->size());
    fuzz::expect_clear_errors([&] { load_checkpoint(sealed_path); });
    fuzz::expect_clear_errors([&] { training_state_matches(sealed_path, "{}"); });
  }
  return 0;
}
