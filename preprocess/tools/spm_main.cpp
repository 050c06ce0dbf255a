// synmt-spm: SentencePiece training, encoding and decoding through Debian's libsentencepiece
// (Bastings et al.'s Ja-En setting: 16k pieces). A thin front end; the algorithm is the library's.
#include <sentencepiece_processor.h>
#include <sentencepiece_trainer.h>

#include <thread>

#include "core/atomic_file.h"
#include "core/line_reader.h"
#include "core/parallel_lines.h"
#include "core/tool_main.h"
#include "preprocess/spm_model_check.h"

namespace {
void check(const sentencepiece::util::Status& s, const std::string& where) {
  if (!s.ok()) throw synmt::InputError(where, 0, "SentencePiece: " + s.ToString());
}
}  // namespace

namespace {
// The tool's options.
struct SpmArgs {
  std::vector<std::string> inputs;
  std::string model_prefix, model, model_type = "unigram", input = "-", output = "-", format = "piece";
  int vocab_size = 16000, threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  double coverage = 0.9995;
  int64_t seed_sentences = 1000000;
  CLI::App *train = nullptr, *encode = nullptr, *decode = nullptr;
};

void declare(CLI::App& app, SpmArgs& a) {
  app.description("SentencePiece (libsentencepiece): train / encode / decode.");
  app.require_subcommand(1);
  a.train = app.add_subcommand("train", "train a model");
  a.train->add_option("-i,--input", a.inputs, "training text(s)")->required();
  a.train->add_option("--model-prefix", a.model_prefix, "writes PREFIX.model and PREFIX.vocab")->required();
  a.train->add_option("--vocab-size", a.vocab_size)->capture_default_str();
  a.train->add_option("--model-type", a.model_type, "unigram | bpe | char | word")->capture_default_str();
  a.train->add_option("--character-coverage", a.coverage)->capture_default_str();
  a.train->add_option("--input-sentence-size", a.seed_sentences, "sentences sampled for training")->capture_default_str();
  a.train->add_option("--threads", a.threads)->capture_default_str();
  a.encode = app.add_subcommand("encode", "text -> pieces (or ids)");
  a.decode = app.add_subcommand("decode", "pieces -> text");
  for (auto* c : {a.encode, a.decode}) {
    c->add_option("-m,--model", a.model)->required();
    c->add_option("-i,--input", a.input)->capture_default_str();
    c->add_option("-o,--output", a.output)->capture_default_str();
    c->add_option("--threads", a.threads)->capture_default_str();
  }
  a.encode->add_option("--output-format", a.format, "piece | id")->capture_default_str();
}

int run(SpmArgs& a) {
  if (a.train->parsed()) {
    std::string joined;
    for (const auto& i : a.inputs) joined += (joined.empty() ? "" : ",") + i;
    std::string args = "--input=" + joined + " --model_prefix=" + a.model_prefix +
                       " --vocab_size=" + std::to_string(a.vocab_size) + " --model_type=" + a.model_type +
                       " --character_coverage=" + std::to_string(a.coverage) +
                       " --input_sentence_size=" + std::to_string(a.seed_sentences) +
                       " --shuffle_input_sentence=true --num_threads=" + std::to_string(a.threads);
    check(sentencepiece::SentencePieceTrainer::Train(args), a.inputs.front());
    return 0;
  }
  sentencepiece::SentencePieceProcessor sp;
  synmt::check_spm_model_file(a.model);  // libsentencepiece reads a damaged table out of bounds
  check(sp.Load(a.model), a.model);
  synmt::LineReader in(a.input);
  synmt::AtomicFile out(a.output);
  const bool ids = a.format == "id";
  if (a.format != "id" && a.format != "piece") throw synmt::ConfigError("--output-format: piece or id");
  synmt::map_lines_in_order(in, out, a.threads, [&](const std::string& line) {
    std::string result;
    if (a.encode->parsed()) {
      if (ids) {
        std::vector<int> v;
        check(sp.Encode(line, &v), a.input);
        for (std::size_t k = 0; k < v.size(); ++k) result += (k ? " " : "") + std::to_string(v[k]);
      } else {
        std::vector<std::string> v;
        check(sp.Encode(line, &v), a.input);
        for (std::size_t k = 0; k < v.size(); ++k) result += (k ? " " : "") + v[k];
      }
    } else {
      std::vector<std::string> pieces;
      for (std::size_t b = 0; b < line.size();) {
        std::size_t e = line.find(' ', b);
        if (e == std::string::npos) e = line.size();
        if (e > b) pieces.push_back(line.substr(b, e - b));
        b = e + 1;
      }
      check(sp.Decode(pieces, &result), a.input);
    }
    return result;
  });
  out.commit();
  return 0;
}
}  // namespace

int main(int argc, char** argv) {
  SpmArgs a;
  return synmt::run_tool(
      "synmt-spm", argc, argv,
      [&](CLI::App& app) { declare(app, a); }, [&]() { return run(a); });
}
