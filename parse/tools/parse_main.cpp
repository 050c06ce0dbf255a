// synmt-parse without LibTorch: the CoreNLP and CoNLL-U backends (parse/parse_tool.h). A build
// with LibTorch uses trainer/tools/parse_main.cpp instead, which adds the builtin parser.
#include "parse/parse_tool.h"

int main(int argc, char** argv) { return synmt::parse::run_parse_tool(argc, argv, {}); }
