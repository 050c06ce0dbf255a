#pragma once
// The source commit a binary was built from (12 hex digits, "+dirty" when tracked files differed
// from it, "unknown" without git), fixed at build time. A training run records it for each
// session that trained it, so a table names the code that computed its numbers, not the checkout
// that happened to regenerate the table (pipeline/scripts/provenance.py).

namespace synmt {

const char* build_commit();

}  // namespace synmt
