#pragma once
// The text forms synmt-trees reads beside HDF5: head-score matrices and lines of gold heads, so a
// tree decoder or a score matrix from another tool can be checked without writing an HDF5 file.
#include <string>
#include <vector>

#include "eval/trees.h"

namespace synmt::eval {

// Matrices as text: n+1 rows of n+1 numbers (row = head, 0 = ROOT; column = dependent), sentences
// separated by a blank line. A token that is not a number, NaN or inf, a non-square matrix and a
// file without matrices are InputErrors naming the file and line.
std::vector<ScoreMatrix> read_score_matrices(const std::string& path);

// One sentence a line: the head of word 1, 2, ... (0 = ROOT) as non-negative integers separated by
// spaces. Anything else on a line ("2.5", "x", "-1") is an InputError naming the file and line.
std::vector<std::vector<int>> read_head_lines(const std::string& path);

}  // namespace synmt::eval
