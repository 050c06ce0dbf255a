#pragma once
// sacreBLEU 2.x tokenisers for BLEU, each reproducing its Python counterpart: 13a (mteval-v13a),
// intl (mteval-v14 international), zh, char, none, ja-mecab (MeCab + IPAdic, -Owakati).
#include <functional>
#include <string>

namespace synmt::eval {

// normalise = false: the spaces are left as the regular expressions made them (runs, leading and
// trailing); the same tokens come out of a whitespace split, for a tenth less work.
std::string tokenize_13a(const std::string& line, bool normalise = true);
std::string tokenize_intl(const std::string& line);
std::string tokenize_zh(const std::string& line);
std::string tokenize_char(const std::string& line);
std::string tokenize_none(const std::string& line);  // whitespace normalisation only

// name: 13a | intl | zh | char | none | ja-mecab. mecab_dicdir: IPAdic directory for ja-mecab
// (empty: MeCab's default dictionary, Debian's mecab-ipadic-utf8). only_split: the caller splits
// the output on whitespace and never shows it (BLEU statistics), so spacing may stay unnormalised.
std::function<std::string(const std::string&)> make_bleu_tokenizer(const std::string& name,
                                                                   const std::string& mecab_dicdir = "",
                                                                   bool only_split = false);

}  // namespace synmt::eval
