// synmt-translate: batched beam (or greedy) search with one checkpoint or an ensemble of several;
// writes detokenised hypotheses and optionally n-best lists.
#include <algorithm>
#include <numeric>
#include <thread>
#include <mutex>
#include <exception>
#include <atomic>

#include "core/atomic_file.h"
#include "core/hdf5_file.h"
#include "core/line_reader.h"
#include "core/log.h"
#include "core/tool_main.h"
#include "preprocess/bpe.h"
#include "preprocess/tokenizer.h"
#include "preprocess/vocab.h"
#include "trainer/decode/analysis_dump.h"
#include "trainer/decode/beam_search.h"
#include "trainer/decode/ensemble.h"
#include "trainer/device.h"
#include "trainer/models/syntax_sizes.h"
#include "preprocess/dataset_file.h"
#include "trainer/runtime.h"
#include "trainer/train/checkpoint.h"


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
  bool teacher_forced = false;
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
        app.add_option("-o,--output", output, "hypotheses (BPE removed, detokenised with --detok-lang)");
        app.add_option("--output-tok", output_tok, "also write tokenised (BPE-removed) hypotheses here");
        app.add_option("--detok-lang", detok_lang, "Moses-detokenise for this language");
        app.add_flag("--raw", raw, "write the target sub-word tokens as produced (post-processing is a pipeline step)");
        app.add_option("-k,--beam", search.beam_size)->capture_default_str();
        app.add_option("--length-penalty", search.length_penalty, "GNMT alpha")->capture_default_str();
        app.add_option("--length-norm", search.length_norm, "gnmt | average (score / |y|)")->capture_default_str();
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
        const torch::Device device = synmt::resolve_device(device_name, synmt::launcher_local_rank());
        auto src_vocab = synmt::Vocab::load(src_vocab_path);
        auto tgt_vocab = synmt::Vocab::load(tgt_vocab_path);
        if (search.nbest > search.beam_size)
          throw synmt::ConfigError("--nbest " + std::to_string(search.nbest) + " exceeds the beam size " + std::to_string(search.beam_size));
        // On the CPU, sentences are split between threads that each decode with their own copy of
        // the model(s) on a single-threaded BLAS: the small matrices of beam search kept a
        // two-thread BLAS busy spinning (Transformer demo: 24.0 s, a third of it in the kernel,
        // against 15.1 s this way on 2 cores). A GPU decodes on one thread.
        const int workers = device.is_cpu() ? std::max(1, runtime.threads) : 1;
        if (workers > 1) {
          synmt::set_blas_threads(1);
          torch::set_num_threads(1);
        }
        struct Replica {
          std::vector<std::shared_ptr<synmt::Seq2SeqModel>> members;
          std::unique_ptr<synmt::EnsembleModel> ensemble;
          synmt::Seq2SeqModel& model() { return members.size() == 1 ? *members.front() : *ensemble; }
        };
        std::vector<Replica> replicas(static_cast<std::size_t>(workers));
        std::vector<nlohmann::json> checkpoint_configs;
        for (auto& replica : replicas) {
          for (const auto& checkpoint : checkpoints) {
            auto loaded = synmt::load_checkpoint(checkpoint);
            if (&replica == &replicas.front()) checkpoint_configs.push_back(loaded.config);
            const auto& vh = loaded.config.at("vocab");
            if (vh.at("src_sha256") != src_vocab.hash() || vh.at("tgt_sha256") != tgt_vocab.hash())
              throw synmt::InputError(checkpoint, 0, "the given vocabularies are not the ones this model was trained with");
            loaded.model->to(device);
            replica.members.push_back(loaded.model);
          }
          replica.ensemble = std::make_unique<synmt::EnsembleModel>(replica.members);
        }
        if (!dump_names.empty() || teacher_forced) {
          if (dump_names.empty() || dump_file.empty() || data_path.empty() || !teacher_forced)
            throw synmt::ConfigError("--dump needs --dump-file, --data and --teacher-forced (dumps during search: --dump-attention)");
        }
        std::vector<std::vector<int32_t>> sources;
        synmt::ParallelData data;
        if (!data_path.empty()) {
          data = synmt::read_parallel_data(data_path, src_vocab.hash(), tgt_vocab.hash());
          for (const auto& checkpoint_config : checkpoint_configs)
            synmt::check_syntax_inventories(checkpoint_config.at("vocab"), data, data_path);
          if (teacher_forced) {
            std::vector<std::string> names;
            for (std::size_t b = 0, e; b <= dump_names.size(); b = e + 1) {
              e = dump_names.find(',', b);
              if (e == std::string::npos) e = dump_names.size();
              if (e > b) names.push_back(dump_names.substr(b, e - b));
            }
            synmt::dump_teacher_forced_analysis(replicas.front().model(), data, names, batch_size, device, dump_file);
            synmt::log_info("analysis of " + std::to_string(data.size()) + " sentences written to " + dump_file);
            return 0;
          }
          for (std::size_t i = 0; i < data.size(); ++i)
            sources.emplace_back(data.src_tokens.begin() + data.src_offsets[i], data.src_tokens.begin() + data.src_offsets[i + 1]);
        } else {
          synmt::LineReader in(input);
          std::string line;
          while (in.next(line)) sources.push_back(src_vocab.encode(line));
        }
        // translate in order of length (less padding), write in input order
        std::vector<std::size_t> order(sources.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return sources[a].size() < sources[b].size(); });
        std::vector<std::string> hyps(sources.size());
        std::vector<std::vector<synmt::Hypothesis>> nbest(nbest_output.empty() ? 0 : sources.size());
        std::vector<torch::Tensor> attention(dump_attention.empty() ? 0 : sources.size());
        search.collect_attention = !dump_attention.empty();
        if (search.collect_attention) greedy = false;  // beam 1 is greedy and collects the attention
        synmt::Progress progress("translate", sources.size(), 30.0);
        std::mutex progress_mutex;
        const std::size_t batch_count = (order.size() + static_cast<std::size_t>(batch_size) - 1) / static_cast<std::size_t>(batch_size);
        std::atomic<std::size_t> next_batch{0};
        auto decode_batches = [&](Replica& replica) {
          for (std::size_t k; (k = next_batch.fetch_add(1)) < batch_count;) {
            const std::size_t s = k * static_cast<std::size_t>(batch_size);
            const std::size_t e = std::min(order.size(), s + static_cast<std::size_t>(batch_size));
            synmt::Batch batch;
            if (!data_path.empty()) {
              std::vector<int64_t> ids;
              for (std::size_t i = s; i < e; ++i) ids.push_back(static_cast<int64_t>(order[i]));
              batch = synmt::make_data_batch(data, ids);
            } else {
              std::vector<std::vector<int32_t>> chunk;
              for (std::size_t i = s; i < e; ++i) chunk.push_back(sources[order[i]]);
              batch = synmt::make_source_batch(chunk);
            }
            synmt::check_required_features(replica.model(), batch.source, data_path.empty() ? input : data_path);
            std::vector<std::vector<synmt::Hypothesis>> results;
            if (greedy) {
              for (auto& tokens : synmt::greedy_search(replica.model(), batch, search)) results.push_back({{tokens, 0.0, 0.0}});
            } else {
              results = synmt::beam_search(replica.model(), batch, search);
            }
            for (std::size_t i = s; i < e; ++i) {  // every sentence's slots belong to one batch
              std::string sub = tgt_vocab.decode(results[i - s].front().tokens);
              hyps[order[i]] = raw ? sub : synmt::remove_bpe(sub);
              if (!nbest.empty()) nbest[order[i]] = results[i - s];
              if (!attention.empty()) {  // drop the batch's padding columns
                const auto src_len = std::max<int64_t>(1, static_cast<int64_t>(sources[order[i]].size()));
                attention[order[i]] = results[i - s].front().attention.narrow(1, 0, src_len).contiguous();
              }
            }
            std::lock_guard<std::mutex> lock(progress_mutex);
            progress.advance(e - s);
          }
        };
        std::vector<std::exception_ptr> errors(replicas.size());
        std::vector<std::thread> pool;
        for (std::size_t t = 1; t < replicas.size(); ++t)
          pool.emplace_back([&, t]() {
            try {
              decode_batches(replicas[t]);
            } catch (...) {
              errors[t] = std::current_exception();
            }
          });
        try {
          decode_batches(replicas[0]);
        } catch (...) {
          errors[0] = std::current_exception();
        }
        for (auto& th : pool) th.join();
        for (const auto& error : errors)
          if (error) std::rethrow_exception(error);
        progress.finish();
        if (!output_tok.empty()) {
          synmt::AtomicFile tok(output_tok);
          for (const auto& h : hyps) tok.write_line(h);
          tok.commit();
        }
        if (!dump_attention.empty()) {
          std::vector<float> values;
          std::vector<int64_t> offsets{0};
          std::vector<int32_t> rows, cols;
          for (const auto& a : attention) {
            const float* p = a.data_ptr<float>();
            values.insert(values.end(), p, p + a.numel());
            offsets.push_back(static_cast<int64_t>(values.size()));
            rows.push_back(static_cast<int32_t>(a.size(0)));
            cols.push_back(static_cast<int32_t>(a.size(1)));
          }
          synmt::AtomicPath out(dump_attention);
          {
            synmt::H5File f(out.temp_path(), synmt::H5File::Mode::Create);
            f.write("attention", values);
            f.write("offsets", offsets);
            f.write("rows", rows);
            f.write("cols", cols);
            f.set_attribute("format", "synmt-attention-1");
            f.set_attribute("description", "per sentence a rows x cols row-major matrix: output step (</s> included) x source sub-word");
          }
          out.commit();
        }
        if (!nbest_output.empty()) {
          synmt::AtomicFile nb(nbest_output);
          for (std::size_t i = 0; i < nbest.size(); ++i)
            for (const auto& h : nbest[i]) {
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
