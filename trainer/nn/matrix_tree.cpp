#include "trainer/nn/matrix_tree.h"

#include <limits>

namespace synmt {

namespace {
struct Laplacian {
  torch::Tensor A, r, L_hat;  // potentials (pads zeroed) and the root-replaced Laplacian
  torch::Tensor shift;        // (B, n) per-column maximum of phi over real heads and the root (detached)
  torch::Tensor real;         // (B, n) bool
};

Laplacian laplacian(const torch::Tensor& phi, const torch::Tensor& lengths) {
  const int64_t B = phi.size(0), n = phi.size(1);
  Laplacian l;
  l.real = torch::arange(n, torch::TensorOptions().dtype(torch::kInt64).device(phi.device())).unsqueeze(0) <
           lengths.to(phi.device()).unsqueeze(1);                                       // (B, n)
  auto pair = l.real.unsqueeze(2).logical_and(l.real.unsqueeze(1));                      // (B, n, n)
  const double lowest = -std::numeric_limits<double>::infinity();  // exp(-inf) = 0: no potential off the sentence
  // Every entry of column j of L^ (A_kj, their sum, r_j) is a potential of dependent j, so
  // shifting column j's scores by their maximum m_j scales that column by exp(-m_j): exact
  // (L^ D has inverse D^-1 L^-1, and beta's products A_ij [L^-1]_j. cancel the scale), and each
  // column keeps an entry of 1. A shift per sentence instead lets whole columns underflow to 0
  // in float32 once trained scores spread (L^ singular: non-finite marginals and gradients).
  l.shift = phi.detach().masked_fill(pair.logical_not(), lowest).amax(1);                // (B, n)
  l.shift = l.shift.masked_fill(l.real.logical_not(), 0.0);                               // pad columns: no shift
  auto potentials = torch::exp((phi - l.shift.view({B, 1, n})).masked_fill(pair.logical_not(), lowest));  // 0 off the sentence
  auto eye = torch::eye(n, phi.options()).to(torch::kBool).unsqueeze(0);
  l.A = potentials.masked_fill(eye, 0.0);
  l.r = potentials.diagonal(0, 1, 2);                                                    // (B, n)
  auto L = -l.A + torch::diag_embed(l.A.sum(1));                                          // L_jj = sum_k A_kj
  // pads: identity rows and columns, so the real block's inverse is untouched
  auto pad_diagonal = torch::diag_embed(l.real.logical_not().to(phi.dtype()));
  L = L + pad_diagonal;
  l.L_hat = torch::cat({l.r.unsqueeze(1), L.narrow(1, 1, n - 1)}, 1);                    // row 0 <- root potentials
  return l;
}
}  // namespace

torch::Tensor matrix_tree_marginals(const torch::Tensor& phi, const torch::Tensor& lengths) {
  const int64_t n = phi.size(1);
  auto l = laplacian(phi, lengths);
  auto inv = torch::inverse(l.L_hat);                                                    // (B, n, n)
  auto inv_diag = inv.diagonal(0, 1, 2);                                                  // [L^-1]_jj, (B, n)
  auto not_first_col = torch::ones({1, 1, n}, phi.options());
  not_first_col.index_put_({0, 0, 0}, 0.0);                                               // (1 - [j = 0])
  auto not_first_row = torch::ones({1, n, 1}, phi.options());
  not_first_row.index_put_({0, 0, 0}, 0.0);                                               // (1 - [i = 0])
  auto term1 = l.A * inv_diag.unsqueeze(1) * not_first_col;                              // A_ij [L^-1]_jj
  auto term2 = l.A * inv.transpose(1, 2) * not_first_row;                                // A_ij [L^-1]_ji
  auto root = l.r * inv.select(2, 0);                                                     // r_j [L^-1]_j0
  return term1 - term2 + torch::diag_embed(root);
}

torch::Tensor matrix_tree_log_partition(const torch::Tensor& phi, const torch::Tensor& lengths) {
  auto l = laplacian(phi, lengths);
  return torch::logdet(l.L_hat) + l.shift.sum(1);  // log det L^ = log det (L^ D) + sum_j m_j
}

}  // namespace synmt
