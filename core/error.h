#pragma once
// Errors that name where bad input was found. Every stage catches these in main() and exits non-zero
// with "file:line: message", the form editors and CI logs make clickable.
#include <cstddef>
#include <stdexcept>
#include <string>

namespace synmt {

class InputError : public std::runtime_error {
 public:
  InputError(const std::string& file, std::size_t line, const std::string& message)
      : std::runtime_error(format(file, line, message)), file_(file), line_(line) {}
  const std::string& file() const { return file_; }
  std::size_t line() const { return line_; }

 private:
  static std::string format(const std::string& file, std::size_t line, const std::string& message) {
    return line == 0 ? file + ": " + message : file + ":" + std::to_string(line) + ": " + message;
  }
  std::string file_;
  std::size_t line_;
};

// A configuration problem: unknown or missing key, wrong type.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace synmt
