// Label and UPOS inventories (parse/syntax_inventory.h: one name per line, `<unk>` first), read by
// synmt-binarize and the trainer. An accepted inventory must map every name to its line index,
// unknown names to 0, and read back the same after save.
#include <string>

#include "parse/syntax_inventory.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace synmt;
  const std::string path = fuzz::write_input("labels.txt", data, size);
  fuzz::expect_clear_errors([&] {
    const auto inventory = parse::Inventory::load(path);
    fuzz::require(inventory.size() >= 1 && inventory.names()[0] == parse::kUnknownName, "an accepted inventory without <unk> first");
    for (std::size_t i = 0; i < inventory.size(); ++i) {
      const auto& name = inventory.names()[i];
      fuzz::require(!name.empty() && inventory.id(name) == static_cast<int32_t>(i), "an accepted inventory whose name '" + name + "' is not its line");
    }
    fuzz::require(inventory.id("\x01 not a name") == 0, "an unknown name did not map to <unk>");
    const std::string saved = fuzz::scratch_path("saved.txt");
    inventory.save(saved);
    const auto again = parse::Inventory::load(saved);
    fuzz::require(again.names() == inventory.names(), "a saved inventory read back differently");
  });
  return 0;
}
