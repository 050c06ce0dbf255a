#pragma once
// The shared shape of every synmt executable's main(): parse options with CLI11, run, and turn
// errors into one clear line on stderr and a non-zero exit (2 usage, 1 bad input or failure).
#include <CLI/CLI.hpp>

#include <csignal>

#include <cstdio>
#include <exception>
#include <functional>
#include <string>

#include "core/error.h"
#include "synmt/version.h"

namespace synmt {

inline int run_tool(const std::string& name, int argc, char** argv, const std::function<void(CLI::App&)>& configure,
                    const std::function<int()>& run) {
  // A file size limit (ulimit -f, a quota-like RLIMIT_FSIZE) kills a process with SIGXFSZ by
  // default; ignored, the write fails with EFBIG and the error names the file like a full disk.
  std::signal(SIGXFSZ, SIG_IGN);
  CLI::App app{name + " (synmt " SYNMT_VERSION ")"};
  app.set_version_flag("--version", SYNMT_VERSION);
  configure(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    return run();
  } catch (const InputError& e) {
    std::fprintf(stderr, "%s: error: %s\n", name.c_str(), e.what());
  } catch (const ConfigError& e) {
    std::fprintf(stderr, "%s: config error: %s\n", name.c_str(), e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", name.c_str(), e.what());
  }
  return 1;
}

}  // namespace synmt
