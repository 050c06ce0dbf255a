#pragma once
// Batches for sequence-to-sequence training from a binarised ParallelData: sentence-count batches
// (the RNN papers) or token-count batches (the Transformer papers' max_tokens) of similar length,
// reshuffled each epoch with a seeded RNG.
#include <torch/types.h>

#include <cstdint>
#include <random>
#include <vector>

#include "preprocess/dataset_file.h"
#include "trainer/data/source_input.h"
#include "core/special_tokens.h"

namespace synmt {

struct Batch {
  SourceInput source;     // tokens (B, S) int64 padded with special::kPad, lengths (B), side inputs
  torch::Tensor tgt_in;   // (B, T) <s> y1 .. yn
  torch::Tensor tgt_out;  // (B, T) y1 .. yn </s>
  std::vector<int64_t> ids;  // sentence indices in the dataset
  int64_t target_tokens = 0;
};

struct BatchOptions {
  int batch_size = 64;       // sentences (when max_tokens = 0)
  int max_tokens = 0;        // >0: as many sentences as fit max(src, tgt + 1) * n <= max_tokens
  int max_len = 100;         // longer training pairs are skipped (counted, logged)
  bool shuffle = true;
  uint64_t seed = 1;
};

class BatchIterator {
 public:
  BatchIterator(const ParallelData& data, BatchOptions options);
  // The batches of one epoch (bucketed by length, batch order shuffled when shuffle is on).
  std::vector<std::vector<int64_t>> epoch_plan(int epoch) const;
  Batch make_batch(const std::vector<int64_t>& ids) const;
  std::size_t skipped() const { return skipped_; }

 private:
  const ParallelData& data_;
  BatchOptions options_;
  std::vector<int64_t> usable_;
  std::size_t skipped_ = 0;
};

// Sentences `ids` of `data` as one batch with every source feature the dataset carries (parents,
// labels, POS, word indices, the forms of <unk> tokens): what training, validation and decoding from a binarised split use.
Batch make_data_batch(const ParallelData& data, const std::vector<int64_t>& ids);

// Source-only batches for decoding plain text (no features), in the original order of `sentences`;
// with `unknown_forms` (per sentence, its <unk> tokens' surface forms) when given.
Batch make_source_batch(const std::vector<std::vector<int32_t>>& sentences,
                        const std::vector<std::vector<std::string>>* unknown_forms = nullptr);

// The source input / batch with its tensors on `device` (no copy for tensors already there).
// Batches are built on the CPU; a GPU run moves each one just before use.
SourceInput to_device(SourceInput source, const torch::Device& device);
Batch to_device(Batch batch, const torch::Device& device);

}  // namespace synmt
