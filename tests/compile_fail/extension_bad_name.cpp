// expect-error: an extension needs a valid name
#include <array>
#include <string_view>

#include "nnhal/kernels/resolve.hpp"

namespace {
// Upper-case letters and no '.': not an extension name (HAL13.md b.7).
struct BadName {
  static constexpr std::string_view name = "FusedGelu";
  static constexpr std::array<nnhal::Extension::OperandTypeInformation, 0> operand_types{};
  using operations = nnhal::ExtensionOperations<>;
};
}  // namespace

int main() {
  using Set = nnhal::KernelSet<nnhal::UseExtension<BadName>>;
  return nnhal::kernel_table<Set>().extensions.size() == 1 ? 0 : 1;
}
