#pragma once
// The two scores a validation computes on the dev set, apart from what the trainer does with them
// (keep-best, halving, stopping: trainer/loop/validation_policy.h): the mean NLL per target token
// (the perplexity's exponent) and the tokenised BLEU of greedy translations.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "preprocess/dataset_file.h"
#include "preprocess/vocab.h"
#include "trainer/models/seq2seq_model.h"

namespace synmt {

// Mean NLL per target token and the token count over a dataset (no dropout, no gradients).
std::pair<double, int64_t> evaluate_nll(Seq2SeqModel& model, const ParallelData& data, int batch_size, int max_len);
// Tokenised BLEU (sacreBLEU, tokenize none) of greedy translations of `data` against its targets,
// with "@@ " joins removed on both sides. The source side carries every feature the dataset has.
// hypotheses, when given, receives the translations (what synmt-translate --greedy writes).
double evaluate_greedy_bleu(Seq2SeqModel& model, const ParallelData& data, const Vocab& tgt_vocab, int batch_size,
                            std::vector<std::string>* hypotheses = nullptr);

}  // namespace synmt
