#include "preprocess/dataset_file.h"

#include <algorithm>
#include <stdexcept>

#include "core/atomic_file.h"
#include "core/special_tokens.h"
#include "core/error.h"
#include "core/hdf5_file.h"
#include "core/ragged.h"
#include "core/strings.h"

namespace synmt {

namespace {
std::size_t unknown_count(const int32_t* first, const int32_t* last) {
  return static_cast<std::size_t>(std::count(first, last, special::kUnk));
}

void append_pair(ParallelData& d, const std::vector<int32_t>& src, const std::vector<int32_t>& tgt) {
  d.src_tokens.insert(d.src_tokens.end(), src.begin(), src.end());
  d.tgt_tokens.insert(d.tgt_tokens.end(), tgt.begin(), tgt.end());
  d.src_offsets.push_back(static_cast<int64_t>(d.src_tokens.size()));
  d.tgt_offsets.push_back(static_cast<int64_t>(d.tgt_tokens.size()));
}
}  // namespace

void ParallelData::add(const std::vector<int32_t>& src, const std::vector<int32_t>& tgt) {
  if (has_unknown_forms()) {  // a dataset with forms keeps them for every sentence
    if (unknown_count(src.data(), src.data() + src.size()) != 0)
      throw std::invalid_argument("ParallelData::add: a sentence with <unk> tokens but no surface forms in a dataset that has them");
    src_unknown_offsets.push_back(static_cast<int64_t>(src_unknown_forms.size()));
  }
  append_pair(*this, src, tgt);
}

void ParallelData::add(const std::vector<int32_t>& src, const std::vector<int32_t>& tgt, const std::vector<std::string>& unknown_forms) {
  if (unknown_count(src.data(), src.data() + src.size()) != unknown_forms.size())
    throw std::invalid_argument("ParallelData::add: " + std::to_string(unknown_forms.size()) + " surface forms for " +
                                std::to_string(unknown_count(src.data(), src.data() + src.size())) + " <unk> tokens");
  if (!has_unknown_forms()) {
    if (size() != 0) throw std::invalid_argument("ParallelData::add: surface forms after sentences without them");
    src_unknown_offsets.push_back(0);
  }
  src_unknown_forms.insert(src_unknown_forms.end(), unknown_forms.begin(), unknown_forms.end());
  src_unknown_offsets.push_back(static_cast<int64_t>(src_unknown_forms.size()));
  append_pair(*this, src, tgt);
}

std::vector<std::string> unknown_forms_of(const std::vector<std::string>& pieces, const std::vector<int32_t>& ids) {
  if (pieces.size() != ids.size()) throw std::invalid_argument("unknown_forms_of: pieces and ids differ in length");
  std::vector<std::string> forms;
  for (std::size_t k = 0; k < ids.size(); ++k)
    if (ids[k] == special::kUnk) forms.push_back(pieces[k]);
  return forms;
}

std::vector<std::string> ParallelData::unknown_forms(std::size_t i) const {
  if (!has_unknown_forms()) return {};
  return {src_unknown_forms.begin() + src_unknown_offsets[i], src_unknown_forms.begin() + src_unknown_offsets[i + 1]};
}

std::vector<std::pair<int32_t, int32_t>> ParallelData::src_word_spans(std::size_t i) const {
  std::vector<std::pair<int32_t, int32_t>> spans;
  for (int64_t k = src_offsets[i]; k < src_offsets[i + 1]; ++k) {
    const auto pos = static_cast<int32_t>(k - src_offsets[i]);
    if (spans.empty() || src_word[static_cast<std::size_t>(k)] != src_word[static_cast<std::size_t>(k - 1)]) spans.emplace_back(pos, pos);
    else spans.back().second = pos;
  }
  return spans;
}

void write_parallel_data(const std::string& path, const ParallelData& data) {
  // a writer bug must not produce a file every reader refuses later
  for (std::size_t n : {data.src_word.size(), data.src_parent_first.size(), data.src_label.size(), data.src_upos.size(),
                        data.src_parent_middle.size()})
    if (n != 0 && n != data.src_tokens.size()) throw std::logic_error("per-token source arrays do not match the source tokens");
  if (data.has_source_upos() && !data.has_source_syntax()) throw std::logic_error("src_upos without the source syntax arrays");
  if (data.has_unknown_forms() && data.src_unknown_offsets.size() != data.src_offsets.size())
    throw std::logic_error("surface forms of <unk> tokens for only some sentences");
  AtomicPath out(path);
  {
    H5File file(out.temp_path(), H5File::Mode::Create);
    file.write("src_tokens", data.src_tokens);
    file.write("src_offsets", data.src_offsets);
    file.write("tgt_tokens", data.tgt_tokens);
    file.write("tgt_offsets", data.tgt_offsets);
    file.set_attribute("format", kDatasetFormat);
    file.set_attribute("num_sentences", std::to_string(data.size()));
    if (data.has_word_spans()) file.write("src_word", data.src_word);
    if (data.has_source_syntax()) {
      file.write("src_parent_middle", data.src_parent_middle);
      file.write("src_parent_first", data.src_parent_first);
      file.write("src_label", data.src_label);
      file.set_attribute("src_label_names", join_lines(data.src_label_names));
    }
    if (data.has_unknown_forms()) {  // one byte string, the forms separated by newlines (a token holds none)
      std::string joined;
      for (const auto& form : data.src_unknown_forms) joined += form + "\n";
      file.write("src_unknown_forms", std::vector<uint8_t>(joined.begin(), joined.end()));
    }
    if (data.has_source_upos()) {
      file.write("src_upos", data.src_upos);
      file.set_attribute("src_upos_names", join_lines(data.src_upos_names));
    }
    for (const auto& [k, v] : data.attributes) file.set_attribute(k, v);
    file.close();  // flushes: a full disk fails here, before the rename
  }
  out.commit();
}

namespace {
// Word indices: each sentence's start at word 0 and go up by 0 or 1 (words are contiguous).
void check_words(const std::string& path, const ParallelData& d) {
  for (std::size_t i = 0; i < d.size(); ++i)
    for (int64_t k = d.src_offsets[i]; k < d.src_offsets[i + 1]; ++k) {
      const int32_t w = d.src_word[static_cast<std::size_t>(k)];
      const int32_t prev = k == d.src_offsets[i] ? -1 : d.src_word[static_cast<std::size_t>(k - 1)];
      if (w != prev && w != prev + 1)
        throw InputError(path, 0, "sentence " + std::to_string(i + 1) + ": src_word is not a run of consecutive word indices (corrupt dataset)");
    }
}

// Ids below the inventory size; the size attribute, when there is one, equal to the name count.
void check_ids(const std::string& path, const H5File& file, const std::vector<int32_t>& ids, const std::vector<std::string>& names,
               const char* array, const char* count_attr) {
  if (file.has_attribute(count_attr) && file.attribute(count_attr) != std::to_string(names.size()))
    throw InputError(path, 0, std::string(count_attr) + "=" + file.attribute(count_attr) + " but the name list has " +
                                  std::to_string(names.size()) + " names (inconsistent dataset)");
  for (int32_t id : ids)
    if (id < 0 || static_cast<std::size_t>(id) >= names.size())
      throw InputError(path, 0, std::string(array) + " holds id " + std::to_string(id) + " outside its " + std::to_string(names.size()) +
                                    " names (inconsistent dataset)");
}

void read_source_features(const H5File& file, const std::string& path, ParallelData& d) {
  const std::size_t n = d.src_tokens.size();
  auto require_size = [&](std::size_t size, const char* array) {
    if (size != n) throw InputError(path, 0, std::string(array) + " has " + std::to_string(size) + " entries for " + std::to_string(n) +
                                                 " source tokens (corrupt dataset)");
  };
  if (file.has("src_word")) {
    d.src_word = file.read_int32("src_word");
    require_size(d.src_word.size(), "src_word");
    check_words(path, d);
  }
  if (file.has("src_parent_middle")) {
    d.src_parent_middle = file.read_float("src_parent_middle");
    d.src_parent_first = file.read_int32("src_parent_first");
    d.src_label = file.read_int32("src_label");
    require_size(d.src_parent_middle.size(), "src_parent_middle");
    require_size(d.src_parent_first.size(), "src_parent_first");
    require_size(d.src_label.size(), "src_label");
    if (!d.has_word_spans()) throw InputError(path, 0, "source syntax without src_word (corrupt dataset)");
    for (std::size_t i = 0; i < d.size(); ++i) {
      const int64_t len = d.src_offsets[i + 1] - d.src_offsets[i];
      for (int64_t k = d.src_offsets[i]; k < d.src_offsets[i + 1]; ++k) {
        const auto u = static_cast<std::size_t>(k);
        // written so that NaN fails too
        if (d.src_parent_first[u] < 0 || d.src_parent_first[u] >= len ||
            !(d.src_parent_middle[u] >= 0.0f && d.src_parent_middle[u] <= static_cast<float>(len - 1)))
          throw InputError(path, 0, "sentence " + std::to_string(i + 1) + ": a parent position is outside the sentence (corrupt dataset)");
      }
    }
    d.src_label_names = split_lines(file.attribute("src_label_names"));
    check_ids(path, file, d.src_label, d.src_label_names, "src_label", kSrcLabelCountAttr);
  }
  if (file.has("src_unknown_forms")) {  // one form per <unk> token, sentence by sentence
    const auto bytes = file.read_bytes("src_unknown_forms");
    if (!bytes.empty() && bytes.back() != '\n') throw InputError(path, 0, "src_unknown_forms does not end with a newline (corrupt dataset)");
    std::string form;
    for (uint8_t c : bytes) {
      if (c != '\n') {
        form += static_cast<char>(c);
        continue;
      }
      if (form.empty()) throw InputError(path, 0, "src_unknown_forms holds an empty form (corrupt dataset)");
      d.src_unknown_forms.push_back(std::move(form));
      form.clear();
    }
    d.src_unknown_offsets = {0};
    for (std::size_t i = 0; i < d.size(); ++i)
      d.src_unknown_offsets.push_back(d.src_unknown_offsets.back() +
                                      static_cast<int64_t>(unknown_count(d.src_tokens.data() + d.src_offsets[i], d.src_tokens.data() + d.src_offsets[i + 1])));
    if (d.src_unknown_offsets.back() != static_cast<int64_t>(d.src_unknown_forms.size()))
      throw InputError(path, 0, "src_unknown_forms has " + std::to_string(d.src_unknown_forms.size()) + " forms for " +
                                    std::to_string(d.src_unknown_offsets.back()) + " <unk> source tokens (corrupt dataset)");
  }
  if (file.has("src_upos")) {
    if (!d.has_source_syntax()) throw InputError(path, 0, "src_upos without the source syntax arrays (corrupt dataset)");
    d.src_upos = file.read_int32("src_upos");
    require_size(d.src_upos.size(), "src_upos");
    d.src_upos_names = split_lines(file.attribute("src_upos_names"));
    check_ids(path, file, d.src_upos, d.src_upos_names, "src_upos", kSrcUposCountAttr);
  }
}

}  // namespace

ParallelData read_parallel_data(const std::string& path, const std::string& src_vocab_hash, const std::string& tgt_vocab_hash,
                                const std::string& src_label_inventory_hash, const std::string& src_upos_inventory_hash) {
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
  check_offsets(path, d.src_offsets, d.src_tokens.size(), "source tokens: ");
  check_offsets(path, d.tgt_offsets, d.tgt_tokens.size(), "target tokens: ");
  if (d.src_offsets.size() != d.tgt_offsets.size())
    throw InputError(path, 0, "source and target sentence counts differ");
  read_source_features(file, path, d);
  for (auto [attr, expected] : {std::pair{kSrcLabelInventoryAttr, src_label_inventory_hash}, std::pair{kSrcUposInventoryAttr, src_upos_inventory_hash}}) {
    if (expected.empty()) continue;
    if (attr == std::string(kSrcLabelInventoryAttr) ? !d.has_source_syntax() : !d.has_source_upos()) continue;
    if (!file.has_attribute(attr))
      throw InputError(path, 0, std::string("built without an inventory (no ") + attr + "): its ids are not the pair's; rebuild the dataset");
    if (file.attribute(attr) != expected)
      throw InputError(path, 0, std::string("inventory mismatch: dataset was built with ") + attr + "=" + file.attribute(attr) +
                                    " but the given inventory has " + expected);
  }
  for (const char* a : {"src_vocab_sha256", "tgt_vocab_sha256", "src_sha256", "tgt_sha256", "codes_sha256", "tool_version",
                        "src_parse_parser_id", "src_parse_corpus_sha256", "src_subwords", kSrcLabelInventoryAttr, kSrcLabelCountAttr,
                        kSrcUposInventoryAttr, kSrcUposCountAttr, "src_label_unknown_words", "src_upos_unknown_words"})
    if (file.has_attribute(a)) d.attributes[a] = file.attribute(a);
  return d;
}

}  // namespace synmt
