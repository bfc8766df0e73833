#pragma once
/// \file
/// The SIMD table a node's kernel runs: chosen once at prepare (the family's table of
/// simd::chosen_target()) and kept in the node's parameters, so the run path is one indirect
/// call.

namespace nnhal::kernels {

/// Node parameters of a kernel that calls a SIMD family (a table such as
/// simd::ElementwiseF32).
template <class Table>
struct SimdParams {
  const Table* simd;
};

/// The parameters naming `table` (e.g. simd::elementwise_f32(), the table of the target this
/// CPU runs).
template <class Table>
SimdParams<Table> simd_params(const Table& table) noexcept {
  return SimdParams<Table>{&table};
}

}  // namespace nnhal::kernels
