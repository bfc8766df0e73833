// The operation table as a whole (include/nnhal/ops/registry.hpp), over every row the one
// operation list gives: row i is operation i, named after it, its derived members agree with
// its signatures and slots, and every signature is consistent with the slot list.
#include <doctest/doctest.h>

#include <cstdint>

#include "nnhal/ops/registry.hpp"

using namespace nnhal;

TEST_CASE("every row: code, name, derived version and value-read mask, signatures within the slots") {
  REQUIRE(operation_table().size() == static_cast<std::size_t>(kOperationTypeCount));
  for (std::size_t code = 0; code < operation_table().size(); ++code) {
    const OperationInfo& row = operation_table()[code];
    CAPTURE(row.name);
    CHECK(static_cast<std::size_t>(row.type) == code);
    CHECK(row.name == to_string(row.type));
    CHECK(find_operation(row.type) == &row);
    REQUIRE_FALSE(row.signatures.empty());
    HalVersion oldest = HalVersion::UNSUPPORTED;
    for (const Signature& s : row.signatures) {
      CHECK(s.version <= HalVersion::V1_3);
      oldest = std::min(oldest, s.version);
      // A signature never has more fixed positions than the slots describe, unless a slot
      // repeats.
      bool repeated = false;
      for (const Slot& slot : row.inputs) repeated = repeated || (slot.flags & kSlotRepeated) != 0;
      if (!repeated) CHECK(s.inputs.size <= row.inputs.size());
    }
    CHECK(row.since == oldest);
    for (std::size_t i = 0; i < row.inputs.size(); ++i) {
      const bool value_read = (row.inputs[i].flags & kSlotValueRead) != 0;
      CHECK(((row.value_inputs >> i) & 1u) == (value_read ? 1u : 0u));
    }
    CHECK(row.has(kOpControlFlow) == (row.type == OperationType::IF || row.type == OperationType::WHILE));
  }
  CHECK(find_operation(OperationType::OEM_OPERATION) == nullptr);
  CHECK(find_operation(static_cast<OperationType>(kOperationTypeCount)) == nullptr);
  CHECK(to_string(static_cast<OperationType>(-1)) == "UNKNOWN_OPERATION");
}
