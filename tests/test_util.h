#pragma once
// Helpers shared by the GoogleTest files: scratch files under the build tree.
#include <filesystem>
#include <fstream>
#include <string>

namespace synmt::test {

inline std::string tmp_path(const std::string& name) {
  std::filesystem::create_directories(SYNMT_TEST_TMP);
  return std::string(SYNMT_TEST_TMP) + "/" + name;
}

inline std::string write_tmp(const std::string& name, const std::string& content) {
  std::string path = tmp_path(name);
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

}  // namespace synmt::test
