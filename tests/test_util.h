#pragma once
// Helpers shared by the GoogleTest files: scratch files under the build tree.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace synmt::test {

// A path in the test temporary directory, in a folder of the running test case's own: ctest runs
// the cases of one binary as parallel processes, and cases sharing a file name raced.
inline std::string tmp_path(const std::string& name) {
  std::string dir = SYNMT_TEST_TMP;
  if (const auto* test = ::testing::UnitTest::GetInstance()->current_test_info())
    dir += std::string("/") + test->test_suite_name() + "." + test->name();
  std::filesystem::create_directories(dir);
  return dir + "/" + name;
}

inline std::string write_tmp(const std::string& name, const std::string& content) {
  std::string path = tmp_path(name);
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

}  // namespace synmt::test
