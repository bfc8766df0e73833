// Driver-managed buffers (HAL13.md c.5): IDevice::allocate's validation, tokens, the IBuffer
// copyTo/copyFrom state machine, the checks on their use in a request, and real executions
// that write, read and chain buffers through ExecuteOptions::token_memory.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <set>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "nnhal/device/memory_domain.hpp"
#include "nnhal/exec/clock.hpp"
#include "nnhal/builder/builder.hpp"
#include "../support/counting_allocator.hpp"

namespace nnhal::test::mdomain {

constexpr auto kF32 = OperandType::TENSOR_FLOAT32;

/// main: y = x + c (ADD with a [1] constant), x declared `in_dims`, y `out_dims`.
inline Model add_constant_model(float c, std::vector<std::uint32_t> in_dims, std::vector<std::uint32_t> out_dims) {
  ModelBuilder b;
  const auto x = b.input<kF32>({std::move(in_dims)});
  const float value[1] = {c};
  const auto k = b.constant<kF32>(value, {{1}});
  const auto act = b.scalar<OperandType::INT32>(0);
  b.output(b.operation<OperationType::ADD, kF32>({std::move(out_dims)}, x, k, act));
  return std::move(b).model();
}

/// main: inputs a, b [4] and an INT32 scalar activation input; outputs a + b and a - b.
inline Model two_output_model() {
  ModelBuilder b;
  const auto x = b.input<kF32>({{4}});
  const auto y = b.input<kF32>({{4}});
  const auto act = b.input<OperandType::INT32>();
  b.output(b.operation<OperationType::ADD, kF32>({{4}}, x, y, act));
  b.output(b.operation<OperationType::SUB, kF32>({{4}}, x, y, act));
  return std::move(b).model();
}

/// main: y = x + x on TENSOR_QUANT8_ASYMM [4] with the given scale and zero point.
inline Model quant_model(float scale, std::int32_t zero_point) {
  ModelBuilder b;
  constexpr auto kQ = OperandType::TENSOR_QUANT8_ASYMM;
  const auto x = b.input<kQ>({{4}, scale, zero_point});
  const auto act = b.scalar<OperandType::INT32>(0);
  b.output(b.operation<OperationType::ADD, kQ>({{4}, scale, zero_point}, x, x, act));
  return std::move(b).model();
}

inline PreparedModel prepare_or_fail(const Model& model) {
  auto p = PreparedModel::prepare(model);
  REQUIRE_MESSAGE(p.has_value(), (p ? "" : p.error().c_str()));
  return std::move(*p);
}

inline std::string message_of(const Status& s) { return s ? std::string() : std::string(s.error().message()); }

template <class T>
ErrorStatus status_of(const Expected<T>& e) {
  return e ? ErrorStatus::NONE : e.error().status();
}

template <class T>
bool mentions(const Expected<T>& e, const std::string& text) {
  return !e && std::string(e.error().message()).find(text) != std::string::npos;
}

template <class T>
Memory memory_of(std::vector<T>& v) {
  return {reinterpret_cast<std::byte*>(v.data()), v.size() * sizeof(T)};
}

/// The buffer half of allocate's result (checked).
inline std::shared_ptr<DeviceBuffer> allocate_or_fail(BufferRegistry& registry, const BufferDesc& desc,
                                                      std::vector<const PreparedModel*> models,
                                                      std::vector<BufferRole> inputs, std::vector<BufferRole> outputs) {
  auto r = registry.allocate(desc, models, inputs, outputs);
  REQUIRE_MESSAGE(r.has_value(), (r ? "" : r.error().c_str()));
  CHECK(r->second == r->first->token());
  return r->first;
}

/// A request argument in pool `pool` (whole pool for tokens: offset = length = 0).
inline RequestArgument in_pool(std::uint32_t pool, std::uint32_t length = 0, std::vector<std::uint32_t> dims = {}) {
  return RequestArgument{false, {pool, 0, length}, std::move(dims)};
}

/// bind -> run -> finish, the way a device drives one execution.
template <Clock C>
Status run_bound(Execution<C>& execution, const PreparedModel& prepared, const Request& request,
                 BufferRegistry& registry, BoundBuffers& bound, ExecuteOptions<C> options = {}) {
  NNHAL_TRY(bound.bind(request, prepared, registry));
  options.token_memory = bound.token_memory();
  const Status s = execution.run(request, options);
  return bound.finish(s, execution.output_shapes());
}

}  // namespace nnhal::test::mdomain

namespace md = nnhal::test::mdomain;
using nnhal::BufferDesc;
using nnhal::BufferRole;
using nnhal::ErrorStatus;

TEST_CASE("memory domain: allocate rejects malformed descriptions and roles with INVALID_ARGUMENT") {
  const nnhal::PreparedModel a = md::prepare_or_fail(md::add_constant_model(1.0f, {4}, {4}));
  const nnhal::PreparedModel b = md::prepare_or_fail(md::add_constant_model(2.0f, {4}, {4}));
  const nnhal::PreparedModel wide = md::prepare_or_fail(md::add_constant_model(2.0f, {5}, {5}));
  const nnhal::PreparedModel matrix = md::prepare_or_fail(md::add_constant_model(2.0f, {2, 2}, {2, 2}));
  const nnhal::PreparedModel two = md::prepare_or_fail(md::two_output_model());
  const nnhal::PreparedModel q1 = md::prepare_or_fail(md::quant_model(0.5f, 3));
  const nnhal::PreparedModel q2 = md::prepare_or_fail(md::quant_model(0.25f, 3));
  const nnhal::PreparedModel q3 = md::prepare_or_fail(md::quant_model(0.5f, 4));
  nnhal::BufferRegistry registry;

  struct Case {
    const char* name;
    BufferDesc desc;
    std::vector<const nnhal::PreparedModel*> models;
    std::vector<BufferRole> inputs, outputs;
    const char* expected;  // part of the message
  };
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<Case> cases = {
      {"no prepared models", {}, {}, {{0, 0, 1.0f}}, {}, "no prepared models"},
      {"null prepared model", {}, {&a, nullptr}, {{0, 0, 1.0f}}, {}, "prepared model 1 is null"},
      {"no roles", {}, {&a}, {}, {}, "no roles"},
      {"modelIndex out of range", {}, {&a}, {{0, 0, 1.0f}, {1, 0, 1.0f}}, {}, "input role 1: modelIndex 1"},
      {"input ioIndex out of range", {}, {&a}, {{0, 1, 1.0f}}, {}, "input role 0: ioIndex 1"},
      {"output ioIndex out of range", {}, {&a}, {}, {{0, 0, 1.0f}, {0, 1, 1.0f}}, "output role 1: ioIndex 1"},
      {"frequency 0", {}, {&a}, {{0, 0, 0.0f}}, {}, "input role 0: frequency"},
      {"negative frequency", {}, {&a}, {}, {{0, 0, -0.5f}}, "output role 0: frequency"},
      {"frequency above 1", {}, {&a}, {{0, 0, 1.5f}}, {}, "input role 0: frequency"},
      {"NaN frequency", {}, {&a}, {{0, 0, nan}}, {}, "input role 0: frequency"},
      {"duplicated input role", {}, {&a}, {{0, 0, 1.0f}, {0, 0, 0.5f}}, {}, "input role 1: input 0"},
      {"duplicated output role", {}, {&a, &b}, {{0, 0, 1.0f}}, {{1, 0, 1.0f}, {0, 0, 1.0f}, {1, 0, 1.0f}},
       "output role 2: output 0 of prepared model 1"},
      // Two entries naming copies of one prepared model are the same model.
      {"duplicate through a copy", {}, {&a, &a}, {{0, 0, 1.0f}, {1, 0, 1.0f}}, {}, "input role 1"},
      {"type differs", {}, {&a, &q1}, {{0, 0, 1.0f}, {1, 0, 1.0f}}, {}, "input role 1: operand type"},
      {"scale differs", {}, {&q1, &q2}, {{0, 0, 1.0f}}, {{1, 0, 1.0f}}, "output role 0: quantization"},
      {"zero point differs", {}, {&q1, &q3}, {{0, 0, 1.0f}, {1, 0, 1.0f}}, {}, "input role 1: quantization"},
      {"dimension differs from desc", {{5}}, {&a}, {{0, 0, 1.0f}}, {}, "input role 0: operand dimensions"},
      {"rank differs from desc", {{4, 1}}, {&a}, {}, {{0, 0, 1.0f}}, "output role 0: operand dimensions"},
      {"roles disagree on a dimension", {}, {&a, &wide}, {{0, 0, 1.0f}, {1, 0, 1.0f}}, {}, "input role 1: operand dimensions"},
      {"roles disagree on rank", {}, {&a, &matrix}, {{0, 0, 1.0f}}, {{1, 0, 1.0f}}, "output role 0: operand dimensions"},
      {"description rank above what any model has", {{1, 1, 1, 1, 1, 1, 1, 1, 1, 4}}, {&a}, {{0, 0, 1.0f}}, {},
       "input role 0: operand dimensions"},
      {"scalar with dimensions", {{1}}, {&two}, {{0, 2, 1.0f}}, {}, "scalar buffer cannot have dimensions"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    auto r = registry.allocate(c.desc, c.models, c.inputs, c.outputs);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().status() == ErrorStatus::INVALID_ARGUMENT);
    CHECK_MESSAGE(md::mentions(r, c.expected), r.error().c_str());
  }
  CHECK(registry.size() == 0);
}

TEST_CASE("memory domain: allocate reports what nnhal does not support as GENERAL_FAILURE") {
  const nnhal::PreparedModel dynamic = md::prepare_or_fail(md::add_constant_model(1.0f, {0}, {0}));
  const nnhal::PreparedModel huge = md::prepare_or_fail(md::add_constant_model(1.0f, {0, 0}, {0, 0}));
  nnhal::BufferRegistry registry;
  const std::vector<const nnhal::PreparedModel*> models = {&dynamic};
  const std::vector<BufferRole> role = {{0, 0, 1.0f}};
  // Size unknown at allocation time: neither the operand nor the description fixes it.
  auto r = registry.allocate({}, models, role, {});
  CHECK(md::status_of(r) == ErrorStatus::GENERAL_FAILURE);
  CHECK(md::mentions(r, "dynamic"));
  // A partial description of a partially known shape is still dynamic.
  const nnhal::PreparedModel* huge_model[] = {&huge};
  r = registry.allocate({{3, 0}}, huge_model, {}, role);
  CHECK(md::status_of(r) == ErrorStatus::GENERAL_FAILURE);
  // 2^16 x 2^16 floats: 16 GiB.
  r = registry.allocate({{65536, 65536}}, huge_model, role, {});
  CHECK(md::status_of(r) == ErrorStatus::GENERAL_FAILURE);
  CHECK(md::mentions(r, "4 GiB"));
  // The description completes the shape: supported.
  r = registry.allocate({{6}}, models, role, {});
  REQUIRE(r.has_value());
  CHECK(r->first->size() == 6 * sizeof(float));
  CHECK(r->first->dimensions() == std::vector<std::uint32_t>{6});
}

TEST_CASE("memory domain: a new buffer has the roles' type and size, is uninitialized, and has a fresh token") {
  const nnhal::PreparedModel a = md::prepare_or_fail(md::add_constant_model(1.0f, {0, 3}, {0, 3}));
  const nnhal::PreparedModel b = md::prepare_or_fail(md::add_constant_model(1.0f, {2, 0}, {2, 0}));
  nnhal::BufferRegistry registry;
  // The shape comes from two roles together: [0, 3] and [2, 0] combine into [2, 3].
  auto buffer = md::allocate_or_fail(registry, {}, {&a, &b}, {{0, 0, 1.0f}}, {{1, 0, 0.25f}});
  CHECK(buffer->type() == nnhal::OperandType::TENSOR_FLOAT32);
  CHECK(buffer->size() == 2 * 3 * sizeof(float));
  CHECK(buffer->dimensions() == std::vector<std::uint32_t>{2, 3});
  CHECK_FALSE(buffer->initialized());
  CHECK(buffer->token() > 0);
  CHECK(registry.find(buffer->token()) == buffer);
  CHECK(buffer->has_role(a.id(), false, 0));
  CHECK(buffer->has_role(b.id(), true, 0));
  CHECK_FALSE(buffer->has_role(a.id(), true, 0));
  CHECK_FALSE(buffer->has_role(b.id(), false, 0));

  const nnhal::PreparedModel q = md::prepare_or_fail(md::quant_model(0.5f, 7));
  auto qb = md::allocate_or_fail(registry, {{4}}, {&q}, {}, {{0, 0, 1.0f}});
  CHECK(qb->type() == nnhal::OperandType::TENSOR_QUANT8_ASYMM);
  CHECK(qb->scale() == 0.5f);
  CHECK(qb->zero_point() == 7);
  CHECK(qb->size() == 4);

  const nnhal::PreparedModel two = md::prepare_or_fail(md::two_output_model());
  auto scalar = md::allocate_or_fail(registry, {}, {&two}, {{0, 2, 1.0f}}, {});
  CHECK(scalar->type() == nnhal::OperandType::INT32);
  CHECK(scalar->size() == 4);
  CHECK(scalar->dimensions().empty());
}

TEST_CASE("memory domain: tokens are positive, unique among live buffers, and released with the buffer") {
  const nnhal::PreparedModel a = md::prepare_or_fail(md::add_constant_model(1.0f, {4}, {4}));
  const std::vector<const nnhal::PreparedModel*> models = {&a};
  const std::vector<BufferRole> role = {{0, 0, 1.0f}};
  nnhal::BufferRegistry registry;
  std::vector<std::shared_ptr<nnhal::DeviceBuffer>> live;
  for (int i = 0; i < 64; ++i) {
    auto r = registry.allocate({}, models, role, {});
    REQUIRE(r.has_value());
    live.push_back(std::move(r->first));
  }
  auto tokens = [&] {
    std::set<std::uint32_t> t;
    for (const auto& buf : live) t.insert(buf->token());
    return t;
  };
  CHECK(tokens().size() == live.size());
  CHECK(*tokens().begin() > 0);
  CHECK(registry.size() == live.size());

  // Dropping the last reference releases the token: the registry keeps no buffer alive.
  const std::uint32_t gone = live[10]->token();
  std::weak_ptr<nnhal::DeviceBuffer> watch = live[10];
  live.erase(live.begin() + 10);
  CHECK(watch.expired());
  CHECK(registry.find(gone) == nullptr);
  CHECK(registry.size() == live.size());
  // Other references (an execution's, say) keep the buffer and its token alive.
  auto extra = live[0];
  const std::uint32_t kept = extra->token();
  live.erase(live.begin());
  CHECK(registry.find(kept) == extra);
  extra.reset();
  CHECK(registry.find(kept) == nullptr);

  for (int i = 0; i < 16; ++i) {
    auto r = registry.allocate({}, models, role, {});
    REQUIRE(r.has_value());
    live.push_back(std::move(r->first));
  }
  CHECK(tokens().size() == live.size());
  CHECK(tokens().count(0) == 0);
  CHECK(registry.find(0) == nullptr);

  // A buffer may outlive its registry (the device); its release then touches nothing freed.
  std::shared_ptr<nnhal::DeviceBuffer> survivor;
  {
    nnhal::BufferRegistry short_lived;
    auto r = short_lived.allocate({}, models, role, {});
    REQUIRE(r.has_value());
    survivor = r->first;
  }
  std::vector<float> data = {1, 2, 3, 4};
  CHECK(survivor->copy_from(md::memory_of(data), {}).has_value());
  survivor.reset();
}

TEST_CASE("memory domain: copyTo and copyFrom follow the buffer state machine") {
  const nnhal::PreparedModel a = md::prepare_or_fail(md::add_constant_model(1.0f, {0, 0}, {0, 0}));
  nnhal::BufferRegistry registry;
  auto buffer = md::allocate_or_fail(registry, {{2, 3}}, {&a}, {{0, 0, 1.0f}}, {});
  std::vector<float> src(6), dst(6, -1.0f), small(5), large(7);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = 0.5f * static_cast<float>(i) - 1.0f;

  SUBCASE("copyTo of an uninitialized buffer fails; its size is checked first") {
    CHECK(md::status_of(buffer->copy_to(md::memory_of(dst))) == ErrorStatus::GENERAL_FAILURE);
    CHECK(md::status_of(buffer->copy_to(md::memory_of(small))) == ErrorStatus::INVALID_ARGUMENT);
    CHECK(md::status_of(buffer->copy_to(md::memory_of(large))) == ErrorStatus::INVALID_ARGUMENT);
  }
  SUBCASE("copyFrom initializes; copyTo returns the bytes") {
    REQUIRE(buffer->copy_from(md::memory_of(src), {}).has_value());
    CHECK(buffer->initialized());
    CHECK(buffer->dimensions() == std::vector<std::uint32_t>{2, 3});
    REQUIRE(buffer->copy_to(md::memory_of(dst)).has_value());
    CHECK(dst == src);
    CHECK(md::status_of(buffer->copy_to(md::memory_of(large))) == ErrorStatus::INVALID_ARGUMENT);
    CHECK(md::status_of(buffer->copy_to({nullptr, dst.size() * sizeof(float)})) == ErrorStatus::GENERAL_FAILURE);
    CHECK(buffer->initialized());  // a failed copyTo does not change the state
  }
  SUBCASE("copyFrom with fully specified agreeing dimensions sets them") {
    const std::uint32_t dims[] = {2, 3};
    REQUIRE(buffer->copy_from(md::memory_of(src), dims).has_value());
    CHECK(buffer->dimensions() == std::vector<std::uint32_t>{2, 3});
  }
  SUBCASE("every failed copyFrom leaves the buffer uninitialized") {
    struct Bad {
      const char* name;
      nnhal::Memory src;
      std::vector<std::uint32_t> dims;
      ErrorStatus expected;
    };
    const std::vector<Bad> bad = {
        {"source too small", md::memory_of(small), {}, ErrorStatus::INVALID_ARGUMENT},
        {"source too large", md::memory_of(large), {}, ErrorStatus::INVALID_ARGUMENT},
        {"unknown dimension", md::memory_of(src), {2, 0}, ErrorStatus::INVALID_ARGUMENT},
        {"wrong rank", md::memory_of(src), {6}, ErrorStatus::INVALID_ARGUMENT},
        {"wrong dimension", md::memory_of(src), {3, 2}, ErrorStatus::INVALID_ARGUMENT},
        {"unmapped source", {nullptr, src.size() * sizeof(float)}, {}, ErrorStatus::GENERAL_FAILURE},
    };
    for (const Bad& c : bad) {
      CAPTURE(c.name);
      REQUIRE(buffer->copy_from(md::memory_of(src), {}).has_value());
      REQUIRE(buffer->initialized());
      CHECK(md::status_of(buffer->copy_from(c.src, c.dims)) == c.expected);
      CHECK_FALSE(buffer->initialized());
      CHECK(md::status_of(buffer->copy_to(md::memory_of(dst))) == ErrorStatus::GENERAL_FAILURE);
    }
  }
  SUBCASE("scalar buffers take no dimensions") {
    const nnhal::PreparedModel two = md::prepare_or_fail(md::two_output_model());
    auto scalar = md::allocate_or_fail(registry, {}, {&two}, {{0, 2, 1.0f}}, {});
    std::vector<std::int32_t> one = {3}, back = {0};
    const std::uint32_t dims[] = {1};
    CHECK(md::status_of(scalar->copy_from(md::memory_of(one), dims)) == ErrorStatus::INVALID_ARGUMENT);
    CHECK_FALSE(scalar->initialized());
    REQUIRE(scalar->copy_from(md::memory_of(one), {}).has_value());
    REQUIRE(scalar->copy_to(md::memory_of(back)).has_value());
    CHECK(back == one);
  }
}

TEST_CASE("memory domain: bind rejects every misuse of a buffer in a request") {
  const nnhal::PreparedModel p = md::prepare_or_fail(md::add_constant_model(1.0f, {0}, {0}));
  const nnhal::PreparedModel other = md::prepare_or_fail(md::add_constant_model(1.0f, {0}, {0}));
  const nnhal::PreparedModel two = md::prepare_or_fail(md::two_output_model());
  nnhal::BufferRegistry registry;
  // `inout` may be input 0 and output 0 of p; `in_only` only input 0 of p.
  auto inout = md::allocate_or_fail(registry, {{4}}, {&p}, {{0, 0, 1.0f}}, {{0, 0, 1.0f}});
  auto in_only = md::allocate_or_fail(registry, {{4}}, {&p}, {{0, 0, 1.0f}}, {});
  auto out_only = md::allocate_or_fail(registry, {{4}}, {&p}, {}, {{0, 0, 1.0f}});
  auto both_outputs = md::allocate_or_fail(registry, {}, {&two}, {}, {{0, 0, 1.0f}, {0, 1, 1.0f}});
  std::vector<float> host(4, 1.0f), out(4);
  REQUIRE(inout->copy_from(md::memory_of(host), {}).has_value());
  REQUIRE(in_only->copy_from(md::memory_of(host), {}).has_value());

  nnhal::BoundBuffers bound;
  auto token_pool = [](const std::shared_ptr<nnhal::DeviceBuffer>& b) { return nnhal::RequestMemoryPool{{}, b->token()}; };
  auto host_pool = [](std::vector<float>& v) { return nnhal::RequestMemoryPool{md::memory_of(v), 0}; };
  auto expect = [&](const nnhal::Request& r, const nnhal::PreparedModel& m, ErrorStatus status, const char* text) {
    const nnhal::Status s = bound.bind(r, m, registry);
    CHECK(md::status_of(s) == status);
    CHECK_MESSAGE(md::message_of(s).find(text) != std::string::npos, md::message_of(s));
    CHECK(bound.token_memory().empty());
  };

  nnhal::Request r;
  r.pools = {token_pool(in_only), host_pool(out)};
  r.inputs = {md::in_pool(0, 0, {4})};
  r.outputs = {md::in_pool(1, 16)};
  SUBCASE("a valid use binds the buffer's memory to its pool") {
    REQUIRE(bound.bind(r, p, registry).has_value());
    REQUIRE(bound.token_memory().size() == 2);
    CHECK(bound.token_memory()[0].size == 16);
    CHECK(bound.token_memory()[0].data != nullptr);
    CHECK(bound.token_memory()[1].data == nullptr);
  }
  SUBCASE("unknown token") {
    r.pools[0].token = in_only->token() + 1000;
    expect(r, p, ErrorStatus::INVALID_ARGUMENT, "no driver-managed buffer has token");
  }
  SUBCASE("a released buffer's token is unknown") {
    const std::uint32_t token = in_only->token();
    in_only.reset();
    r.pools[0].token = token;
    expect(r, p, ErrorStatus::INVALID_ARGUMENT, "no driver-managed buffer has token");
  }
  SUBCASE("an output use that is not among the roles") {
    r.pools = {host_pool(host), token_pool(in_only)};
    r.inputs = {md::in_pool(0, 16, {4})};
    r.outputs = {md::in_pool(1)};
    expect(r, p, ErrorStatus::INVALID_ARGUMENT, "output 0: driver-managed buffer");
  }
  SUBCASE("an input use that is not among the roles") {
    r.pools[0] = token_pool(out_only);
    expect(r, p, ErrorStatus::INVALID_ARGUMENT, "input 0: driver-managed buffer");
  }
  SUBCASE("roles name one prepared model, not another prepared from the same model") {
    expect(r, other, ErrorStatus::INVALID_ARGUMENT, "not allocated for input 0");
  }
  SUBCASE("an uninitialized input is GENERAL_FAILURE") {
    std::vector<float> wrong(3);
    REQUIRE_FALSE(in_only->copy_from(md::memory_of(wrong), {}).has_value());
    expect(r, p, ErrorStatus::GENERAL_FAILURE, "before it is initialized");
    // ... unless the request also misuses a buffer: INVALID_ARGUMENT takes precedence.
    r.pools[1] = token_pool(in_only);
    r.outputs = {md::in_pool(1)};
    expect(r, p, ErrorStatus::INVALID_ARGUMENT, "output 0");
  }
  SUBCASE("one buffer as input and output") {
    r.pools = {token_pool(inout), host_pool(out)};
    r.outputs = {md::in_pool(0)};
    expect(r, p, ErrorStatus::INVALID_ARGUMENT, "both input 0 and output 0");
  }
  SUBCASE("one buffer as input and output through two pools with the same token") {
    r.pools = {token_pool(inout), token_pool(inout)};
    r.outputs = {md::in_pool(1)};
    expect(r, p, ErrorStatus::INVALID_ARGUMENT, "both input 0 and output 0");
  }
  SUBCASE("one buffer as two outputs") {
    std::vector<std::int32_t> act = {0};
    nnhal::Request r2;
    r2.pools = {host_pool(host), {md::memory_of(act), 0}, token_pool(both_outputs), token_pool(both_outputs)};
    r2.inputs = {md::in_pool(0, 16), md::in_pool(0, 16), md::in_pool(1, 4)};
    r2.outputs = {md::in_pool(2), md::in_pool(3)};
    expect(r2, two, ErrorStatus::INVALID_ARGUMENT, "outputs 0 and 1 both use");
    // Either output alone is fine.
    r2.pools.push_back(host_pool(out));
    r2.outputs = {md::in_pool(4, 16), md::in_pool(3)};
    CHECK(bound.bind(r2, two, registry).has_value());
    r2.outputs = {md::in_pool(2), md::in_pool(4, 16)};
    CHECK(bound.bind(r2, two, registry).has_value());
  }
  SUBCASE("input dimensions that contradict the buffer's current dimensions") {
    r.inputs = {md::in_pool(0, 0, {5})};
    expect(r, p, ErrorStatus::INVALID_ARGUMENT, "current dimensions");
    r.inputs = {md::in_pool(0, 0, {2, 2})};
    expect(r, p, ErrorStatus::INVALID_ARGUMENT, "current dimensions");
  }
  SUBCASE("output dimensions that contradict the buffer's dimensions") {
    r.pools = {host_pool(host), token_pool(out_only)};
    r.inputs = {md::in_pool(0, 16, {4})};
    r.outputs = {md::in_pool(1, 0, {3})};
    expect(r, p, ErrorStatus::INVALID_ARGUMENT, "request dimensions do not match");
    r.outputs = {md::in_pool(1, 0, {0})};  // unknown: fine
    CHECK(bound.bind(r, p, registry).has_value());
  }
  SUBCASE("a pool index out of range") {
    r.inputs = {md::in_pool(7, 0, {4})};
    expect(r, p, ErrorStatus::INVALID_ARGUMENT, "poolIndex 7");
  }
}

TEST_CASE("memory domain: an execution writes an output buffer, then copyTo reads it") {
  const float c = 1.5f;
  const nnhal::PreparedModel p = md::prepare_or_fail(md::add_constant_model(c, {5}, {5}));
  nnhal::BufferRegistry registry;
  auto buffer = md::allocate_or_fail(registry, {}, {&p}, {}, {{0, 0, 1.0f}});
  auto execution = p.create_execution();
  REQUIRE(execution.has_value());
  std::vector<float> x = {-2.0f, 0.0f, 0.25f, 3.0f, 100.0f};
  nnhal::Request request;
  request.pools = {{md::memory_of(x), 0}, {{}, buffer->token()}};
  request.inputs = {md::in_pool(0, 20)};
  request.outputs = {md::in_pool(1)};
  nnhal::BoundBuffers bound;
  const nnhal::Status s = md::run_bound(*execution, p, request, registry, bound);
  REQUIRE_MESSAGE(s.has_value(), md::message_of(s));
  CHECK(buffer->initialized());
  CHECK(buffer->dimensions() == std::vector<std::uint32_t>{5});
  std::vector<float> y(5);
  REQUIRE(buffer->copy_to(md::memory_of(y)).has_value());
  for (std::size_t i = 0; i < x.size(); ++i) CHECK(y[i] == x[i] + c);
  CHECK(bound.token_memory().empty());  // finish released the buffers

  // Arguments in a token pool must have offset 0 and length 0 (request validation).
  request.outputs = {md::in_pool(1, 20)};
  const nnhal::Status bad = md::run_bound(*execution, p, request, registry, bound);
  CHECK(md::status_of(bad) == ErrorStatus::INVALID_ARGUMENT);
  CHECK_FALSE(buffer->initialized());  // a failed execution leaves its output uninitialized
}

TEST_CASE("memory domain: copyFrom fills an input buffer that an execution reads") {
  const float c = -0.75f;
  const nnhal::PreparedModel p = md::prepare_or_fail(md::add_constant_model(c, {0}, {0}));
  nnhal::BufferRegistry registry;
  auto buffer = md::allocate_or_fail(registry, {{3}}, {&p}, {{0, 0, 1.0f}}, {});
  std::vector<float> x = {4.0f, -8.0f, 0.5f}, y(3, 0.0f);
  REQUIRE(buffer->copy_from(md::memory_of(x), {}).has_value());
  auto execution = p.create_execution();
  REQUIRE(execution.has_value());
  nnhal::Request request;
  request.pools = {{{}, buffer->token()}, {md::memory_of(y), 0}};
  request.inputs = {md::in_pool(0, 0, {3})};
  request.outputs = {md::in_pool(1, 12)};
  nnhal::BoundBuffers bound(2, 2);
  // Twice: the buffer stays initialized as an input, and the BoundBuffers is reused.
  for (int run = 0; run < 2; ++run) {
    std::fill(y.begin(), y.end(), 0.0f);
    const nnhal::Status s = md::run_bound(*execution, p, request, registry, bound);
    REQUIRE_MESSAGE(s.has_value(), md::message_of(s));
    for (std::size_t i = 0; i < x.size(); ++i) CHECK(y[i] == x[i] + c);
    CHECK(buffer->initialized());
  }
  // Once grown, bind and finish allocate nothing.
  nnhal::Status again;
  const std::size_t allocations = nnhal::test::allocations_during([&] {
    if (!bound.bind(request, p, registry)) return;
    again = bound.finish(nnhal::Status{}, execution->output_shapes());
  });
  CHECK(again.has_value());
  CHECK(allocations == 0);
}

TEST_CASE("memory domain: one execution's output buffer is the next one's input") {
  const float c1 = 2.0f, c2 = -0.5f;
  const nnhal::PreparedModel first = md::prepare_or_fail(md::add_constant_model(c1, {4}, {4}));
  const nnhal::PreparedModel second = md::prepare_or_fail(md::add_constant_model(c2, {4}, {0}));
  nnhal::BufferRegistry registry;
  auto middle = md::allocate_or_fail(registry, {}, {&first, &second}, {{1, 0, 1.0f}}, {{0, 0, 1.0f}});
  auto e1 = first.create_execution();
  auto e2 = second.create_execution();
  REQUIRE(e1.has_value());
  REQUIRE(e2.has_value());
  std::vector<float> x = {1.0f, 2.0f, 3.0f, 4.0f}, y(4);
  nnhal::Request r1, r2;
  r1.pools = {{md::memory_of(x), 0}, {{}, middle->token()}};
  r1.inputs = {md::in_pool(0, 16)};
  r1.outputs = {md::in_pool(1)};
  r2.pools = {{{}, middle->token()}, {md::memory_of(y), 0}};
  r2.inputs = {md::in_pool(0)};
  r2.outputs = {md::in_pool(1, 16)};
  nnhal::BoundBuffers bound;
  // Before the first execution the buffer may not be read.
  CHECK(md::status_of(md::run_bound(*e2, second, r2, registry, bound)) == ErrorStatus::GENERAL_FAILURE);
  for (int round = 0; round < 3; ++round) {
    CAPTURE(round);
    REQUIRE(md::run_bound(*e1, first, r1, registry, bound).has_value());
    REQUIRE(md::run_bound(*e2, second, r2, registry, bound).has_value());
    for (std::size_t i = 0; i < x.size(); ++i) CHECK(y[i] == (x[i] + c1) + c2);
    for (float& v : x) v *= 2.0f;
  }
  // The roles have directions: `second` may not write the buffer, `first` may not read it.
  r2.pools = {{md::memory_of(x), 0}, {{}, middle->token()}};
  r2.inputs = {md::in_pool(0, 16)};
  r2.outputs = {md::in_pool(1)};
  CHECK(md::status_of(md::run_bound(*e2, second, r2, registry, bound)) == ErrorStatus::INVALID_ARGUMENT);
  CHECK(middle->initialized());  // a rejected request did not run
}

TEST_CASE("memory domain: a failed execution leaves its output buffer uninitialized") {
  const nnhal::PreparedModel p = md::prepare_or_fail(md::add_constant_model(1.0f, {4}, {4}));
  nnhal::BufferRegistry registry;
  auto buffer = md::allocate_or_fail(registry, {}, {&p}, {}, {{0, 0, 1.0f}});
  std::vector<float> x = {1, 2, 3, 4};
  REQUIRE(buffer->copy_from(md::memory_of(x), {}).has_value());
  // Every clock reading advances 10 ns: the deadline has not passed when the execution starts,
  // and has when the first operation is about to run.
  auto execution = p.create_execution(nnhal::ManualClock(std::chrono::nanoseconds{10}));
  REQUIRE(execution.has_value());
  nnhal::Request request;
  request.pools = {{md::memory_of(x), 0}, {{}, buffer->token()}};
  request.inputs = {md::in_pool(0, 16)};
  request.outputs = {md::in_pool(1)};
  nnhal::ExecuteOptions<nnhal::ManualClock> options;
  options.deadline = nnhal::ManualClock::time_point{std::chrono::nanoseconds{5}};
  nnhal::BoundBuffers bound;
  const nnhal::Status s = md::run_bound(*execution, p, request, registry, bound, options);
  REQUIRE_FALSE(s.has_value());
  CHECK(s.error().status() == ErrorStatus::MISSED_DEADLINE_TRANSIENT);
  CHECK_FALSE(buffer->initialized());
  std::vector<float> y(4);
  CHECK(md::status_of(buffer->copy_to(md::memory_of(y))) == ErrorStatus::GENERAL_FAILURE);
}

TEST_CASE("memory domain: an output buffer whose dimensions do not fit the result is GENERAL_FAILURE") {
  // y = x + 1 with x of unknown length: the output shape follows the request's input.
  const nnhal::PreparedModel p = md::prepare_or_fail(md::add_constant_model(1.0f, {0}, {0}));
  nnhal::BufferRegistry registry;
  auto buffer = md::allocate_or_fail(registry, {{2}}, {&p}, {}, {{0, 0, 1.0f}});
  auto execution = p.create_execution();
  REQUIRE(execution.has_value());
  std::vector<float> x = {1, 2, 3, 4};
  nnhal::Request request;
  request.pools = {{md::memory_of(x), 0}, {{}, buffer->token()}};
  request.outputs = {md::in_pool(1)};
  nnhal::BoundBuffers bound;
  SUBCASE("too small: the executor's OUTPUT_INSUFFICIENT_SIZE becomes GENERAL_FAILURE") {
    request.inputs = {md::in_pool(0, 16, {4})};
    REQUIRE(bound.bind(request, p, registry).has_value());
    nnhal::ExecuteOptions<> options;
    options.token_memory = bound.token_memory();
    const nnhal::Status raw = execution->run(request, options);
    CHECK(md::status_of(raw) == ErrorStatus::OUTPUT_INSUFFICIENT_SIZE);
    const nnhal::Status s = bound.finish(raw, execution->output_shapes());
    CHECK(md::status_of(s) == ErrorStatus::GENERAL_FAILURE);
    CHECK(md::message_of(s).find("too small") != std::string::npos);
  }
  SUBCASE("a smaller result than the buffer holds") {
    request.inputs = {md::in_pool(0, 4, {1})};
    const nnhal::Status s = md::run_bound(*execution, p, request, registry, bound);
    CHECK(md::status_of(s) == ErrorStatus::GENERAL_FAILURE);
    CHECK(md::message_of(s).find("produced shape") != std::string::npos);
  }
  SUBCASE("the right size") {
    request.inputs = {md::in_pool(0, 8, {2})};
    REQUIRE(md::run_bound(*execution, p, request, registry, bound).has_value());
    CHECK(buffer->initialized());
    std::vector<float> y(2);
    REQUIRE(buffer->copy_to(md::memory_of(y)).has_value());
    CHECK(y == std::vector<float>{x[0] + 1.0f, x[1] + 1.0f});
    return;
  }
  CHECK_FALSE(buffer->initialized());
}

TEST_CASE("memory domain: concurrent executions share an input buffer while buffers come and go") {
  const float c = 0.5f;
  const nnhal::PreparedModel p = md::prepare_or_fail(md::add_constant_model(c, {8}, {8}));
  nnhal::BufferRegistry registry;
  auto shared_in = md::allocate_or_fail(registry, {}, {&p}, {{0, 0, 1.0f}}, {});
  std::vector<float> x(8);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) * 1.25f;
  REQUIRE(shared_in->copy_from(md::memory_of(x), {}).has_value());

  constexpr int kThreads = 3, kRuns = 40;
  std::vector<int> good(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      auto out = registry.allocate({}, std::vector<const nnhal::PreparedModel*>{&p}, {}, std::vector<BufferRole>{{0, 0, 1.0f}});
      auto execution = p.create_execution();
      if (!out || !execution) return;
      nnhal::Request request;
      request.pools = {{{}, shared_in->token()}, {{}, out->second}};
      request.inputs = {md::in_pool(0)};
      request.outputs = {md::in_pool(1)};
      nnhal::BoundBuffers bound;
      std::vector<float> y(8);
      for (int run = 0; run < kRuns; ++run) {
        if (!md::run_bound(*execution, p, request, registry, bound)) continue;
        if (!out->first->initialized() || !out->first->copy_to(md::memory_of(y))) continue;
        bool same = true;
        for (std::size_t i = 0; i < x.size(); ++i) same = same && y[i] == x[i] + c;
        good[static_cast<std::size_t>(t)] += same ? 1 : 0;
      }
    });
  // Meanwhile: allocations, lookups and releases on the same registry.
  std::set<std::uint32_t> seen;
  for (int i = 0; i < 200; ++i) {
    auto r = registry.allocate({}, std::vector<const nnhal::PreparedModel*>{&p}, std::vector<BufferRole>{{0, 0, 1.0f}}, {});
    REQUIRE(r.has_value());
    CHECK(registry.find(r->second) == r->first);
    CHECK(r->first->dimensions() == std::vector<std::uint32_t>{8});
    seen.insert(r->second);
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) CHECK(good[static_cast<std::size_t>(t)] == kRuns);
  CHECK(seen.size() == 200);  // the counter does not reuse a token soon after its release
  CHECK(seen.count(shared_in->token()) == 0);
  CHECK(registry.size() == 1);
}
