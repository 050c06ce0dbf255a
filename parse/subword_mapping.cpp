#include "parse/subword_mapping.h"

#include <stdexcept>

namespace synmt::parse {

SubwordTree map_tree_to_subwords(const std::vector<WordSpan>& spans, const std::vector<int32_t>& heads,
                                 const std::vector<int32_t>& labels) {
  if (spans.size() != heads.size() || heads.size() != labels.size())
    throw std::invalid_argument("the sentence has " + std::to_string(spans.size()) + " words after sub-word segmentation but the parse has " +
                                std::to_string(heads.size()));
  SubwordTree t;
  const std::size_t n = spans.empty() ? 0 : static_cast<std::size_t>(spans.back().last) + 1;
  t.parent_middle.resize(n);
  t.parent_first.resize(n);
  t.label.resize(n);
  t.word.resize(n);
  for (std::size_t w = 0; w < spans.size(); ++w) {
    const int32_t h = heads[w];
    if (h < 0 || h > static_cast<int32_t>(spans.size()))
      throw std::invalid_argument("head " + std::to_string(h) + " of word " + std::to_string(w + 1) + " is out of range");
    const WordSpan& parent = h == 0 ? spans[w] : spans[static_cast<std::size_t>(h - 1)];  // root: itself
    const float middle = 0.5f * static_cast<float>(parent.first + parent.last);  // mean of consecutive positions
    for (int32_t p = spans[w].first; p <= spans[w].last; ++p) {
      const auto k = static_cast<std::size_t>(p);
      t.parent_middle[k] = middle;
      t.parent_first[k] = parent.first;
      t.label[k] = labels[w];
      t.word[k] = static_cast<int32_t>(w);
    }
  }
  return t;
}

}  // namespace synmt::parse
