// Checkpoints and training states as synmt-translate / --resume / averaging read them: LibTorch's
// archive reader over a damaged file, then synmt's format, config and parameter checks. Seeds are
// real (tiny) checkpoints; mutations of them must end in a clear error, never a crash.
#include <c10/util/Exception.h>

#include <string>

#include "tests/fuzz/fuzz_util.h"
#include "trainer/train/checkpoint.h"
#include "trainer/train/training_state.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace synmt;
  const std::string path = fuzz::write_input("model.pt", data, size);
  fuzz::expect_clear_errors([&] { load_checkpoint(path); });
  fuzz::expect_clear_errors([&] { training_state_matches(path, "{}"); });
  return 0;
}
