// The LGP-NMT family (Hashimoto & Tsuruoka 2017): soft heads are distributions over ROOT and the
// other words, UNI is exactly 1/N, DEP's heads are the parse's one-hot arcs, the NMT loss reaches
// every parser layer that feeds it, the NMT LSTMs start with forget bias 1, dropout acts on h~ only,
// the parameter count is the documented formula, an unknown word
// keeps the n-grams of its form, and a parser loaded from a pre-trained file gives exactly that
// parser's heads (hence its UAS), unknown words included.
#include <gtest/gtest.h>

#include <torch/serialize.h>

#include <filesystem>

#include "core/error.h"
#include "core/special_tokens.h"
#include "eval/trees.h"
#include "parse/conllu.h"
#include "trainer/data/batches.h"
#include "trainer/models/lgp/lgp.h"
#include "trainer/models/registry.h"
#include "trainer/parser/builtin_parser.h"
#include "trainer/decode/beam_search.h"
#include "trainer/decode/unk_replace.h"
#include "eval/length_prior.h"
#include "trainer/train/blackout.h"
#include "trainer/train/criterion.h"
#include "tests/trainer/tiny_models.h"

namespace {

const std::vector<std::string> kWords{"<pad>", "<unk>", "<s>", "</s>", "the", "cat", "sat", "on", "a", "mat", "dog", "ran",
                                      "to", "it", "and", ".", "big", "red", "house", "is"};

nlohmann::json lgp_config(const std::string& arch, nlohmann::json options = nlohmann::json::object()) {
  options.merge_patch(synmt::model_family("lgp").tiny);
  auto m = synmt::test::tiny_arch(arch, options);
  m["options"]["src_words"] = kWords;
  if (arch == "lgp_dep") m["options"]["src_labels"] = 6;
  return m;
}

std::shared_ptr<synmt::LgpModel> make(const std::string& arch, nlohmann::json options = nlohmann::json::object()) {
  torch::manual_seed(3);
  return std::dynamic_pointer_cast<synmt::LgpModel>(synmt::create_model(lgp_config(arch, std::move(options))));
}

// two sentences of 5 and 2 words with a parse (parent_first: word index, root = itself) and labels
synmt::SourceInput parsed_batch() {
  synmt::SourceInput s;
  s.tokens = torch::tensor({4, 5, 6, 7, 9, 10, 11, 0, 0, 0}, torch::kInt64).view({2, 5});
  s.lengths = torch::tensor({5, 2}, torch::kInt64);
  s.features[synmt::kSourceFeatureParentFirst] = torch::tensor({1, 2, 2, 4, 2, 1, 1, 0, 0, 0}, torch::kInt64).view({2, 5});
  s.features[synmt::kSourceFeatureLabel] = torch::tensor({1, 2, 3, 4, 5, 1, 3, 0, 0, 0}, torch::kInt64).view({2, 5});
  return s;
}

int64_t count(torch::nn::Module& m) {
  int64_t n = 0;
  for (const auto& p : m.parameters()) n += p.numel();
  return n;
}

}  // namespace

TEST(Lgp, SoftHeadsAreDistributionsOverRootAndTheOtherWords) {
  auto model = make("lgp_nmt");
  model->eval();
  auto g = model->graph(parsed_batch());
  ASSERT_EQ(g.heads.sizes(), (std::vector<int64_t>{2, 6, 6}));
  const int64_t lengths[] = {5, 2};
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t i = 1; i <= lengths[b]; ++i) {
      auto row = g.heads[b][i];
      EXPECT_NEAR(row.sum().item<double>(), 1.0, 1e-5);
      EXPECT_EQ(row[i].item<float>(), 0.0f) << "a word heads itself";
      EXPECT_GT(row[0].item<float>(), 0.0f) << "ROOT is a candidate";
      for (int64_t j = lengths[b] + 1; j < 6; ++j) EXPECT_EQ(row[j].item<float>(), 0.0f) << "padding heads";
    }
  EXPECT_TRUE(torch::allclose(g.labels.sum(-1), torch::ones({2, 6}), 1e-5, 1e-5));
}

// §3.2: the decoder's "initial state is set with h_{N+1} and its corresponding memory cell". Layer 3
// is recomputed here by the LSTM equations from the model's parameters (i, f, g, o gates) over
// [v_enc(w_t); h2_t] for the words and [v_enc(</s>); h2_ROOT] at N+1; the decoder's h0 and c0 must be
// that recurrence's last hidden state and cell, for each sentence of a batch of unequal lengths
// (the code before this test started the cell at zero).
TEST(Lgp, DecoderStartsFromTheEncodersLastStateAndCell) {
  auto model = make("lgp_nmt");
  model->eval();
  torch::NoGradGuard no_grad;
  auto src = parsed_batch();
  auto h2 = model->graph(src).parser.states;  // (B, S+1, 2 d1), ROOT at 0
  auto state = model->encode(src);
  auto p = model->named_parameters();
  const auto& E = p["src_embed.weight"];
  const auto &w_ih = p["encoder.weight_ih_l0"], &w_hh = p["encoder.weight_hh_l0"];
  auto bias = p["encoder.bias_ih_l0"] + p["encoder.bias_hh_l0"];
  const int64_t H = w_hh.size(1);
  for (int64_t b = 0; b < 2; ++b) {
    const int64_t n = src.lengths[b].item<int64_t>();
    auto h = torch::zeros({H}), c = torch::zeros({H});
    for (int64_t t = 0; t <= n; ++t) {
      auto word = t < n ? src.tokens[b][t].item<int64_t>() : int64_t{synmt::special::kEos};
      auto x = torch::cat({E[word], t < n ? h2[b][t + 1] : h2[b][0]});
      auto gates = torch::mv(w_ih, x) + torch::mv(w_hh, h) + bias;
      auto i = torch::sigmoid(gates.narrow(0, 0, H)), f = torch::sigmoid(gates.narrow(0, H, H));
      auto g = torch::tanh(gates.narrow(0, 2 * H, H)), o = torch::sigmoid(gates.narrow(0, 3 * H, H));
      c = f * c + i * g;
      h = o * torch::tanh(c);
    }
    EXPECT_TRUE(torch::allclose(state["h0"][b], h, 1e-5, 1e-6)) << "sentence " << b;
    EXPECT_TRUE(torch::allclose(state["c0"][b], c, 1e-5, 1e-6)) << "sentence " << b;
    EXPECT_GT(c.abs().max().item<float>(), 1e-3f);  // a cell that zero could not pass for
  }
}

// Eq. (3) recomputed by hand: dep(w_i) = tanh(W_dep [h_i; sum_j p(H_i = j) h_j; p(l_i)] + b), the
// parser's head column j (ROOT at 0, word j at j) read at layer 3's position j - 1 and ROOT at its
// </s> position N+1; the content attention (Eqs. 4-5) may look at positions 1..N+1, the
// composition's (Eqs. 6-7) at the words 1..N only.
TEST(Lgp, DependencyCompositionAndAttentionMasksFollowEquations3To7) {
  auto model = make("lgp_nmt");
  model->eval();
  torch::NoGradGuard no_grad;
  auto src = parsed_batch();
  auto g = model->graph(src);
  auto state = model->encode(src);
  auto states = state["memory"];  // layer 3 (B, S+1, d3)
  auto dep = state["memory/dep"];
  auto p = model->named_parameters();
  const auto& W = p["compose.weight"];
  EXPECT_FALSE(p.contains("compose.bias")) << "eq. (3) has no bias";
  const int64_t S = src.tokens.size(1);
  for (int64_t b = 0; b < 2; ++b) {
    const int64_t n = src.lengths[b].item<int64_t>();
    auto content = torch::arange(S + 1) < n + 1, words = torch::arange(S) < n;
    EXPECT_TRUE(torch::equal(state["mask"][b].to(torch::kBool), content)) << "sentence " << b;
    EXPECT_TRUE(torch::equal(state["mask/dep"][b].to(torch::kBool), words)) << "sentence " << b;
    for (int64_t i = 0; i < n; ++i) {
      auto head_rep = g.heads[b][i + 1][0] * states[b][n];  // ROOT: the </s> position
      for (int64_t j = 1; j <= n; ++j) head_rep = head_rep + g.heads[b][i + 1][j] * states[b][j - 1];
      auto want = torch::tanh(torch::mv(W, torch::cat({states[b][i], head_rep, g.labels[b][i + 1]})));
      EXPECT_TRUE(torch::allclose(dep[b][i], want, 1e-5, 1e-6)) << "sentence " << b << " word " << i;
    }
  }
}

// §4.2's NMT initialisation: the weights and biases of the NMT part (layer 3, W_dep, the decoder)
// uniform in [-init_range, init_range], except the LSTMs' forget gates, whose bias is 1. LibTorch's
// LSTMs add two bias vectors (bias_ih + bias_hh), so the test reads their sum: exactly 1 on the forget
// block (gate order i, f, g, o) and exactly 0 on the other three; a bias left random, or 1 on each
// vector (2 in all), fails.
TEST(Lgp, NmtLstmsStartWithForgetBiasOneAndTheRestUniform) {
  const double range = 0.1;
  auto model = make("lgp_nmt", {{"init_range", range}});
  auto p = model->named_parameters();
  std::vector<std::string> lstm_biases;
  for (const auto& item : p) {
    const auto& name = item.key();
    if (name.rfind("parser.", 0) == 0) continue;
    const bool lstm = name.rfind("encoder.", 0) == 0 || name.find(".cell_") != std::string::npos;
    if (lstm && name.find("bias_ih") != std::string::npos) {
      lstm_biases.push_back(name);
      continue;
    }
    if (lstm && name.find("bias_hh") != std::string::npos) continue;
    EXPECT_LE(item.value().abs().max().item<double>(), range) << name;
    EXPECT_GT(item.value().abs().max().item<double>(), range / 2) << name << " is not drawn from the range";
  }
  ASSERT_EQ(lstm_biases.size(), 2u) << "layer 3 and the decoder's one cell";
  for (const auto& name : lstm_biases) {
    auto other = name;
    other.replace(other.find("bias_ih"), 7, "bias_hh");
    auto bias = p[name] + p[other];
    const int64_t H = bias.size(0) / 4;
    EXPECT_TRUE(torch::equal(bias.narrow(0, H, H), torch::ones({H}))) << name << ": forget gate";
    for (int64_t gate : {0, 2, 3}) EXPECT_TRUE(torch::equal(bias.narrow(0, gate * H, H), torch::zeros({H}))) << name << " gate " << gate;
  }
}

// §4.2: dropout (rate 0.2 in the paper) is applied to h~_t only. In training mode with dropout 0.5
// the encoder (parser, layer 3, compositions, the decoder's initial state) is exactly its evaluation
// value, and so is the first target step's h_t and attention (no dropout on the embedded target or
// the LSTM input); its h~_1 is the evaluation value with each unit either dropped (0) or scaled by 2.
TEST(Lgp, DropoutActsOnlyOnTheAttentionalHiddenState) {
  auto model = make("lgp_nmt", {{"dropout", 0.5}, {"parser_dropout", 0.0}, {"word_dropout", 0.0}});
  torch::NoGradGuard no_grad;
  auto src = parsed_batch();
  auto tgt_in = torch::tensor({2, 4, 5, 2, 9, 10}, torch::kInt64).view({2, 3});  // <s> first
  model->eval();
  auto ref_state = model->encode(src);
  auto ref = model->forward(src, tgt_in, synmt::ForwardRequest{false, false}).hidden.select(1, 0);
  model->train();
  int64_t dropped = 0, kept = 0;
  for (int trial = 0; trial < 3; ++trial) {
    auto state = model->encode(src);
    for (const char* key : {"memory", "memory/dep", "h0", "c0"})
      EXPECT_TRUE(torch::equal(state[key], ref_state[key])) << key << " changes in training mode";
    auto first = model->forward(src, tgt_in, synmt::ForwardRequest{false, false}).hidden.select(1, 0);
    auto zero = first.eq(0);
    dropped += zero.sum().item<int64_t>();
    kept += (~zero).sum().item<int64_t>();
    EXPECT_TRUE(torch::allclose(first.masked_select(~zero), 2 * ref.masked_select(~zero), 1e-5, 1e-6));
  }
  EXPECT_GT(dropped, 0);
  EXPECT_GT(kept, 0);
}

// §4.2: "all the bias vectors and the weight matrices in the softmax layers were initialized with
// zeros" (the parser's POS classifier and label scorer); its other matrices are not zero.
TEST(Lgp, ParserSoftmaxLayersAndBiasesStartAtZero) {
  auto model = make("lgp_nmt");
  for (const auto& item : model->latent_parser()->named_parameters()) {
    const auto& name = item.key();
    const auto& value = item.value();
    const bool softmax = name.rfind("upos_out.", 0) == 0 || name.rfind("label_linear.", 0) == 0 || name.rfind("label_bilinear.", 0) == 0;
    const bool lstm = name.rfind("lstm", 0) == 0;
    const bool is_bias = name.find("bias") != std::string::npos;
    if (softmax || (is_bias && !lstm)) EXPECT_EQ(value.abs().max().item<float>(), 0.0f) << name;
    else if (!is_bias && name != "word_embed.weight") EXPECT_GT(value.abs().max().item<float>(), 0.0f) << name;
  }
}

TEST(Lgp, UniformHeadsAreExactlyOneOverN) {
  auto model = make("lgp_uni");
  auto g = model->graph(parsed_batch());
  const int64_t lengths[] = {5, 2};
  for (int64_t b = 0; b < 2; ++b) {
    const float expected = 1.0f / static_cast<float>(lengths[b]);  // N - 1 other words + ROOT
    for (int64_t i = 1; i <= lengths[b]; ++i)
      for (int64_t j = 0; j < 6; ++j) {
        const bool candidate = j != i && j <= lengths[b];
        EXPECT_EQ(g.heads[b][i][j].item<float>(), candidate ? expected : 0.0f) << b << " " << i << " " << j;
      }
  }
}

TEST(Lgp, ParsedHeadsAreTheCachesOneHotArcs) {
  auto model = make("lgp_dep");
  auto src = parsed_batch();
  auto g = model->graph(src);
  auto parent = src.features[synmt::kSourceFeatureParentFirst];
  auto label = src.features[synmt::kSourceFeatureLabel];
  const int64_t lengths[] = {5, 2};
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t i = 0; i < lengths[b]; ++i) {
      const int64_t p = parent[b][i].item<int64_t>();
      const int64_t head = p == i ? 0 : p + 1;  // parser layout: ROOT 0, word k at k + 1
      auto expected = torch::zeros({6});
      expected[head] = 1.0;
      EXPECT_TRUE(torch::equal(g.heads[b][i + 1], expected)) << b << " " << i;
      EXPECT_EQ(g.labels[b][i + 1].argmax().item<int64_t>(), label[b][i].item<int64_t>());
      EXPECT_EQ(g.labels[b][i + 1].sum().item<float>(), 1.0f);
    }
  // the model refuses a batch without the parse
  synmt::SourceInput bare = src;
  bare.features.clear();
  EXPECT_THROW(model->graph(bare), synmt::ConfigError);
}

TEST(Lgp, NmtLossReachesTheTaggerTagEmbeddingAndLabels) {
  auto model = make("lgp_nmt");
  model->train();
  auto batch = synmt::make_data_batch(synmt::test::copy_task(6), {0, 1, 2, 3, 4, 5});
  auto out = model->forward(batch.source, batch.tgt_in);
  auto terms = synmt::Criterion({})(out, batch.tgt_out, 0);
  terms.objective.backward();
  auto params = model->named_parameters();
  for (const char* name : {"parser.upos_out.weight", "parser.tag_embed.weight", "parser.label_bilinear.weight",
                           "parser.label_linear.weight", "parser.arc_w", "parser.ngram_embed.weight", "compose.weight"}) {
    ASSERT_TRUE(params.contains(name)) << name;
    const auto& grad = params[name].grad();
    ASSERT_TRUE(grad.defined()) << name;
    EXPECT_GT(grad.abs().sum().item<double>(), 0.0) << name << " gets no gradient from the NMT loss";
  }
}

TEST(Lgp, ParameterCountIsTheDocumentedFormula) {
  for (const std::string arch : {"lgp_nmt", "lgp_seq", "lgp_uni", "lgp_dep"})
    for (const std::string scorer : {"bilinear", "biaffine"})
    for (const bool dep_bias : {false, true}) {
      auto model = make(arch, {{"arc_scorer", scorer}, {"dep_bias", dep_bias}});
      auto o = synmt::LgpOptions::from_json(model->describe()["options"]);
      const int64_t Vs = 20, Vt = 20, G = o.parser_options().ngrams, P = o.upos, Lp = o.labels, L = o.label_classes();
      const int64_t d1 = o.parser_hidden, e = o.word_dim, g = o.ngram_dim, t = o.tag_dim, a = o.arc_dim, l = o.label_dim,
                    d3 = o.hidden, E = o.embed_dim;
      auto bilstm = [](int64_t i, int64_t h) { return 2 * 4 * h * (i + h + 2); };
      // layer 2 per direction (§3.1): two one-way LSTMs, each over [x; y; its own half of h1]
      int64_t parser = Vs * e + G * g + bilstm(e + g, d1) + (2 * d1 * P + P) + P * t + bilstm(e + g + t + d1, d1) +
                       (scorer == "bilinear" ? 4 * d1 * d1 : 2 * (2 * d1 * a + a) + a * a + a) + 2 * (2 * d1 * l + l) +
                       l * l * Lp + Lp + 2 * l * Lp;
      const bool composes = arch != "lgp_seq";
      int64_t nmt = Vs * E + Vt * E + 4 * d3 * (E + 2 * d1 + d3 + 2) + (composes ? (2 * d3 + L) * d3 + (dep_bias ? d3 : 0) : 0) +
                    4 * d3 * (2 * E + d3 + 2) + (composes ? 3 : 2) * d3 * E;
      EXPECT_EQ(count(*model->latent_parser()), parser) << arch << " " << scorer;
      EXPECT_EQ(count(*model), parser + nmt) << arch << " " << scorer << " dep_bias " << dep_bias;
    }
}

// §3.1's layer 2: ->h2_i reads [x; y; ->h1_i] and <-h2_i reads [x; y; <-h1_i]. Then a change to word
// k leaves ->h2 before k and <-h2 after k as they were; with the BiLSTM over all of h1 (joint) the
// forward states before k see <-h1, which depends on word k, and change. A shorter sentence beside a
// longer one gets the states it gets alone (the backward direction reverses within each length).
TEST(Lgp, EachDirectionOfLayerTwoReadsItsOwnDirectionOfLayerOne) {
  auto states = [](const std::string& layer2, const synmt::SourceInput& source) {
    auto model = make("lgp_nmt", {{"parser_layer2", layer2}});
    model->eval();
    torch::NoGradGuard no_grad;
    return model->latent_parser()->forward(model->parser_batch(source)).states;
  };
  auto changed = parsed_batch();
  changed.tokens = changed.tokens.clone();
  changed.tokens[0][2] = 16;  // word 3 (position 3 after ROOT): "sat" -> "big"
  const int64_t h = synmt::LgpOptions::from_json(make("lgp_nmt")->describe()["options"]).parser_hidden;
  for (const std::string layer2 : {"per_direction", "joint"}) {
    auto a = states(layer2, parsed_batch())[0], b = states(layer2, changed)[0];
    const bool forward_before_same = torch::allclose(a.narrow(0, 0, 3).narrow(-1, 0, h), b.narrow(0, 0, 3).narrow(-1, 0, h));
    const bool backward_after_same = torch::allclose(a.narrow(0, 4, 2).narrow(-1, h, h), b.narrow(0, 4, 2).narrow(-1, h, h));
    EXPECT_EQ(forward_before_same, layer2 == "per_direction") << layer2;
    EXPECT_EQ(backward_after_same, layer2 == "per_direction") << layer2;
    EXPECT_FALSE(torch::allclose(a.narrow(0, 3, 1), b.narrow(0, 3, 1))) << layer2;  // the changed word itself
  }
  synmt::SourceInput alone;
  alone.tokens = parsed_batch().tokens.narrow(0, 1, 1).narrow(1, 0, 2).contiguous();
  alone.lengths = torch::tensor({2}, torch::kInt64);
  for (const std::string layer2 : {"per_direction", "joint"}) {
    auto in_batch = states(layer2, parsed_batch())[1].narrow(0, 0, 3);
    EXPECT_TRUE(torch::allclose(in_batch, states(layer2, alone)[0], 1e-5, 1e-6)) << layer2;
  }
}

TEST(Lgp, CharacterNgramsComeFromTheSourceWords) {
  auto model = make("lgp_nmt");
  auto batch = model->parser_batch(parsed_batch());
  // ROOT's one root n-gram, then "the" (^the$): ^t th he e$, ^th the he$, ^the the$ = 9
  auto offsets = batch.ngram_offsets;
  EXPECT_EQ(offsets[1].item<int64_t>() - offsets[0].item<int64_t>(), 1);
  EXPECT_EQ(offsets[2].item<int64_t>() - offsets[1].item<int64_t>(), 9);
  EXPECT_EQ(batch.words[0][0].item<int64_t>(), synmt::parser::ParserVocab::kRoot);
  EXPECT_EQ(batch.words[0][1].item<int64_t>(), 4);
}

// Hashimoto & Tsuruoka's n-grams are there for the rare words: an <unk> word reaches the parser
// with the n-grams of its surface form (those in the model's inventory), not with <unk>'s empty row.
// A source with <unk> words but without their forms is refused, never parsed without n-grams.
TEST(Lgp, CharacterNgramsOfAnUnknownWordComeFromItsSurfaceForm) {
  auto model = make("lgp_nmt");
  synmt::SourceInput s;
  s.tokens = torch::tensor({4, synmt::special::kUnk, 5, 6, synmt::special::kUnk, 0}, torch::kInt64).view({2, 3});
  s.lengths = torch::tensor({3, 2}, torch::kInt64);
  EXPECT_THROW(model->parser_batch(s), synmt::ConfigError);
  s.has_unknown_forms = true;
  s.unknown_forms = {{"cats"}, {"reddish"}};
  auto batch = model->parser_batch(s);
  auto vocab = synmt::parser::ParserVocab::for_nmt_vocab(kWords, {}, {});
  auto ngrams_at = [&](int64_t b, int64_t position) {  // parser position (ROOT at 0) of sentence b
    const int64_t row = b * 4 + position;
    const int64_t first = batch.ngram_offsets[row].item<int64_t>();
    const int64_t last = row + 1 < batch.ngram_offsets.size(0) ? batch.ngram_offsets[row + 1].item<int64_t>() : batch.ngram_ids.size(0);
    std::vector<int32_t> ids;
    for (int64_t k = first; k < last; ++k) ids.push_back(static_cast<int32_t>(batch.ngram_ids[k].item<int64_t>()));
    return ids;
  };
  // the n-grams themselves, read back through the inventory (not through ngram_ids, which made them)
  const auto inventory = vocab.to_json()["ngrams"].get<std::vector<std::string>>();
  auto strings_at = [&](int64_t b, int64_t position) {
    std::vector<std::string> out;
    for (auto id : ngrams_at(b, position)) out.push_back(inventory.at(static_cast<std::size_t>(id)));
    return out;
  };
  // "cats": ^c ca at ^ca cat ^cat are n-grams of the vocabulary's "cat", s$ of "is"; ts ats ts$ cats
  // ats$ are none of the vocabulary's (bigrams first, then trigrams, then 4-grams)
  EXPECT_EQ(strings_at(0, 2), (std::vector<std::string>{"^c", "ca", "at", "s$", "^ca", "cat", "^cat"}));
  // "reddish": ^r re ed ^re red ^red of "red", is of "is"; dd di sh h$ and the longer ones are unknown
  EXPECT_EQ(strings_at(1, 2), (std::vector<std::string>{"^r", "re", "ed", "is", "^re", "red", "^red"}));
  // known words keep all their n-grams
  EXPECT_EQ(strings_at(0, 1), (std::vector<std::string>{"^t", "th", "he", "e$", "^th", "the", "he$", "^the", "the$"}));
  EXPECT_EQ(strings_at(1, 1), (std::vector<std::string>{"^s", "sa", "at", "t$", "^sa", "sat", "at$", "^sat", "sat$"}));
  // and the parser's states change with them
  s.unknown_forms = {{"zzzz"}, {"qqqq"}};  // no known n-gram: as <unk> alone
  model->eval();
  torch::NoGradGuard no_grad;
  auto without = model->graph(s).heads;
  s.unknown_forms = {{"cats"}, {"reddish"}};
  EXPECT_FALSE(torch::allclose(model->graph(s).heads, without));
}

// A parser pre-trained for LGP-NMT+ (--nmt-vocab): loaded into the model, the model's soft heads
// are the parser's own, so the decoded trees and UAS are the parser's. On EWT when available.
TEST(Lgp, PretrainedParserGivesTheParsersOwnHeadsAndUas) {
  const std::string ewt = std::string(SYNMT_MIRROR) + "/ud/UD_English-EWT/";
  if (!std::filesystem::exists(ewt)) GTEST_SKIP() << "no EWT";
  const std::string dir = std::string(SYNMT_TEST_TMP) + "/lgp_pretrain";
  std::filesystem::create_directories(dir);
  auto gold = synmt::parse::read_conllu(ewt + "en_ewt-ud-test.conllu.gz");
  gold.resize(60);
  synmt::parse::write_conllu_file(dir + "/test60.conllu", gold);
  auto train = synmt::parse::read_conllu(ewt + "en_ewt-ud-train.conllu.gz");
  train.resize(200);
  synmt::parse::write_conllu_file(dir + "/train200.conllu", train);
  // the NMT source vocabulary: the lower-cased words of the training part, so that many test words
  // are <unk> and reach the model's parser as the standalone parser reads them: the id of <unk>
  // and the n-grams of the form
  std::map<std::string, int64_t> counts;
  for (const auto& s : synmt::parser::load_treebank(dir + "/train200.conllu"))
    for (const auto& w : s.forms) ++counts[synmt::parser::lowercase(w)];
  synmt::VocabOptions vo;
  auto vocab = synmt::Vocab::build({counts.begin(), counts.end()}, vo);
  vocab.save(dir + "/vocab.src");
  auto small = synmt::model_family("lgp").tiny;
  small["upos"] = 17;  // a pre-trained parser's inventories: UD's universal sets
  small["labels"] = 37;
  nlohmann::json train_config = {{"model", {{"arch", "lgp_nmt"}, {"options", small}}}};
  auto parser_options = synmt::lgp_parser_options(train_config, vocab);
  auto po = synmt::parser::ParserTrainOptions::from_json(
      {{"max_epochs", 2}, {"patience", 5}, {"nmt_vocab", dir + "/vocab.src"}, {"fold_case", true}});
  synmt::parser::train_parser(po, parser_options, {dir + "/train200.conllu"}, dir + "/test60.conllu", dir + "/parser", "test");
  auto parser = synmt::parser::BuiltinParser::load(dir + "/parser/parser.pt");

  auto model_json = synmt::resolve_model_config(train_config["model"]);
  model_json["options"]["src_vocab"] = static_cast<int64_t>(vocab.size());
  model_json["options"]["tgt_vocab"] = 20;
  std::vector<std::string> words;
  for (std::size_t k = 0; k < vocab.size(); ++k) words.push_back(vocab.token(static_cast<int32_t>(k)));
  model_json["options"]["src_words"] = words;
  model_json["options"]["pretrained_parser"] = dir + "/parser/parser.pt";
  auto model = std::dynamic_pointer_cast<synmt::LgpModel>(synmt::create_model(model_json));
  model->load_pretrained();
  // the file synmt-train records the digest of, so that a state knows which parser it started from
  EXPECT_EQ(model->pretrained_files(), std::vector<std::string>{dir + "/parser/parser.pt"});
  model->eval();
  parser.model()->eval();

  // one batch of all sentences, through the parser and through the model
  auto sentences = synmt::parser::load_treebank(dir + "/test60.conllu");
  std::vector<const synmt::parser::ParserSentence*> all;
  std::vector<std::vector<int32_t>> ids;
  std::vector<std::vector<std::string>> unknown_forms;
  int64_t unknown = 0;
  for (const auto& s : sentences) {
    all.push_back(&s);
    ids.emplace_back();
    std::vector<std::string> forms;
    for (const auto& w : s.forms) forms.push_back(synmt::parser::lowercase(w));
    for (const auto& w : forms) ids.back().push_back(vocab.id(w));
    unknown_forms.push_back(synmt::unknown_forms_of(forms, ids.back()));
    unknown += static_cast<int64_t>(unknown_forms.back().size());
  }
  ASSERT_GT(unknown, 100) << "the test needs words outside the NMT vocabulary";
  torch::NoGradGuard no_grad;
  auto reference = torch::softmax(parser.model()->forward(parser.make_batch(all)).arc_scores, -1);
  auto heads = model->graph(synmt::make_source_batch(ids, &unknown_forms).source).heads;
  ASSERT_TRUE(torch::equal(heads, reference)) << "the model's soft heads are not the parser's";
  // decoded as the parser decodes (best head per word; CLE when that is no tree): the same UAS
  double correct = 0, total = 0;
  auto logp = heads.log();
  for (std::size_t k = 0; k < sentences.size(); ++k) {
    const int n = static_cast<int>(sentences[k].forms.size());
    synmt::eval::Heads tree(static_cast<std::size_t>(n) + 1, -1);
    synmt::eval::ScoreMatrix scores(static_cast<std::size_t>(n + 1), std::vector<double>(static_cast<std::size_t>(n + 1), -1e9));
    for (int d = 1; d <= n; ++d) {
      int best = 0;
      for (int h = 0; h <= n; ++h) {
        const double v = logp[static_cast<int64_t>(k)][d][h].item<double>();
        if (h != d) scores[static_cast<std::size_t>(h)][static_cast<std::size_t>(d)] = v;
        if (h > 0 && v > logp[static_cast<int64_t>(k)][d][best].item<double>()) best = h;
      }
      tree[static_cast<std::size_t>(d)] = best;
    }
    if (!synmt::eval::is_tree(tree, true)) tree = synmt::eval::chu_liu_edmonds(scores, true);
    for (int d = 1; d <= n; ++d) {
      correct += tree[static_cast<std::size_t>(d)] == sentences[k].heads[static_cast<std::size_t>(d - 1)];
      ++total;
    }
  }
  auto reference_scores = synmt::parser::evaluate_parser(parser, dir + "/test60.conllu");
  EXPECT_NEAR(100.0 * correct / total, reference_scores.uas, 1e-9);
}

// BlackOut on a hand example: V = 4, one target position, negatives {1, 3}.
TEST(Blackout, MatchesItsClosedFormOnAHandExample) {
  auto hidden = torch::tensor({0.5, -1.0}).view({1, 1, 2});
  auto weight = torch::tensor({0.0, 0.0, 1.0, 2.0, -1.0, 0.5, 0.3, 0.3}).view({4, 2});
  auto noise = torch::tensor({0.1, 0.2, 0.3, 0.4});
  auto target = torch::tensor({2}, torch::kInt64).view({1, 1});
  auto negatives = torch::tensor({1, 3}, torch::kInt64).view({1, 2});
  // s = h.w: s1 = 0.5 - 2 = -1.5, s2 = -0.5 - 0.5 = -1.0, s3 = 0.15 - 0.3 = -0.15
  const double a1 = std::exp(-1.5) / 0.2, a2 = std::exp(-1.0) / 0.3, a3 = std::exp(-0.15) / 0.4;
  const double z = a1 + a2 + a3;
  const double expected = -(std::log(a2 / z) + std::log(1 - a1 / z) + std::log(1 - a3 / z));
  auto terms = synmt::blackout_loss(hidden, weight, target, 0, noise, negatives, true);
  EXPECT_NEAR(terms.objective.item<double>(), expected, 1e-5);
  EXPECT_NEAR(terms.target_nll.item<double>(), -std::log(a2 / z), 1e-5);
  // the target among the negatives is left out: the same value
  auto with_target = synmt::blackout_loss(hidden, weight, target, 0, noise, torch::tensor({1, 2, 3}, torch::kInt64).view({1, 3}), true);
  EXPECT_NEAR(with_target.objective.item<double>(), expected, 1e-5);
}

// Without the discriminative term, with uniform q and every other word as a negative, BlackOut is
// the full softmax's NLL; padding positions count nothing.
TEST(Blackout, IsSoftmaxNllWithUniformNoiseAndTheWholeVocabulary) {
  torch::manual_seed(5);
  const int64_t V = 9;
  auto hidden = torch::randn({2, 3, 4});
  auto weight = torch::randn({V, 4});
  auto targets = torch::tensor({3, 5, 8, 4, 7, 0}, torch::kInt64).view({2, 3});
  auto noise = torch::full({V}, 1.0 / V);
  auto everything = torch::arange(V, torch::kInt64).unsqueeze(0).expand({2, V}).contiguous();
  auto terms = synmt::blackout_loss(hidden, weight, targets, 0, noise, everything, false);
  auto logp = torch::log_softmax(torch::matmul(hidden, weight.t()), -1);
  auto nll = -logp.gather(2, targets.unsqueeze(2)).squeeze(2).masked_fill(targets.eq(0), 0.0).sum();
  EXPECT_NEAR(terms.objective.item<double>(), nll.item<double>(), 1e-4);
  // the noise: unigram^alpha, unseen tokens never drawn, K distinct draws per sentence
  auto q = synmt::unigram_noise({0, 4, 1, 0, 9}, 0.5);
  EXPECT_NEAR(q[1].item<double>(), 2.0 / 6.0, 1e-6);
  EXPECT_EQ(q[0].item<float>(), 0.0f);
  auto drawn = synmt::draw_negatives(q, 5, 10);
  EXPECT_EQ(drawn.size(1), 3);  // only three tokens have mass
  for (int64_t b = 0; b < 5; ++b) EXPECT_EQ(std::get<0>(at::_unique(drawn[b])).numel(), 3);
}

// The criterion with BlackOut trains an lgp model (finite objective, gradients on the output layer).
TEST(Blackout, CriterionTrainsAnLgpModel) {
  auto model = make("lgp_nmt");
  model->train();
  auto batch = synmt::make_data_batch(synmt::test::copy_task(4), {0, 1, 2, 3});
  synmt::CriterionOptions co;
  co.blackout = true;
  co.blackout_options.samples = 5;
  co.noise = synmt::unigram_noise(std::vector<int64_t>(20, 3), 0.4);
  auto out = model->forward(batch.source, batch.tgt_in, synmt::ForwardRequest{false, false});
  EXPECT_FALSE(out.log_probs.defined());
  auto terms = synmt::Criterion(co)(out, batch.tgt_out, 0);
  EXPECT_TRUE(std::isfinite(terms.objective.item<double>()));
  terms.objective.backward();
  EXPECT_GT(model->named_parameters()["tgt_embed.weight"].grad().abs().sum().item<double>(), 0.0);
}

// The prior reranks: of a 3-word hypothesis with the better average log-probability and a 2-word
// one, a prior estimated from a corpus whose 3-word sources all have 2-word targets picks the latter.
TEST(LengthPrior, RerankesFinishedHypotheses) {
  std::map<int64_t, std::map<int64_t, int64_t>> counts{{3, {{2, 100}}}};
  auto prior = synmt::eval::LengthPrior::from_counts(counts);
  synmt::SearchOptions o;
  o.length_norm = "average";
  const double a = -3.0, b = -2.4;  // log p with </s>; 3 and 2 words (L_y 4 and 3)
  EXPECT_GT(synmt::final_score(o, a, 3, 3), synmt::final_score(o, b, 2, 3));
  o.length_prior = synmt::length_prior_hook(std::make_shared<synmt::eval::LengthPrior>(prior));
  EXPECT_LT(synmt::final_score(o, a, 3, 3), synmt::final_score(o, b, 2, 3));
  EXPECT_NEAR(synmt::final_score(o, b, 2, 3), (b + std::log(101.0 / 102.0)) / 3.0, 1e-12);
}

// Eq. (10) with one L_y at both ends of the search: hypotheses that end with </s> before the
// maximum length and hypotheses cut at it (a*|x|+b = 2 words here) both score
// (log p + log p(words | |x|)) / (words + 1). The prior has mass at 2 words only, so a cut
// hypothesis looked up one length off (1 word, as the code before this test did) or normalised by
// its words alone would miss the expected score.
TEST(LengthPrior, SameLengthForEndedAndCutHypotheses) {
  torch::manual_seed(4);
  auto model = synmt::create_model(synmt::test::tiny_arch("rnn_tiny"));
  model->eval();
  auto data = synmt::test::copy_task(6);
  synmt::BatchIterator it(data, {});
  auto batch = it.make_batch({0, 1, 2, 3});
  std::map<int64_t, std::map<int64_t, int64_t>> counts;
  for (int64_t lx = 1; lx <= 8; ++lx) counts[lx][2] = 50;
  auto prior = std::make_shared<synmt::eval::LengthPrior>(synmt::eval::LengthPrior::from_counts(counts));
  synmt::SearchOptions o;
  o.beam_size = 20;  // the whole vocabulary: </s> is among the first step's candidates, so some hypotheses end
  o.nbest = 400;     // every finished hypothesis
  o.max_len_a = 0;
  o.max_len_b = 2;
  o.length_norm = "average";
  o.length_prior = synmt::length_prior_hook(prior);
  int cut = 0, ended = 0;
  const auto results = synmt::beam_search(*model, batch, o);
  for (std::size_t i = 0; i < results.size(); ++i)
    for (const auto& h : results[i]) {
      const auto src_len = batch.source.lengths[static_cast<int64_t>(i)].item<int64_t>();
      const auto words = static_cast<int64_t>(h.tokens.size());
      (words == 2 ? cut : ended) += 1;
      EXPECT_NEAR(h.score, (h.log_prob + prior->log_prob(src_len, words)) / static_cast<double>(words + 1), 1e-9);
    }
  EXPECT_GT(cut, 0);
  EXPECT_GT(ended, 0);
}

// UnkRep: each <unk> becomes the source word under the attention's argmax at its step (the
// dictionary's translation when it has one); attention past the source words is ignored.
TEST(UnkReplace, CopiesOrTranslatesTheMostAttendedSourceWord) {
  auto attention = torch::tensor({0.1, 0.7, 0.1, 0.1,    // step 0 -> "Tokyo"
                                  0.6, 0.1, 0.2, 0.1,    // step 1 is no <unk>
                                  0.2, 0.1, 0.3, 0.4,    // step 2: </s> position 3 ignored -> "Kyoto"
                                  0.0, 0.0, 0.0, 1.0})
                       .view({4, 4});
  const std::vector<std::string> source{"from", "Tokyo", "Kyoto"};
  synmt::UnkDictionary none;
  EXPECT_EQ(synmt::replace_unknowns({"<unk>", "kara", "<unk>"}, attention, source, none),
            (std::vector<std::string>{"Tokyo", "kara", "Kyoto"}));
  synmt::UnkDictionary dict;
  dict.add("Kyoto", "京都");
  EXPECT_EQ(synmt::replace_unknowns({"<unk>", "kara", "<unk>"}, attention, source, dict),
            (std::vector<std::string>{"Tokyo", "kara", "京都"}));
}
