#pragma once
// Test helper: runs a Model on host buffers through PreparedModel / Execution, one memory pool
// per argument, with guard bytes after every output to catch out-of-bounds writes.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "nnhal/exec/prepared_model.hpp"

namespace nnhal::test {

/// Bytes of one request argument (empty with `omitted` = hasNoValue).
struct Arg {
  std::vector<std::byte> bytes;
  std::vector<std::uint32_t> dims;  ///< request dimensions (may be empty)
  bool omitted = false;
};

template <class T>
Arg arg_of(const std::vector<T>& values, std::vector<std::uint32_t> dims = {}) {
  Arg a;
  a.bytes.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(a.bytes.data(), values.data(), a.bytes.size());
  a.dims = std::move(dims);
  return a;
}

/// An output buffer of `bytes` bytes.
inline Arg output_of(std::size_t bytes, std::vector<std::uint32_t> dims = {}) {
  Arg a;
  a.bytes.assign(bytes, std::byte{0});
  a.dims = std::move(dims);
  return a;
}

inline constexpr std::size_t kGuardBytes = 16;
inline constexpr std::byte kGuard{0xA5};

/// Result of a run: status, output shapes, and the output bytes.
struct RunResult {
  Status status;
  std::vector<OutputShape> shapes;
  std::vector<std::vector<std::byte>> outputs;
  bool guards_intact = true;

  template <class T>
  std::vector<T> output(std::size_t i) const {
    std::vector<T> v(outputs[i].size() / sizeof(T));
    if (!v.empty()) std::memcpy(v.data(), outputs[i].data(), v.size() * sizeof(T));
    return v;
  }
};

/// Prepares `model` with kernel set `Set` (and `options`) and runs one request with `inputs`
/// and output buffers `outputs`.
template <class Set = AllKernels>
RunResult run_model(const Model& model, const std::vector<Arg>& inputs, const std::vector<Arg>& outputs,
                    const PrepareOptions& options = {}) {
  RunResult result;
  auto prepared = PreparedModel::prepare<Set>(model, options);
  if (!prepared) {
    result.status = std::move(prepared.error());
    return result;
  }
  auto execution = prepared->create_execution();
  if (!execution) {
    result.status = std::move(execution.error());
    return result;
  }
  std::vector<std::vector<std::byte>> storage;
  Request request;
  auto add = [&](const Arg& a, bool is_output) {
    RequestArgument ra;
    ra.dimensions = a.dims;
    if (a.omitted) {
      ra.hasNoValue = true;
      return ra;
    }
    std::vector<std::byte> buf = a.bytes;
    // Memory pools are never empty (HAL memory has a size); zero-sized data gets one byte.
    if (buf.empty()) buf.resize(1);
    if (is_output) buf.resize(buf.size() + kGuardBytes, kGuard);
    storage.push_back(std::move(buf));
    ra.location = {static_cast<std::uint32_t>(storage.size() - 1), 0,
                   static_cast<std::uint32_t>(a.bytes.size())};
    return ra;
  };
  for (const Arg& a : inputs) request.inputs.push_back(add(a, false));
  for (const Arg& a : outputs) request.outputs.push_back(add(a, true));
  for (auto& s : storage) request.pools.push_back({Memory{s.data(), s.size()}, 0});
  result.status = execution->run(request);
  const auto shapes = execution->output_shapes();
  result.shapes.assign(shapes.begin(), shapes.end());
  for (std::size_t k = 0; k < outputs.size(); ++k) {
    const RequestArgument& ra = request.outputs[k];
    const std::vector<std::byte>& buf = storage[ra.location.poolIndex];
    const std::size_t used = std::max<std::size_t>(ra.location.length, 1);
    result.outputs.emplace_back(buf.begin(), buf.begin() + ra.location.length);
    for (std::size_t g = used; g < buf.size(); ++g)
      if (buf[g] != kGuard) result.guards_intact = false;
  }
  return result;
}

}  // namespace nnhal::test
