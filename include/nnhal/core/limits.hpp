#pragma once
/// \file
/// Limits: the resource limits nnhal applies to untrusted models, requests, driver-managed
/// buffers and compilation caches, as one struct a driver sets (ValidationOptions::limits,
/// and so PrepareOptions::validation.limits and DeviceOptions::limits). Each limit is checked
/// where the count or size is first seen, before anything of that size is allocated, and the
/// error names the limit and the value. docs/security.md lists them with the error each gives
/// and the test that hits it.
///
/// The defaults are permissive: every model of the conformance corpus passes. A driver lowers
/// them to what its process may commit; raising one above its hard ceiling (noted per field)
/// has the ceiling's effect.

#include <cstdint>

#include "nnhal/config.hpp"

namespace nnhal {

/// Resource limits of one validation / preparation / device. All counts are inclusive maxima.
struct Limits {
  /// Operands of one subgraph (main or referenced). Above: INVALID_ARGUMENT at validation.
  std::uint32_t max_operands = 1u << 20;
  /// Operations of one subgraph. Above: INVALID_ARGUMENT at validation.
  std::uint32_t max_operations = 1u << 20;
  /// Referenced subgraphs of a model (Model::referenced). Above: INVALID_ARGUMENT at
  /// validation, before any subgraph is looked at.
  std::uint32_t max_referenced_subgraphs = 65536;
  /// Longest chain of nested IF/WHILE references (main alone is 0). Above: INVALID_ARGUMENT at
  /// preparation (the HAL sets no bound, so validate_model and the supported-operations query
  /// accept any depth). Hard ceiling NNHAL_MAX_CONTROL_FLOW_DEPTH: the executor and the cost model
  /// recurse once per level, and that macro is what bounds their stack.
  std::uint32_t max_control_flow_depth = NNHAL_MAX_CONTROL_FLOW_DEPTH;
  /// Entries of a model's extension map (Model::extensionNameToPrefix). Above:
  /// INVALID_ARGUMENT at validation, before the map is sorted. Unique prefixes below 32768
  /// bound a valid map to 32768 entries anyway.
  std::uint32_t max_extension_entries = 32768;
  /// Bytes of one tensor: a declared operand of fully known shape (INVALID_ARGUMENT at
  /// validation), a request argument's shape (INVALID_ARGUMENT at request validation), or a
  /// shape computed at prepare or execution time (GENERAL_FAILURE). Hard ceiling UINT32_MAX
  /// (the HAL's operand sizes are uint32).
  std::uint64_t max_tensor_bytes = UINT32_MAX;
  /// Memory pools of one request. Above: INVALID_ARGUMENT at request validation, before any
  /// pool is looked at.
  std::uint32_t max_request_pools = 65536;
  /// Bytes one execution context may allocate while running, beyond the memory its plan fixes
  /// when it is created: buffers of operands whose size is only known at execution time
  /// (dynamic temporaries and outputs, WHILE loop-carried values that grow), counted as each
  /// buffer grows and kept across runs (buffers are reused, never shrunk). Above:
  /// RESOURCE_EXHAUSTED_PERSISTENT, before the allocation that would pass it.
  std::uint64_t max_dynamic_bytes = std::uint64_t{1} << 30;
  /// Bytes of one driver-managed buffer (IDevice::allocate). Above: GENERAL_FAILURE (the HAL's
  /// status for a buffer property the driver does not support), before allocating.
  std::uint64_t max_buffer_bytes = std::uint64_t{1} << 30;
  /// Bytes of one compilation cache file read by prepareModelFromCache. Above:
  /// GENERAL_FAILURE (an unusable cache), before the file is read when its CacheFile reports
  /// its size (CacheFile::read_at_most).
  std::uint64_t max_cache_file_bytes = std::uint64_t{1} << 32;
};

}  // namespace nnhal
