// synmt-detok: detokenizer.perl semantics (same as `synmt-tok --detok`).
#include "core/atomic_file.h"
#include "core/line_reader.h"
#include "core/tool_main.h"
#include "preprocess/tokenizer.h"

int main(int argc, char** argv) {
  std::string lang = "en", input = "-", output = "-";
  return synmt::run_tool(
      "synmt-detok", argc, argv,
      [&](CLI::App& app) {
        app.description("Moses detokenizer.perl-compatible detokeniser.");
        app.add_option("-l,--lang", lang)->capture_default_str();
        app.add_option("-i,--input", input);
        app.add_option("-o,--output", output);
      },
      [&]() {
        synmt::LineReader in(input);
        synmt::AtomicFile out(output);
        synmt::MosesDetokenizer d(lang);
        std::string line;
        while (in.next(line)) out.write_line(d.detokenize(line));
        out.commit();
        return 0;
      });
}
