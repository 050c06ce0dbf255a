#pragma once
// Marginals of dependency trees by the matrix-tree theorem, single-root form (Koo et al. 2007, as
// SA-NMT's structured attention uses them; Tran & Bisk 2018): phi[i][j] scores token i as the
// head of token j, the diagonal phi[j][j] scores j as the root. With A_ij = exp(phi_ij) (i != j),
// r_j = exp(phi_jj), the Laplacian L_jj = sum_{k != j} A_kj, L_ij = -A_ij, and L^ = L with its
// first row replaced by r:
//   beta_ij = (1 - [j = 0]) A_ij [L^-1]_jj - (1 - [i = 0]) A_ij [L^-1]_ji   (i != j)
//   beta_jj = r_j [L^-1]_j0
// beta_ij is the probability that i heads j (the diagonal: j is the root) under the distribution
// over non-projective trees with exactly one child of the root; every column sums to 1, and
// beta = d log det L^ / d phi. Batched over sentences: padded positions get an identity block in
// L^ and zero potentials, so they change nothing and receive zero marginals and zero gradient.
// Scores are shifted by each column's maximum before exp (exact: it scales that column of L^).
#include <torch/types.h>

namespace synmt {

// phi (B, n, n), lengths (B) int64: beta (B, n, n) in phi's dtype (float32 or float64).
torch::Tensor matrix_tree_marginals(const torch::Tensor& phi, const torch::Tensor& lengths);
// log det L^ of each sentence (B), for the same shifted potentials plus the shifts' sum:
// the log partition function over single-root trees.
torch::Tensor matrix_tree_log_partition(const torch::Tensor& phi, const torch::Tensor& lengths);

}  // namespace synmt
