#include "parse/linearise.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/line_reader.h"
#include "core/strings.h"

namespace synmt::parse {

std::string linearise_dependencies(const std::vector<int32_t>& heads, const std::vector<std::string>& labels) {
  const std::size_t n = heads.size();
  if (labels.size() != n) throw ConfigError("linearise: " + std::to_string(n) + " heads but " + std::to_string(labels.size()) + " labels");
  std::vector<std::vector<std::size_t>> dependents(n + 1);  // index 0 = the virtual root
  for (std::size_t i = 0; i < n; ++i) {
    if (heads[i] < 0 || static_cast<std::size_t>(heads[i]) > n || static_cast<std::size_t>(heads[i]) == i + 1)
      throw ConfigError("linearise: word " + std::to_string(i + 1) + " has head " + std::to_string(heads[i]) + " in a sentence of " +
                        std::to_string(n) + " words");
    dependents[static_cast<std::size_t>(heads[i])].push_back(i + 1);  // pushed in word order
  }
  std::string out;
  std::vector<bool> done(n + 1, false);
  std::size_t emitted = 0;
  // iterative walk (deep trees must not exhaust the stack): a frame is a word and how far through
  // its word-ordered items (dependents before it, itself, dependents after it) it has got
  struct Frame {
    std::size_t word, next = 0;
    bool self_done = false;
  };
  auto append = [&](const std::string& token) {
    if (!out.empty()) out += ' ';
    out += token;
  };
  for (std::size_t root : dependents[0]) {
    std::vector<Frame> stack{{root}};
    append("(");
    while (!stack.empty()) {
      Frame& f = stack.back();
      const auto& deps = dependents[f.word];
      if (!f.self_done && (f.next == deps.size() || deps[f.next] > f.word)) {
        append(labels[f.word - 1]);
        f.self_done = true;
        done[f.word] = true;
        ++emitted;
        continue;
      }
      if (f.next < deps.size()) {
        const std::size_t child = deps[f.next++];
        stack.push_back({child});
        append("(");
        continue;
      }
      append(")");
      stack.pop_back();
    }
  }
  if (emitted != n) throw ConfigError("linearise: the heads do not form a tree (a cycle leaves " + std::to_string(n - emitted) + " words unreachable)");
  return out;
}

MultitaskCounts write_parse_multitask(const std::string& src, const std::string& tgt, const std::string& parse_cache,
                                      const std::string& out_src, const std::string& out_tgt) {
  const ParsedCorpus parses = read_parse_cache(parse_cache, "", "");
  MultitaskCounts counts;
  std::vector<std::string> sources;
  {
    LineReader s(src), t(tgt);
    AtomicFile os(out_src), ot(out_tgt);
    std::string a, b;
    while (true) {
      const bool has_a = s.next(a), has_b = t.next(b);
      if (has_a != has_b) (has_a ? t : s).fail("the parallel files differ in length");
      if (!has_a) break;
      os.write_line(std::string(kTranslateTag) + " " + a + " " + kTranslateTag);
      ot.write_line(b);
      sources.push_back(a);
    }
    counts.pairs = sources.size();
    if (parses.size() != sources.size())
      throw InputError(parse_cache, 0, "holds " + std::to_string(parses.size()) + " sentences but " + src + " has " +
                                           std::to_string(sources.size()) + " lines: not this corpus' parse");
    for (std::size_t i = 0; i < sources.size(); ++i) {
      const auto heads = parses.sentence_heads(i);
      const auto label_ids = parses.sentence_labels(i);
      const std::size_t words = split_nonempty(sources[i], ' ').size();
      if (words != heads.size())
        throw InputError(src, i + 1, std::to_string(words) + " words but the parse in " + parse_cache + " has " + std::to_string(heads.size()));
      std::vector<std::string> labels;
      for (auto id : label_ids) labels.push_back(parses.label_names.at(static_cast<std::size_t>(id)));
      std::string bracketing;
      try {
        bracketing = linearise_dependencies(heads, labels);
      } catch (const ConfigError& e) {
        throw InputError(parse_cache, i + 1, e.what());
      }
      os.write_line(std::string(kParseTag) + " " + sources[i] + " " + kParseTag);
      ot.write_line(bracketing);
      counts.words += heads.size();
    }
    os.commit();
    ot.commit();
  }
  counts.written = 2 * counts.pairs;
  return counts;
}

std::size_t write_translation_tagged(const std::string& in, const std::string& out) {
  LineReader r(in);
  AtomicFile w(out);
  std::string line;
  std::size_t n = 0;
  while (r.next(line)) {
    w.write_line(std::string(kTranslateTag) + " " + line + " " + kTranslateTag);
    ++n;
  }
  w.commit();
  return n;
}

}  // namespace synmt::parse
