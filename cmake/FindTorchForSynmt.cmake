# Locate LibTorch: the one inside PyTorch in the project venv (SYNMT_VENV, `pip install torch==2.11.0`,
# scripts/install.sh), the same wheel a GPU cluster installs. The wheel is the CUDA 13.0 build; it
# runs on CPUs as well, so one LibTorch serves both.
#
# Sets SYNMT_TORCH_TARGET (what the trainer links), SYNMT_TORCH_HAS_CUDA (this LibTorch has CUDA
# kernels) and resolves SYNMT_WITH_CUDA (AUTO | ON | OFF) to ON or OFF:
# - With a CUDA toolkit (nvcc, cudart and NCCL headers): the wheel's own CMake config (Torch/Caffe2)
#   is used and SYNMT_WITH_CUDA=AUTO becomes ON: the CUDA-specific sources (the NCCL communicator,
#   the CUDA stream code) compile and link.
# - Without a toolkit (a laptop with only the wheel): the wheel's Caffe2 config stops configuration
#   with "Your installed Caffe2 version uses CUDA but I cannot find the CUDA libraries" although no
#   CUDA code of ours needs compiling. So we then build the imported target from the wheel's files
#   ourselves (headers, libtorch / libtorch_cpu / libc10, linked --no-as-needed as the wheel's
#   config does so that its CUDA kernels still register when a driver is present) and
#   SYNMT_WITH_CUDA=AUTO becomes OFF. Deliberate and documented in docs/gpu.md.
# A LibTorch elsewhere: -DTorch_DIR=<its share/cmake/Torch>; its root is then put first in
# CMAKE_PREFIX_PATH (below), because the config's find_library would otherwise search the system
# paths for libtorch.so and libc10.so before its hints (headers and libraries from two versions;
# the check at the end catches that).

set(SYNMT_WITH_CUDA AUTO CACHE STRING "CUDA-specific code and the NCCL communicator: AUTO (when a CUDA toolkit and a CUDA LibTorch are found), ON, OFF")
set_property(CACHE SYNMT_WITH_CUDA PROPERTY STRINGS AUTO ON OFF)

# 1. The LibTorch prefix: an explicit Torch_DIR, else the venv's torch, else any python3's torch.
if(NOT Torch_DIR)
  set(_synmt_pythons "${SYNMT_VENV}/bin/python")
  find_package(Python3 COMPONENTS Interpreter QUIET)
  if(Python3_FOUND)
    list(APPEND _synmt_pythons "${Python3_EXECUTABLE}")
  endif()
  foreach(_py IN LISTS _synmt_pythons)
    if(EXISTS "${_py}")
      execute_process(COMMAND "${_py}" -c "import torch; print(torch.utils.cmake_prefix_path)"
                      OUTPUT_VARIABLE _synmt_torch_prefix OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
      if(_synmt_torch_prefix)
        message(STATUS "synmt: LibTorch from ${_py}")
        break()
      endif()
    endif()
  endforeach()
  if(NOT _synmt_torch_prefix)
    message(FATAL_ERROR "synmt: no LibTorch found. Install PyTorch into the project venv "
                        "(bash scripts/install.sh, or ${SYNMT_VENV}/bin/pip install torch==2.11.0), or configure "
                        "with -DSYNMT_WITH_TORCH=OFF for the torch-free tools only.")
  endif()
  set(Torch_DIR "${_synmt_torch_prefix}/Torch")
endif()
get_filename_component(SYNMT_TORCH_ROOT "${Torch_DIR}/../../.." ABSOLUTE)
# The config's find_library(TORCH_LIBRARY torch PATHS <root>/lib) searches the system paths before
# its PATHS: with a system LibTorch installed it would take that one's libtorch.so beside the
# wheel's headers. The root first in CMAKE_PREFIX_PATH puts <root>/lib ahead of them, and results
# cached by an earlier configuration against another LibTorch are dropped.
list(PREPEND CMAKE_PREFIX_PATH "${SYNMT_TORCH_ROOT}" "${SYNMT_TORCH_ROOT}/share/cmake")
foreach(_var TORCH_LIBRARY c10_LIBRARY C10_CUDA_LIBRARY kineto_LIBRARY)
  if(DEFINED CACHE{${_var}})
    string(FIND "${${_var}}" "${SYNMT_TORCH_ROOT}/" _at)
    if(NOT _at EQUAL 0)
      unset(${_var} CACHE)
    endif()
  endif()
endforeach()
set(SYNMT_TORCH_HAS_CUDA OFF)
if(EXISTS "${SYNMT_TORCH_ROOT}/lib/libtorch_cuda.so")
  set(SYNMT_TORCH_HAS_CUDA ON)
endif()

set(_synmt_cuda_asked "${SYNMT_WITH_CUDA}")

# 2. Is there a CUDA toolkit to compile the CUDA-specific code with?
set(_synmt_toolkit OFF)
if(NOT SYNMT_WITH_CUDA STREQUAL "OFF")
  find_package(CUDAToolkit QUIET)
  if(CUDAToolkit_FOUND)
    set(_synmt_toolkit ON)
  endif()
endif()
if(SYNMT_WITH_CUDA STREQUAL "ON" AND NOT (_synmt_toolkit AND SYNMT_TORCH_HAS_CUDA))
  message(FATAL_ERROR "synmt: SYNMT_WITH_CUDA=ON needs a CUDA toolkit (found: ${_synmt_toolkit}) and a CUDA "
                      "LibTorch (found: ${SYNMT_TORCH_HAS_CUDA}, ${SYNMT_TORCH_ROOT})")
endif()
if(_synmt_toolkit AND SYNMT_TORCH_HAS_CUDA AND NOT SYNMT_WITH_CUDA STREQUAL "OFF")
  set(SYNMT_WITH_CUDA ON)
else()
  set(SYNMT_WITH_CUDA OFF)
endif()

# 3. The imported target.
if(SYNMT_TORCH_HAS_CUDA AND NOT _synmt_toolkit)
  # the toolkit-less path (see the top): the wheel's libraries without its CMake config
  foreach(_lib torch torch_cpu c10)
    find_library(SYNMT_LIB_${_lib} ${_lib} PATHS "${SYNMT_TORCH_ROOT}/lib" NO_DEFAULT_PATH REQUIRED)
  endforeach()
  add_library(synmt_torch INTERFACE)
  target_include_directories(synmt_torch SYSTEM INTERFACE "${SYNMT_TORCH_ROOT}/include"
                                                          "${SYNMT_TORCH_ROOT}/include/torch/csrc/api/include")
  # --no-as-needed: libtorch.so carries no symbol we call but loads libtorch_cuda.so, whose static
  # initialisers register the CUDA kernels, so a CUDA device still works where a driver is present
  # (the wheel's own config links it the same way); with
  # SYNMT_WITH_CUDA=OFF asked for explicitly, LibTorch's CUDA libraries are not loaded at all
  # (faster start-up, e.g. the sanitizer build of the fuzz targets)
  if(_synmt_cuda_asked STREQUAL "OFF")
    target_link_libraries(synmt_torch INTERFACE "-Wl,--no-as-needed" "${SYNMT_LIB_torch_cpu}" "-Wl,--as-needed"
                                                "${SYNMT_LIB_c10}")
    set(_synmt_torch_how "the wheel's CPU libraries (SYNMT_WITH_CUDA=OFF: LibTorch's CUDA part not loaded)")
  else()
    target_link_libraries(synmt_torch INTERFACE "-Wl,--no-as-needed" "${SYNMT_LIB_torch}" "${SYNMT_LIB_torch_cpu}"
                                                "-Wl,--as-needed" "${SYNMT_LIB_c10}")
    set(_synmt_torch_how "the wheel's libraries (no CUDA toolkit: CPU code only)")
  endif()
  set(SYNMT_TORCH_TARGET synmt_torch)
  set(_synmt_torch_libs "${SYNMT_LIB_torch};${SYNMT_LIB_torch_cpu};${SYNMT_LIB_c10}")
else()
  find_package(Torch REQUIRED CONFIG)
  set(SYNMT_TORCH_TARGET ${TORCH_LIBRARIES})
  get_filename_component(_dir "${TORCH_LIBRARY}" DIRECTORY)
  set(_synmt_torch_libs "${TORCH_LIBRARY};${_dir}/libtorch_cpu.so;${c10_LIBRARY}")
  set(_synmt_torch_how "its CMake config")
endif()

# 4. Headers and libraries must be one LibTorch: the headers' version (torch/version.h) against the
#    version the library reports (at::show_config()), checked by compiling and running a tiny
#    program once per configuration.
foreach(_lib IN LISTS _synmt_torch_libs)
  get_filename_component(_real "${_lib}" REALPATH)
  get_filename_component(_root "${SYNMT_TORCH_ROOT}" REALPATH)
  string(FIND "${_real}" "${_root}/" _at)
  if(NOT _at EQUAL 0)
    message(FATAL_ERROR "synmt: LibTorch library ${_real} is not under ${_root} (the headers' LibTorch): two "
                        "LibTorch installations are mixed. Put the intended one's share/cmake first in "
                        "CMAKE_PREFIX_PATH, or remove the other (e.g. apt-get remove libtorch-dev).")
  endif()
endforeach()
if(NOT SYNMT_TORCH_VERSION_CHECKED STREQUAL "${SYNMT_TORCH_ROOT};${_synmt_torch_libs}")
  set(_dir "${CMAKE_BINARY_DIR}/torch_version_check")
  file(WRITE "${_dir}/check.cpp" [=[
#include <ATen/Version.h>
#include <torch/version.h>
#include <iostream>
#include <string>
int main() {
  const std::string header = std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + ".";
  const std::string config = at::show_config();
  const auto at = config.find("TORCH_VERSION=");
  const std::string library = at == std::string::npos ? "?" : config.substr(at + 14, config.find_first_of(", \n", at) - at - 14);
  std::cout << "headers " << header << "x, library " << library;
  return library.rfind(header, 0) == 0 ? 0 : 1;
}
]=])
  try_run(_run _compiled "${_dir}/build" "${_dir}/check.cpp"
          COMPILE_DEFINITIONS "-I${SYNMT_TORCH_ROOT}/include" "-I${SYNMT_TORCH_ROOT}/include/torch/csrc/api/include"
          LINK_LIBRARIES ${_synmt_torch_libs}
          CXX_STANDARD 17
          COMPILE_OUTPUT_VARIABLE _compile_out RUN_OUTPUT_VARIABLE _run_out)
  if(NOT _compiled)
    message(FATAL_ERROR "synmt: the LibTorch version check did not compile against ${SYNMT_TORCH_ROOT}:\n${_compile_out}")
  endif()
  if(NOT _run EQUAL 0)
    message(FATAL_ERROR "synmt: LibTorch headers and libraries differ (${_run_out}): two LibTorch installations "
                        "are mixed (CMAKE_PREFIX_PATH, Torch_DIR, or a system libtorch-dev).")
  endif()
  set(SYNMT_TORCH_VERSION_CHECKED "${SYNMT_TORCH_ROOT};${_synmt_torch_libs}" CACHE INTERNAL "")
  set(SYNMT_TORCH_VERSION_SEEN "${_run_out}" CACHE INTERNAL "")
endif()
message(STATUS "synmt: LibTorch (${SYNMT_TORCH_VERSION_SEEN}) at ${SYNMT_TORCH_ROOT} via ${_synmt_torch_how}; "
               "CUDA kernels in LibTorch: ${SYNMT_TORCH_HAS_CUDA}; CUDA-specific code (SYNMT_WITH_CUDA): ${SYNMT_WITH_CUDA}")
