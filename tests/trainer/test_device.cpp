#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>

#include <torch/cuda.h>
#include <torch/nn/modules/linear.h>

#include "core/error.h"
#include "trainer/device.h"
#include "trainer/autocast.h"
#include "trainer/train/trainer.h"

TEST(Device, ConfigurationErrorsAreClear) {
  EXPECT_THROW(synmt::TrainOptions::from_json({{"precision", "bf16"}}), synmt::ConfigError);  // CPU stays fp32
  EXPECT_THROW(synmt::TrainOptions::from_json({{"precision", "fp16"}}), synmt::ConfigError);
  EXPECT_NO_THROW(synmt::TrainOptions::from_json({{"device", "cuda"}, {"precision", "bf16"}}));
  EXPECT_THROW(synmt::resolve_device("gpu", 0), synmt::ConfigError);
  EXPECT_EQ(synmt::resolve_device("cpu", 3), torch::Device(torch::kCPU));
  if (!torch::cuda::is_available()) {
    try {
      synmt::resolve_device("cuda", 0);
      FAIL() << "cuda accepted without a GPU";
    } catch (const synmt::ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("no CUDA device"), std::string::npos) << e.what();
    }
  } else {
    EXPECT_TRUE(synmt::resolve_device("cuda", 0).is_cuda());
  }
}

TEST(Device, AutocastScopeCastsMatrixProductsAndRestoresTheState) {
  // AutocastScope on the CPU backend (CPU autocast also defaults to bf16): the CUDA
  // path calls the same functions for the CUDA backend.
  auto a = torch::randn({4, 8}), b = torch::randn({8, 3});
  const auto exact = torch::mm(a, b);
  EXPECT_EQ(exact.scalar_type(), torch::kFloat32);
  {
    synmt::AutocastScope amp(c10::DeviceType::CPU, torch::kBFloat16);
    EXPECT_TRUE(synmt::AutocastScope::is_enabled(c10::DeviceType::CPU));
    auto c = torch::mm(a, b);
    EXPECT_EQ(c.scalar_type(), torch::kBFloat16);
    // bf16 keeps 8 bits of mantissa: products of N(0,1) entries agree to a few hundredths
    EXPECT_LT((c.to(torch::kFloat32) - exact).abs().max().item<float>(), 0.1);
    EXPECT_GT((c.to(torch::kFloat32) - exact).abs().max().item<float>(), 0.0);
    {
      synmt::AutocastScope off(c10::DeviceType::CPU, torch::kBFloat16, /*enabled=*/false);
      EXPECT_EQ(torch::mm(a, b).scalar_type(), torch::kBFloat16);  // a disabled scope changes nothing
    }
    {  // a nested scope of another dtype: on leaving it, the outer scope's state comes back (not "off")
      synmt::AutocastScope half(c10::DeviceType::CPU, torch::kFloat16);
      EXPECT_EQ(at::autocast::get_autocast_dtype(c10::DeviceType::CPU), torch::kFloat16);
    }
    EXPECT_TRUE(synmt::AutocastScope::is_enabled(c10::DeviceType::CPU));
    EXPECT_EQ(at::autocast::get_autocast_dtype(c10::DeviceType::CPU), torch::kBFloat16);
    EXPECT_EQ(torch::mm(a, b).scalar_type(), torch::kBFloat16);
  }
  EXPECT_FALSE(synmt::AutocastScope::is_enabled(c10::DeviceType::CPU));
  EXPECT_EQ(torch::mm(a, b).scalar_type(), torch::kFloat32);
}

TEST(Device, ModuleDeviceOfParametersAndOfAnEmptyModule) {
  torch::nn::Module empty;
  EXPECT_EQ(synmt::module_device(empty), torch::Device(torch::kCPU));
  torch::nn::Linear linear(3, 2);
  EXPECT_EQ(synmt::module_device(*linear), torch::Device(torch::kCPU));
  // read from the parameters, not assumed: a parameter on Meta (any machine has that device)
  torch::nn::Module on_meta;
  on_meta.register_parameter("w", torch::empty({2}, torch::TensorOptions().device(torch::kMeta)));
  EXPECT_EQ(synmt::module_device(on_meta), torch::Device(torch::kMeta));
}

// PyTorch's libraries export their own copies of std::filesystem; synmt's executables must bind to
// libstdc++'s (libtorch's remove_all of a non-empty directory crashed). dladdr names the library
// that provides the function this binary calls.
TEST(Runtime, StdFilesystemComesFromLibstdcxxNotFromLibTorch) {
  using RemoveAll = std::uintmax_t (*)(const std::filesystem::path&);
  const RemoveAll remove_all = &std::filesystem::remove_all;
  Dl_info info{};
  ASSERT_NE(dladdr(reinterpret_cast<void*>(remove_all), &info), 0);
  EXPECT_NE(std::string(info.dli_fname).find("libstdc++"), std::string::npos) << info.dli_fname;
  const auto dir = std::filesystem::temp_directory_path() / ("synmt_remove_all_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "a" / "b");
  std::ofstream(dir / "a" / "b" / "f.txt") << "x";
  EXPECT_EQ(std::filesystem::remove_all(dir), 4u);  // dir, a, b, f.txt
  EXPECT_FALSE(std::filesystem::exists(dir));
}
