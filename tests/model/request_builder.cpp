// RequestBuilder (nnhal/model/request_builder.hpp): a Request from typed spans, bound by position
// or by builder handle; the request points at the caller's memory; unknown dimensions, omitted
// inputs, wrong handles and wrong element types; typed output views after a run; and reruns
// (also after binding new data) that allocate nothing. Kernels: ADD, MUL and SQUEEZE only.

#include <doctest/doctest.h>

#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "nnhal/builder/builder.hpp"
#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/kernels/add.hpp"
#include "nnhal/kernels/mul.hpp"
#include "nnhal/kernels/resolve.hpp"
#include "nnhal/kernels/squeeze.hpp"
#include "nnhal/model/request_builder.hpp"
#include "support/counting_allocator.hpp"
#include "support/no_allocation.hpp"

namespace nnhal::test::request_builder {

namespace {

using enum OperandType;
using Set = KernelSet<Use<OperationType::ADD, TENSOR_FLOAT32>, Use<OperationType::MUL, TENSOR_FLOAT32>,
                      Use<OperationType::SQUEEZE, TENSOR_FLOAT32>>;

/// y = a * x + c: a [2, 2], x [?, 2] (first dimension unknown), c a [2, 2] constant, y of
/// unknown shape; `prod` is the intermediate a * x.
struct Graph {
  Model model;
  OperandRef<TENSOR_FLOAT32> a, x, c, prod, y;
  std::vector<float> c_values{0.5f, -10.0f, 1.5f, 2.0f};
};

Graph make_graph() {
  Graph g;
  ModelBuilder b;
  g.a = b.input<TENSOR_FLOAT32>({{2, 2}});
  g.x = b.input<TENSOR_FLOAT32>({{0, 2}});
  g.c = b.constant<TENSOR_FLOAT32>(std::span<const float>(g.c_values), {{2, 2}});
  const auto none = b.scalar<INT32>(0);
  g.prod = b.operation<OperationType::MUL, TENSOR_FLOAT32>({{0, 0}}, g.a, g.x, none);
  g.y = b.operation<OperationType::ADD, TENSOR_FLOAT32>({}, g.prod, g.c, none);
  b.output(g.y);
  g.model = std::move(b).model();
  return g;
}

/// a * x + c, elementwise over 2 x 2 (the graph's arithmetic, computed here from the inputs).
std::vector<float> expected(const std::vector<float>& a, const std::vector<float>& x, const std::vector<float>& c) {
  std::vector<float> out(4);
  for (std::size_t i = 0; i < 4; ++i) out[i] = a[i] * x[i] + c[i];
  return out;
}

Execution<SteadyClock> make_execution(const Model& model) {
  auto prepared = PreparedModel::prepare<Set>(model);
  REQUIRE(prepared.has_value());
  auto e = prepared->create_execution();
  REQUIRE(e.has_value());
  return std::move(*e);
}

const std::uint32_t kDims22[] = {2, 2};

template <class T>
void check_error(const Expected<T>& s, const char* fragment) {
  REQUIRE_FALSE(s.has_value());
  CHECK(s.error().status() == ErrorStatus::INVALID_ARGUMENT);
  const std::string msg(s.error().message());
  CAPTURE(msg);
  CHECK(msg.find(fragment) != std::string::npos);
}

}  // namespace

TEST_CASE("bind by handle, run, read the output as a typed view of the caller's buffer") {
  const Graph g = make_graph();
  auto execution = make_execution(g.model);
  std::vector<float> a{1, 2, 3, 4}, x{2, 2, -1, 0.5f}, y(4, -99.0f);

  RequestBuilder rb(g.model);
  CHECK(rb.input_count() == 2);
  CHECK(rb.output_count() == 1);
  check_error(rb.ready(), "input 0");
  REQUIRE(rb.input(g.a, a).has_value());
  REQUIRE(rb.input(g.x, x, kDims22).has_value());
  check_error(rb.ready(), "output 0");
  REQUIRE(rb.output(g.y, y).has_value());
  REQUIRE(rb.ready().has_value());

  // The request points at the spans: one pool per argument, nothing copied.
  const Request& r = rb.request();
  REQUIRE(r.pools.size() == 3);
  CHECK(r.pools[r.inputs[0].location.poolIndex].memory.data == reinterpret_cast<std::byte*>(a.data()));
  CHECK(r.pools[r.inputs[1].location.poolIndex].memory.data == reinterpret_cast<std::byte*>(x.data()));
  CHECK(r.pools[r.outputs[0].location.poolIndex].memory.data == reinterpret_cast<std::byte*>(y.data()));
  CHECK(r.inputs[0].location.length == 16);
  CHECK(r.inputs[0].dimensions.empty());  // known in the model
  CHECK(r.inputs[1].dimensions == std::vector<std::uint32_t>{2, 2});
  CHECK_FALSE(r.inputs[0].hasNoValue);

  REQUIRE(execution.run(rb.request()).has_value());
  auto view = rb.output_view(g.y, execution.output_shapes());
  REQUIRE(view.has_value());
  static_assert(std::is_same_v<decltype(*view), TensorView<TENSOR_FLOAT32>&>);
  CHECK(view->data() == y.data());
  CHECK(view->dims() == Dims{2, 2});
  const std::vector<float> want = expected(a, x, g.c_values);
  CHECK(std::vector<float>(view->begin(), view->end()) == want);
}

TEST_CASE("bind by position gives the same request and result") {
  const Graph g = make_graph();
  auto execution = make_execution(g.model);
  std::vector<float> a{0.5f, -2, 3, 1}, x{4, 1, 1, -3}, y(4);
  RequestBuilder rb(g.model);
  REQUIRE(rb.input(0, std::span<const float>(a)).has_value());
  REQUIRE(rb.input(1, std::span<float>(x), kDims22).has_value());
  REQUIRE(rb.output(0, std::span<float>(y)).has_value());
  REQUIRE(execution.run(rb.request()).has_value());
  auto view = rb.output_view<TENSOR_FLOAT32>(0, execution.output_shapes());
  REQUIRE(view.has_value());
  CHECK(std::vector<float>(view->begin(), view->end()) == expected(a, x, g.c_values));
  // The positional view checks the operand type at run time.
  check_error(rb.output_view<TENSOR_INT32>(0, execution.output_shapes()), "is TENSOR_FLOAT32, not TENSOR_INT32");
  check_error(rb.output_view<TENSOR_FLOAT32>(1, execution.output_shapes()), "output 1 does not exist");
}

TEST_CASE("wrong handles, positions, element types and shapes are errors, not crashes") {
  const Graph g = make_graph();
  std::vector<float> four(4), three(3);
  std::vector<std::int32_t> ints(4);
  RequestBuilder rb(g.model);
  check_error(rb.input(g.c, four), "is not a model input");     // a constant
  check_error(rb.input(g.prod, four), "is not a model input");  // a temporary
  check_error(rb.input(g.y, four), "is not a model input");     // an output
  check_error(rb.output(g.a, four), "is not a model output");
  check_error(rb.omit_input(g.y), "is not a model input");
  check_error(rb.input(2, std::span<const float>(four)), "input 2 does not exist");
  check_error(rb.output(1, std::span<float>(four)), "output 1 does not exist");
  check_error(rb.input(0, std::span<const std::int32_t>(ints)), "is TENSOR_FLOAT32");
  check_error(rb.input(g.a, three), "holds 3 elements, the shape has 4");
  check_error(rb.input(g.x, four), "unknown dimensions");  // x is [?, 2]: dims needed
  const std::uint32_t rank3[] = {1, 2, 2};
  check_error(rb.input(g.x, four, rank3), "rank 3 given, the model declares 2");
  const std::uint32_t wrong[] = {2, 3};
  check_error(rb.input(g.x, std::span<const float>(std::vector<float>(6)), wrong), "dimension 1 is 3");
  check_error(rb.output_view(g.y, {}), "is not bound");
  check_error(rb.ready(), "not bound");
}

TEST_CASE("an output buffer too small: the run says so and the view refuses") {
  const Graph g = make_graph();
  auto execution = make_execution(g.model);
  std::vector<float> a{1, 2, 3, 4}, x{1, 1, 1, 1}, y(2);
  RequestBuilder rb(g.model);
  REQUIRE(rb.input(g.a, a).has_value());
  REQUIRE(rb.input(g.x, x, kDims22).has_value());
  REQUIRE(rb.output(g.y, y).has_value());  // y's shape is unknown: the span is a capacity
  auto s = execution.run(rb.request());
  REQUIRE_FALSE(s.has_value());
  CHECK(s.error().status() == ErrorStatus::OUTPUT_INSUFFICIENT_SIZE);
  check_error(rb.output_view(g.y, execution.output_shapes()), "needs 4 elements, its buffer holds 2");
}

TEST_CASE("an omitted optional input: SQUEEZE without axes squeezes every 1") {
  ModelBuilder b;
  const auto in = b.input<TENSOR_FLOAT32>({{1, 3, 1, 2}});
  const auto axes = b.input<TENSOR_INT32>({{1}});
  const auto out = b.operation<OperationType::SQUEEZE, TENSOR_FLOAT32>({}, in, axes);
  b.output(out);
  const Model model = std::move(b).model();
  auto execution = make_execution(model);

  std::vector<float> data{1, 2, 3, 4, 5, 6}, result(6);
  RequestBuilder rb(model);
  REQUIRE(rb.input(in, data).has_value());
  REQUIRE(rb.omit_input(axes).has_value());
  REQUIRE(rb.output(out, result).has_value());
  REQUIRE(rb.ready().has_value());
  CHECK(rb.request().inputs[1].hasNoValue);
  CHECK(rb.request().inputs[1].location.length == 0);
  REQUIRE(execution.run(rb.request()).has_value());
  auto view = rb.output_view(out, execution.output_shapes());
  REQUIRE(view.has_value());
  CHECK(view->dims() == Dims{3, 2});
  CHECK(std::vector<float>(view->begin(), view->end()) == data);

  // Binding the input again after omitting it clears hasNoValue.
  std::vector<std::int32_t> axis{0};
  REQUIRE(rb.input(axes, axis).has_value());
  CHECK_FALSE(rb.request().inputs[1].hasNoValue);
  REQUIRE(execution.run(rb.request()).has_value());
  view = rb.output_view(out, execution.output_shapes());
  REQUIRE(view.has_value());
  CHECK(view->dims() == Dims{3, 1, 2});
}

TEST_CASE("reusing the request, and binding new data in the same places, allocates nothing") {
  const Graph g = make_graph();
  auto execution = make_execution(g.model);
  std::vector<float> a{1, 2, 3, 4}, x{2, 2, -1, 0.5f}, y(4), a2{-1, 0, 1, 2}, x2{3, 3, 3, 3};
  RequestBuilder rb(g.model);
  REQUIRE(rb.input(g.a, a).has_value());
  REQUIRE(rb.input(g.x, x, kDims22).has_value());
  REQUIRE(rb.output(g.y, y).has_value());
  REQUIRE(execution.run(rb.request()).has_value());
  check_reruns_allocate_nothing(execution, rb.request());

  bool ok = false;
  CHECK(allocations_during([&] {
          ok = rb.input(g.a, a2).has_value() && rb.input(g.x, x2, kDims22).has_value() &&
               execution.run(rb.request()).has_value() &&
               rb.output_view(g.y, execution.output_shapes()).has_value();
        }) == 0);
  REQUIRE(ok);
  auto view = rb.output_view(g.y, execution.output_shapes());
  REQUIRE(view.has_value());
  CHECK(std::vector<float>(view->begin(), view->end()) == expected(a2, x2, g.c_values));
}

}  // namespace nnhal::test::request_builder
