# Runs at every build (the synmt_build_commit_file target): the source commit this build was made
# from, "+dirty" when tracked files differ from it, into build_commit.cpp. configure_file rewrites
# the file only when its text changes, so an unchanged commit recompiles and relinks nothing.
# A tree without git (an unpacked archive) or where git refuses to answer gives "unknown".
execute_process(COMMAND git -C "${SRC}" rev-parse --short=12 HEAD
                OUTPUT_VARIABLE SYNMT_BUILD_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc ERROR_QUIET)
if(NOT rc EQUAL 0 OR SYNMT_BUILD_COMMIT STREQUAL "")
  set(SYNMT_BUILD_COMMIT unknown)
else()
  execute_process(COMMAND git -C "${SRC}" status --porcelain --untracked-files=no
                  OUTPUT_VARIABLE changes RESULT_VARIABLE rc ERROR_QUIET)
  if(NOT rc EQUAL 0)
    string(APPEND SYNMT_BUILD_COMMIT "+unknown")
  elseif(NOT changes STREQUAL "")
    string(APPEND SYNMT_BUILD_COMMIT "+dirty")
  endif()
endif()
configure_file("${SRC}/cmake/build_commit.cpp.in" "${OUT}" @ONLY)
