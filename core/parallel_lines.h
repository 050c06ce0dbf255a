#pragma once
// Processes a stream of lines in chunks on several threads and writes the results in input order:
// for per-line tools (tokenisation, language identification, BPE) whose lines are independent.
// The worker threads live for the whole stream, so per-thread caches (BPE's word cache) persist;
// memory stays bounded by two chunks however long the input is. With several threads the calling
// thread only does I/O, overlapped with the workers: it writes chunk k-1's output and reads chunk
// k+1 while they process chunk k (reading and writing were a third of BPE apply's wall time when
// they ran between the parallel parts). Each block's output is one buffer written with one call.
#include <algorithm>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/line_reader.h"
#include "core/utf8.h"

namespace synmt {

// fn appends the result for one line (without its newline) to `out`.
using LineAppender = std::function<void(const std::string& line, std::string& out)>;

namespace detail {
// One chunk of input lines and its output, one block per worker. Cache-line aligned: the reading
// thread fills one chunk while the workers read the other, and sharing a line between the two
// (count was written per line read) slowed the workers by half.
struct alignas(64) LineChunk {
  std::vector<std::string> lines;  // slots reused: lines are read straight into their capacity
  std::size_t count = 0;
  std::size_t first_line = 0;  // line number of lines[0]
  std::vector<std::string> blocks;
};

inline bool read_chunk(LineReader& in, LineChunk& chunk, std::size_t chunk_size) {
  if (chunk.lines.size() < chunk_size) chunk.lines.resize(chunk_size);
  chunk.first_line = in.line_number() + 1;
  std::size_t count = 0;
  while (count < chunk_size && in.next(chunk.lines[count]))
    if (!in.last_line_invalid()) ++count;  // only flagged with flag_invalid
  chunk.count = count;
  return count > 0;
}
}  // namespace detail

// between_chunks (optional) runs on the calling thread after each chunk, while no worker runs.
inline void map_lines_into(LineReader& in, AtomicFile& out, int threads, const LineAppender& fn,
                           std::size_t chunk_size = 20000, const std::function<void()>& between_chunks = {}) {
  const std::size_t n = static_cast<std::size_t>(std::max(1, threads));
  if (n == 1) {
    detail::LineChunk chunk;
    std::string block;
    while (detail::read_chunk(in, chunk, chunk_size)) {
      block.clear();
      for (std::size_t i = 0; i < chunk.count; ++i) {
        fn(chunk.lines[i], block);
        block.push_back('\n');
      }
      out.write(block);
      if (between_chunks) between_chunks();
    }
    return;
  }
  // UTF-8 is validated by the workers (a tenth of the reading thread's time otherwise); the error
  // names the same file and line. Not with flag_invalid, where the reader drops invalid lines.
  const bool validate = in.options().check_utf8 && !in.options().flag_invalid;
  if (validate) in.set_check_utf8(false);
  detail::LineChunk chunks[2];
  chunks[0].blocks.resize(n);
  chunks[1].blocks.resize(n);
  detail::LineChunk* current = &chunks[0];  // the chunk the workers process (set under the mutex)
  std::mutex m;
  std::condition_variable work_cv, done_cv;
  std::size_t generation = 0, finished = 0;
  bool stop = false;
  // workers' exceptions are rethrown on the calling thread, the earliest block's first (so the
  // first invalid line of a chunk is the one reported)
  std::vector<std::exception_ptr> worker_errors(n);
  std::vector<std::thread> pool;
  for (std::size_t t = 0; t < n; ++t)
    pool.emplace_back([&, t]() {
      std::size_t seen = 0;
      for (;;) {
        detail::LineChunk* chunk = nullptr;
        {
          std::unique_lock<std::mutex> lock(m);
          work_cv.wait(lock, [&] { return stop || generation != seen; });
          if (stop) return;
          seen = generation;
          chunk = current;
        }
        std::exception_ptr error;
        try {
          // contiguous blocks keep the output order simple; a local string (its buffer swapped in
          // and out) because the blocks' string objects share a cache line, and appending to them
          // in place from two threads made every append a cache-line transfer
          const std::size_t per = (chunk->count + n - 1) / n, end = std::min(chunk->count, (t + 1) * per);
          const std::string* lines = chunk->lines.data();
          std::string block;
          block.swap(chunk->blocks[t]);
          block.clear();
          for (std::size_t i = t * per; i < end; ++i) {
            if (validate) {
              const std::size_t bad = utf8::find_invalid(lines[i]);
              if (bad != std::string::npos)
                throw InputError(in.path(), chunk->first_line + i, LineReader::invalid_utf8_message(bad));
            }
            fn(lines[i], block);
            block.push_back('\n');
          }
          block.swap(chunk->blocks[t]);
        } catch (...) {
          error = std::current_exception();
        }
        {
          std::lock_guard<std::mutex> lock(m);
          if (error) worker_errors[t] = error;
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
  auto write_blocks = [&out](const detail::LineChunk& chunk) {
    for (const auto& block : chunk.blocks) out.write(block);
  };
  try {
    bool more = detail::read_chunk(in, chunks[0], chunk_size);
    const detail::LineChunk* pending = nullptr;  // processed, not yet written
    for (std::size_t k = 0; more; ++k) {
      detail::LineChunk& work = chunks[k % 2];
      detail::LineChunk& next = chunks[(k + 1) % 2];
      {
        std::lock_guard<std::mutex> lock(m);
        current = &work;
        finished = 0;
        ++generation;
      }
      work_cv.notify_all();
      if (pending) write_blocks(*pending);  // `next` is free once its output is written
      more = detail::read_chunk(in, next, chunk_size);
      {
        std::unique_lock<std::mutex> lock(m);
        done_cv.wait(lock, [&] { return finished == n; });
      }
      for (const auto& error : worker_errors)
        if (error) std::rethrow_exception(error);
      if (between_chunks) between_chunks();
      pending = &work;
    }
    if (pending) write_blocks(*pending);
  } catch (...) {
    shutdown();
    if (validate) in.set_check_utf8(true);
    throw;
  }
  shutdown();
  if (validate) in.set_check_utf8(true);
}

// The same for functions that return each line's result.
inline void map_lines_in_order(LineReader& in, AtomicFile& out, int threads,
                               const std::function<std::string(const std::string&)>& fn,
                               std::size_t chunk_size = 20000) {
  map_lines_into(
      in, out, threads, [&fn](const std::string& line, std::string& block) { block += fn(line); }, chunk_size);
}

}  // namespace synmt
