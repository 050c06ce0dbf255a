#pragma once
// Processes a stream of lines in chunks on several threads and writes the results in input order:
// for per-line tools (tokenisation, language identification, BPE) whose lines are independent.
// The worker threads live for the whole stream, so per-thread caches (BPE's word cache) persist;
// memory stays bounded by one chunk however long the input is.
#include <algorithm>
#include <condition_variable>
#include <functional>
#include <mutex>
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
  if (n == 1) {
    while (in.next(line))
      if (!in.last_line_invalid()) out.write_line(fn(line));
    return;
  }
  std::mutex m;
  std::condition_variable work_cv, done_cv;
  std::size_t generation = 0, finished = 0;
  bool stop = false;
  std::vector<std::thread> pool;
  for (std::size_t t = 0; t < n; ++t)
    pool.emplace_back([&, t]() {
      std::size_t seen = 0;
      for (;;) {
        {
          std::unique_lock<std::mutex> lock(m);
          work_cv.wait(lock, [&] { return stop || generation != seen; });
          if (stop) return;
          seen = generation;
        }
        const std::size_t per = (lines.size() + n - 1) / n;  // contiguous blocks
        for (std::size_t i = t * per; i < std::min(lines.size(), (t + 1) * per); ++i) results[i] = fn(lines[i]);
        {
          std::lock_guard<std::mutex> lock(m);
          ++finished;
        }
        done_cv.notify_one();
      }
    });
  auto shutdown = [&]() {
    {
      std::lock_guard<std::mutex> lock(m);
      stop = true;
    }
    work_cv.notify_all();
    for (auto& th : pool) th.join();
  };
  try {
    bool more = true;
    while (more) {
      lines.clear();
      while (lines.size() < chunk_size && (more = in.next(line)))
        if (!in.last_line_invalid()) lines.push_back(line);  // only flagged with flag_invalid
      if (lines.empty()) break;
      results.assign(lines.size(), std::string());
      {
        std::lock_guard<std::mutex> lock(m);
        finished = 0;
        ++generation;
      }
      work_cv.notify_all();
      {
        std::unique_lock<std::mutex> lock(m);
        done_cv.wait(lock, [&] { return finished == n; });
      }
      for (const auto& r : results) out.write_line(r);
    }
  } catch (...) {
    shutdown();
    throw;
  }
  shutdown();
}

}  // namespace synmt
