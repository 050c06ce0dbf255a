#pragma once
// Processes a stream of lines in chunks on several threads and writes the results in input order:
// for per-line tools (tokenisation, language identification, BPE) whose lines are independent.
#include <algorithm>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "core/atomic_file.h"
#include "core/line_reader.h"

namespace synmt {

inline void map_lines_in_order(LineReader& in, AtomicFile& out, int threads,
                               const std::function<std::string(const std::string&)>& fn,
                               std::size_t chunk_size = 20000) {
  const std::size_t n = static_cast<std::size_t>(std::max(1, threads));
  std::vector<std::string> lines, results;
  std::string line;
  bool more = true;
  while (more) {
    lines.clear();
    while (lines.size() < chunk_size && (more = in.next(line))) lines.push_back(line);
    results.assign(lines.size(), std::string());
    if (n == 1 || lines.size() < 64) {
      for (std::size_t i = 0; i < lines.size(); ++i) results[i] = fn(lines[i]);
    } else {
      std::vector<std::thread> pool;
      for (std::size_t t = 0; t < n; ++t)
        pool.emplace_back([&, t]() {
          const std::size_t per = (lines.size() + n - 1) / n;  // contiguous blocks: cache friendly
          for (std::size_t i = t * per; i < std::min(lines.size(), (t + 1) * per); ++i) results[i] = fn(lines[i]);
        });
      for (auto& th : pool) th.join();
    }
    for (const auto& r : results) out.write_line(r);
  }
}

}  // namespace synmt
