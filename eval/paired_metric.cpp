#include "eval/paired_metric.h"

#include <algorithm>
#include <memory>
#include <thread>

#include "core/error.h"

namespace synmt::eval {
namespace {
SegmentStats to_rows(const std::vector<BleuStats>& stats) {
  SegmentStats rows;
  for (const auto& s : stats) {
    std::vector<double> r = {double(s.sys_len), double(s.ref_len)};
    for (auto c : s.correct) r.push_back(double(c));
    for (auto t : s.total) r.push_back(double(t));
    rows.push_back(std::move(r));
  }
  return rows;
}

BleuStats from_row(const std::vector<double>& r) {
  BleuStats s;
  s.sys_len = static_cast<int64_t>(r[0]);
  s.ref_len = static_cast<int64_t>(r[1]);
  for (int n = 0; n < 4; ++n) {
    s.correct[n] = static_cast<int64_t>(r[2 + n]);
    s.total[n] = static_cast<int64_t>(r[6 + n]);
  }
  return s;
}
}  // namespace

PairedMetric paired_metric(const std::string& metric, const std::vector<std::vector<std::string>>& outputs,
                           const std::vector<std::vector<std::string>>& refs, const BleuOptions& bleu_options,
                           const ChrfOptions& chrf_options, const RibesOptions& ribes_options, int threads) {
  PairedMetric p;
  const auto nthreads = static_cast<std::size_t>(std::max(1, threads));
  if (metric == "bleu") {
    auto bleu = std::make_shared<Bleu>(bleu_options);
    const auto prepared = bleu->prepare_references(refs);
    p.stats.resize(outputs.size());
    std::vector<std::thread> pool;
    for (std::size_t t = 0; t < nthreads; ++t)
      pool.emplace_back([&, t]() {
        for (std::size_t i = t; i < outputs.size(); i += nthreads) p.stats[i] = to_rows(bleu->corpus_stats(outputs[i], prepared));
      });
    for (auto& th : pool) th.join();
    p.exact = [bleu](const std::vector<double>& s) { return bleu->score(from_row(s)).score; };
    p.resampled = [bleu](const std::vector<double>& s) { return bleu->score_float32(from_row(s)).score; };
    p.signature = bleu->signature(refs.size());
  } else if (metric == "chrf") {
    auto chrf = std::make_shared<Chrf>(chrf_options);
    for (const auto& o : outputs) p.stats.push_back(chrf->corpus_stats(o, refs));
    p.exact = [chrf](const std::vector<double>& s) { return chrf->score<double>(s); };
    p.resampled = [chrf](const std::vector<double>& s) { return chrf->score<float>(s); };
    p.signature = chrf->signature(refs.size());
  } else if (metric == "ribes") {
    Ribes ribes(ribes_options);
    for (const auto& o : outputs) {
      SegmentStats rows;
      for (const auto& v : ribes.sentence_scores(o, refs)) rows.push_back({v ? *v : 0.0, v ? 1.0 : 0.0});
      p.stats.push_back(std::move(rows));
    }
    p.exact = [](const std::vector<double>& s) { return s[1] > 0 ? s[0] / s[1] : 0.0; };
    p.resampled = p.exact;
    p.signature = ribes.signature(refs.size());
  } else {
    throw ConfigError("--metric: expected bleu, chrf or ribes, got '" + metric + "'");
  }
  return p;
}

Json paired_report(const std::vector<std::string>& names, const std::vector<BootstrapSummary>& results,
                   const std::string& signature, bool bootstrap) {
  Json out = Json::array();
  for (std::size_t i = 0; i < names.size(); ++i) {
    Json row = {{"system", names[i]}, {"baseline", i == 0}, {"score", results[i].score},
                {"mean", results[i].mean}, {"ci", results[i].ci}, {"signature", signature}};
    row["p_value"] = i == 0 ? Json(nullptr) : Json(results[i].p_value);
    if (bootstrap) row["koehn_p_value"] = i == 0 ? Json(nullptr) : Json(results[i].koehn_p_value);
    out.push_back(row);
  }
  return out;
}

}  // namespace synmt::eval
