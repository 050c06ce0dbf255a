#include "eval/gate_norms.h"

#include <cmath>
#include <limits>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/hdf5_file.h"
#include "core/ragged.h"
#include "eval/head_scores.h"
#include "eval/span_arrays.h"

namespace synmt::eval {

void write_gate_norms(const std::string& path, const std::vector<SentenceGateNorms>& sentences) {
  SpanArrays arrays;
  for (const auto& s : sentences) arrays.add(s.norms, s.spans);
  write_span_arrays(path, {"norms", "norm_offsets"}, kGateNormsFormat, arrays);
}

std::vector<SentenceGateNorms> read_gate_norms(const std::string& path) {
  const SpanArrays file = read_span_arrays(path, {"norms", "norm_offsets"}, kGateNormsFormat, "gate-norm file");
  std::vector<SentenceGateNorms> out(file.size());
  for (std::size_t s = 0; s < out.size(); ++s) {
    const std::string where = "sentence " + std::to_string(s + 1) + ": ";
    for (int64_t k = file.value_offsets[s]; k < file.value_offsets[s + 1]; ++k) {
      float v = file.values[static_cast<std::size_t>(k)];
      if (!std::isfinite(v)) throw InputError(path, 0, where + "non-finite gate norm");
      out[s].norms.push_back(v);
    }
    int expected = 0;
    const int n = static_cast<int>(out[s].norms.size());
    for (int64_t w = file.span_offsets[s]; w < file.span_offsets[s + 1]; ++w) {
      int a = file.spans[static_cast<std::size_t>(2 * w)], b = file.spans[static_cast<std::size_t>(2 * w + 1)];
      if (a != expected || b < a || b >= n) throw InputError(path, 0, where + "word spans must cover the pieces contiguously");
      out[s].spans.emplace_back(a, b);
      expected = b + 1;
    }
    if (expected != n) throw InputError(path, 0, where + "word spans do not cover all pieces");
  }
  return out;
}

std::vector<SentenceGateNorms> norms_of_the_previous_step(std::vector<SentenceGateNorms> gates) {
  for (auto& g : gates) {
    if (g.norms.empty()) continue;
    g.norms.pop_back();  // the last step's norm: the piece after the last is </s>
    g.norms.insert(g.norms.begin(), -std::numeric_limits<double>::infinity());
  }
  return gates;
}

std::map<std::string, long> gate_pos_histogram(const std::vector<SentenceGateNorms>& gates,
                                               const std::vector<ConlluSentence>& target, const std::string& conllu_path) {
  if (gates.size() != target.size())
    throw InputError(conllu_path, 0, std::to_string(target.size()) + " sentences, the gate norms have " + std::to_string(gates.size()));
  std::map<std::string, long> hist;
  for (std::size_t s = 0; s < gates.size(); ++s) {
    if (gates[s].spans.size() != target[s].words.size())
      throw InputError(conllu_path, target[s].first_line, "sentence " + std::to_string(s + 1) + " has " +
                                                              std::to_string(target[s].words.size()) + " words, the gate norms " +
                                                              std::to_string(gates[s].spans.size()));
    if (gates[s].norms.empty()) continue;
    int best = 0;
    for (int k = 1; k < static_cast<int>(gates[s].norms.size()); ++k)
      if (gates[s].norms[k] > gates[s].norms[best]) best = k;
    if (!std::isfinite(gates[s].norms[best])) continue;
    for (std::size_t w = 0; w < gates[s].spans.size(); ++w)
      if (best >= gates[s].spans[w].first && best <= gates[s].spans[w].second) ++hist[target[s].words[w].upos];
  }
  return hist;
}

GatePosChance gate_pos_chance(const std::vector<std::vector<std::pair<int, int>>>& target_spans,
                              const std::vector<ConlluSentence>& target, const std::string& conllu_path) {
  if (target_spans.size() != target.size())
    throw InputError(conllu_path, 0, std::to_string(target.size()) + " sentences, the target text has " + std::to_string(target_spans.size()));
  GatePosChance chance;
  for (std::size_t s = 0; s < target.size(); ++s) {
    const auto& spans = target_spans[s];
    if (spans.size() != target[s].words.size())
      throw InputError(conllu_path, target[s].first_line, "sentence " + std::to_string(s + 1) + " has " +
                                                              std::to_string(target[s].words.size()) + " words, the target text " +
                                                              std::to_string(spans.size()));
    if (spans.empty()) continue;
    ++chance.sentences;
    ++chance.first_word[target[s].words[0].upos];
    for (std::size_t w = 0; w < spans.size(); ++w) {
      const auto& tag = target[s].words[w].upos;
      ++chance.words[tag];
      chance.pieces[tag] += spans[w].second - spans[w].first + 1;
    }
  }
  return chance;
}

std::vector<SentenceGateNorms> gate_norms_from_analysis(const std::string& path, const std::string& tensor,
                                                        const std::vector<std::vector<std::pair<int, int>>>& target_spans) {
  H5File f(path, H5File::Mode::Read);
  if (!f.has_attribute("format") || f.attribute("format") != kAnalysisFormat)
    throw InputError(path, 0, std::string("not an analysis dump (expected format ") + kAnalysisFormat + ")");
  if (!f.has(tensor)) throw InputError(path, 0, "no analysis tensor '" + tensor + "' in the dump");
  const auto values = read_ragged<float>(f, {tensor, tensor + "_offsets", tensor + "_shapes"});
  if (values.size() != target_spans.size())
    throw InputError(path, 0, std::to_string(values.size()) + " sentences, the target text has " + std::to_string(target_spans.size()));
  std::vector<SentenceGateNorms> out(values.size());
  for (std::size_t s = 0; s < values.size(); ++s) {
    const auto shape = values.shape(s);
    if (shape.size() != 1) throw InputError(path, 0, "tensor '" + tensor + "' is not one value per target step");
    const int pieces = target_spans[s].empty() ? 0 : target_spans[s].back().second + 1;
    if (shape[0] != pieces + 1)  // + </s>
      throw InputError(path, 0, "sentence " + std::to_string(s + 1) + ": " + std::to_string(shape[0]) + " steps of '" + tensor +
                                    "', the target text has " + std::to_string(pieces) + " pieces (+ </s>)");
    out[s].norms.assign(values.block(s), values.block(s) + pieces);
    out[s].spans = target_spans[s];
  }
  return out;
}

}  // namespace synmt::eval
