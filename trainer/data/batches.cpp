#include "trainer/data/batches.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/special_tokens.h"

namespace synmt {

BatchIterator::BatchIterator(const ParallelData& data, BatchOptions options) : data_(data), options_(options) {
  for (std::size_t i = 0; i < data_.size(); ++i) {
    auto ls = data_.src_offsets[i + 1] - data_.src_offsets[i];
    auto lt = data_.tgt_offsets[i + 1] - data_.tgt_offsets[i];
    if (ls > options_.max_len || lt > options_.max_len) {
      ++skipped_;
      continue;
    }
    usable_.push_back(static_cast<int64_t>(i));
  }
}

std::vector<std::vector<int64_t>> BatchIterator::epoch_plan(int epoch) const {
  std::vector<int64_t> order = usable_;
  std::mt19937_64 rng(options_.seed * 1000003ULL + static_cast<uint64_t>(epoch));
  if (options_.shuffle) std::shuffle(order.begin(), order.end(), rng);
  auto src_len = [this](int64_t i) { return data_.src_offsets[i + 1] - data_.src_offsets[i]; };
  auto tgt_len = [this](int64_t i) { return data_.tgt_offsets[i + 1] - data_.tgt_offsets[i] + 1; };  // + </s>
  std::vector<std::vector<int64_t>> plan;
  if (options_.max_tokens > 0) {
    // fairseq's scheme: sort everything by length (shuffled order breaks ties), cut where the
    // padded size would exceed max_tokens, shuffle the batches
    std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
      return std::make_pair(src_len(x), tgt_len(x)) < std::make_pair(src_len(y), tgt_len(y));
    });
    int64_t longest = 0;
    for (auto i : order) {
      const int64_t len = std::max(src_len(i), tgt_len(i));
      const int64_t n = plan.empty() ? 0 : static_cast<int64_t>(plan.back().size());
      if (plan.empty() || std::max(longest, len) * (n + 1) > options_.max_tokens) {
        plan.emplace_back();
        longest = 0;
      }
      plan.back().push_back(i);
      longest = std::max(longest, len);
    }
  } else {
    // Sort by length inside windows of 50 batches: little padding, still random across windows.
    const std::size_t window = static_cast<std::size_t>(options_.batch_size) * 50;
    for (std::size_t b = 0; b < order.size(); b += window) {
      auto e = std::min(order.size(), b + window);
      std::stable_sort(order.begin() + b, order.begin() + e, [&](int64_t x, int64_t y) { return src_len(x) < src_len(y); });
    }
    for (std::size_t b = 0; b < order.size(); b += options_.batch_size)
      plan.emplace_back(order.begin() + b, order.begin() + std::min(order.size(), b + options_.batch_size));
  }
  if (options_.shuffle) std::shuffle(plan.begin(), plan.end(), rng);
  return plan;
}

Batch BatchIterator::make_batch(const std::vector<int64_t>& ids) const { return make_data_batch(data_, ids); }

Batch make_data_batch(const ParallelData& data_, const std::vector<int64_t>& ids) {
  const auto B = static_cast<int64_t>(ids.size());
  int64_t S = 0, T = 0;
  for (auto i : ids) {
    S = std::max(S, data_.src_offsets[i + 1] - data_.src_offsets[i]);
    T = std::max(T, data_.tgt_offsets[i + 1] - data_.tgt_offsets[i] + 1);
  }
  Batch batch;
  batch.ids = ids;
  batch.source.tokens = torch::full({B, S}, special::kPad, torch::kInt64);
  batch.source.lengths = torch::zeros({B}, torch::kInt64);
  batch.tgt_in = torch::full({B, T}, special::kPad, torch::kInt64);
  batch.tgt_out = torch::full({B, T}, special::kPad, torch::kInt64);
  auto src = batch.source.tokens.accessor<int64_t, 2>();
  auto src_len = batch.source.lengths.accessor<int64_t, 1>();
  auto tin = batch.tgt_in.accessor<int64_t, 2>();
  auto tout = batch.tgt_out.accessor<int64_t, 2>();
  for (int64_t b = 0; b < B; ++b) {
    auto i = ids[static_cast<std::size_t>(b)];
    int64_t s0 = data_.src_offsets[i], s1 = data_.src_offsets[i + 1];
    for (int64_t k = s0; k < s1; ++k) src[b][k - s0] = data_.src_tokens[k];
    src_len[b] = s1 - s0;
    int64_t t0 = data_.tgt_offsets[i], t1 = data_.tgt_offsets[i + 1];
    tin[b][0] = special::kBos;
    for (int64_t k = t0; k < t1; ++k) {
      tin[b][k - t0 + 1] = data_.tgt_tokens[k];
      tout[b][k - t0] = data_.tgt_tokens[k];
    }
    tout[b][t1 - t0] = special::kEos;
    batch.target_tokens += t1 - t0 + 1;
  }
  // per-token side inputs for the syntax-aware families, each when the dataset carries it
  auto int_feature = [&](const std::vector<int32_t>& values) {
    auto t = torch::zeros({B, S}, torch::kInt64);
    auto a = t.accessor<int64_t, 2>();
    for (int64_t b = 0; b < B; ++b) {
      auto i = ids[static_cast<std::size_t>(b)];
      for (int64_t k = data_.src_offsets[i]; k < data_.src_offsets[i + 1]; ++k) a[b][k - data_.src_offsets[i]] = values[static_cast<std::size_t>(k)];
    }
    return t;
  };
  if (data_.has_source_syntax()) {
    auto parent = torch::zeros({B, S}, torch::kFloat32);
    auto pa = parent.accessor<float, 2>();
    for (int64_t b = 0; b < B; ++b) {
      auto i = ids[static_cast<std::size_t>(b)];
      for (int64_t k = data_.src_offsets[i]; k < data_.src_offsets[i + 1]; ++k)
        pa[b][k - data_.src_offsets[i]] = data_.src_parent_middle[static_cast<std::size_t>(k)];
    }
    batch.source.features[kSourceFeatureParentPosition] = parent;
    batch.source.features[kSourceFeatureParentFirst] = int_feature(data_.src_parent_first);
    batch.source.features[kSourceFeatureLabel] = int_feature(data_.src_label);
  }
  if (data_.has_source_upos()) batch.source.features[kSourceFeatureUpos] = int_feature(data_.src_upos);
  if (data_.has_word_spans()) batch.source.features[kSourceFeatureWord] = int_feature(data_.src_word);
  if (data_.has_unknown_forms()) {
    batch.source.has_unknown_forms = true;
    for (auto i : ids) batch.source.unknown_forms.push_back(data_.unknown_forms(static_cast<std::size_t>(i)));
  }
  return batch;
}

Batch make_source_batch(const std::vector<std::vector<int32_t>>& sentences, const std::vector<std::vector<std::string>>* unknown_forms) {
  if (unknown_forms && unknown_forms->size() != sentences.size())
    throw std::invalid_argument("make_source_batch: surface forms for " + std::to_string(unknown_forms->size()) + " of " +
                                std::to_string(sentences.size()) + " sentences");
  const auto B = static_cast<int64_t>(sentences.size());
  int64_t S = 1;
  for (const auto& s : sentences) S = std::max<int64_t>(S, static_cast<int64_t>(s.size()));
  Batch batch;
  batch.source.tokens = torch::full({B, S}, special::kPad, torch::kInt64);
  batch.source.lengths = torch::zeros({B}, torch::kInt64);
  auto src = batch.source.tokens.accessor<int64_t, 2>();
  auto len = batch.source.lengths.accessor<int64_t, 1>();
  for (int64_t b = 0; b < B; ++b) {
    const auto& s = sentences[static_cast<std::size_t>(b)];
    for (std::size_t k = 0; k < s.size(); ++k) src[b][static_cast<int64_t>(k)] = s[k];
    len[b] = std::max<int64_t>(1, static_cast<int64_t>(s.size()));
    if (s.empty()) src[b][0] = special::kEos;  // an empty input still needs one position
  }
  if (unknown_forms) {
    batch.source.has_unknown_forms = true;
    batch.source.unknown_forms = *unknown_forms;
  }
  return batch;
}

SourceInput to_device(SourceInput source, const torch::Device& device) {
  if (source.tokens.device() == device) return source;
  source.tokens = source.tokens.to(device);
  source.lengths = source.lengths.to(device);
  for (auto& [name, t] : source.features) t = t.to(device);
  return source;
}

Batch to_device(Batch batch, const torch::Device& device) {
  batch.source = to_device(std::move(batch.source), device);
  if (batch.tgt_in.defined()) batch.tgt_in = batch.tgt_in.to(device);
  if (batch.tgt_out.defined()) batch.tgt_out = batch.tgt_out.to(device);
  return batch;
}

}  // namespace synmt
