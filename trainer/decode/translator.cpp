#include "trainer/decode/translator.h"

#include <atomic>
#include <exception>
#include <mutex>
#include <numeric>
#include <stdexcept>
#include <thread>

#include "core/error.h"
#include "core/log.h"
#include "trainer/data/batches.h"
#include "trainer/models/syntax_sizes.h"
#include "trainer/models/checkpoint.h"

namespace synmt {

Translator::Translator(const std::vector<std::string>& checkpoints, const Vocab& src_vocab, const Vocab& tgt_vocab,
                       TranslatorOptions options)
    : options_(std::move(options)) {
  if (options_.search.nbest > options_.search.beam_size)
    throw ConfigError("--nbest " + std::to_string(options_.search.nbest) + " exceeds the beam size " +
                      std::to_string(options_.search.beam_size));
  if (options_.search.collect_attention) options_.greedy = false;  // beam 1 is greedy and collects the attention
  replicas_.resize(static_cast<std::size_t>(std::max(1, options_.workers)));
  for (auto& replica : replicas_) {
    for (const auto& checkpoint : checkpoints) {
      auto loaded = load_checkpoint(checkpoint, options_.model_options);
      if (&replica == &replicas_.front()) configs_.push_back(loaded.config);
      const auto& vh = loaded.config.at("vocab");
      if (vh.at("src_sha256") != src_vocab.hash() || vh.at("tgt_sha256") != tgt_vocab.hash())
        throw InputError(checkpoint, 0, "the given vocabularies are not the ones this model was trained with");
      loaded.model->to(options_.device);
      replica.members.push_back(loaded.model);
    }
    replica.ensemble = std::make_unique<EnsembleModel>(replica.members);
  }
}

void Translator::check_inventories(const ParallelData& data, const std::string& data_path) const {
  for (const auto& config : configs_) check_syntax_inventories(config.at("vocab"), data, data_path);
}

Translations Translator::translate(const std::vector<std::vector<int32_t>>& sources,
                                   const std::vector<std::vector<std::string>>* unknown_forms) {
  if (unknown_forms && unknown_forms->size() != sources.size())
    throw std::invalid_argument("Translator::translate: surface forms for " + std::to_string(unknown_forms->size()) + " of " +
                                std::to_string(sources.size()) + " sentences");
  return run(sources.size(), sources, unknown_forms, nullptr, "the input");
}

Translations Translator::translate(const ParallelData& data, const std::string& data_path) {
  check_inventories(data, data_path);
  std::vector<std::vector<int32_t>> sources;
  for (std::size_t i = 0; i < data.size(); ++i)
    sources.emplace_back(data.src_tokens.begin() + data.src_offsets[i], data.src_tokens.begin() + data.src_offsets[i + 1]);
  return run(data.size(), sources, nullptr, &data, data_path);
}

Translations Translator::run(std::size_t count, const std::vector<std::vector<int32_t>>& sources,
                             const std::vector<std::vector<std::string>>* unknown_forms, const ParallelData* data,
                             const std::string& where) {
  // translate in order of length (less padding), return in input order
  std::vector<std::size_t> order(count);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return sources[a].size() < sources[b].size(); });
  Translations out;
  out.hypotheses.resize(count);
  const auto batch_size = static_cast<std::size_t>(options_.batch_size);
  const std::size_t batch_count = (count + batch_size - 1) / batch_size;
  Progress progress("translate", count, 30.0);
  std::mutex progress_mutex;
  std::atomic<std::size_t> next_batch{0};
  auto decode_batches = [&](Replica& replica) {
    for (std::size_t k; (k = next_batch.fetch_add(1)) < batch_count;) {
      const std::size_t s = k * batch_size, e = std::min(count, s + batch_size);
      Batch batch;
      if (data) {
        std::vector<int64_t> ids;
        for (std::size_t i = s; i < e; ++i) ids.push_back(static_cast<int64_t>(order[i]));
        batch = make_data_batch(*data, ids);
      } else {
        std::vector<std::vector<int32_t>> chunk;
        std::vector<std::vector<std::string>> forms;
        for (std::size_t i = s; i < e; ++i) {
          chunk.push_back(sources[order[i]]);
          if (unknown_forms) forms.push_back((*unknown_forms)[order[i]]);
        }
        batch = make_source_batch(chunk, unknown_forms ? &forms : nullptr);
      }
      check_required_features(replica.model(), batch.source, where);
      std::vector<std::vector<Hypothesis>> results;
      if (options_.greedy) {
        for (auto& tokens : greedy_search(replica.model(), batch, options_.search)) results.push_back({{tokens, 0.0, 0.0}});
      } else {
        results = beam_search(replica.model(), batch, options_.search);
      }
      for (std::size_t i = s; i < e; ++i) {  // every sentence's slot belongs to one batch
        auto& h = out.hypotheses[order[i]];
        h = std::move(results[i - s]);
        if (options_.search.collect_attention) {  // drop the batch's padding columns
          const auto src_len = std::max<int64_t>(1, static_cast<int64_t>(sources[order[i]].size()));
          h.front().attention = h.front().attention.narrow(1, 0, src_len).contiguous();
        }
      }
      std::lock_guard<std::mutex> lock(progress_mutex);
      progress.advance(e - s);
    }
  };
  std::vector<std::exception_ptr> errors(replicas_.size());
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < replicas_.size(); ++t)
    pool.emplace_back([&, t]() {
      try {
        decode_batches(replicas_[t]);
      } catch (...) {
        errors[t] = std::current_exception();
      }
    });
  try {
    decode_batches(replicas_[0]);
  } catch (...) {
    errors[0] = std::current_exception();
  }
  for (auto& th : pool) th.join();
  for (const auto& error : errors)
    if (error) std::rethrow_exception(error);
  progress.finish();
  return out;
}

}  // namespace synmt
