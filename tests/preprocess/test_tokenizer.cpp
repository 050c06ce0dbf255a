#include <gtest/gtest.h>

#include "preprocess/tokenizer.h"

namespace {
std::string tok(const std::string& s, const std::string& lang = "en", bool aggressive = false, bool escape = true,
                bool perl_final_period = true) {
  synmt::TokenizerOptions o;
  o.lang = lang;
  o.aggressive_dash_splits = aggressive;
  o.escape = escape;
  o.split_final_period = perl_final_period;
  return synmt::MosesTokenizer(o).tokenize(s);
}
}  // namespace

TEST(Tokenizer, MosesEnglishCases) {
  EXPECT_EQ(tok("Hello, world!"), "Hello , world !");
  EXPECT_EQ(tok("I don't know."), "I don &apos;t know .");
  EXPECT_EQ(tok("It costs $5,300.00."), "It costs $ 5,300.00 .");
  EXPECT_EQ(tok("The U.S. is big."), "The U.S. is big .");
  EXPECT_EQ(tok("Mr. Smith arrived."), "Mr. Smith arrived .");
  EXPECT_EQ(tok("Wait... what?"), "Wait ... what ?");
  EXPECT_EQ(tok("He said \"hi\" <b>"), "He said &quot; hi &quot; &lt; b &gt;");
  EXPECT_EQ(tok("He said \"hi\"", "en", false, false), "He said \" hi \"");
  EXPECT_EQ(tok("a well-known fact", "en", true), "a well @-@ known fact");
  EXPECT_EQ(tok("a well-known fact"), "a well-known fact");
  EXPECT_EQ(tok("  two   spaces\there "), "two spaces here");
}

TEST(Tokenizer, LanguageSpecificApostrophesAndPrefixes) {
  // "s" is a German non-breaking prefix: sacremoses keeps "s." at the end, tokenizer.perl splits it
  EXPECT_EQ(tok("Das ist's.", "de", false, false), "Das ist ' s .");
  EXPECT_EQ(tok("Das ist's.", "de", false, false, false), "Das ist ' s.");
  EXPECT_EQ(tok("He lives in the U.S."), "He lives in the U.S .");
  EXPECT_EQ(tok("He lives in the U.S.", "en", false, true, false), "He lives in the U.S.");
  EXPECT_EQ(tok("C'est l'homme.", "fr", false, false), "C' est l' homme .");
  EXPECT_EQ(tok("Er kam am 3. Mai.", "de"), "Er kam am 3. Mai .");
}

TEST(Detokenizer, UndoesTokenisation) {
  synmt::MosesDetokenizer en("en"), de("de");
  EXPECT_EQ(en.detokenize("Hello , world !"), "Hello, world!");
  EXPECT_EQ(en.detokenize("I don &apos;t know ."), "I don't know.");
  EXPECT_EQ(en.detokenize("He said &quot; hi &quot; ."), "He said \"hi\".");
  EXPECT_EQ(en.detokenize("( a ) b"), "(a) b");
  EXPECT_EQ(de.detokenize("Ein Mann , der lacht ."), "Ein Mann, der lacht.");
  EXPECT_EQ(en.detokenize("a well @-@ known fact"), "a well-known fact");
}
