#include "trainer/decode/beam_search.h"

#include "trainer/data/batches.h"
#include "trainer/device.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.h"
#include "core/special_tokens.h"
#include "eval/length_prior.h"

namespace synmt {
namespace {
double length_penalty(std::size_t length, double alpha) {
  return alpha == 0 ? 1.0 : std::pow((5.0 + static_cast<double>(length)) / 6.0, alpha);
}
constexpr double kNegInf = -std::numeric_limits<double>::infinity();
}  // namespace

double final_score(const SearchOptions& o, double log_prob, std::size_t words, int64_t src_len) {
  const std::size_t length = words + 1;  // L_y: the end symbol included (beam_search.h)
  if (o.length_prior) log_prob += o.length_prior(src_len, static_cast<int64_t>(length));
  if (o.length_norm == "average") return log_prob / static_cast<double>(std::max<std::size_t>(1, length));
  if (o.length_norm == "fairseq")  // fairseq's lenpen: score / |y|^alpha (Pascal decodes with alpha 0.6)
    return log_prob / std::pow(static_cast<double>(std::max<std::size_t>(1, length)), o.length_penalty);
  return log_prob / length_penalty(length, o.length_penalty);
}

std::function<double(int64_t, int64_t)> length_prior_hook(std::shared_ptr<const eval::LengthPrior> prior) {
  return [prior](int64_t src_len, int64_t tgt_len) { return prior->log_prob(src_len, tgt_len - 1); };
}

std::vector<std::vector<Hypothesis>> beam_search(Seq2SeqModel& model, const Batch& batch, const SearchOptions& o) {
  if (o.length_norm != "gnmt" && o.length_norm != "average" && o.length_norm != "fairseq")
    throw ConfigError("length normalisation '" + o.length_norm + "' is none of gnmt | average | fairseq");
  torch::NoGradGuard no_grad;
  const int64_t B = batch.source.batch_size(), K = o.beam_size;
  // the model runs on its device, and so do the scores of every candidate and their top-k (a
  // (B*K, V) matrix; copying it to the host each step made a GPU batch of 500 slower than one of
  // 50); only the 2K best of each sentence come to the CPU, where the bookkeeping (histories,
  // finished hypotheses) stays
  const torch::Device device = module_device(model);
  DecodeState state = model.encode(to_device(batch.source, device));
  state.reorder(torch::arange(B).repeat_interleave(K));
  std::vector<double> scores(static_cast<std::size_t>(B * K), kNegInf);
  for (int64_t b = 0; b < B; ++b) scores[static_cast<std::size_t>(b * K)] = 0.0;  // one live beam at start
  std::vector<std::vector<int32_t>> history(static_cast<std::size_t>(B * K));
  std::vector<std::vector<Hypothesis>> finished(static_cast<std::size_t>(B));
  std::vector<bool> done(static_cast<std::size_t>(B), false);
  std::vector<int64_t> max_len(static_cast<std::size_t>(B));
  // read on the host: the batch may already live on the model's device (the conformance suite moves it)
  const torch::Tensor host_lengths = batch.source.lengths.to(torch::kCPU);
  auto src_len = host_lengths.accessor<int64_t, 1>();
  int64_t longest = 1;
  for (int64_t b = 0; b < B; ++b) {
    max_len[b] = std::max<int64_t>(1, static_cast<int64_t>(o.max_len_a * src_len[b] + o.max_len_b));
    longest = std::max(longest, max_len[b]);
  }
  torch::Tensor prev = torch::full({B * K}, special::kBos, torch::kInt64);
  const int64_t candidates = std::min<int64_t>(2 * K, K * 1000000);
  torch::Tensor attention_history;  // (B*K, t, S) with collect_attention
  for (int64_t t = 0; t < longest; ++t) {
    torch::Tensor logp = model.step(state, prev.to(device)).to(torch::kFloat64);  // (B*K, V), on the device
    torch::Tensor attention_now;  // history including this step, before following the beams
    if (o.collect_attention) {
      if (!state.tensors.count("attention"))
        throw ConfigError("this model does not expose a source attention to dump");
      auto row = state["attention"].unsqueeze(1).to(torch::kCPU, torch::kFloat32);
      attention_now = attention_history.defined() ? torch::cat({attention_history, row}, 1) : row;
    }
    const int64_t V = logp.size(1);
    auto base = torch::tensor(scores, torch::kFloat64).unsqueeze(1).to(device);
    auto cand = (base + logp).view({B, K * V});
    auto [device_scores, device_index] = cand.topk(std::min<int64_t>(candidates, K * V), 1);
    const torch::Tensor top_scores = device_scores.to(torch::kCPU), top_index = device_index.to(torch::kCPU);
    auto ts = top_scores.accessor<double, 2>();
    auto ti = top_index.accessor<int64_t, 2>();
    std::vector<int64_t> origin(static_cast<std::size_t>(B * K), 0);
    std::vector<int64_t> next_tokens(static_cast<std::size_t>(B * K), special::kPad);
    std::vector<double> next_scores(static_cast<std::size_t>(B * K), kNegInf);
    for (int64_t b = 0; b < B; ++b) {
      for (int64_t k = 0; k < K; ++k) origin[b * K + k] = b * K;  // placeholders for dead slots
      if (done[b]) continue;
      int64_t filled = 0;
      for (int64_t j = 0; j < top_scores.size(1) && filled < K; ++j) {
        double s = ts[b][j];
        if (s == kNegInf) break;
        int64_t beam = ti[b][j] / V, token = ti[b][j] % V;
        const auto& hist = history[b * K + beam];
        if (token == special::kEos) {
          if (j < K)
            finished[b].push_back({hist, s, final_score(o, s, hist.size(), src_len[b]),
                                   o.collect_attention ? attention_now[b * K + beam] : torch::Tensor()});
          continue;
        }
        int64_t slot = b * K + filled++;
        origin[slot] = b * K + beam;
        next_tokens[slot] = token;
        next_scores[slot] = s;
      }
      if (static_cast<int64_t>(finished[b].size()) >= K) done[b] = true;
    }
    // follow the chosen beams
    std::vector<std::vector<int32_t>> next_history(history.size());
    for (int64_t slot = 0; slot < B * K; ++slot) {
      if (next_scores[slot] == kNegInf) continue;
      next_history[slot] = history[origin[slot]];
      next_history[slot].push_back(static_cast<int32_t>(next_tokens[slot]));
    }
    history = std::move(next_history);
    scores = next_scores;
    if (o.collect_attention) attention_history = attention_now.index_select(0, torch::tensor(origin, torch::kInt64));
    for (int64_t b = 0; b < B; ++b) {
      if (done[b] || t + 1 < max_len[b]) continue;
      for (int64_t k = 0; k < K; ++k) {  // length limit reached: the live hypotheses end here
        std::size_t slot = static_cast<std::size_t>(b * K + k);
        if (scores[slot] == kNegInf) continue;
        finished[b].push_back({history[slot], scores[slot], final_score(o, scores[slot], history[slot].size(), src_len[b]),
                               o.collect_attention ? attention_history[static_cast<int64_t>(slot)] : torch::Tensor()});
        scores[slot] = kNegInf;
      }
      done[b] = true;
    }
    if (std::all_of(done.begin(), done.end(), [](bool d) { return d; })) break;
    state.follow_beams(torch::tensor(origin, torch::kInt64));  // origins stay within each sentence's beams
    prev = torch::tensor(next_tokens, torch::kInt64);
  }
  for (auto& f : finished) {
    std::stable_sort(f.begin(), f.end(), [](const Hypothesis& a, const Hypothesis& b) { return a.score > b.score; });
    if (f.size() > static_cast<std::size_t>(std::max(1, o.nbest))) f.resize(static_cast<std::size_t>(std::max(1, o.nbest)));
    if (f.empty()) f.push_back({});
  }
  return finished;
}

std::vector<std::vector<int32_t>> greedy_search(Seq2SeqModel& model, const Batch& batch, const SearchOptions& o) {
  torch::NoGradGuard no_grad;
  const int64_t B = batch.source.batch_size();
  const torch::Device device = module_device(model);
  DecodeState state = model.encode(to_device(batch.source, device));
  std::vector<std::vector<int32_t>> out(static_cast<std::size_t>(B));
  std::vector<bool> done(static_cast<std::size_t>(B), false);
  // read on the host: the batch may already live on the model's device (the conformance suite moves it)
  const torch::Tensor host_lengths = batch.source.lengths.to(torch::kCPU);
  auto src_len = host_lengths.accessor<int64_t, 1>();
  int64_t longest = 1;
  for (int64_t b = 0; b < B; ++b) longest = std::max<int64_t>(longest, static_cast<int64_t>(o.max_len_a * src_len[b] + o.max_len_b));
  torch::Tensor prev = torch::full({B}, special::kBos, torch::kInt64);
  for (int64_t t = 0; t < longest; ++t) {
    prev = model.step(state, prev.to(device)).argmax(1).to(torch::kCPU);
    auto p = prev.accessor<int64_t, 1>();
    for (int64_t b = 0; b < B; ++b) {
      int64_t limit = static_cast<int64_t>(o.max_len_a * src_len[b] + o.max_len_b);
      if (done[b]) continue;
      if (p[b] == special::kEos) done[b] = true;
      else out[b].push_back(static_cast<int32_t>(p[b]));
      if (static_cast<int64_t>(out[b].size()) >= limit) done[b] = true;
    }
    if (std::all_of(done.begin(), done.end(), [](bool d) { return d; })) break;
  }
  return out;
}

}  // namespace synmt
