// The parse-cache reader over caches planned as synmt-parse writes them (heads, labels, UPOS,
// offsets, name lists) and then, for about half of the inputs, damaged (tests/fuzz/h5_builder.h).
// Three of four go through write_parse_cache, which stores a valid content checksum over whatever
// arrays it is given, so that the layout checks behind the checksum are reached; the rest are
// written as planned, their stored checksum that of the undamaged arrays (the checksum check).
// A valid cache must be accepted; an accepted one must satisfy the reader's guarantees.
#include <fuzzer/FuzzedDataProvider.h>

#include <string>

#include "core/strings.h"
#include "parse/parse_cache.h"
#include "tests/fuzz/fuzz_util.h"
#include "tests/fuzz/h5_builder.h"

namespace {

using synmt::fuzz::require;

synmt::parse::ParsedCorpus corpus_of(const synmt::fuzz::H5Plan& plan) {
  synmt::parse::ParsedCorpus p;
  p.corpus_sha256 = plan.get_attribute("corpus_sha256");
  p.parser_id = plan.get_attribute("parser_id");
  p.heads = plan.get<int32_t>("heads");
  p.labels = plan.get<int32_t>("labels");
  p.upos = plan.get<int32_t>("upos");
  p.offsets = plan.get<int64_t>("offsets");
  p.label_names = synmt::split_lines(plan.get_attribute("label_names"));
  p.upos_names = synmt::split_lines(plan.get_attribute("upos_names"));
  return p;
}

void check_accepted(const synmt::parse::ParsedCorpus& p) {
  require(!p.offsets.empty() && p.offsets.front() == 0 && static_cast<std::size_t>(p.offsets.back()) == p.heads.size(),
          "accepted offsets that do not cover the heads");
  require(p.labels.size() == p.heads.size() && p.upos.size() == p.heads.size(), "accepted arrays of different lengths");
  for (std::size_t i = 0; i < p.size(); ++i) {
    require(p.offsets[i] <= p.offsets[i + 1], "accepted offsets that decrease");
    const auto heads = p.sentence_heads(i);
    for (int32_t h : heads) require(h >= 0 && static_cast<std::size_t>(h) <= heads.size(), "accepted a head outside its sentence");
    for (int32_t id : p.sentence_labels(i))
      require(id >= 0 && static_cast<std::size_t>(id) < p.label_names.size(), "accepted a label id outside its names");
  }
  for (int32_t id : p.upos) require(id >= 0 && static_cast<std::size_t>(id) < p.upos_names.size(), "accepted a UPOS id outside its names");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace synmt;
  FuzzedDataProvider in(data, size);
  const std::string path = fuzz::scratch_path("cache.h5");
  fuzz::H5Plan plan(in);
  std::vector<int64_t> lengths;
  std::vector<int32_t> heads, labels, upos;
  for (int64_t s = plan.draw(0, 5); s > 0; --s) {
    const int64_t n = plan.draw(0, 6);
    lengths.push_back(n);
    for (int64_t k = 0; k < n; ++k) {
      heads.push_back(static_cast<int32_t>(plan.draw(0, n)));  // 1-based, 0 = the root
      labels.push_back(static_cast<int32_t>(plan.draw(0, 2)));
      upos.push_back(static_cast<int32_t>(plan.draw(0, 2)));
    }
  }
  plan.attribute("format", parse::kParseCacheFormat);
  plan.attribute("corpus_sha256", "c");
  plan.attribute("parser_id", "p");
  plan.attribute("label_names", "nsubj\nobj\nroot\n");
  plan.attribute("upos_names", "NOUN\nVERB\nPUNCT\n");
  plan.array("heads", heads);
  plan.array("labels", labels);
  plan.array("upos", upos);
  plan.array("offsets", fuzz::H5Plan::offsets_of(lengths));
  const bool through_writer = !plan.chance(4);
  if (!through_writer) plan.attribute("content_sha256", parse::content_checksum(corpus_of(plan)));
  const int damages = plan.damage();
  if (through_writer)
    parse::write_parse_cache(path, corpus_of(plan));  // its own format attribute and a checksum over what it is given
  else
    plan.write(path);
  const std::string error = fuzz::clear_error_of([&] { check_accepted(parse::read_parse_cache(path, "c", "p")); });
  require(error.empty() || damages > 0, "a valid parse cache was refused: " + error);
  return 0;
}
