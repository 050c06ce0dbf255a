#pragma once
// Dependency-tree decoding from head scores and baseline trees. Scores are (n+1) x (n+1):
// scores[h][d] is the score of word h heading word d (words 1..n, 0 = the root); scores[0][d] is
// d's root score (SA-NMT keeps it on phi's diagonal; collapse_to_words moves it here).
// Results are head vectors of size n+1 with heads[0] = -1 and heads[d] in 0..n.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace synmt::eval {

using ScoreMatrix = std::vector<std::vector<double>>;
using Heads = std::vector<int>;

// Maximum spanning arborescence (Chu-Liu-Edmonds). single_root: exactly one word attaches to the
// root (the best tree among those, found by constraining each root child in turn).
Heads chu_liu_edmonds(const ScoreMatrix& scores, bool single_root = true);
// Best projective tree with exactly one root child (Eisner 1996), O(n^3).
Heads eisner(const ScoreMatrix& scores);
// Each word's highest-scoring head (may contain cycles: SA-NMT-hard's argmax).
Heads greedy_heads(const ScoreMatrix& scores);

// The decoders by the names the pipeline's configurations and synmt-trees' --decoder use:
// "cle" (Chu-Liu-Edmonds, one root child), "eisner", "greedy"; another name is a ConfigError.
Heads decode_tree(const ScoreMatrix& scores, const std::string& decoder);

double tree_score(const ScoreMatrix& scores, const Heads& heads);
bool is_tree(const Heads& heads, bool single_root);
bool is_projective(const Heads& heads);

// Baselines of Tran & Bisk Table 3: left-branching L (every word headed by the next word, the
// last word is the root) and right-branching R (headed by the previous word, the first is root).
Heads left_branching(int n);
Heads right_branching(int n);
// Chance for the induced trees (not in the paper): the tree Chu-Liu-Edmonds (one root child)
// decodes from independent uniform scores, i.e. what a model whose scores carry nothing about
// syntax would get through the same decoder. The scores come from the engine's raw output
// (portable: std::*_distribution is implementation-defined), so a seed gives the same trees on
// every platform.
// projective: Eisner's algorithm instead (the decoder of LGP-NMT's latent graphs).
Heads random_tree(int n, std::mt19937_64& rng, bool projective = false);

// Sub-word scores (phi[i][j]: piece i heads piece j, diagonal = root score) to word scores by
// Tran & Bisk §7.1's phi-hat: word k heads word l with the sum over k's rows and l's columns; word
// k's root score (phi-hat's diagonal) sums every phi_{u,v} with u, v in k's pieces, the arcs inside
// the word included. spans[k] = [first, last] piece of word k+1.
ScoreMatrix collapse_to_words(const ScoreMatrix& piece_scores, const std::vector<std::pair<int, int>>& spans);

// Head-distribution statistics (Bastings et al. 2018, Tables 3-4) over many sentences. Each
// column d of a matrix is word d's distribution over heads (rows; row 0 = root). With
// from_scores the columns are scores and are normalised by a softmax over h != d first.
struct HeadStatistics {
  double distance_mean = 0, distance_std = 0;  // |most likely head - d| over words whose head is a word
  double distance_var = 0;                     // the sample variance (Bastings et al.'s Table 3 prints it as "±")
  double entropy_mean = 0, entropy_std = 0;    // nats, per word
  double uniform_entropy_mean = 0;             // nats per word of a uniform head distribution on the same words
  double uniform_distance_mean = 0;            // mean |h - d| of a head drawn uniformly among the other words (chance)
  // Hubs: a model whose heads pile up on the sentence's first or last word (where a BiLSTM keeps its
  // two summaries) has a near-chance distance_mean that says nothing about its other heads. So: the
  // share of words (in %) whose most likely word head is the first or last word, and the distance
  // over the other words, beside its chance (a head drawn uniformly among the words at neither end)
  double end_head_percent = 0;
  double inner_distance_mean = 0, uniform_inner_distance_mean = 0;
  long words = 0, root_heads = 0;
};
HeadStatistics head_statistics(const std::vector<ScoreMatrix>& matrices, bool from_scores, bool include_root);

}  // namespace synmt::eval
