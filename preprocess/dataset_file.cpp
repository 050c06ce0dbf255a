#include "preprocess/dataset_file.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/hdf5_file.h"

namespace synmt {

void ParallelData::add(const std::vector<int32_t>& src, const std::vector<int32_t>& tgt) {
  src_tokens.insert(src_tokens.end(), src.begin(), src.end());
  tgt_tokens.insert(tgt_tokens.end(), tgt.begin(), tgt.end());
  src_offsets.push_back(static_cast<int64_t>(src_tokens.size()));
  tgt_offsets.push_back(static_cast<int64_t>(tgt_tokens.size()));
}

void write_parallel_data(const std::string& path, const ParallelData& data) {
  AtomicPath out(path);
  {
    H5File file(out.temp_path(), H5File::Mode::Create);
    file.write("src_tokens", data.src_tokens);
    file.write("src_offsets", data.src_offsets);
    file.write("tgt_tokens", data.tgt_tokens);
    file.write("tgt_offsets", data.tgt_offsets);
    file.set_attribute("format", kDatasetFormat);
    file.set_attribute("num_sentences", std::to_string(data.size()));
    if (data.has_source_syntax()) {
      file.write("src_parent_middle", data.src_parent_middle);
      file.write("src_parent_first", data.src_parent_first);
      file.write("src_label", data.src_label);
      file.write("src_word", data.src_word);
      std::string names;
      for (const auto& n : data.src_label_names) names += n + "\n";
      file.set_attribute("src_label_names", names);
    }
    for (const auto& [k, v] : data.attributes) file.set_attribute(k, v);
  }
  out.commit();
}

namespace {
void check_offsets(const std::string& path, const std::vector<int64_t>& offsets, std::size_t tokens, const char* side) {
  if (offsets.empty() || offsets.front() != 0 || static_cast<std::size_t>(offsets.back()) != tokens)
    throw InputError(path, 0, std::string(side) + " offsets do not cover the token array (corrupt dataset)");
  for (std::size_t i = 1; i < offsets.size(); ++i)
    if (offsets[i] < offsets[i - 1]) throw InputError(path, 0, std::string(side) + " offsets are not monotone");
}
}  // namespace

ParallelData read_parallel_data(const std::string& path, const std::string& src_vocab_hash,
                                const std::string& tgt_vocab_hash) {
  H5File file(path, H5File::Mode::Read);
  if (!file.has_attribute("format") || file.attribute("format") != kDatasetFormat)
    throw InputError(path, 0, std::string("not a synmt dataset (expected format ") + kDatasetFormat + ")");
  for (auto [attr, expected] : {std::pair{"src_vocab_sha256", src_vocab_hash}, std::pair{"tgt_vocab_sha256", tgt_vocab_hash}}) {
    std::string actual = file.attribute(attr);
    if (!expected.empty() && actual != expected)
      throw InputError(path, 0, std::string("vocabulary mismatch: dataset was built with ") + attr + "=" + actual +
                                    " but the given vocabulary has " + expected);
  }
  ParallelData d;
  d.src_tokens = file.read_int32("src_tokens");
  d.src_offsets = file.read_int64("src_offsets");
  d.tgt_tokens = file.read_int32("tgt_tokens");
  d.tgt_offsets = file.read_int64("tgt_offsets");
  check_offsets(path, d.src_offsets, d.src_tokens.size(), "source");
  check_offsets(path, d.tgt_offsets, d.tgt_tokens.size(), "target");
  if (d.src_offsets.size() != d.tgt_offsets.size())
    throw InputError(path, 0, "source and target sentence counts differ");
  if (file.has("src_parent_middle")) {
    d.src_parent_middle = file.read_float("src_parent_middle");
    d.src_parent_first = file.read_int32("src_parent_first");
    d.src_label = file.read_int32("src_label");
    d.src_word = file.read_int32("src_word");
    for (auto* v : {&d.src_parent_first, &d.src_label, &d.src_word})
      if (v->size() != d.src_tokens.size()) throw InputError(path, 0, "source syntax arrays do not match the source tokens (corrupt dataset)");
    if (d.src_parent_middle.size() != d.src_tokens.size())
      throw InputError(path, 0, "source parent positions do not match the source tokens (corrupt dataset)");
    const std::string names = file.attribute("src_label_names");
    for (std::size_t b = 0, e; (e = names.find('\n', b)) != std::string::npos; b = e + 1) d.src_label_names.push_back(names.substr(b, e - b));
  }
  for (const char* a : {"src_vocab_sha256", "tgt_vocab_sha256", "src_sha256", "tgt_sha256", "tool_version", "src_parse_parser_id"})
    if (file.has_attribute(a)) d.attributes[a] = file.attribute(a);
  return d;
}

}  // namespace synmt
