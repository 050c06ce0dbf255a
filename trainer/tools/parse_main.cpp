// synmt-parse with the builtin neural parser (trainer/parser) beside the torch-free backends.
#include "parse/parse_tool.h"
#include "trainer/parser/builtin_backend.h"

int main(int argc, char** argv) {
  return synmt::parse::run_parse_tool(argc, argv, {synmt::parser::builtin_parser_backend()});
}
