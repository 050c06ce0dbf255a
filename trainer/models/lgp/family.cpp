// The LGP-NMT family: the rows of Hashimoto & Tsuruoka 2017's Tables 1-3 as presets at the paper's
// small sizes (d1 = 100, d2 = 50, d3 = 128); medium / large set hidden and embed_dim to 256 / 512
// in their experiment's model options. LGP-NMT+ is lgp_nmt with `pretrained_parser` set.
#include "trainer/models/lgp/family.h"

#include "preprocess/vocab.h"
#include "trainer/models/lgp/lgp.h"

namespace synmt {

ModelFamily lgp_family() {
  auto row = [](const char* heads) { return nlohmann::json{{"heads", heads}}; };
  auto family = make_family<LgpModel, LgpOptions>(
      {
          {"lgp_nmt", "", row("latent"), "LGP-NMT: latent graph parser, dependency composition, two attentions"},
          {"lgp_seq", "", row("none"), "SEQ: the same 3-layer encoder without the dependency composition"},
          {"lgp_uni", "", row("uniform"), "UNI: p(H_i = j) fixed to 1/N"},
          {"lgp_dep", "", row("parsed"), "DEP: heads and labels fixed to a parser's 1-best (parse cache)"},
      },
      {{"word_dim", 8}, {"ngram_dim", 8}, {"parser_hidden", 6}, {"tag_dim", 4}, {"arc_dim", 6}, {"label_dim", 4},
       {"embed_dim", 16}, {"hidden", 16}, {"upos", 5}, {"labels", 6}});
  // the source words themselves: character n-grams of each vocabulary entry
  family.complete_from_data = [](nlohmann::json& options, const Vocab& src_vocab, const Vocab& tgt_vocab) {
    fill_vocabulary_sizes(options, src_vocab, tgt_vocab);
    std::vector<std::string> words;
    for (std::size_t k = 0; k < src_vocab.size(); ++k) words.push_back(src_vocab.token(static_cast<int32_t>(k)));
    options["src_words"] = words;
  };
  return family;
}

}  // namespace synmt
