// synmt-length-prior: estimate p(target length | source length) from training text (LGP-NMT's
// beam search prior; synmt-translate --length-prior reads the file).
#include "core/log.h"
#include "core/tool_main.h"
#include "eval/length_prior.h"

int main(int argc, char** argv) {
  std::string src, tgt, output;
  return synmt::run_tool(
      "synmt-length-prior", argc, argv,
      [&](CLI::App& app) {
        app.description("Count (source length, target length) over training pairs: the add-one-smoothed p(L_y | L_x).");
        app.add_option("--src", src, "training source text (tokens as translated: words, or sub-words)")->required();
        app.add_option("--tgt", tgt, "training target text, line-aligned")->required();
        app.add_option("-o,--output", output, "prior (JSON)")->required();
      },
      [&]() {
        auto prior = synmt::eval::LengthPrior::estimate(src, tgt);
        prior.save(output);
        synmt::log_info("length prior: targets up to " + std::to_string(prior.max_target_length()) + " tokens");
        return 0;
      });
}
