// The target-length prior of LGP-NMT's beam search (synmt-length-prior's JSON, read by
// synmt-translate --length-prior). An accepted prior must give a finite log-probability of at most
// 0 for any source and target length, and read back the same after save.
#include <cmath>
#include <string>

#include "eval/length_prior.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace synmt;
  const std::string path = fuzz::write_input("prior.json", data, size);
  fuzz::expect_clear_errors([&] {
    const auto prior = eval::LengthPrior::load(path);
    const std::string saved = fuzz::scratch_path("saved.json");
    prior.save(saved);
    const auto again = eval::LengthPrior::load(saved);
    for (int64_t lx : {int64_t{0}, int64_t{1}, int64_t{3}, int64_t{50}, int64_t{1} << 40})
      for (int64_t ly : {int64_t{-1}, int64_t{0}, int64_t{1}, int64_t{2}, int64_t{7}, prior.max_target_length() + 1}) {
        const double p = prior.log_prob(lx, ly);
        fuzz::require(std::isfinite(p) && p <= 0, "an accepted prior gave log p = " + std::to_string(p));
        fuzz::require(again.log_prob(lx, ly) == p, "a saved prior read back differently");
      }
  });
  return 0;
}
