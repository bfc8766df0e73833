// expect-error: a kernel set names an extension more than once
#include <array>
#include <string_view>

#include "nnhal/kernels/resolve.hpp"

namespace {
struct Ops {
  static constexpr std::string_view name = "com.example.ops";
  static constexpr std::array<nnhal::Extension::OperandTypeInformation, 0> operand_types{};
  using operations = nnhal::ExtensionOperations<>;
};
// Another definition under the same name.
struct SameName : Ops {};
}  // namespace

int main() {
  using Set = nnhal::KernelSet<nnhal::UseExtension<Ops>, nnhal::UseExtension<SameName>>;
  return nnhal::kernel_table<Set>().extensions.size() == 2 ? 0 : 1;
}
