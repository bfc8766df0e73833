// The limits an execution applies (nnhal/core/limits.hpp, docs/security.md): a WHILE loop that
// doubles a tensor every iteration ends at Limits::max_dynamic_bytes (RESOURCE_EXHAUSTED), at
// Limits::max_tensor_bytes, or at the loop timeout on a fake clock, never holding more memory
// than the limit; and the request limits the prepared model was given rule its executions.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "control/control_flow_models.hpp"
#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/kernels/add.hpp"
#include "nnhal/kernels/concatenation.hpp"
#include "nnhal/kernels/if.hpp"
#include "nnhal/kernels/less.hpp"
#include "nnhal/kernels/resolve.hpp"
#include "nnhal/kernels/while.hpp"
#include "support/counting_allocator.hpp"
#include "validate/model_fixtures.hpp"

namespace nnhal::test::exec_limits {

namespace cf = nnhal::test::cf;
constexpr auto kF32 = OperandType::TENSOR_FLOAT32;

using Kernels = KernelSet<Use<OperationType::WHILE>, Use<OperationType::IF>, Use<OperationType::LESS, cf::kI32>,
                          Use<OperationType::ADD, cf::kI32, kF32>, Use<OperationType::CONCATENATION, kF32>>;

/// main(i0, v0, n) = WHILE (i < n) { i = i + 1; v = concat(v, v) }: v (of unknown size) doubles
/// every iteration. Unknown sizes across a WHILE are a runtime-only feature, so preparing it
/// needs ValidationOptions::allow_runtime_only.
inline Model doubling_loop() {
  const OperandSpec growing{{0}};
  ModelBuilder b;
  auto cond_b = b.add_subgraph<struct Cond, cf::kI32, kF32, cf::kI32>(cf::one_element(), growing, cf::one_element());
  const auto cond = [&] {
    const auto [i, v, n] = cond_b.inputs();
    (void)v;
    return cond_b.returns(cond_b.operation<OperationType::LESS, cf::kBool>(cf::one_element(), i, n));
  }();
  auto body_b = b.add_subgraph<struct Body, cf::kI32, kF32, cf::kI32>(cf::one_element(), growing, cf::one_element());
  const auto body = [&] {
    const auto [i, v, n] = body_b.inputs();
    (void)n;
    const std::int32_t one[1] = {1};
    const auto next = body_b.operation<OperationType::ADD, cf::kI32>(
        cf::one_element(), i, body_b.constant<cf::kI32>(one, cf::one_element()), body_b.scalar<OperandType::INT32>(0));
    const auto twice =
        body_b.operation<OperationType::CONCATENATION, kF32>(growing, v, v, body_b.scalar<OperandType::INT32>(0));
    return body_b.returns(next, twice);
  }();
  const auto i0 = b.input<cf::kI32>(cf::one_element());
  const auto v0 = b.input<kF32>({{1}});
  const auto n = b.input<cf::kI32>(cf::one_element());
  const auto [i_out, v_out] = b.while_(cond, body, i0, v0, n);
  b.output(i_out, v_out);
  return std::move(b).model();
}

/// The request's memory: inputs i0 = 0, v0 = 1.0f, n; outputs i and v (v's buffer `v_bytes`).
/// Each argument in its own pool.
struct Run {
  std::int32_t i0 = 0, n = 0, i_out = -1;
  float v0 = 1.0f;
  std::vector<std::byte> v_out;
  Request request;

  Run(std::int32_t iterations, std::size_t v_bytes) : n(iterations), v_out(v_bytes) {
    auto pool = [&](void* p, std::size_t size) {
      request.pools.push_back({Memory{static_cast<std::byte*>(p), size}, 0});
      return RequestArgument{false, {static_cast<std::uint32_t>(request.pools.size() - 1), 0, 0}, {}};
    };
    request.inputs = {pool(&i0, 4), pool(&v0, 4), pool(&n, 4)};
    request.outputs = {pool(&i_out, 4), pool(v_out.data(), v_out.size())};
  }
};

inline PreparedModel prepare(const Limits& limits) {
  PrepareOptions o;
  o.validation.allow_runtime_only = true;
  o.validation.limits = limits;
  auto p = PreparedModel::prepare<Kernels>(doubling_loop(), o);
  REQUIRE_MESSAGE(p.has_value(), std::string(p ? "" : p.error().c_str()));
  return std::move(*p);
}

inline std::string message_of(const Status& s) { return s ? std::string() : std::string(s.error().message()); }

/// Runs `iterations` of the loop on a clock that never moves; the status and the dynamic bytes.
inline std::pair<Status, std::uint64_t> run(const Limits& limits, std::int32_t iterations, std::size_t v_bytes) {
  const PreparedModel prepared = prepare(limits);
  auto execution = prepared.create_execution(ManualClock{});
  REQUIRE(execution.has_value());
  Run r(iterations, v_bytes);
  Status s = execution->run(r.request, {});
  return {std::move(s), execution->dynamic_bytes()};
}

TEST_CASE("limits: a WHILE that doubles a tensor every iteration ends at max_dynamic_bytes, holding at most that") {
  Limits limits;
  limits.max_dynamic_bytes = std::uint64_t{1} << 20;
  const PreparedModel prepared = prepare(limits);
  auto execution = prepared.create_execution(ManualClock{});
  REQUIRE(execution.has_value());
  Run r(1'000'000'000, 64);  // would end past 2^30 elements: only a limit stops it
  Status s;
  start_counting_allocations();
  s = execution->run(r.request, {});
  const std::size_t allocations = stop_counting_allocations();
  const std::size_t peak = peak_counted_bytes();
  INFO(message_of(s));
  REQUIRE_FALSE(s.has_value());
  CHECK(s.error().status() == ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT);
  CHECK(message_of(s).find("Limits::max_dynamic_bytes (1048576)") != std::string::npos);
  CHECK(execution->dynamic_bytes() <= limits.max_dynamic_bytes);
  // Memory held at once: the dynamic buffers (at most the limit) plus the allocator's rounding.
  CHECK(peak <= limits.max_dynamic_bytes + 4096 * allocations);
  CHECK(peak >= limits.max_dynamic_bytes / 4);  // the measurement sees the loop's buffers (glibc)
  CHECK(r.v_out == std::vector<std::byte>(64));  // caller memory untouched on failure
}

TEST_CASE("limits: a driver moves max_dynamic_bytes; the boundary is exactly the bytes an execution grows") {
  // 10 iterations: v ends with 1024 floats. How much the loop grows, measured without a limit
  // that matters, is the smallest limit that lets it finish.
  Limits roomy;
  const auto roomy_run = run(roomy, 10, 4096);
  const std::uint64_t used = roomy_run.second;
  REQUIRE_MESSAGE(roomy_run.first.has_value(), message_of(roomy_run.first));
  REQUIRE(used >= 4096);
  Limits exact;
  exact.max_dynamic_bytes = used;
  CHECK(run(exact, 10, 4096).first.has_value());
  Limits below;
  below.max_dynamic_bytes = used - 1;
  const auto refused = run(below, 10, 4096);
  REQUIRE_FALSE(refused.first.has_value());
  CHECK(refused.first.error().status() == ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT);
  CHECK(refused.second < used);
  // Fewer iterations need less: the lower limit then suffices.
  CHECK(run(below, 9, 4096).first.has_value());
}

TEST_CASE("limits: the same loop ends at max_tensor_bytes when one tensor outgrows it") {
  Limits limits;
  limits.max_tensor_bytes = 64 << 10;
  const PreparedModel prepared = prepare(limits);
  auto execution = prepared.create_execution(ManualClock{});
  REQUIRE(execution.has_value());
  Run r(1'000'000'000, 64);
  start_counting_allocations();
  const Status s = execution->run(r.request, {});
  stop_counting_allocations();
  INFO(message_of(s));
  REQUIRE_FALSE(s.has_value());
  CHECK(s.error().status() == ErrorStatus::GENERAL_FAILURE);
  CHECK(message_of(s).find("131072 bytes) is above Limits::max_tensor_bytes (65536)") != std::string::npos);
  CHECK(peak_counted_bytes() <= std::size_t{1} << 20);
  // Raised, the same request reaches 64 KiB tensors and fails later, at a larger tensor.
  limits.max_tensor_bytes = 256 << 10;
  const auto later = run(limits, 1'000'000'000, 64);
  CHECK(message_of(later.first).find("524288 bytes) is above Limits::max_tensor_bytes (262144)") != std::string::npos);
  CHECK(later.second > execution->dynamic_bytes());
}

TEST_CASE("limits: the same loop on a fake clock ends at the loop timeout") {
  // Every clock reading advances 100 ms: the default 2 s loop timeout passes after about 20
  // iterations (v then holds 2^20 floats, well below the default dynamic limit).
  const PreparedModel prepared = prepare(Limits{});
  for (const auto timeout : {std::chrono::nanoseconds{std::chrono::seconds(2)}, std::chrono::nanoseconds{std::chrono::milliseconds(500)}}) {
    auto execution = prepared.create_execution(ManualClock{std::chrono::milliseconds(100)});
    REQUIRE(execution.has_value());
    Run r(1'000'000'000, 64);
    ExecuteOptions<ManualClock> options;
    options.loop_timeout = timeout;
    const Status s = execution->run(r.request, options);
    REQUIRE_FALSE(s.has_value());
    CHECK(s.error().status() == ErrorStatus::MISSED_DEADLINE_TRANSIENT);
    // The shorter timeout stops the loop earlier, with less memory grown.
    CAPTURE(execution->dynamic_bytes());
    if (timeout == std::chrono::seconds(2)) CHECK(execution->dynamic_bytes() >= (std::uint64_t{1} << 20));
    else CHECK(execution->dynamic_bytes() < (std::uint64_t{1} << 20));
  }
}

TEST_CASE("limits: an execution applies the request limits its prepared model was given") {
  // The request has 5 pools (one per argument).
  Limits limits;
  limits.max_request_pools = 5;
  CHECK(run(limits, 3, 64).first.has_value());
  limits.max_request_pools = 4;
  const Status s = run(limits, 3, 64).first;
  REQUIRE_FALSE(s.has_value());
  CHECK(s.error().status() == ErrorStatus::INVALID_ARGUMENT);
  CHECK(message_of(s).find("5 memory pools, above Limits::max_request_pools (4)") != std::string::npos);
  // 100,000 pools with the default limit: refused before the pools are looked at.
  const PreparedModel prepared = prepare(Limits{});
  auto execution = prepared.create_execution(ManualClock{});
  REQUIRE(execution.has_value());
  Run r(3, 64);
  r.request.pools.resize(100000, r.request.pools[0]);
  const Status many = execution->run(r.request, {});
  REQUIRE_FALSE(many.has_value());
  CHECK(many.error().status() == ErrorStatus::INVALID_ARGUMENT);
  CHECK(message_of(many).find("100000 memory pools") != std::string::npos);
}

TEST_CASE("limits: thousands of nested subgraphs are refused at prepare by max_control_flow_depth") {
  namespace mf = nnhal::test::malformed;
  auto prepare_chain = [](std::uint32_t depth, const Limits& limits) {
    PrepareOptions o;
    o.validation.limits = limits;
    return PreparedModel::prepare<Kernels>(mf::if_chain_model(depth).model, o);
  };
  // A chain of 3000 IFs, each referring to the next: valid HAL, refused in time linear in it.
  mf::check_invalid(prepare_chain(3000, Limits{}), {"nested 3000 deep", "Limits::max_control_flow_depth (256)"});
  // The default is NNHAL_MAX_CONTROL_FLOW_DEPTH: that deep prepares, one more does not.
  const auto at_limit = prepare_chain(NNHAL_MAX_CONTROL_FLOW_DEPTH, Limits{});
  CHECK_MESSAGE(at_limit.has_value(), message_of(at_limit ? Status{} : Status{at_limit.error()}));
  mf::check_invalid(prepare_chain(NNHAL_MAX_CONTROL_FLOW_DEPTH + 1, Limits{}), {"nested 257 deep"});
  // A driver lowers it...
  Limits l;
  l.max_control_flow_depth = 10;
  CHECK(prepare_chain(10, l).has_value());
  mf::check_invalid(prepare_chain(11, l), {"nested 11 deep", "Limits::max_control_flow_depth (10)"});
  // ... but cannot raise it past the macro, which bounds the executor's recursion.
  l.max_control_flow_depth = 100000;
  mf::check_invalid(prepare_chain(NNHAL_MAX_CONTROL_FLOW_DEPTH + 1, l), {"Limits::max_control_flow_depth (256)"});
}

}  // namespace nnhal::test::exec_limits
