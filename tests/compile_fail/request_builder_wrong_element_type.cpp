// expect-error: no matching (member )?function for call to
// Binding a span of float to the handle of a TENSOR_INT32 input must not compile: the handle's
// operand type fixes the element type of the span (nnhal/model/request_builder.hpp).
#include <span>

#include "nnhal/builder/builder.hpp"
#include "nnhal/model/request_builder.hpp"

int main() {
  nnhal::ModelBuilder b;
  const auto indices = b.input<nnhal::OperandType::TENSOR_INT32>({{4}});
  const nnhal::Model model = std::move(b).model();
  nnhal::RequestBuilder rb(model);
  const float values[4] = {0, 1, 2, 3};
  return rb.input(indices, std::span<const float>(values)).has_value() ? 0 : 1;
}
