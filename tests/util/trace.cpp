// Trace spans (nnhal/util/trace.hpp) from preparation, executions, nodes and WHILE iterations,
// through ExecuteOptions / PrepareOptions / DeviceOptions; and the ready sinks of
// nnhal/util/chrome_trace.hpp (trace-event JSON, the per-operation profile, the tee).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "control/control_flow_models.hpp"
#include "nnhal/device/device.hpp"
#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/util/chrome_trace.hpp"
#include "nnhal/util/trace.hpp"
#include "validate/model_fixtures.hpp"

using namespace nnhal;
namespace cf = nnhal::test::cf;
using namespace std::chrono_literals;

namespace {

/// Keeps every span; its clock ticks by one per reading, so spans are ordered and non-empty.
struct Recorder final : TraceSink {
  std::int64_t ticks = 0;
  std::vector<Span> spans;
  std::int64_t now_ns() noexcept override { return ++ticks; }
  void span(const Span& s) noexcept override { spans.push_back(s); }

  std::vector<Span> of(SpanKind kind) const {
    std::vector<Span> r;
    for (const Span& s : spans)
      if (s.kind == kind) r.push_back(s);
    return r;
  }
  std::size_t nodes_named(std::string_view name) const {
    return static_cast<std::size_t>(std::count_if(spans.begin(), spans.end(), [&](const Span& s) {
      return s.kind == SpanKind::Node && s.name == name;
    }));
  }
};

bool inside(const Span& inner, const Span& outer) {
  return outer.begin_ns < inner.begin_ns && inner.end_ns < outer.end_ns;
}

/// Runs a model of TENSOR_INT32 [1] inputs and one such output.
struct Scalars {
  std::vector<std::int32_t> io;
  Request request;
  explicit Scalars(std::vector<std::int32_t> inputs) : io(std::move(inputs)) {
    const auto n = static_cast<std::uint32_t>(io.size());
    io.push_back(-1);
    request.pools.push_back({{reinterpret_cast<std::byte*>(io.data()), io.size() * 4}, 0});
    for (std::uint32_t k = 0; k < n; ++k) request.inputs.push_back({false, {0, 4 * k, 4}, {}});
    request.outputs.push_back({false, {0, 4 * n, 4}, {}});
  }
  std::int32_t result() const { return io.back(); }
};

}  // namespace

TEST_CASE("trace: a WHILE run gives execution, node and iteration spans, nested") {
  Recorder rec;
  PrepareOptions popt;
  popt.trace = &rec;
  auto prepared = PreparedModel::prepare(cf::while_counter_model(), popt);
  REQUIRE(prepared.has_value());
  REQUIRE(rec.spans.size() == 1);
  CHECK(rec.spans[0].kind == SpanKind::Prepare);
  CHECK(rec.spans[0].status == ErrorStatus::NONE);
  rec.spans.clear();

  auto execution = prepared->create_execution();
  REQUIRE(execution.has_value());
  Scalars s({0, 5});
  ExecuteOptions<> opt;
  opt.trace = &rec;
  REQUIRE(execution->run(s.request, opt).has_value());
  CHECK(s.result() == 5);

  // 6 conditions (i = 0..5), 5 bodies, one WHILE, one execution.
  CHECK(rec.nodes_named("LESS") == 6);
  CHECK(rec.nodes_named("ADD") == 5);
  CHECK(rec.nodes_named("WHILE") == 1);
  const auto executions = rec.of(SpanKind::Execution);
  const auto iterations = rec.of(SpanKind::Iteration);
  REQUIRE(executions.size() == 1);
  REQUIRE(iterations.size() == 6);
  CHECK(rec.spans.back().kind == SpanKind::Execution);
  for (std::size_t k = 0; k < iterations.size(); ++k) {
    CHECK(iterations[k].iteration == k);
    CHECK(iterations[k].operation == OperationType::WHILE);
    CHECK(iterations[k].subgraph == 0);
  }
  const Span* loop = nullptr;
  for (const Span& sp : rec.spans)
    if (sp.kind == SpanKind::Node && sp.operation == OperationType::WHILE) loop = &sp;
  REQUIRE(loop != nullptr);
  CHECK(loop->subgraph == 0);
  CHECK(inside(*loop, executions[0]));
  for (const Span& it : iterations) CHECK(inside(it, *loop));
  // Every LESS / ADD node lies in exactly one iteration, in the loop's condition or body.
  for (const Span& sp : rec.spans) {
    if (sp.kind != SpanKind::Node || sp.operation == OperationType::WHILE) continue;
    CHECK(sp.subgraph != 0);
    CHECK(sp.status == ErrorStatus::NONE);
    CHECK(std::count_if(iterations.begin(), iterations.end(), [&](const Span& it) { return inside(sp, it); }) == 1);
  }
  // The last iteration only evaluates the condition.
  const Span& last = iterations.back();
  CHECK(std::count_if(rec.spans.begin(), rec.spans.end(), [&](const Span& sp) {
          return sp.kind == SpanKind::Node && inside(sp, last);
        }) == 1);

  SUBCASE("without a sink, no span and the same result") {
    rec.spans.clear();
    Scalars again({0, 1000});
    REQUIRE(execution->run(again.request).has_value());
    CHECK(again.result() == 1000);
    CHECK(rec.spans.empty());
  }
  SUBCASE("a long loop is traced through every iteration (no direct-call shortcut)") {
    rec.spans.clear();
    Scalars many({0, 300});
    REQUIRE(execution->run(many.request, opt).has_value());
    CHECK(many.result() == 300);
    CHECK(rec.of(SpanKind::Iteration).size() == 301);
    CHECK(rec.nodes_named("ADD") == 300);
  }
}

TEST_CASE("trace: a loop that times out ends its WHILE and execution spans with the error") {
  Recorder rec;
  auto prepared = PreparedModel::prepare(cf::while_counter_model());
  REQUIRE(prepared.has_value());
  auto execution = prepared->create_execution<ManualClock>(ManualClock(1ms));
  REQUIRE(execution.has_value());
  Scalars s({0, 1'000'000'000});
  ExecuteOptions<ManualClock> opt;
  opt.trace = &rec;
  opt.loop_timeout = 10ms;
  const Status st = execution->run(s.request, opt);
  REQUIRE_FALSE(st.has_value());
  CHECK(st.error().status() == ErrorStatus::MISSED_DEADLINE_TRANSIENT);
  REQUIRE_FALSE(rec.spans.empty());
  CHECK(rec.spans.back().kind == SpanKind::Execution);
  CHECK(rec.spans.back().status == ErrorStatus::MISSED_DEADLINE_TRANSIENT);
  std::size_t failed_while = 0;
  for (const Span& sp : rec.spans)
    if (sp.kind == SpanKind::Node && sp.operation == OperationType::WHILE &&
        sp.status == ErrorStatus::MISSED_DEADLINE_TRANSIENT)
      ++failed_while;
  CHECK(failed_while == 1);
}

TEST_CASE("trace: IF spans contain the branch's node") {
  Recorder rec;
  auto prepared = PreparedModel::prepare(cf::if_model());
  REQUIRE(prepared.has_value());
  auto execution = prepared->create_execution();
  REQUIRE(execution.has_value());
  ExecuteOptions<> opt;
  opt.trace = &rec;
  Scalars taken({1, 41});
  REQUIRE(execution->run(taken.request, opt).has_value());
  CHECK(taken.result() == 42);
  CHECK(rec.nodes_named("ADD") == 1);
  CHECK(rec.nodes_named("SUB") == 0);
  Scalars other({0, 41});
  REQUIRE(execution->run(other.request, opt).has_value());
  CHECK(other.result() == 40);
  CHECK(rec.nodes_named("SUB") == 1);
  CHECK(rec.nodes_named("IF") == 2);
  for (const Span& sp : rec.spans)
    if (sp.kind == SpanKind::Node && sp.name != "IF") {
      CHECK(sp.subgraph != 0);
      const bool in_if = std::any_of(rec.spans.begin(), rec.spans.end(),
                                     [&](const Span& o) { return o.name == "IF" && inside(sp, o); });
      CHECK(in_if);
    }
}

TEST_CASE("trace: a failed preparation ends its span with the error") {
  Recorder rec;
  PrepareOptions popt;
  popt.trace = &rec;
  Model bad = cf::while_counter_model();
  bad.main.outputIndexes.push_back(9999);
  auto prepared = PreparedModel::prepare(bad, popt);
  REQUIRE_FALSE(prepared.has_value());
  REQUIRE(rec.spans.size() == 1);
  CHECK(rec.spans[0].kind == SpanKind::Prepare);
  CHECK(rec.spans[0].status == ErrorStatus::INVALID_ARGUMENT);
}

TEST_CASE("trace: a device hands its preparations and executions to DeviceOptions::trace") {
  Recorder rec;
  DeviceOptions<> o;
  o.trace = &rec;
  Device<> device(o);
  auto fixture = nnhal::test::malformed::add_model();
  auto pm = device.prepare(fixture.model);
  REQUIRE(pm.has_value());
  CHECK(rec.of(SpanKind::Prepare).size() == 1);
  auto r = nnhal::test::malformed::add_request();
  REQUIRE((*pm)->execute(r.request, {}).status.has_value());
  CHECK(rec.of(SpanKind::Execution).size() == 1);
  CHECK(rec.nodes_named("ADD") == 1);
}

TEST_CASE("chrome trace: one complete event per span, closed once") {
  std::string text;
  auto sink = [&text](std::string_view s) { text += s; };
  {
    ChromeTrace trace(sink);
    auto prepared = PreparedModel::prepare(cf::while_counter_model());
    REQUIRE(prepared.has_value());
    auto execution = prepared->create_execution();
    REQUIRE(execution.has_value());
    Scalars s({0, 3});
    ExecuteOptions<> opt;
    opt.trace = &trace;
    REQUIRE(execution->run(s.request, opt).has_value());
    // 4 LESS + 3 ADD + WHILE nodes, 4 iterations, 1 execution.
    CHECK(trace.events() == 13);
    trace.finish();
    trace.finish();
    Span late;
    late.name = "late";
    trace.span(late);  // after finish(): dropped
    CHECK(trace.events() == 13);
  }
  CHECK(text.rfind("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", 0) == 0);
  CHECK(text.size() > 4);
  CHECK(text.substr(text.size() - 4) == "\n]}\n");
  std::size_t complete = 0;
  for (std::size_t at = text.find("\"ph\":\"X\""); at != std::string::npos; at = text.find("\"ph\":\"X\"", at + 1))
    ++complete;
  CHECK(complete == 13);
  CHECK(text.find("\"name\":\"WHILE iteration\",\"cat\":\"iteration\"") != std::string::npos);
  CHECK(text.find("\"name\":\"ADD\",\"cat\":\"node\"") != std::string::npos);
  CHECK(text.find("\"name\":\"execution\",\"cat\":\"execution\"") != std::string::npos);
  CHECK(text.find("late") == std::string::npos);
}

TEST_CASE("operation profile: counts and times per operation, largest first; the tee feeds both") {
  OperationProfile profile;
  Recorder rec;
  TraceTee tee(rec, profile);
  auto node = [](OperationType op, std::int64_t begin, std::int64_t end) {
    Span s;
    s.kind = SpanKind::Node;
    s.operation = op;
    s.name = to_string(op);
    s.begin_ns = begin;
    s.end_ns = end;
    return s;
  };
  tee.span(node(OperationType::ADD, 0, 100));
  tee.span(node(OperationType::ADD, 200, 300));
  tee.span(node(OperationType::CONV_2D, 0, 5000));
  tee.span(node(OperationType::RELU, 0, 10));
  Span it = node(OperationType::WHILE, 0, 1'000'000);
  it.kind = SpanKind::Iteration;  // not a node: not counted
  tee.span(it);
  CHECK(rec.spans.size() == 5);

  std::array<OperationProfile::Row, kOperationTypeCount> rows{};
  REQUIRE(profile.rows(rows) == 3);
  CHECK(rows[0].operation == OperationType::CONV_2D);
  CHECK(rows[0].count == 1);
  CHECK(rows[0].total_ns == 5000);
  CHECK(rows[1].operation == OperationType::ADD);
  CHECK(rows[1].count == 2);
  CHECK(rows[1].total_ns == 200);
  CHECK(rows[2].operation == OperationType::RELU);

  std::string table;
  profile.write([&table](std::string_view s) { table += s; });
  const auto conv = table.find("CONV_2D"), add = table.find("ADD"), relu = table.find("RELU");
  REQUIRE(conv != std::string::npos);
  REQUIRE(add != std::string::npos);
  REQUIRE(relu != std::string::npos);
  CHECK(conv < add);
  CHECK(add < relu);
  CHECK(table.find("WHILE") == std::string::npos);
}
