# Locate LibTorch. Order: an explicit -DTorch_DIR, then Debian's libtorch-dev (CPU, LibTorch 1.13),
# then the LibTorch inside a Python torch installation (GPU machines: PyTorch 2.x with CUDA).
if(NOT Torch_DIR)
  find_package(Torch QUIET)
  if(NOT Torch_FOUND)
    find_package(Python3 COMPONENTS Interpreter)
    if(Python3_FOUND)
      execute_process(COMMAND ${Python3_EXECUTABLE} -c "import torch;print(torch.utils.cmake_prefix_path)"
                      OUTPUT_VARIABLE _synmt_torch_prefix OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
      if(_synmt_torch_prefix)
        list(APPEND CMAKE_PREFIX_PATH "${_synmt_torch_prefix}")
      endif()
    endif()
  endif()
endif()
find_package(Torch REQUIRED)
message(STATUS "synmt: LibTorch ${Torch_VERSION} from ${Torch_DIR}")
