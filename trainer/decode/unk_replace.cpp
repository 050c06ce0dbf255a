#include "trainer/decode/unk_replace.h"

#include <sstream>

#include "core/error.h"
#include "core/line_reader.h"

namespace synmt {

UnkDictionary UnkDictionary::load(const std::string& path) {
  UnkDictionary d;
  if (path.empty()) return d;
  LineReader in(path);
  std::string line;
  int64_t n = 0;
  while (in.next(line)) {
    ++n;
    std::istringstream fields(line);
    std::string source, target;
    if (!(fields >> source >> target)) throw InputError(path, n, "a dictionary line is 'source-word target-word'");
    d.add(source, target);
  }
  return d;
}

const std::string* UnkDictionary::find(const std::string& source) const {
  auto it = entries_.find(source);
  return it == entries_.end() ? nullptr : &it->second;
}

std::vector<std::string> replace_unknowns(const std::vector<std::string>& tokens, const torch::Tensor& attention,
                                          const std::vector<std::string>& source, const UnkDictionary& dictionary,
                                          const std::string& unk) {
  std::vector<std::string> out = tokens;
  if (source.empty()) return out;
  const auto cols = std::min<int64_t>(static_cast<int64_t>(source.size()), attention.size(1));
  auto rows = attention.narrow(1, 0, cols).to(torch::kCPU, torch::kFloat32).contiguous();
  for (std::size_t t = 0; t < out.size(); ++t) {
    if (out[t] != unk || static_cast<int64_t>(t) >= rows.size(0)) continue;
    const auto& word = source[static_cast<std::size_t>(rows[static_cast<int64_t>(t)].argmax().item<int64_t>())];
    const auto* translation = dictionary.find(word);
    out[t] = translation ? *translation : word;
  }
  return out;
}

}  // namespace synmt
