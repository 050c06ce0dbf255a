// synmt-binarize: build vocabularies and syntax inventories, and turn (sub-word segmented)
// parallel text into HDF5 datasets (the library: binarize/binarize.h).
#include "binarize/binarize.h"
#include "core/log.h"
#include "core/tool_main.h"

namespace {

struct BinarizeArgs {
  std::vector<std::string> vocab_inputs;
  synmt::VocabOptions vocab_options;
  std::string output, labels_out, upos_out;
  synmt::SplitFiles split;
  CLI::App *vocab = nullptr, *inventory = nullptr, *data = nullptr;
};

void declare(CLI::App& app, BinarizeArgs& a) {
  app.description("Vocabularies, label/UPOS inventories and HDF5 datasets (token ids + offsets + provenance).");
  app.require_subcommand(1);
  a.vocab = app.add_subcommand("vocab", "count tokens and write a vocabulary");
  a.vocab->add_option("-i,--input", a.vocab_inputs, "text file(s); several give a joint vocabulary")->required();
  a.vocab->add_option("--min-frequency", a.vocab_options.min_frequency)->capture_default_str();
  a.vocab->add_option("--max-size", a.vocab_options.max_size, "0 = unlimited")->capture_default_str();
  a.vocab->add_option("-o,--output", a.output)->required();
  auto& s = a.split;
  a.inventory = app.add_subcommand("inventory", "label and UPOS inventories from the TRAINING split's parse cache");
  a.inventory->add_option("--parse", s.src_parse, "parse cache of the training split")->required();
  a.inventory->add_option("--parse-corpus", s.src_parse_corpus, "the tokenised text the cache was made from")->required();
  a.inventory->add_option("--labels-out", a.labels_out, "label inventory (one name per line, <unk> first)")->required();
  a.inventory->add_option("--upos-out", a.upos_out, "UPOS inventory (one name per line, <unk> first)")->required();
  a.data = app.add_subcommand("data", "write one split as an HDF5 dataset");
  a.data->add_option("--src", s.src)->required();
  a.data->add_option("--tgt", s.tgt)->required();
  a.data->add_option("--src-vocab", s.src_vocab)->required();
  a.data->add_option("--tgt-vocab", s.tgt_vocab)->required();
  a.data->add_option("--codes", s.codes, "BPE codes used (recorded as provenance)");
  a.data->add_option("-o,--output", a.output)->required();
  auto* parse = a.data->add_option("--src-parse", s.src_parse, "parse cache of the source side: adds parents, labels, UPOS");
  a.data->add_option("--src-parse-corpus", s.src_parse_corpus, "the tokenised text the cache was made from (its key is checked)")->needs(parse);
  a.data->add_option("--src-labels", s.src_labels, "the pair's label inventory (synmt-binarize inventory)")->needs(parse);
  a.data->add_option("--src-upos", s.src_upos, "the pair's UPOS inventory (synmt-binarize inventory)")->needs(parse);
  a.data->add_option("--subwords", s.subwords, "bpe ('@@ ' joins) | spm (U+2581 starts a word) | none (a token is a word)")
      ->capture_default_str()
      ->check(CLI::IsMember({"bpe", "spm", "none"}));
}

int run(const BinarizeArgs& a) {
  if (a.vocab->parsed()) {
    synmt::build_vocab_from_files(a.vocab_inputs, a.vocab_options).save(a.output);
    return 0;
  }
  if (a.inventory->parsed()) {
    const auto inv = synmt::build_inventories_from_cache(a.split.src_parse, a.split.src_parse_corpus);
    inv.labels.save(a.labels_out);
    inv.upos.save(a.upos_out);
    return 0;
  }
  const auto data = synmt::binarize_split(a.split);
  if (data.attributes.count("src_label_unknown_words")) {
    const auto labels = data.attributes.at("src_label_unknown_words"), upos = data.attributes.at("src_upos_unknown_words");
    if (labels != "0" || upos != "0")
      synmt::log_warn(a.output + ": " + labels + " words with an unknown label, " + upos + " with an unknown UPOS (id 0)");
  }
  synmt::write_parallel_data(a.output, data);
  synmt::log_info("dataset " + a.output + ": " + std::to_string(data.size()) + " pairs");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  BinarizeArgs a;
  return synmt::run_tool("synmt-binarize", argc, argv, [&](CLI::App& app) { declare(app, a); }, [&]() { return run(a); });
}
