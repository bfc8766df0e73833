// The limits validation applies (nnhal/core/limits.hpp, docs/security.md): each one hit by the
// hostile input it exists for, and moved by a driver (the same input accepted at the limit,
// refused one below). Validation only: no kernels are compiled.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "nnhal/core/limits.hpp"
#include "nnhal/validate/model.hpp"
#include "nnhal/validate/request.hpp"
#include "model_fixtures.hpp"

namespace nnhal::test::limits {

namespace mf = nnhal::test::malformed;

/// add_model() with every float operand declared `dims`.
inline mf::ModelFixture add_model_of(nnhal::Vector<std::uint32_t> dims) {
  mf::ModelFixture f = mf::add_model();
  for (Operand& op : f.model.main.operands)
    if (op.type == OperandType::TENSOR_FLOAT32) op.dimensions = dims;
  return f;
}

inline ValidationOptions with(Limits limits) {
  ValidationOptions o;
  o.limits = limits;
  return o;
}

TEST_CASE("limits: tensors near 2^32 bytes and shapes whose size overflows 32 and 64 bits are refused") {
  // 65536 x 65537 float32: 2^34 + 2^18 bytes, past uint32; five 65536s: 2^80 elements, past
  // uint64 (the size is checked after every factor, so it never wraps).
  for (const auto& dims : {nnhal::Vector<std::uint32_t>{65536, 65537}, nnhal::Vector<std::uint32_t>(5, 65536),
                           nnhal::Vector<std::uint32_t>{UINT32_MAX, UINT32_MAX}}) {
    CAPTURE(dims.size());
    mf::check_model_invalid(add_model_of(dims).model, {"operand 0", "Limits::max_tensor_bytes"});
  }
  // 16383 x 65536 float32 is just below 4 GiB: valid with the default limit (validation
  // allocates nothing of that size), refused once a driver lowers it.
  const auto big = add_model_of({16383, 65536});
  mf::check_model_valid(big.model);
  Limits lower;
  lower.max_tensor_bytes = std::uint64_t{1} << 30;
  mf::check_model_invalid(big.model, {"operand 0", "4294705152 bytes", "Limits::max_tensor_bytes (1073741824)"},
                          with(lower));
}

TEST_CASE("limits: max_tensor_bytes moves the boundary for declared operands") {
  const auto f = add_model_of({1024, 1024});  // 4 MiB each
  Limits l;
  l.max_tensor_bytes = 4u << 20;
  mf::check_model_valid(f.model, with(l));
  l.max_tensor_bytes = (4u << 20) - 1;
  mf::check_model_invalid(f.model, {"Limits::max_tensor_bytes (4194303)"}, with(l));
}

TEST_CASE("limits: operands and operations per subgraph") {
  const auto f = mf::add_chain_model();  // 4 operands, 2 operations
  Limits l;
  l.max_operands = 4;
  l.max_operations = 2;
  mf::check_model_valid(f.model, with(l));
  l.max_operands = 3;
  mf::check_model_invalid(f.model, {"main", "has 4 operands", "Limits::max_operands (3)"}, with(l));
  l.max_operands = 4;
  l.max_operations = 1;
  mf::check_model_invalid(f.model, {"main", "has 2 operations", "Limits::max_operations (1)"}, with(l));
  // Referenced subgraphs are held to the same limits.
  const auto w = mf::while_model();  // main: 5 operands; body: 5; condition: 3
  Limits r;
  r.max_operands = 5;
  mf::check_model_valid(w.model, with(r));
  r.max_operands = 4;
  mf::check_model_invalid(w.model, {"main", "Limits::max_operands (4)"}, with(r));
}

TEST_CASE("limits: 100,000 referenced subgraphs are refused before any is looked at") {
  // if_model plus unreferenced copies of its branch, past the default 65536.
  auto f = mf::if_model();
  const Subgraph branch = f.model.referenced[0];
  f.model.referenced.resize(100000, branch);
  mf::check_model_invalid(f.model, {"100000 referenced subgraphs", "Limits::max_referenced_subgraphs (65536)"});
  // Thousands are fine by default; a driver moves the boundary.
  f.model.referenced.resize(6000);
  mf::check_model_valid(f.model);
  Limits l;
  l.max_referenced_subgraphs = 6000;
  mf::check_model_valid(f.model, with(l));
  l.max_referenced_subgraphs = 5999;
  mf::check_model_invalid(f.model, {"6000 referenced subgraphs", "Limits::max_referenced_subgraphs (5999)"}, with(l));
}

TEST_CASE("limits: nesting depth is not a validation rule (the HAL sets no bound)") {
  // Preparation holds it to Limits::max_control_flow_depth: tests/exec/limits.cpp.
  mf::check_model_valid(mf::if_chain_model(3000).model);
  CHECK(control_flow_depth(mf::if_chain_model(3000).model) == 3000);
  CHECK(control_flow_depth(mf::add_model().model) == 0);
  const auto deep = mf::if_chain_model(3000);
  mf::check_invalid(check_control_flow_depth(deep.model, Limits{}),
                    {"nested 3000 deep", "Limits::max_control_flow_depth (256)"});
}

TEST_CASE("limits: an extension map longer than the limit is refused before it is sorted") {
  auto f = mf::add_model();
  auto& map = f.model.extensionNameToPrefix;
  for (std::uint16_t i = 0; i < 3; ++i) map.push_back({"com.example.e" + std::to_string(i), i});
  Limits l;
  l.max_extension_entries = 3;
  mf::check_model_valid(f.model, with(l));
  l.max_extension_entries = 2;
  mf::check_model_invalid(f.model, {"has 3 entries", "Limits::max_extension_entries (2)"}, with(l));
  // 40000 entries: more than any valid map (prefixes are unique and below 32768).
  map.clear();
  for (std::uint32_t i = 0; i < 40000; ++i) map.push_back({"com.example.e" + std::to_string(i), static_cast<std::uint16_t>(i)});
  mf::check_model_invalid(f.model, {"has 40000 entries", "Limits::max_extension_entries (32768)"});
}

TEST_CASE("limits: a request with 100,000 pools is refused before any pool is looked at") {
  const auto f = mf::add_model();
  auto r = mf::add_request();
  const RequestMemoryPool extra = r.request.pools[0];
  r.request.pools.resize(100000, extra);
  mf::check_request_invalid(r.request, f.model, {"100000 memory pools", "Limits::max_request_pools (65536)"});
  RequestValidationOptions o;
  o.max_request_pools = 100000;
  CHECK(validate_request(r.request, f.model, o).has_value());
  o.max_request_pools = 99999;
  mf::check_request_invalid(r.request, f.model, {"Limits::max_request_pools (99999)"}, o);
}

TEST_CASE("limits: request dimensions that make a tensor near or past 2^32 bytes are refused") {
  // Inputs and output of unknown dimensions: the request gives them. An input's shape must fit
  // its region first; an output's region is not checked against its shape (a short one is
  // OUTPUT_INSUFFICIENT_SIZE at execution), so only the limit stops a huge output shape here.
  const auto f = add_model_of({0, 0});
  auto r = mf::add_request();  // 8-byte regions
  for (auto* list : {&r.request.inputs, &r.request.outputs})
    for (RequestArgument& a : *list) a.dimensions = {1, 2};
  for (const auto& dims : {std::vector<std::uint32_t>{65536, 65537}, std::vector<std::uint32_t>{UINT32_MAX, UINT32_MAX}}) {
    r.request.outputs[0].dimensions = dims;
    mf::check_request_invalid(r.request, f.model, {"output 0", "bytes, above Limits::max_tensor_bytes (4294967295)"});
  }
  r.request.outputs[0].dimensions = {1, 2};
  CHECK(validate_request(r.request, f.model).has_value());
  RequestValidationOptions o;
  o.max_tensor_bytes = 8;
  CHECK(validate_request(r.request, f.model, o).has_value());
  o.max_tensor_bytes = 7;
  mf::check_request_invalid(r.request, f.model, {"input 0", "8 bytes", "Limits::max_tensor_bytes (7)"}, o);
}

}  // namespace nnhal::test::limits
