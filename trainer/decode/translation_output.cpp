#include "trainer/decode/translation_output.h"

#include <memory>

#include "core/atomic_file.h"
#include "core/hdf5_file.h"
#include "core/ragged.h"
#include "core/strings.h"
#include "preprocess/bpe.h"
#include "preprocess/tokenizer.h"
#include "trainer/decode/unk_replace.h"

namespace synmt {
namespace {

// The best hypothesis of each sentence as the output text before detokenisation.
std::vector<std::string> best_hypotheses(const Translations& result, const Vocab& tgt_vocab,
                                         const std::vector<std::vector<std::string>>& source_words,
                                         const TranslationOutputOptions& o) {
  std::vector<std::string> hyps;
  const auto dictionary = UnkDictionary::load(o.unk_dictionary);
  for (std::size_t i = 0; i < result.hypotheses.size(); ++i) {
    const auto& best = result.hypotheses[i].front();
    std::string sub = tgt_vocab.decode(best.tokens);
    if (o.unk_replace && best.attention.defined() && i < source_words.size()) {
      std::string replaced;
      for (const auto& t : replace_unknowns(split_nonempty(sub, ' '), best.attention, source_words[i], dictionary))
        replaced += (replaced.empty() ? "" : " ") + t;
      sub = replaced;
    }
    hyps.push_back(o.raw ? sub : remove_bpe(sub));
  }
  return hyps;
}

void write_nbest(const Translations& result, const Vocab& tgt_vocab, const TranslationOutputOptions& o) {
  AtomicFile nb(o.nbest_output);
  for (std::size_t i = 0; i < result.hypotheses.size(); ++i)
    for (const auto& h : result.hypotheses[i]) {
      std::string sub = tgt_vocab.decode(h.tokens);
      nb.write_line(std::to_string(i) + " ||| " + (o.raw ? sub : remove_bpe(sub)) + " ||| " + std::to_string(h.score) +
                    " ||| " + std::to_string(h.log_prob));
    }
  nb.commit();
}

}  // namespace

void write_translations(const Translations& result, const Vocab& tgt_vocab,
                        const std::vector<std::vector<std::string>>& source_words, const TranslationOutputOptions& o) {
  const auto hyps = best_hypotheses(result, tgt_vocab, source_words, o);
  if (!o.output_tok.empty()) {
    AtomicFile tok(o.output_tok);
    for (const auto& h : hyps) tok.write_line(h);
    tok.commit();
  }
  if (!o.dump_attention.empty()) write_attention_dump(o.dump_attention, result.hypotheses);
  if (!o.nbest_output.empty()) write_nbest(result, tgt_vocab, o);
  AtomicFile out(o.output);
  std::unique_ptr<MosesDetokenizer> detok;
  if (!o.detok_lang.empty() && !o.raw) detok = std::make_unique<MosesDetokenizer>(o.detok_lang);
  for (const auto& h : hyps) out.write_line(detok ? detok->detokenize(h) : h);
  out.commit();
}

void write_attention_dump(const std::string& path, const std::vector<std::vector<Hypothesis>>& hypotheses) {
  Ragged<float> attention;
  std::vector<int32_t> rows, cols;
  for (const auto& h : hypotheses) {
    const auto& a = h.front().attention;
    attention.add_flat(a.data_ptr<float>(), static_cast<std::size_t>(a.numel()));
    rows.push_back(static_cast<int32_t>(a.size(0)));
    cols.push_back(static_cast<int32_t>(a.size(1)));
  }
  AtomicPath out(path);
  {
    H5File f(out.temp_path(), H5File::Mode::Create);
    write_ragged(f, {"attention", "offsets", ""}, attention);
    f.write("rows", rows);
    f.write("cols", cols);
    f.set_attribute("format", "synmt-attention-1");
    f.set_attribute("description", "per sentence a rows x cols row-major matrix: output step (</s> included) x source sub-word");
    f.close();  // flushes: a full disk fails here, before the rename
  }
  out.commit();
}

}  // namespace synmt
