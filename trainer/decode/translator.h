#pragma once
// The decoding side of synmt-translate: checkpoints (one, or several as an ensemble) loaded once
// per worker thread, sentences sorted by length and decoded in batches by the workers, results in
// input order. On the CPU the workers each own a model copy on a single-threaded BLAS (the small
// matrices of beam search kept a two-thread BLAS spinning: Transformer demo 24.0 s against 15.1 s
// this way on 2 cores); a GPU decodes on one thread. Sources come as token ids (plain text) or as
// sentences of a binarised split, whose source features then reach the model.
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <torch/types.h>

#include "preprocess/dataset_file.h"
#include "preprocess/vocab.h"
#include "trainer/decode/beam_search.h"
#include "trainer/decode/ensemble.h"

namespace synmt {

struct TranslatorOptions {
  SearchOptions search;
  bool greedy = false;
  int batch_size = 32;
  int workers = 1;  // decoding threads (CPU)
  torch::Device device{torch::kCPU};
  nlohmann::json model_options = nlohmann::json::object();  // overrides of every checkpoint's model options (load_checkpoint)
};

struct Translations {
  std::vector<std::vector<Hypothesis>> hypotheses;  // per sentence, best first (nbest of them)
};

class Translator {
 public:
  // Loads every checkpoint once per worker; refuses checkpoints trained with other vocabularies.
  Translator(const std::vector<std::string>& checkpoints, const Vocab& src_vocab, const Vocab& tgt_vocab, TranslatorOptions options);
  // Plain token ids (no source features); `unknown_forms`, per sentence the surface forms of its
  // <unk> tokens, when known (a model reading characters needs them).
  Translations translate(const std::vector<std::vector<int32_t>>& sources,
                         const std::vector<std::vector<std::string>>* unknown_forms = nullptr);
  // Every sentence of a binarised split with its source features; refuses a split binarised with
  // other label/UPOS inventories than the checkpoints'.
  Translations translate(const ParallelData& data, const std::string& data_path);
  Seq2SeqModel& model() { return replicas_.front().model(); }  // the first worker's (dumps)
  // Refuses `data` when its inventories differ from any checkpoint's.
  void check_inventories(const ParallelData& data, const std::string& data_path) const;

 private:
  struct Replica {
    std::vector<std::shared_ptr<Seq2SeqModel>> members;
    std::unique_ptr<EnsembleModel> ensemble;
    Seq2SeqModel& model() { return members.size() == 1 ? *members.front() : *ensemble; }
  };
  Translations run(std::size_t count, const std::vector<std::vector<int32_t>>& sources,
                   const std::vector<std::vector<std::string>>* unknown_forms, const ParallelData* data, const std::string& where);

  TranslatorOptions options_;
  std::vector<Replica> replicas_;
  std::vector<nlohmann::json> configs_;  // the checkpoints' resolved configs
};

}  // namespace synmt
