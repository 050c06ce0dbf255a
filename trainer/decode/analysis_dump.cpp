#include "trainer/decode/analysis_dump.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/hdf5_file.h"
#include "core/ragged.h"
#include "core/strings.h"
#include "trainer/data/batches.h"

namespace synmt {

void dump_teacher_forced_analysis(Seq2SeqModel& model, const ParallelData& data, const std::vector<std::string>& names,
                                  int batch_size, const torch::Device& device, const std::string& path) {
  const auto available = model.analysis_axes();
  std::vector<std::vector<std::string>> axes;
  for (const auto& name : names) {
    auto it = available.find(name);
    if (it == available.end()) {
      std::string known;
      for (const auto& [n, a] : available) known += (known.empty() ? "" : ", ") + n;
      throw ConfigError("--dump " + name + ": the model has no such analysis tensor (it has: " + (known.empty() ? "none" : known) + ")");
    }
    axes.push_back(split_nonempty(it->second, ' '));
  }
  torch::NoGradGuard no_grad;
  model.eval();
  ForwardRequest request;
  request.analysis = true;
  std::vector<Ragged<float>> arrays(names.size());
  for (std::size_t s = 0; s < data.size(); s += static_cast<std::size_t>(batch_size)) {
    std::vector<int64_t> ids;
    for (std::size_t i = s; i < std::min(data.size(), s + static_cast<std::size_t>(batch_size)); ++i) ids.push_back(static_cast<int64_t>(i));
    Batch b = to_device(make_data_batch(data, ids), device);
    check_required_features(model, b.source, "--dump");
    ModelOutput out = model.forward(b.source, b.tgt_in, request);
    for (std::size_t k = 0; k < names.size(); ++k) {
      auto it = out.analysis.find(names[k]);
      if (it == out.analysis.end()) throw ConfigError("--dump " + names[k] + ": the model did not produce it");
      auto all = it->second.to(torch::kCPU, torch::kFloat32);
      if (all.dim() != static_cast<int64_t>(axes[k].size()) + 1)
        throw std::logic_error("analysis tensor " + names[k] + " has rank " + std::to_string(all.dim()) + ", its axes say " +
                               std::to_string(axes[k].size() + 1));
      for (std::size_t j = 0; j < ids.size(); ++j) {
        const auto i = static_cast<std::size_t>(ids[j]);
        const int64_t src_len = data.src_offsets[i + 1] - data.src_offsets[i];
        const int64_t tgt_len = data.tgt_offsets[i + 1] - data.tgt_offsets[i] + 1;  // </s>
        auto t = all[static_cast<int64_t>(j)];
        std::vector<int32_t> shape;
        for (std::size_t a = 0; a < axes[k].size(); ++a) {
          const auto& axis = axes[k][a];
          if (axis == "src" || axis == "tgt") t = t.narrow(static_cast<int64_t>(a), 0, axis == "src" ? src_len : tgt_len);
          shape.push_back(static_cast<int32_t>(t.size(static_cast<int64_t>(a))));
        }
        t = t.contiguous();
        arrays[k].add(t.data_ptr<float>(), shape);
      }
    }
  }
  Ragged<int32_t> spans;
  if (data.has_word_spans())
    for (std::size_t i = 0; i < data.size(); ++i) {
      std::vector<int32_t> flat;
      for (const auto& [first, last] : data.src_word_spans(i)) flat.insert(flat.end(), {first, last});
      spans.add(flat.data(), {static_cast<int32_t>(flat.size() / 2), 2});
    }
  AtomicPath atomic(path);
  {
    H5File f(atomic.temp_path(), H5File::Mode::Create);
    if (data.has_word_spans()) write_ragged(f, {"word_spans", "word_spans_offsets", "word_spans_shapes"}, spans);
    for (std::size_t k = 0; k < names.size(); ++k) {
      std::string stored = names[k];
      for (auto& c : stored)
        if (c == '/') c = '.';
      write_ragged(f, {stored, stored + "_offsets", stored + "_shapes"}, arrays[k]);
      f.set_attribute(stored + "_axes", available.at(names[k]));
    }
    f.set_attribute("format", kAnalysisFormat);
    f.set_attribute("mode", "teacher-forced");
    f.close();  // flushes: a full disk fails here, before the rename
  }
  atomic.commit();
}

}  // namespace synmt
