#include "parse/parse_cache.h"

#include <algorithm>
#include <filesystem>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/hdf5_file.h"
#include "core/ragged.h"
#include "core/strings.h"
#include "core/sha256.h"

namespace synmt::parse {
namespace {

int32_t intern(std::vector<std::string>& names, const std::string& name) {
  auto it = std::find(names.begin(), names.end(), name);
  if (it != names.end()) return static_cast<int32_t>(it - names.begin());
  names.push_back(name);
  return static_cast<int32_t>(names.size() - 1);
}

template <class T>
std::string_view bytes(const std::vector<T>& v) {
  return {reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T)};
}

}  // namespace

std::string content_checksum(const ParsedCorpus& p) {
  std::string all;
  for (auto part : {bytes(p.heads), bytes(p.labels), bytes(p.upos), bytes(p.offsets)}) all.append(part);
  all += join_lines(p.label_names) + "\x1f" + join_lines(p.upos_names);
  return sha256_hex(all);
}

void ParsedCorpus::add(const std::vector<int32_t>& h, const std::vector<std::string>& l, const std::vector<std::string>& u) {
  if (h.size() != l.size() || h.size() != u.size())
    throw std::invalid_argument("heads, labels and UPOS of a sentence differ in length");
  heads.insert(heads.end(), h.begin(), h.end());
  for (const auto& x : l) labels.push_back(intern(label_names, x));
  for (const auto& x : u) upos.push_back(intern(upos_names, x));
  offsets.push_back(static_cast<int64_t>(heads.size()));
}

std::vector<int32_t> ParsedCorpus::sentence_heads(std::size_t i) const {
  return {heads.begin() + offsets[i], heads.begin() + offsets[i + 1]};
}

std::vector<int32_t> ParsedCorpus::sentence_labels(std::size_t i) const {
  return {labels.begin() + offsets[i], labels.begin() + offsets[i + 1]};
}

void write_parse_cache(const std::string& path, const ParsedCorpus& p) {
  AtomicPath out(path);
  {
    H5File f(out.temp_path(), H5File::Mode::Create);
    f.write("heads", p.heads);
    f.write("labels", p.labels);
    f.write("upos", p.upos);
    f.write("offsets", p.offsets);
    f.set_attribute("format", kParseCacheFormat);
    f.set_attribute("corpus_sha256", p.corpus_sha256);
    f.set_attribute("parser_id", p.parser_id);
    f.set_attribute("label_names", join_lines(p.label_names));
    f.set_attribute("upos_names", join_lines(p.upos_names));
    f.set_attribute("content_sha256", content_checksum(p));
    f.close();  // flushes: a full disk fails here, before the rename
  }
  out.commit();
}

ParsedCorpus read_parse_cache(const std::string& path, const std::string& expected_corpus, const std::string& expected_parser) {
  if (!std::filesystem::exists(path)) throw InputError(path, 0, "parse cache not found");
  H5File f(path, H5File::Mode::Read);
  if (!f.has_attribute("format") || f.attribute("format") != kParseCacheFormat)
    throw InputError(path, 0, std::string("not a parse cache of format ") + kParseCacheFormat);
  ParsedCorpus p;
  p.corpus_sha256 = f.attribute("corpus_sha256");
  p.parser_id = f.attribute("parser_id");
  if (!expected_corpus.empty() && p.corpus_sha256 != expected_corpus)
    throw InputError(path, 0, "parse cache belongs to another corpus (sha256 " + p.corpus_sha256 + ", expected " + expected_corpus + ")");
  if (!expected_parser.empty() && p.parser_id != expected_parser)
    throw InputError(path, 0, "parse cache was made by another parser ('" + p.parser_id + "', expected '" + expected_parser + "')");
  p.heads = f.read_int32("heads");
  p.labels = f.read_int32("labels");
  p.upos = f.read_int32("upos");
  p.offsets = f.read_int64("offsets");
  p.label_names = split_lines(f.attribute("label_names"));
  p.upos_names = split_lines(f.attribute("upos_names"));
  if (content_checksum(p) != f.attribute("content_sha256"))
    throw InputError(path, 0, "parse cache is corrupt (its arrays do not match the stored checksum)");
  // layout (a valid checksum over a badly written file is still refused)
  check_offsets(path, p.offsets, p.heads.size(), "parse cache heads: ");
  if (p.labels.size() != p.heads.size() || p.upos.size() != p.heads.size())
    throw InputError(path, 0, "parse cache layout is inconsistent (array lengths)");
  for (std::size_t s = 0; s < p.size(); ++s)
    for (int64_t k = p.offsets[s]; k < p.offsets[s + 1]; ++k)
      if (p.heads[k] < 0 || p.heads[k] > p.offsets[s + 1] - p.offsets[s])
        throw InputError(path, 0, "sentence " + std::to_string(s + 1) + ": head out of range");
  for (auto [ids, names, what] : {std::tuple{&p.labels, &p.label_names, "label"}, std::tuple{&p.upos, &p.upos_names, "UPOS"}})
    for (int32_t id : *ids)
      if (id < 0 || static_cast<std::size_t>(id) >= names->size())
        throw InputError(path, 0, std::string("a ") + what + " id (" + std::to_string(id) + ") outside the cache's " +
                                      std::to_string(names->size()) + " names (corrupt cache)");
  return p;
}

bool parse_cache_matches(const std::string& path, const std::string& corpus_sha256, const std::string& parser_id) {
  try {
    read_parse_cache(path, corpus_sha256, parser_id);
    return true;
  } catch (const InputError&) {
    return false;
  }
}

}  // namespace synmt::parse
