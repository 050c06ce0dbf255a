// The parse-cache reader over files with fuzzer-chosen arrays and attributes. Half of the inputs
// go through write_parse_cache (which stores a valid content checksum over whatever arrays it is
// given), so that the layout checks behind the checksum are reached too.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdlib>
#include <string>

#include "parse/parse_cache.h"
#include "tests/fuzz/fuzz_util.h"
#include "tests/fuzz/h5_builder.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace synmt;
  FuzzedDataProvider in(data, size);
  const std::string path = fuzz::scratch_path("cache.h5");
  const std::size_t sentences = in.ConsumeIntegralInRange<std::size_t>(0, 6);
  const std::size_t words = in.ConsumeIntegralInRange<std::size_t>(0, 24);
  if (in.ConsumeBool()) {
    fuzz::H5Builder b(in, path);
    b.attribute("format", parse::kParseCacheFormat);
    b.attribute("corpus_sha256", "c");
    b.attribute("parser_id", "p");
    b.ints("heads", words, 6);
    b.ints("labels", words, 3);
    b.ints("upos", words, 3);
    b.offsets("offsets", sentences);
    b.attribute("label_names", "nsubj\nobj\nroot");
    b.attribute("upos_names", "NOUN\nVERB\nPUNCT");
    b.attribute("content_sha256", "x");
  } else {
    parse::ParsedCorpus p;
    p.corpus_sha256 = "c";
    p.parser_id = "p";
    p.offsets = {in.ConsumeIntegralInRange<int>(0, 15) == 0 ? in.ConsumeIntegral<int64_t>() : 0};
    for (std::size_t i = 0; i < sentences; ++i)
      p.offsets.push_back(in.ConsumeIntegralInRange<int>(0, 15) == 0 ? in.ConsumeIntegral<int64_t>()
                                                                     : fuzz::H5Builder::next(p.offsets.back(), in.ConsumeIntegralInRange<int64_t>(0, 6)));
    for (std::size_t k = 0; k < words; ++k) {
      p.heads.push_back(in.ConsumeIntegralInRange<int32_t>(-1, 7));
      p.labels.push_back(in.ConsumeIntegralInRange<int32_t>(-1, 3));
      p.upos.push_back(in.ConsumeIntegralInRange<int32_t>(-1, 3));
    }
    p.label_names = {"nsubj", "obj", "root"};
    p.upos_names = {"NOUN", "VERB", "PUNCT"};
    if (in.ConsumeBool()) p.labels.resize(in.ConsumeIntegralInRange<std::size_t>(0, words));
    parse::write_parse_cache(path, p);
  }
  fuzz::expect_clear_errors([&] {
    parse::ParsedCorpus p = parse::read_parse_cache(path, "c", "p");
    for (std::size_t i = 0; i < p.size(); ++i) {
      p.sentence_heads(i);
      p.sentence_labels(i);
      for (int32_t id : p.sentence_labels(i))
        if (id < 0 || static_cast<std::size_t>(id) >= p.label_names.size()) {
          std::fprintf(stderr, "fuzz finding: a parse cache with label id %d outside its %zu names was accepted\n", id, p.label_names.size());
          std::abort();
        }
    }
  });
  return 0;
}
