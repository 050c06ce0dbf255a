// synmt-translate: batched beam (or greedy) search with one checkpoint or an ensemble of several;
// writes detokenised hypotheses and optionally n-best lists (the output stage:
// decode/translation_output.h).
#include <algorithm>

#include "core/config.h"
#include "core/line_reader.h"
#include "core/log.h"
#include "core/special_tokens.h"
#include "core/strings.h"
#include "core/tool_main.h"
#include "eval/length_prior.h"
#include "preprocess/dataset_file.h"
#include "preprocess/vocab.h"
#include "trainer/comm/launcher.h"
#include "trainer/data/parsed_source.h"
#include "trainer/decode/analysis_dump.h"
#include "trainer/decode/translation_output.h"
#include "trainer/decode/translator.h"
#include "trainer/decode/unk_replace.h"
#include "trainer/device.h"
#include "trainer/runtime.h"

namespace {

struct TranslateArgs {
  std::vector<std::string> checkpoints;
  std::string src_vocab, tgt_vocab, input = "-", data_path;
  synmt::ParsedSourceFiles parsed;
  synmt::SearchOptions search;
  bool greedy = false;
  int batch_size = 32, threads = 0;
  std::string device = "cpu";
  std::string length_prior;
  synmt::TranslationOutputOptions output;
  std::string dump_names, dump_file;
  bool teacher_forced = false;
  std::vector<std::string> model_options;  // KEY=VALUE overrides of the checkpoints' model options
};

void declare_inputs(CLI::App& app, TranslateArgs& a) {
  app.add_option("-m,--checkpoint", a.checkpoints, "checkpoint; repeat for an ensemble (mean of log-probabilities)")
      ->required()
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--src-vocab", a.src_vocab)->required();
  app.add_option("--tgt-vocab", a.tgt_vocab)->required();
  auto* text_input = app.add_option("-i,--input", a.input, "source text, one sentence per line")->capture_default_str();
  app.add_option("--data", a.data_path,
                 "decode the source side of a binarised split instead (HDF5 from synmt-binarize data), with every "
                 "source feature it carries (parents, labels, POS): what syntax models need")
      ->excludes(text_input);
  auto* parse_option = app.add_option("--src-parse", a.parsed.cache,
                                      "with -i: the parse cache of the input's words; the tree, labels and POS reach "
                                      "the model (needs --src-parse-corpus, --src-labels, --src-upos)");
  app.add_option("--src-parse-corpus", a.parsed.cache_corpus, "the tokenised text the parse cache was made from")->needs(parse_option);
  app.add_option("--src-labels", a.parsed.labels, "the pair's label inventory")->needs(parse_option);
  app.add_option("--src-upos", a.parsed.upos, "the pair's UPOS inventory")->needs(parse_option);
  app.add_option("--subwords", a.parsed.subwords, "bpe | spm | none: how the input's sub-words form words")
      ->capture_default_str()
      ->check(CLI::IsMember({"bpe", "spm", "none"}));
}

void declare_outputs(CLI::App& app, TranslateArgs& a) {
  auto& o = a.output;
  app.add_option("-o,--output", o.output, "hypotheses (BPE removed, detokenised with --detok-lang)");
  app.add_option("--output-tok", o.output_tok, "also write tokenised (BPE-removed) hypotheses here");
  app.add_option("--detok-lang", o.detok_lang, "Moses-detokenise for this language");
  app.add_flag("--raw", o.raw, "write the target sub-word tokens as produced (post-processing is a pipeline step)");
  app.add_flag("--unk-replace", o.unk_replace,
               "replace each <unk> of the best translation with the source word its attention weighs most (UnkRep)");
  app.add_option("--unk-dictionary", o.unk_dictionary, "with --unk-replace: 'source target' lines; a listed word is translated");
  app.add_option("--nbest-output", o.nbest_output, "write n-best lists here: 'i ||| hypothesis ||| score ||| log-prob'");
  app.add_option("--dump-attention", o.dump_attention,
                 "write the best hypothesis' source attention per sentence to this HDF5 file (synmt-attention-1)");
  app.add_option("--dump", a.dump_names, "analysis tensors to write, comma-separated (the model's names, e.g. source_attention)");
  app.add_option("--dump-file", a.dump_file, "HDF5 file for --dump (format synmt-analysis-1, docs/file_formats.md)");
  app.add_flag("--teacher-forced", a.teacher_forced,
               "with --dump and --data: force the split's gold targets instead of searching, and only dump");
}

void declare_search(CLI::App& app, TranslateArgs& a) {
  auto& s = a.search;
  app.add_option("-k,--beam", s.beam_size)->capture_default_str();
  app.add_option("--length-penalty", s.length_penalty, "alpha of the gnmt or fairseq length norm")->capture_default_str();
  app.add_option("--length-norm", s.length_norm, "gnmt (((5+|y|)/6)^alpha) | fairseq (|y|^alpha) | average (score / |y|)")->capture_default_str();
  app.add_option("--length-prior", a.length_prior,
                 "p(target length | source length) from synmt-length-prior: log p(|y| | |x|) is added to a finished "
                 "hypothesis before its length normalisation (LGP-NMT)");
  app.add_flag("--greedy", a.greedy, "greedy search (the same output as --beam 1)");
  app.add_option("--nbest", s.nbest, "hypotheses kept per sentence (<= beam)")->capture_default_str();
  app.add_option("--max-len-a", s.max_len_a)->capture_default_str();
  app.add_option("--max-len-b", s.max_len_b)->capture_default_str();
  app.add_option("--batch-size", a.batch_size)->capture_default_str();
  app.add_option("--threads", a.threads, "0 = all cores");
  app.add_option("--device", a.device, "cpu | cuda (this rank's GPU) | cuda:N")->capture_default_str();
  app.add_option("--model-option", a.model_options,
                 "KEY=VALUE: override a model option of every checkpoint that changes what it computes at test time, "
                 "not its parameters (e.g. test_graph=uniform of the latent-graph models); VALUE is read as JSON when it "
                 "parses, else as a string (repeatable)");
}

// --model-option KEY=VALUE assignments as one JSON object (values as --set reads them).
nlohmann::json model_option_overrides(const std::vector<std::string>& assignments) {
  auto overrides = nlohmann::json::object();
  for (const auto& assignment : assignments) {
    const auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0) throw synmt::ConfigError("--model-option expects KEY=VALUE, got '" + assignment + "'");
    overrides[assignment.substr(0, eq)] = synmt::override_value(assignment.substr(eq + 1));
  }
  return overrides;
}

void declare(CLI::App& app, TranslateArgs& a) {
  app.description("Translate BPE-segmented source text with beam search.");
  declare_inputs(app, a);
  declare_outputs(app, a);
  declare_search(app, a);
}

// The translator's options from the arguments; sets the process' threads (one per CPU worker).
synmt::TranslatorOptions translator_options(const TranslateArgs& a) {
  const auto runtime = synmt::setup_runtime(a.threads);
  synmt::TranslatorOptions options;
  options.device = synmt::resolve_device(a.device, synmt::launcher_environment().local_rank);
  options.search = a.search;
  options.search.collect_attention = !a.output.dump_attention.empty() || a.output.unk_replace;
  if (!a.output.unk_dictionary.empty() && !a.output.unk_replace) throw synmt::ConfigError("--unk-dictionary needs --unk-replace");
  if (!a.length_prior.empty())
    options.search.length_prior =
        synmt::length_prior_hook(std::make_shared<synmt::eval::LengthPrior>(synmt::eval::LengthPrior::load(a.length_prior)));
  options.greedy = a.greedy;
  options.batch_size = a.batch_size;
  options.model_options = model_option_overrides(a.model_options);
  options.workers = options.device.is_cpu() ? std::max(1, runtime.threads) : 1;
  if (options.workers > 1) {  // each worker decodes on its own model copy (decode/translator.h)
    synmt::set_blas_threads(1);
    torch::set_num_threads(1);
  }
  if ((!a.dump_names.empty() || a.teacher_forced) && (a.dump_names.empty() || a.dump_file.empty() || a.data_path.empty() || !a.teacher_forced))
    throw synmt::ConfigError("--dump needs --dump-file, --data and --teacher-forced (dumps during search: --dump-attention)");
  return options;
}

// A binarised split: its sentences' sub-words for UnkRep (an <unk> is its surface form where the
// split keeps it).
std::vector<std::vector<std::string>> source_words_of(const synmt::ParallelData& data, const synmt::Vocab& src_vocab) {
  std::vector<std::vector<std::string>> words;
  for (std::size_t i = 0; i < data.size(); ++i) {
    const auto forms = data.unknown_forms(i);
    std::size_t next_form = 0;
    words.emplace_back();
    for (int64_t k = data.src_offsets[i]; k < data.src_offsets[i + 1]; ++k) {
      const int32_t id = data.src_tokens[static_cast<std::size_t>(k)];
      words.back().push_back(id == synmt::special::kUnk && next_form < forms.size() ? forms[next_form++] : src_vocab.token(id));
    }
  }
  return words;
}

// Plain text input: one sentence of sub-words per line.
synmt::Translations translate_text(synmt::Translator& translator, const std::string& input, const synmt::Vocab& src_vocab,
                                   std::vector<std::vector<std::string>>& source_words) {
  std::vector<std::vector<int32_t>> sources;
  std::vector<std::vector<std::string>> unknown_forms;
  synmt::LineReader in(input);
  std::string line;
  while (in.next(line)) {
    sources.push_back(src_vocab.encode(line));
    source_words.push_back(synmt::split_nonempty(line, ' '));
    if (source_words.back().size() != sources.back().size()) in.fail("sub-word count differs from the vocabulary encoding");
    unknown_forms.push_back(synmt::unknown_forms_of(source_words.back(), sources.back()));
  }
  return translator.translate(sources, &unknown_forms);
}

int run(TranslateArgs& a) {
  const auto options = translator_options(a);
  auto src_vocab = synmt::Vocab::load(a.src_vocab);
  auto tgt_vocab = synmt::Vocab::load(a.tgt_vocab);
  synmt::Translator translator(a.checkpoints, src_vocab, tgt_vocab, options);
  synmt::Translations result;
  std::vector<std::vector<std::string>> source_words;  // UnkRep's replacements
  if (!a.data_path.empty()) {
    auto data = synmt::read_parallel_data(a.data_path, src_vocab.hash(), tgt_vocab.hash());
    if (a.teacher_forced) {
      translator.check_inventories(data, a.data_path);
      synmt::dump_teacher_forced_analysis(translator.model(), data, synmt::split_nonempty(a.dump_names, ','), a.batch_size,
                                          options.device, a.dump_file);
      synmt::log_info("analysis of " + std::to_string(data.size()) + " sentences written to " + a.dump_file);
      return 0;
    }
    result = translator.translate(data, a.data_path);
    source_words = source_words_of(data, src_vocab);
  } else if (!a.parsed.cache.empty()) {
    if (a.parsed.cache_corpus.empty() || a.parsed.labels.empty() || a.parsed.upos.empty())
      throw synmt::ConfigError("--src-parse needs --src-parse-corpus, --src-labels and --src-upos");
    a.parsed.text = a.input;
    result = translator.translate(synmt::read_parsed_source(a.parsed, src_vocab), a.parsed.cache);
  } else {
    result = translate_text(translator, a.input, src_vocab, source_words);
  }
  synmt::write_translations(result, tgt_vocab, source_words, a.output);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  TranslateArgs a;
  return synmt::run_tool("synmt-translate", argc, argv, [&](CLI::App& app) { declare(app, a); }, [&]() { return run(a); });
}
