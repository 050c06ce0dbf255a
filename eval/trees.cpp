#include "eval/trees.h"

#include "core/error.h"
#include "eval/mean_sd.h"

#include <algorithm>
#include <cmath>
#include <array>
#include <functional>
#include <limits>
#include <stdexcept>

namespace synmt::eval {
namespace {
constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// Returns the nodes of one cycle in `head` (nodes 1..N-1), or empty.
std::vector<int> find_cycle(const std::vector<int>& head) {
  const int N = static_cast<int>(head.size());
  std::vector<int> state(N, 0);  // 0 unvisited, 1 on the current path, 2 done
  for (int start = 1; start < N; ++start) {
    if (state[start]) continue;
    std::vector<int> path;
    int v = start;
    while (v > 0 && state[v] == 0) {
      state[v] = 1;
      path.push_back(v);
      v = head[v];
    }
    if (v > 0 && state[v] == 1) {  // closed a cycle at v
      std::vector<int> cycle;
      for (auto it = std::find(path.begin(), path.end(), v); it != path.end(); ++it) cycle.push_back(*it);
      return cycle;
    }
    for (int p : path) state[p] = 2;
  }
  return {};
}

// Unconstrained maximum spanning arborescence rooted at node 0 (recursive contraction).
std::vector<int> mst(const ScoreMatrix& s) {
  const int N = static_cast<int>(s.size());
  std::vector<int> head(N, -1);
  for (int d = 1; d < N; ++d) {
    double best = kNegInf;
    for (int h = 0; h < N; ++h)
      if (h != d && (head[d] < 0 || s[h][d] > best)) {
        best = s[h][d];
        head[d] = h;
      }
  }
  std::vector<int> cycle = find_cycle(head);
  if (cycle.empty()) return head;
  std::vector<char> in_cycle(N, 0);
  for (int v : cycle) in_cycle[v] = 1;
  std::vector<int> new_id(N, -1), old_of;
  for (int v = 0; v < N; ++v)
    if (!in_cycle[v]) {
      new_id[v] = static_cast<int>(old_of.size());
      old_of.push_back(v);
    }
  const int M = static_cast<int>(old_of.size()) + 1, c = M - 1;
  ScoreMatrix t(M, std::vector<double>(M, kNegInf));
  std::vector<int> enter_at(N, -1), leave_from(N, -1);
  for (int u : old_of) {
    for (int v : old_of)
      if (u != v && v != 0) t[new_id[u]][new_id[v]] = s[u][v];
    double best = kNegInf;  // u -> cycle: break the cycle at the dependent d that gains most
    for (int d : cycle) {
      double gain = s[u][d] - s[head[d]][d];
      if (enter_at[u] < 0 || gain > best) {
        best = gain;
        enter_at[u] = d;
      }
    }
    t[new_id[u]][c] = best;
    if (u == 0) continue;
    best = kNegInf;  // cycle -> u: from the best member
    for (int h : cycle)
      if (leave_from[u] < 0 || s[h][u] > best) {
        best = s[h][u];
        leave_from[u] = h;
      }
    t[c][new_id[u]] = best;
  }
  std::vector<int> sub = mst(t);
  std::vector<int> result = head;  // cycle members keep their cycle heads except one
  for (int v : old_of) {
    if (v == 0) continue;
    int h = sub[new_id[v]];
    result[v] = h == c ? leave_from[v] : old_of[h];
  }
  int u = old_of[sub[c]];
  result[enter_at[u]] = u;
  return result;
}
}  // namespace

double tree_score(const ScoreMatrix& s, const Heads& heads) {
  double total = 0;
  for (std::size_t d = 1; d < heads.size(); ++d) total += s[heads[d]][d];
  return total;
}

Heads chu_liu_edmonds(const ScoreMatrix& scores, bool single_root) {
  const int N = static_cast<int>(scores.size());
  if (N <= 1) return Heads(N, -1);
  Heads best = mst(scores);
  best[0] = -1;
  if (!single_root || std::count(best.begin() + 1, best.end(), 0) == 1) return best;
  double best_score = kNegInf;
  ScoreMatrix constrained = scores;
  for (int child = 1; child < N; ++child) {
    for (int d = 1; d < N; ++d) constrained[0][d] = d == child ? scores[0][d] : kNegInf;
    Heads h = mst(constrained);
    h[0] = -1;
    double sc = tree_score(scores, h);
    if (sc > best_score) {
      best_score = sc;
      best = h;
    }
  }
  return best;
}

Heads eisner(const ScoreMatrix& s) {
  const int n = static_cast<int>(s.size()) - 1;
  Heads heads(n + 1, -1);
  if (n == 0) return heads;
  // spans over words 1..n; [i][j][0] = head on the left (i), [1] = head on the right (j)
  auto table = [n]() { return std::vector<std::vector<std::array<double, 2>>>(n + 2, std::vector<std::array<double, 2>>(n + 2, {0.0, 0.0})); };
  auto complete = table(), incomplete = table();
  auto split = std::vector<std::vector<std::array<int, 4>>>(n + 2, std::vector<std::array<int, 4>>(n + 2, {0, 0, 0, 0}));
  for (int len = 1; len < n; ++len) {
    for (int i = 1; i + len <= n; ++i) {
      int j = i + len;
      double best = kNegInf;
      int arg = i;
      for (int k = i; k < j; ++k) {
        double v = complete[i][k][0] + complete[k + 1][j][1];
        if (v > best) best = v, arg = k;
      }
      incomplete[i][j][0] = best + s[i][j];  // i heads j
      incomplete[i][j][1] = best + s[j][i];  // j heads i
      split[i][j][0] = split[i][j][1] = arg;
      best = kNegInf;
      for (int k = i + 1; k <= j; ++k) {
        double v = incomplete[i][k][0] + complete[k][j][0];
        if (v > best) best = v, arg = k;
      }
      complete[i][j][0] = best;
      split[i][j][2] = arg;
      best = kNegInf;
      for (int k = i; k < j; ++k) {
        double v = complete[i][k][1] + incomplete[k][j][1];
        if (v > best) best = v, arg = k;
      }
      complete[i][j][1] = best;
      split[i][j][3] = arg;
    }
  }
  double best = kNegInf;
  int root = 1;
  for (int h = 1; h <= n; ++h) {
    double v = complete[1][h][1] + complete[h][n][0] + s[0][h];
    if (v > best) best = v, root = h;
  }
  heads[root] = 0;
  std::function<void(int, int, int, bool)> walk = [&](int i, int j, int dir, bool is_complete) {
    if (i >= j) return;
    if (!is_complete) {
      if (dir == 0) heads[j] = i;
      else heads[i] = j;
      int k = split[i][j][dir];
      walk(i, k, 0, true);
      walk(k + 1, j, 1, true);
    } else if (dir == 0) {
      int k = split[i][j][2];
      walk(i, k, 0, false);
      walk(k, j, 0, true);
    } else {
      int k = split[i][j][3];
      walk(i, k, 1, true);
      walk(k, j, 1, false);
    }
  };
  walk(1, root, 1, true);
  walk(root, n, 0, true);
  return heads;
}

Heads decode_tree(const ScoreMatrix& scores, const std::string& decoder) {
  if (decoder == "cle") return chu_liu_edmonds(scores, true);
  if (decoder == "eisner") return eisner(scores);
  if (decoder == "greedy") return greedy_heads(scores);
  throw ConfigError("tree decoder '" + decoder + "': cle, eisner or greedy");
}

Heads greedy_heads(const ScoreMatrix& s) {
  const int N = static_cast<int>(s.size());
  Heads heads(N, -1);
  for (int d = 1; d < N; ++d) {
    double best = kNegInf;
    for (int h = 0; h < N; ++h)
      if (h != d && (heads[d] < 0 || s[h][d] > best)) best = s[h][d], heads[d] = h;
  }
  return heads;
}

bool is_tree(const Heads& heads, bool single_root) {
  const int N = static_cast<int>(heads.size());
  int roots = 0;
  for (int d = 1; d < N; ++d) {
    if (heads[d] < 0 || heads[d] >= N || heads[d] == d) return false;
    roots += heads[d] == 0;
  }
  if (roots == 0 || (single_root && roots != 1)) return false;
  return find_cycle(heads).empty();
}

bool is_projective(const Heads& heads) {
  const int N = static_cast<int>(heads.size());
  for (int d = 1; d < N; ++d) {
    int a = std::min(d, heads[d]), b = std::max(d, heads[d]);
    for (int k = a + 1; k < b; ++k) {  // every word inside the arc must descend from its head
      int v = k;
      while (v != 0 && v != heads[d] && v > 0) v = heads[v];
      if (v != heads[d]) return false;
    }
  }
  return true;
}

Heads left_branching(int n) {
  Heads h(n + 1, -1);
  for (int d = 1; d <= n; ++d) h[d] = d == n ? 0 : d + 1;
  return h;
}

Heads right_branching(int n) {
  Heads h(n + 1, -1);
  for (int d = 1; d <= n; ++d) h[d] = d - 1;
  return h;
}

Heads random_tree(int n, std::mt19937_64& rng, bool projective) {
  ScoreMatrix s(n + 1, std::vector<double>(n + 1, 0.0));
  for (auto& row : s)
    for (auto& v : row) v = static_cast<double>(rng() >> 11) * 0x1.0p-53;  // uniform in [0, 1)
  return projective ? eisner(s) : chu_liu_edmonds(s, true);
}

ScoreMatrix collapse_to_words(const ScoreMatrix& phi, const std::vector<std::pair<int, int>>& spans) {
  const int n = static_cast<int>(spans.size());
  ScoreMatrix w(n + 1, std::vector<double>(n + 1, kNegInf));
  for (int k = 0; k < n; ++k) {
    // Tran & Bisk §7.1, the "otherwise" case: the collapsed word's own entry sums phi_{l,h} over
    // every l, h in [u, v], its pieces' root scores and the arcs between its pieces alike.
    double root = 0;
    for (int u = spans[k].first; u <= spans[k].second; ++u)
      for (int v = spans[k].first; v <= spans[k].second; ++v) root += phi.at(u).at(v);
    w[0][k + 1] = root;
    for (int l = 0; l < n; ++l) {
      if (k == l) continue;
      double sum = 0;  // word k+1 heads word l+1: rows of k's pieces, columns of l's pieces
      for (int u = spans[k].first; u <= spans[k].second; ++u)
        for (int v = spans[l].first; v <= spans[l].second; ++v) sum += phi[u][v];
      w[k + 1][l + 1] = sum;
    }
  }
  return w;
}

HeadStatistics head_statistics(const std::vector<ScoreMatrix>& matrices, bool from_scores, bool include_root) {
  HeadStatistics st;
  MeanSd distance, entropy_stats, inner_distance;
  double u_sum = 0, ud_sum = 0, uid_sum = 0;
  long ud_n = 0, uid_n = 0, end_heads = 0;
  for (const auto& m : matrices) {
    const int N = static_cast<int>(m.size());
    for (int d = 1; d < N; ++d) {
      std::vector<double> p(static_cast<std::size_t>(N), 0.0);
      const int first = include_root ? 0 : 1;
      double mx = -std::numeric_limits<double>::infinity(), total = 0;
      for (int h = first; h < N; ++h)
        if (h != d) mx = std::max(mx, m[h][d]);
      for (int h = first; h < N; ++h) {
        if (h == d) continue;
        p[h] = from_scores ? std::exp(m[h][d] - mx) : m[h][d];
        total += p[h];
      }
      if (total <= 0) continue;  // a word with no candidate head (one-word sentence without root)
      int best = -1;
      double entropy = 0;
      for (int h = first; h < N; ++h) {
        if (h == d) continue;
        double q = p[h] / total;
        if (best < 0 || q > p[best] / total) best = h;
        if (q > 0) entropy -= q * std::log(q);
      }
      ++st.words;
      int candidates = 0;
      for (int h = first; h < N; ++h) candidates += h != d;
      u_sum += std::log(static_cast<double>(candidates));
      // chance for the distance: a head drawn uniformly among the word heads (ROOT has no distance)
      double w_dist = 0;
      int w_heads = 0;
      for (int h = 1; h < N; ++h)
        if (h != d) w_dist += std::abs(h - d), ++w_heads;
      if (w_heads) ud_sum += w_dist / w_heads, ++ud_n;
      // the same chance over the heads at neither end (words 2 .. N-2), for inner_distance_mean
      double i_dist = 0;
      int i_heads = 0;
      for (int h = 2; h < N - 1; ++h)
        if (h != d) i_dist += std::abs(h - d), ++i_heads;
      if (i_heads) uid_sum += i_dist / i_heads, ++uid_n;
      entropy_stats.add(entropy);
      if (best == 0) {
        ++st.root_heads;
        continue;
      }
      distance.add(std::abs(best - d));
      if (best == 1 || best == N - 1) ++end_heads;
      else inner_distance.add(std::abs(best - d));
    }
  }
  st.distance_mean = distance.mean();
  st.distance_std = distance.sd();
  st.entropy_mean = entropy_stats.mean();
  st.entropy_std = entropy_stats.sd();
  st.distance_var = st.distance_std * st.distance_std;
  st.uniform_entropy_mean = st.words ? u_sum / static_cast<double>(st.words) : 0;
  st.uniform_distance_mean = ud_n ? ud_sum / static_cast<double>(ud_n) : 0;
  st.end_head_percent = distance.count() ? 100.0 * static_cast<double>(end_heads) / static_cast<double>(distance.count()) : 0;
  st.inner_distance_mean = inner_distance.mean();
  st.uniform_inner_distance_mean = uid_n ? uid_sum / static_cast<double>(uid_n) : 0;
  return st;
}

}  // namespace synmt::eval
