// synmt-parser-train: train the builtin biaffine/LGP dependency parser on a UD treebank, keep the
// best dev-LAS model, and score it on test treebanks (UAS/LAS as the CoNLL 2018 script, speed).
#include <filesystem>

#include "core/atomic_file.h"
#include "core/config.h"
#include "core/log.h"
#include "core/tool_main.h"
#include "preprocess/vocab.h"
#include "trainer/models/lgp/lgp.h"
#include "trainer/parser/builtin_parser.h"
#include "trainer/runtime.h"

int main(int argc, char** argv) {
  std::string dev, out_dir, config_path, lgp_config, nmt_vocab;
  bool fold_case = false;
  std::vector<std::string> train, tests, overrides;
  int threads = 0;
  return synmt::run_tool(
      "synmt-parser-train", argc, argv,
      [&](CLI::App& app) {
        app.description("Train the builtin dependency parser. Config: {\"model\": ParserOptions, \"train\": ParserTrainOptions}.");
        app.add_option("--train", train, "training treebank (CoNLL-U, .gz ok; PATH@BEGIN:END selects sentences); repeatable")
            ->required()
            ->expected(1)
            ->allow_extra_args(false)
            ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
        app.add_option("--dev", dev, "development treebank: keep-best and early stopping")->required();
        app.add_option("--test", tests, "test treebank(s) scored with the best model")->expected(1)->allow_extra_args(false)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
        app.add_option("-o,--out-dir", out_dir, "parser.pt, metrics.jsonl, summary.json")->required();
        app.add_option("-c,--config", config_path, "JSON config");
        app.add_option("--set", overrides, "override a config key: train.max_epochs=5 (repeatable)")->expected(1)->allow_extra_args(false)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
        app.add_option("--threads", threads, "0 = all cores");
        app.add_option("--nmt-vocab", nmt_vocab, "LGP-NMT+ pre-training: the words are this NMT source vocabulary's (ids, n-grams)");
        app.add_flag("--fold-case", fold_case, "with --nmt-vocab: lower-case treebank forms (the NMT corpus is lower-cased)");
        app.add_option("--lgp-config", lgp_config,
                       "with --nmt-vocab: a synmt-train config of an lgp model; the parser takes that model's parser sizes");
      },
      [&]() {
        synmt::Json file = config_path.empty() ? synmt::Json::object() : synmt::load_json_file(config_path);
        synmt::Json model_section = synmt::Json::object(), train_section = synmt::Json::object();
        synmt::JsonFields top(file, config_path.empty() ? "config" : config_path);
        top.optional("model", model_section).optional("train", train_section);
        top.finish();
        synmt::Json config = {{"model", synmt::parser::ParserOptions::from_json(model_section).to_json()},
                              {"train", synmt::parser::ParserTrainOptions::from_json(train_section).to_json()}};
        for (const auto& o : overrides) synmt::apply_override(config, o);
        if (!nmt_vocab.empty()) {
          config["train"]["nmt_vocab"] = nmt_vocab;
          config["train"]["fold_case"] = fold_case;
        }
        if (!lgp_config.empty()) {  // the parser inside that LGP model, so that it can load this file
          if (nmt_vocab.empty()) throw synmt::ConfigError("--lgp-config needs --nmt-vocab");
          config["model"] = synmt::lgp_parser_options(synmt::load_json_file(lgp_config), synmt::Vocab::load(nmt_vocab)).to_json();
        }
        auto model_options = synmt::parser::ParserOptions::from_json(config["model"]);
        auto train_options = synmt::parser::ParserTrainOptions::from_json(config["train"]);
        auto runtime = synmt::setup_runtime(threads > 0 ? threads : train_options.threads);
        auto summary = synmt::parser::train_parser(train_options, model_options, train, dev, out_dir, runtime.hardware);
        auto parser = synmt::parser::BuiltinParser::load(out_dir + "/parser.pt");
        for (const auto& t : tests) {
          auto s = synmt::parser::evaluate_parser(parser, t);
          summary["test"][std::filesystem::path(t).filename().string()] = {
              {"uas", s.uas}, {"las", s.las}, {"upos", s.upos_accuracy}, {"words", s.words},
              {"sentences_per_second", s.sentences_per_second}};
          synmt::log_info(t + ": UAS " + std::to_string(s.uas) + " LAS " + std::to_string(s.las) + " UPOS " +
                          std::to_string(s.upos_accuracy) + ", " + std::to_string(s.sentences_per_second) + " sentences/s");
        }
        synmt::write_file_atomically(out_dir + "/summary.json", summary.dump(2) + "\n");
        return 0;
      });
}
