#include "eval/score_matrix_text.h"

#include <cmath>
#include <sstream>

#include "core/error.h"
#include "core/line_reader.h"
#include "core/strings.h"

namespace synmt::eval {

std::vector<ScoreMatrix> read_score_matrices(const std::string& path) {
  LineReader in(path);
  std::vector<ScoreMatrix> out;
  ScoreMatrix cur;
  std::size_t first_line = 0;  // of the matrix being read: errors about its shape name it
  auto flush = [&]() {
    if (cur.empty()) return;
    for (const auto& row : cur)
      if (row.size() != cur.size())
        throw InputError(path, first_line, "the matrix starting here is not square (" + std::to_string(cur.size()) +
                                               " rows, a row of " + std::to_string(row.size()) + ")");
    out.push_back(std::move(cur));
    cur.clear();
  };
  std::string line;
  while (in.next(line)) {
    if (line.find_first_not_of(" \t") == std::string::npos) {
      flush();
      continue;
    }
    if (cur.empty()) first_line = in.line_number();
    std::istringstream ss(line);
    std::vector<double> row;
    std::string tok;
    while (ss >> tok) {
      std::size_t used = 0;
      double v = 0;
      try {
        v = std::stod(tok, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != tok.size()) in.fail("not a number: '" + tok + "'");
      if (!std::isfinite(v)) in.fail("non-finite score '" + tok + "' (NaN or inf in a head matrix)");
      row.push_back(v);
    }
    cur.push_back(std::move(row));
  }
  flush();
  if (out.empty()) throw InputError(path, 0, "no matrices");
  return out;
}

std::vector<std::vector<int>> read_head_lines(const std::string& path) {
  LineReader in(path);
  std::vector<std::vector<int>> out;
  std::string line;
  while (in.next(line)) {
    std::istringstream ss(line);
    std::vector<int> heads;
    std::string tok;
    while (ss >> tok) {
      const int h = parse_index(tok);
      if (h < 0) in.fail("not a head (a non-negative integer): '" + tok + "'");
      heads.push_back(h);
    }
    out.push_back(std::move(heads));
  }
  return out;
}

}  // namespace synmt::eval
