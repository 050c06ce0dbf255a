#pragma once
// Processes a stream of lines in chunks on several threads and writes the results in input order:
// for per-line tools (tokenisation, language identification, BPE) whose lines are independent.
// The worker threads live for the whole stream, so per-thread caches (BPE's word cache) persist;
// memory stays bounded by two chunks however long the input is. With several threads the calling
// thread does the I/O overlapped with the workers, then joins them: it writes chunk k-1's output
// and reads chunk k+1 while they process chunk k, then takes what blocks of chunk k are left
// (reading and writing were a third of BPE apply's wall time when they ran between the parallel
// parts; a calling thread that only waited left a core idle). Each block's output is one buffer
// written with one call.
#include <algorithm>
#include <atomic>
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
#include "core/output_buffer.h"
#include "core/utf8.h"

namespace synmt {

// fn appends the result for one line (without its newline) to `out`.
using LineAppender = std::function<void(std::string_view line, OutputBuffer& out)>;

namespace detail {
// One chunk of input lines and its output in blocks of kBlockLines lines, which the threads take
// in turn (a static split into one block per worker left one waiting for the other where new
// words, slow to segment, were unevenly spread). Cache-line aligned: the reading thread fills one
// chunk while the workers read the other, and sharing a line between the two slowed them.
constexpr std::size_t kBlockLines = 1024;
struct alignas(64) LineChunk {
  std::string text;                    // the chunk's bytes (LineReader::next_lines)
  std::vector<std::string_view> lines;  // its lines
  std::size_t count = 0;
  std::size_t first_line = 0;  // line number of lines[0]
  std::vector<OutputBuffer> blocks;
  std::vector<std::exception_ptr> errors;  // per block
  alignas(64) std::atomic<std::size_t> next_block{0};
  std::size_t block_count() const { return (count + kBlockLines - 1) / kBlockLines; }
};

// Checks lines[first, end) of a chunk for invalid UTF-8 in one pass over the text they lie in
// (contiguous in the chunk's buffer, separated by newlines, which are never part of a multi-byte
// sequence): a call per line was a sixteenth of BPE apply's time. The error names the line.
inline void validate_utf8(const std::string& path, std::size_t first_line, const std::string_view* lines,
                          std::size_t first, std::size_t end) {
  if (first >= end) return;
  const char* begin = lines[first].data();
  const std::string_view span(begin, static_cast<std::size_t>(lines[end - 1].data() + lines[end - 1].size() - begin));
  const std::size_t bad = utf8::find_invalid(span);
  if (bad == std::string::npos) return;
  const char* at = begin + bad;
  for (std::size_t i = first; i < end; ++i)
    if (at < lines[i].data() + lines[i].size())
      throw InputError(path, first_line + i,
                       LineReader::invalid_utf8_message(static_cast<std::size_t>(at - lines[i].data())));
}

// UTF-8 is validated by map_lines_into, a block of lines at a time (with several threads on the
// workers: a tenth of the reading thread's time otherwise), instead of by the reader line by line;
// the error names the same file and line. Not with flag_invalid, where the reader drops invalid
// lines. The reader's own check is off while this lives.
struct DeferredUtf8Check {
  explicit DeferredUtf8Check(LineReader& reader)
      : in(reader), active(reader.options().check_utf8 && !reader.options().flag_invalid) {
    if (active) in.set_check_utf8(false);
  }
  ~DeferredUtf8Check() {
    if (active) in.set_check_utf8(true);
  }
  DeferredUtf8Check(const DeferredUtf8Check&) = delete;
  DeferredUtf8Check& operator=(const DeferredUtf8Check&) = delete;
  LineReader& in;
  const bool active;
};

inline bool read_chunk(LineReader& in, LineChunk& chunk, std::size_t chunk_size) {
  chunk.first_line = in.line_number() + 1;
  in.next_lines(chunk.text, chunk.lines, chunk_size);
  const std::size_t count = chunk.lines.size();
  chunk.count = count;
  chunk.blocks.resize(std::max(chunk.blocks.size(), chunk.block_count()));
  chunk.errors.assign(chunk.block_count(), nullptr);
  chunk.next_block.store(0);
  return count > 0;
}
}  // namespace detail

// between_chunks (optional) runs on the calling thread after each chunk, while no worker runs.
inline void map_lines_into(LineReader& in, AtomicFile& out, int threads, const LineAppender& fn,
                           std::size_t chunk_size = 20000, const std::function<void()>& between_chunks = {}) {
  const std::size_t n = static_cast<std::size_t>(std::max(1, threads));
  const detail::DeferredUtf8Check utf8_check(in);
  const bool validate = utf8_check.active;
  if (n == 1) {
    detail::LineChunk chunk;
    OutputBuffer block;
    while (detail::read_chunk(in, chunk, chunk_size)) {
      block.clear();
      if (validate) detail::validate_utf8(in.path(), chunk.first_line, chunk.lines.data(), 0, chunk.count);
      for (std::size_t i = 0; i < chunk.count; ++i) {
        fn(chunk.lines[i], block);
        block.push_back('\n');
      }
      out.write(block.view());
      if (between_chunks) between_chunks();
    }
    return;
  }
  detail::LineChunk chunks[2];
  detail::LineChunk* current = &chunks[0];  // the chunk the workers process (set under the mutex)
  std::mutex m;
  std::condition_variable work_cv, done_cv;
  std::size_t generation = 0, finished = 0;
  bool stop = false;
  // Takes blocks of a chunk until none is left; each is built in a local buffer (swapped in and
  // out) because neighbouring buffer objects share a cache line.
  auto process_blocks = [&](detail::LineChunk* chunk) {
    for (std::size_t b; (b = chunk->next_block.fetch_add(1)) < chunk->block_count();) {
      OutputBuffer block;
      std::swap(block, chunk->blocks[b]);
      block.clear();
      try {
        const std::string_view* lines = chunk->lines.data();
        const std::size_t first = b * detail::kBlockLines, end = std::min(chunk->count, first + detail::kBlockLines);
        if (validate) detail::validate_utf8(in.path(), chunk->first_line, lines, first, end);
        for (std::size_t i = first; i < end; ++i) {
          fn(lines[i], block);
          block.push_back('\n');
        }
      } catch (...) {
        chunk->errors[b] = std::current_exception();
      }
      std::swap(block, chunk->blocks[b]);
    }
  };
  std::vector<std::thread> pool;  // n - 1 workers: the calling thread takes blocks too
  for (std::size_t t = 1; t < n; ++t)
    pool.emplace_back([&]() {
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
        process_blocks(chunk);
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
  auto write_blocks = [&out](const detail::LineChunk& chunk) {
    for (std::size_t b = 0; b < chunk.block_count(); ++b) out.write(chunk.blocks[b].view());
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
      process_blocks(&work);  // I/O done: help with whatever blocks are left
      {
        std::unique_lock<std::mutex> lock(m);
        done_cv.wait(lock, [&] { return finished == n - 1; });
      }
      // workers' exceptions are rethrown here, the earliest block's first (so the first invalid
      // line of a chunk is the one reported)
      for (const auto& error : work.errors)
        if (error) std::rethrow_exception(error);
      if (between_chunks) between_chunks();
      pending = &work;
    }
    if (pending) write_blocks(*pending);
  } catch (...) {
    shutdown();
    throw;
  }
  shutdown();
}

// The same for functions that take a line as a string and return its result.
inline void map_lines_in_order(LineReader& in, AtomicFile& out, int threads,
                               const std::function<std::string(const std::string&)>& fn,
                               std::size_t chunk_size = 20000) {
  map_lines_into(
      in, out, threads,
      [&fn](std::string_view line, OutputBuffer& block) {
        thread_local std::string copy;
        copy.assign(line.data(), line.size());
        block.append(fn(copy));
      },
      chunk_size);
}

}  // namespace synmt
