#pragma once
// Shared pieces of the libFuzzer targets (tests/fuzz/README.md). Every reader under test takes a
// path, so each input is written to one scratch file per process first. The contract under test:
// bad input ends in synmt's clear errors (InputError "file:line: message", ConfigError); a crash, a
// sanitizer report, a hang or any other exception escaping (a bare std::out_of_range, a JSON
// library error without the file's name) is a finding, and the target aborts on it.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>

#include "core/error.h"

namespace synmt::fuzz {

// "<tmp>/synmt-fuzz-<pid>/<name>": libFuzzer's -fork/-jobs workers are separate processes.
inline std::string scratch_path(const std::string& name) {
  static const std::string dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    std::string d = std::string(tmp ? tmp : "/tmp") + "/synmt-fuzz-" + std::to_string(::getpid());
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir + "/" + name;
}

inline std::string write_input(const std::string& name, const uint8_t* data, std::size_t size) {
  const std::string path = scratch_path(name);
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) std::abort();
  if (size > 0 && std::fwrite(data, 1, size, f) != size) std::abort();
  std::fclose(f);
  return path;
}

// Runs `body`; the clear errors are the expected outcome of bad input, anything else aborts.
template <class Body>
void expect_clear_errors(Body&& body) {
  // SYNMT_FUZZ_VERBOSE=1 prints each clear error (which check an input reached, when replaying one)
  static const bool verbose = std::getenv("SYNMT_FUZZ_VERBOSE") != nullptr;
  try {
    body();
  } catch (const InputError& e) {
    if (verbose) std::fprintf(stderr, "clear error: %s\n", e.what());
  } catch (const ConfigError& e) {
    if (verbose) std::fprintf(stderr, "clear error: %s\n", e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz finding: an unexpected exception escaped the reader: %s\n", e.what());
    std::abort();
  }
}

// A finding: the reader's guarantee `what` does not hold for a file it accepted, or a valid file
// was refused.
inline void require(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz finding: %s\n", what.c_str());
    std::abort();
  }
}

}  // namespace synmt::fuzz
