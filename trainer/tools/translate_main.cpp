// synmt-translate: batched beam (or greedy) search with one checkpoint or an ensemble of several;
// writes detokenised hypotheses and optionally n-best lists.
#include <algorithm>

#include "core/atomic_file.h"
#include "core/hdf5_file.h"
#include "core/line_reader.h"
#include "core/log.h"
#include "core/ragged.h"
#include "core/special_tokens.h"
#include "core/strings.h"
#include "core/tool_main.h"
#include "preprocess/bpe.h"
#include "preprocess/dataset_file.h"
#include "preprocess/tokenizer.h"
#include "preprocess/vocab.h"
#include "trainer/data/parsed_source.h"
#include "trainer/decode/analysis_dump.h"
#include "trainer/decode/translator.h"
#include "trainer/decode/unk_replace.h"
#include "eval/length_prior.h"
#include "trainer/comm/launcher.h"
#include "trainer/device.h"
#include "trainer/runtime.h"

namespace {
// synmt-attention-1: per sentence the best hypothesis' rows x cols attention matrix.
void write_attention_dump(const std::string& path, const std::vector<std::vector<synmt::Hypothesis>>& hypotheses) {
  synmt::Ragged<float> attention;
  std::vector<int32_t> rows, cols;
  for (const auto& h : hypotheses) {
    const auto& a = h.front().attention;
    attention.add_flat(a.data_ptr<float>(), static_cast<std::size_t>(a.numel()));
    rows.push_back(static_cast<int32_t>(a.size(0)));
    cols.push_back(static_cast<int32_t>(a.size(1)));
  }
  synmt::AtomicPath out(path);
  {
    synmt::H5File f(out.temp_path(), synmt::H5File::Mode::Create);
    synmt::write_ragged(f, {"attention", "offsets", ""}, attention);
    f.write("rows", rows);
    f.write("cols", cols);
    f.set_attribute("format", "synmt-attention-1");
    f.set_attribute("description", "per sentence a rows x cols row-major matrix: output step (</s> included) x source sub-word");
    f.close();  // flushes: a full disk fails here, before the rename
  }
  out.commit();
}
}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> checkpoints;
  std::string nbest_output, dump_attention;
  bool greedy = false;
  std::string src_vocab_path, tgt_vocab_path, input = "-", output = "-", output_tok, detok_lang, data_path;
  synmt::SearchOptions search;
  int batch_size = 32, threads = 0;
  bool raw = false;
  std::string device_name = "cpu";
  std::string dump_names, dump_file;
  synmt::ParsedSourceFiles parsed;
  bool teacher_forced = false;
  std::string length_prior_path, unk_dictionary;
  bool unk_replace = false;
  return synmt::run_tool(
      "synmt-translate", argc, argv,
      [&](CLI::App& app) {
        app.description("Translate BPE-segmented source text with beam search.");
        app.add_option("-m,--checkpoint", checkpoints, "checkpoint; repeat for an ensemble (mean of log-probabilities)")
            ->required()
            ->expected(1)
            ->allow_extra_args(false)
            ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
        app.add_option("--src-vocab", src_vocab_path)->required();
        app.add_option("--tgt-vocab", tgt_vocab_path)->required();
        auto* text_input = app.add_option("-i,--input", input, "source text, one sentence per line")->capture_default_str();
        app.add_option("--data", data_path,
                       "decode the source side of a binarised split instead (HDF5 from synmt-binarize data), with every "
                       "source feature it carries (parents, labels, POS): what syntax models need")
            ->excludes(text_input);
        auto* parse_option = app.add_option("--src-parse", parsed.cache,
                                            "with -i: the parse cache of the input's words; the tree, labels and POS reach "
                                            "the model (needs --src-parse-corpus, --src-labels, --src-upos)");
        app.add_option("--src-parse-corpus", parsed.cache_corpus, "the tokenised text the parse cache was made from")->needs(parse_option);
        app.add_option("--src-labels", parsed.labels, "the pair's label inventory")->needs(parse_option);
        app.add_option("--src-upos", parsed.upos, "the pair's UPOS inventory")->needs(parse_option);
        app.add_option("--subwords", parsed.subwords, "bpe | spm | none: how the input's sub-words form words")
            ->capture_default_str()
            ->check(CLI::IsMember({"bpe", "spm", "none"}));
        app.add_option("-o,--output", output, "hypotheses (BPE removed, detokenised with --detok-lang)");
        app.add_option("--output-tok", output_tok, "also write tokenised (BPE-removed) hypotheses here");
        app.add_option("--detok-lang", detok_lang, "Moses-detokenise for this language");
        app.add_flag("--raw", raw, "write the target sub-word tokens as produced (post-processing is a pipeline step)");
        app.add_option("-k,--beam", search.beam_size)->capture_default_str();
        app.add_option("--length-penalty", search.length_penalty, "alpha of the gnmt or fairseq length norm")->capture_default_str();
        app.add_option("--length-norm", search.length_norm, "gnmt (((5+|y|)/6)^alpha) | fairseq (|y|^alpha) | average (score / |y|)")->capture_default_str();
        app.add_option("--length-prior", length_prior_path,
                       "p(target length | source length) from synmt-length-prior: log p(|y| | |x|) is added to a finished "
                       "hypothesis before its length normalisation (LGP-NMT)");
        app.add_flag("--unk-replace", unk_replace,
                     "replace each <unk> of the best translation with the source word its attention weighs most (UnkRep)");
        app.add_option("--unk-dictionary", unk_dictionary, "with --unk-replace: 'source target' lines; a listed word is translated");
        app.add_flag("--greedy", greedy, "greedy search (the same output as --beam 1)");
        app.add_option("--nbest", search.nbest, "hypotheses kept per sentence (<= beam)")->capture_default_str();
        app.add_option("--nbest-output", nbest_output, "write n-best lists here: 'i ||| hypothesis ||| score ||| log-prob'");
        app.add_option("--dump-attention", dump_attention,
                       "write the best hypothesis' source attention per sentence to this HDF5 file (synmt-attention-1)");
        app.add_option("--dump", dump_names, "analysis tensors to write, comma-separated (the model's names, e.g. source_attention)");
        app.add_option("--dump-file", dump_file, "HDF5 file for --dump (format synmt-analysis-1, docs/file_formats.md)");
        app.add_flag("--teacher-forced", teacher_forced,
                     "with --dump and --data: force the split's gold targets instead of searching, and only dump");
        app.add_option("--max-len-a", search.max_len_a)->capture_default_str();
        app.add_option("--max-len-b", search.max_len_b)->capture_default_str();
        app.add_option("--batch-size", batch_size)->capture_default_str();
        app.add_option("--threads", threads, "0 = all cores");
        app.add_option("--device", device_name, "cpu | cuda (this rank's GPU) | cuda:N")->capture_default_str();
      },
      [&]() {
        const auto runtime = synmt::setup_runtime(threads);
        synmt::TranslatorOptions options;
        options.device = synmt::resolve_device(device_name, synmt::launcher_environment().local_rank);
        options.search = search;
        options.search.collect_attention = !dump_attention.empty() || unk_replace;
        if (!unk_dictionary.empty() && !unk_replace) throw synmt::ConfigError("--unk-dictionary needs --unk-replace");
        if (!length_prior_path.empty())
          options.search.length_prior =
              synmt::length_prior_hook(std::make_shared<synmt::eval::LengthPrior>(synmt::eval::LengthPrior::load(length_prior_path)));
        options.greedy = greedy;
        options.batch_size = batch_size;
        options.workers = options.device.is_cpu() ? std::max(1, runtime.threads) : 1;
        if (options.workers > 1) {  // each worker decodes on its own model copy (decode/translator.h)
          synmt::set_blas_threads(1);
          torch::set_num_threads(1);
        }
        if ((!dump_names.empty() || teacher_forced) && (dump_names.empty() || dump_file.empty() || data_path.empty() || !teacher_forced))
          throw synmt::ConfigError("--dump needs --dump-file, --data and --teacher-forced (dumps during search: --dump-attention)");
        auto src_vocab = synmt::Vocab::load(src_vocab_path);
        auto tgt_vocab = synmt::Vocab::load(tgt_vocab_path);
        synmt::Translator translator(checkpoints, src_vocab, tgt_vocab, options);
        synmt::Translations result;
        std::vector<std::vector<std::string>> source_words;  // UnkRep's replacements
        if (!data_path.empty()) {
          auto data = synmt::read_parallel_data(data_path, src_vocab.hash(), tgt_vocab.hash());
          if (teacher_forced) {
            translator.check_inventories(data, data_path);
            synmt::dump_teacher_forced_analysis(translator.model(), data, synmt::split_nonempty(dump_names, ','), batch_size, options.device, dump_file);
            synmt::log_info("analysis of " + std::to_string(data.size()) + " sentences written to " + dump_file);
            return 0;
          }
          result = translator.translate(data, data_path);
          for (std::size_t i = 0; i < data.size(); ++i) {  // an <unk> is its surface form where the split keeps it
            const auto forms = data.unknown_forms(i);
            std::size_t next_form = 0;
            source_words.emplace_back();
            for (int64_t k = data.src_offsets[i]; k < data.src_offsets[i + 1]; ++k) {
              const int32_t id = data.src_tokens[static_cast<std::size_t>(k)];
              source_words.back().push_back(id == synmt::special::kUnk && next_form < forms.size() ? forms[next_form++] : src_vocab.token(id));
            }
          }
        } else if (!parsed.cache.empty()) {
          if (parsed.cache_corpus.empty() || parsed.labels.empty() || parsed.upos.empty())
            throw synmt::ConfigError("--src-parse needs --src-parse-corpus, --src-labels and --src-upos");
          parsed.text = input;
          result = translator.translate(synmt::read_parsed_source(parsed, src_vocab), parsed.cache);
        } else {
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
          result = translator.translate(sources, &unknown_forms);
        }
        std::vector<std::string> hyps;
        const auto dictionary = synmt::UnkDictionary::load(unk_dictionary);
        for (std::size_t i = 0; i < result.hypotheses.size(); ++i) {
          const auto& best = result.hypotheses[i].front();
          std::string sub = tgt_vocab.decode(best.tokens);
          if (unk_replace && best.attention.defined() && i < source_words.size()) {
            std::string replaced;
            for (const auto& t : synmt::replace_unknowns(synmt::split_nonempty(sub, ' '), best.attention, source_words[i], dictionary))
              replaced += (replaced.empty() ? "" : " ") + t;
            sub = replaced;
          }
          hyps.push_back(raw ? sub : synmt::remove_bpe(sub));
        }
        if (!output_tok.empty()) {
          synmt::AtomicFile tok(output_tok);
          for (const auto& h : hyps) tok.write_line(h);
          tok.commit();
        }
        if (!dump_attention.empty()) write_attention_dump(dump_attention, result.hypotheses);
        if (!nbest_output.empty()) {
          synmt::AtomicFile nb(nbest_output);
          for (std::size_t i = 0; i < result.hypotheses.size(); ++i)
            for (const auto& h : result.hypotheses[i]) {
              std::string sub = tgt_vocab.decode(h.tokens);
              nb.write_line(std::to_string(i) + " ||| " + (raw ? sub : synmt::remove_bpe(sub)) + " ||| " + std::to_string(h.score) +
                            " ||| " + std::to_string(h.log_prob));
            }
          nb.commit();
        }
        synmt::AtomicFile out(output);
        std::unique_ptr<synmt::MosesDetokenizer> detok;
        if (!detok_lang.empty() && !raw) detok = std::make_unique<synmt::MosesDetokenizer>(detok_lang);
        for (const auto& h : hyps) out.write_line(detok ? detok->detokenize(h) : h);
        out.commit();
        return 0;
      });
}
