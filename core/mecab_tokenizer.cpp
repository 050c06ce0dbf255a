#include "core/mecab_tokenizer.h"

#include <mecab.h>

#include <map>
#include <memory>
#include <stdexcept>

namespace synmt {
namespace {
struct Tagger {
  explicit Tagger(const std::string& dicdir) {
    std::string args = "-Owakati";
    if (!dicdir.empty()) args += " -d " + dicdir;
    tagger = mecab_new2(args.c_str());
    if (tagger == nullptr) throw std::runtime_error("MeCab could not start (" + args + "): " + mecab_strerror(nullptr));
  }
  ~Tagger() { mecab_destroy(tagger); }
  mecab_t* tagger;
};
}  // namespace

std::string mecab_wakati(const std::string& line, const std::string& dicdir) {
  thread_local std::map<std::string, std::unique_ptr<Tagger>> taggers;
  auto& t = taggers[dicdir];
  if (!t) t = std::make_unique<Tagger>(dicdir);
  const char* out = mecab_sparse_tostr(t->tagger, line.c_str());
  if (out == nullptr) throw std::runtime_error(std::string("MeCab: ") + mecab_strerror(t->tagger));
  std::string s(out);
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace synmt
