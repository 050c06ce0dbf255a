#pragma once
// Helpers shared by the trainer tests: a tiny resolved model config and a synthetic copy task.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "preprocess/dataset_file.h"
#include "trainer/models/registry.h"

namespace synmt::test {

// A registry architecture with vocabularies of 20 and the given option overrides.
inline nlohmann::json tiny_arch(const std::string& arch, const nlohmann::json& options = nlohmann::json::object()) {
  auto m = synmt::resolve_model_config({{"arch", arch}, {"options", options}});
  m["options"]["src_vocab"] = 20;
  m["options"]["tgt_vocab"] = 20;
  return m;
}

// n copy pairs of 3 .. 2 + length_cycle tokens (ids 4..19).
inline synmt::ParallelData copy_task(int n, int length_cycle = 4) {
  synmt::ParallelData d;
  for (int i = 0; i < n; ++i) {
    std::vector<int32_t> s;
    for (int k = 0; k < 3 + i % length_cycle; ++k) s.push_back(4 + (i * 7 + k * 3) % 16);
    d.add(s, s);
  }
  return d;
}

}  // namespace synmt::test
