// The binarised dataset reader (read_parallel_data) over files planned as synmt-binarize writes
// them (tokens, word runs, parents, labels, UPOS, the surface forms of <unk> tokens) and then, for
// about half of the inputs, damaged (tests/fuzz/h5_builder.h). A valid file must be accepted; a
// file the reader accepts must satisfy what the trainer's batching then relies on.
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <string>

#include "core/special_tokens.h"
#include "preprocess/dataset_file.h"
#include "tests/fuzz/fuzz_util.h"
#include "tests/fuzz/h5_builder.h"

namespace {

using synmt::fuzz::require;

// Plans a valid dataset of up to 5 sentences; which optional arrays it has is drawn too.
void plan_dataset(synmt::fuzz::H5Plan& plan) {
  const int64_t sentences = plan.draw(0, 5);
  bool words = plan.chance(2), syntax = words && plan.chance(2), upos = syntax && plan.chance(2), unknown = plan.chance(3);
  std::vector<int64_t> src_lengths, tgt_lengths;
  std::vector<int32_t> src, tgt, word, parent_first, label, upos_ids;
  std::vector<float> parent_middle;
  std::string forms;
  for (int64_t s = 0; s < sentences; ++s) {
    const int64_t n = plan.draw(0, 6), m = plan.draw(0, 6);
    src_lengths.push_back(n);
    tgt_lengths.push_back(m);
    int32_t w = 0;
    for (int64_t k = 0; k < n; ++k) {
      const auto id = static_cast<int32_t>(plan.draw(0, 19));
      src.push_back(id);
      if (unknown && id == synmt::special::kUnk) forms += "form" + std::to_string(k) + "\n";
      if (k > 0 && plan.chance(2)) ++w;  // a new word, or the same word's next piece
      word.push_back(w);
      const auto first = static_cast<int32_t>(plan.draw(0, n - 1));
      parent_first.push_back(first);
      parent_middle.push_back(static_cast<float>(first) + (first < n - 1 && plan.chance(2) ? 0.5f : 0.0f));
      label.push_back(static_cast<int32_t>(plan.draw(0, 3)));
      upos_ids.push_back(static_cast<int32_t>(plan.draw(0, 3)));
    }
    for (int64_t k = 0; k < m; ++k) tgt.push_back(static_cast<int32_t>(plan.draw(0, 19)));
  }
  // the writer leaves out a per-token array without values (has_word_spans() and the others test emptiness)
  if (src.empty()) words = syntax = upos = false;
  plan.attribute("format", synmt::kDatasetFormat);
  plan.attribute("src_vocab_sha256", "s");
  plan.attribute("tgt_vocab_sha256", "t");
  plan.array("src_tokens", src);
  plan.array("tgt_tokens", tgt);
  plan.array("src_offsets", synmt::fuzz::H5Plan::offsets_of(src_lengths));
  plan.array("tgt_offsets", synmt::fuzz::H5Plan::offsets_of(tgt_lengths));
  if (words) plan.array("src_word", word);
  if (syntax) {
    plan.array("src_parent_first", parent_first);
    plan.array("src_parent_middle", parent_middle);
    plan.array("src_label", label);
    plan.attribute("src_label_names", "<unk>\nnsubj\nobj\nroot\n");
    plan.attribute(synmt::kSrcLabelCountAttr, "4");
    plan.attribute(synmt::kSrcLabelInventoryAttr, "L");
  }
  if (upos) {
    plan.array("src_upos", upos_ids);
    plan.attribute("src_upos_names", "<unk>\nNOUN\nVERB\nPUNCT\n");
    plan.attribute(synmt::kSrcUposCountAttr, "4");
    plan.attribute(synmt::kSrcUposInventoryAttr, "U");
  }
  if (unknown) plan.array("src_unknown_forms", std::vector<uint8_t>(forms.begin(), forms.end()));
}

// What read_parallel_data guarantees for a file it accepts.
void check_accepted(const synmt::ParallelData& d) {
  for (const auto* side : {&d.src_offsets, &d.tgt_offsets}) {
    require(!side->empty() && side->front() == 0, "accepted offsets that do not start at 0");
    for (std::size_t i = 0; i + 1 < side->size(); ++i) require((*side)[i] <= (*side)[i + 1], "accepted offsets that decrease");
  }
  require(static_cast<std::size_t>(d.src_offsets.back()) == d.src_tokens.size() &&
              static_cast<std::size_t>(d.tgt_offsets.back()) == d.tgt_tokens.size(),
          "accepted offsets that do not end at the token count");
  require(d.src_offsets.size() == d.tgt_offsets.size(), "accepted different sentence counts");
  const std::size_t n = d.src_tokens.size();
  if (d.has_word_spans()) require(d.src_word.size() == n, "accepted src_word of another length");
  if (d.has_source_syntax()) {
    require(d.has_word_spans(), "accepted source syntax without word indices");
    require(d.src_parent_first.size() == n && d.src_label.size() == n, "accepted syntax arrays of another length");
    for (int32_t id : d.src_label) require(id >= 0 && static_cast<std::size_t>(id) < d.src_label_names.size(), "accepted a label id outside its names");
  }
  if (d.has_source_upos())
    for (int32_t id : d.src_upos) require(id >= 0 && static_cast<std::size_t>(id) < d.src_upos_names.size(), "accepted a UPOS id outside its names");
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (d.has_word_spans()) d.src_word_spans(i);
    if (!d.has_source_syntax()) continue;
    const int64_t len = d.src_offsets[i + 1] - d.src_offsets[i];
    for (int64_t k = d.src_offsets[i]; k < d.src_offsets[i + 1]; ++k) {
      const auto u = static_cast<std::size_t>(k);
      const float m = d.src_parent_middle[u];
      require(std::isfinite(m) && m >= 0 && m <= static_cast<float>(len - 1), "accepted a parent middle outside its sentence");
      require(d.src_parent_first[u] >= 0 && d.src_parent_first[u] < len, "accepted a first parent piece outside its sentence");
    }
  }
  if (!d.src_unknown_forms.empty() || !d.src_unknown_offsets.empty()) {
    require(d.src_unknown_offsets.size() == d.size() + 1, "accepted <unk> form offsets of another length");
    require(static_cast<std::size_t>(d.src_unknown_offsets.back()) == d.src_unknown_forms.size(), "accepted <unk> forms that do not match the offsets");
    for (const auto& form : d.src_unknown_forms) require(!form.empty(), "accepted an empty <unk> form");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace synmt;
  FuzzedDataProvider in(data, size);
  const std::string path = fuzz::scratch_path("dataset.h5");
  fuzz::H5Plan plan(in);
  plan_dataset(plan);
  const int damages = plan.damage();
  plan.write(path);
  const std::string error = fuzz::clear_error_of([&] { check_accepted(read_parallel_data(path, "s", "t", "L", "U")); });
  require(error.empty() || damages > 0, "a valid dataset was refused: " + error);
  return 0;
}
