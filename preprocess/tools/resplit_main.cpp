// synmt-resplit: a seeded train/valid/test split of one pool of sentence pairs by distinct source
// sentence (preprocess/resplit.h), with a JSON report of the counts.
#include <string>
#include <vector>

#include "core/atomic_file.h"
#include "core/config.h"
#include "core/line_reader.h"
#include "core/tool_main.h"
#include "preprocess/resplit.h"

int main(int argc, char** argv) {
  std::string src, tgt, out_dir, report;
  int64_t valid = 0, test = 0;
  uint64_t seed = 1;
  return synmt::run_tool(
      "synmt-resplit", argc, argv,
      [&](CLI::App& app) {
        app.description("Split one pool of sentence pairs into train/valid/test by distinct source sentence, seeded.");
        app.add_option("--src", src, "source side of the pool")->required();
        app.add_option("--tgt", tgt, "target side of the pool")->required();
        app.add_option("--valid", valid, "distinct source sentences in valid")->required();
        app.add_option("--test", test, "distinct source sentences in test")->required();
        app.add_option("--seed", seed, "shuffle seed")->capture_default_str();
        app.add_option("--out-dir", out_dir, "writes {train,valid,test}.{src,tgt} here")->required();
        app.add_option("--report", report, "JSON report of counts")->required();
      },
      [&]() {
        std::vector<std::string> s, t;
        synmt::LineReader rs(src), rt(tgt);
        std::string a, b;
        while (synmt::next_pair(rs, rt, a, b)) {
          s.push_back(a);
          t.push_back(b);
        }
        synmt::ResplitCounts counts;
        std::vector<synmt::SplitPart> parts;
        try {
          parts = synmt::assign_split(s, valid, test, seed, &counts);
        } catch (const std::invalid_argument& e) {
          throw synmt::InputError(src, 0, e.what());
        }
        const char* names[] = {"train", "valid", "test"};
        std::vector<std::unique_ptr<synmt::AtomicFile>> files;
        for (const char* n : names)
          for (const char* side : {"src", "tgt"})
            files.push_back(std::make_unique<synmt::AtomicFile>(out_dir + "/" + n + "." + side));
        for (size_t i = 0; i < s.size(); ++i) {
          if (parts[i] == synmt::SplitPart::dropped) continue;
          const int k = static_cast<int>(parts[i]);
          files[2 * k]->write_line(s[i]);
          files[2 * k + 1]->write_line(t[i]);
        }
        for (auto& f : files) f->commit();
        synmt::Json j;
        j["pairs_in"] = counts.pairs_in;
        j["distinct_sources"] = counts.distinct_sources;
        j["train"] = counts.train;
        j["valid"] = counts.valid;
        j["test"] = counts.test;
        j["dropped_repeats_of_heldout_sources"] = counts.dropped_repeats_of_heldout;
        j["seed"] = seed;
        synmt::write_file_atomically(report, j.dump(2) + "\n");
        return 0;
      });
}
