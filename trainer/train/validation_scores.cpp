#include "trainer/train/validation_scores.h"

#include <algorithm>

#include "core/special_tokens.h"
#include "eval/bleu.h"
#include "preprocess/bpe.h"
#include "trainer/data/batches.h"
#include "trainer/decode/beam_search.h"
#include "trainer/device.h"
#include "trainer/train/loss.h"

namespace synmt {

std::pair<double, int64_t> evaluate_nll(Seq2SeqModel& model, const ParallelData& data, int batch_size, int max_len) {
  torch::NoGradGuard no_grad;
  model.eval();
  BatchOptions bo;
  bo.batch_size = batch_size;
  bo.max_len = max_len;
  bo.shuffle = false;
  BatchIterator it(data, bo);
  double nll = 0;
  int64_t tokens = 0;
  const torch::Device device = module_device(model);
  for (const auto& ids : it.epoch_plan(0)) {
    Batch b = to_device(it.make_batch(ids), device);
    check_required_features(model, b.source, "validation");
    auto v = label_smoothed_nll(model.forward(b.source, b.tgt_in).log_probs, b.tgt_out, 0.0, special::kPad);
    nll += v.nll_sum;
    tokens += v.tokens;
  }
  return {tokens ? nll / tokens : 0.0, tokens};
}

double evaluate_greedy_bleu(Seq2SeqModel& model, const ParallelData& data, const Vocab& tgt_vocab, int batch_size,
                            std::vector<std::string>* hypotheses) {
  torch::NoGradGuard no_grad;
  model.eval();
  std::vector<std::string> hyps, refs;
  SearchOptions greedy;
  greedy.beam_size = 1;
  const torch::Device device = module_device(model);
  for (std::size_t s = 0; s < data.size(); s += static_cast<std::size_t>(batch_size)) {
    std::vector<int64_t> ids;
    for (std::size_t i = s; i < std::min(data.size(), s + static_cast<std::size_t>(batch_size)); ++i) {
      ids.push_back(static_cast<int64_t>(i));
      refs.push_back(remove_bpe(tgt_vocab.decode(std::vector<int32_t>(data.tgt_tokens.begin() + data.tgt_offsets[i],
                                                                           data.tgt_tokens.begin() + data.tgt_offsets[i + 1]))));
    }
    // the source side with every feature the dataset carries: a syntax model is validated as it
    // will be decoded
    Batch batch = to_device(make_data_batch(data, ids), device);
    check_required_features(model, batch.source, "validation BLEU");
    for (const auto& h : greedy_search(model, batch, greedy)) hyps.push_back(remove_bpe(tgt_vocab.decode(h)));
  }
  eval::BleuOptions bo;
  bo.tokenize = "none";
  const double score = eval::Bleu(bo).corpus_score(hyps, {refs}).score;
  if (hypotheses) *hypotheses = std::move(hyps);
  return score;
}

}  // namespace synmt
