#pragma once
// Japanese word segmentation with MeCab (libmecab + IPAdic), the segmentation of
// `mecab -Owakati`: tokens separated by single spaces (MeCab's trailing space is dropped).
// One MeCab tagger per thread and dictionary: a tagger is not safe to share between threads.
#include <string>

namespace synmt {

// dicdir: IPAdic directory; empty = MeCab's default (Debian's mecab-ipadic-utf8).
std::string mecab_wakati(const std::string& line, const std::string& dicdir = "");

}  // namespace synmt
