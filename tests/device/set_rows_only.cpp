// A Device whose kernel set says SetRowsOnly (include/nnhal/device/device.hpp): it validates
// models, requests and caches against the rows of its set's operations only. It prepares and
// runs what the set holds (synchronous executions, bursts, driver-managed buffers, caches);
// prepare refuses an operation outside the set with GENERAL_FAILURE, as PreparedModel::prepare
// does, while the supported-operations query reports it unsupported; its cache fingerprint is
// its rows', so caches of programs validating with other rows are foreign, and the fingerprint
// of every row is the one the default set has always used.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "nnhal/device/device.hpp"
#include "nnhal/kernels/add.hpp"
#include "nnhal/kernels/less.hpp"
#include "nnhal/kernels/resolve.hpp"
#include "nnhal/kernels/while.hpp"
#include "validate/model_fixtures.hpp"

// This file's own scope: test files are compiled in groups (NNHAL_UNITY_TESTS).
namespace test_device_set_rows_only {

using namespace nnhal;
namespace fx = nnhal::test::malformed;

constexpr auto F32 = OperandType::TENSOR_FLOAT32;
/// The firmware's set: ADD and LESS on float32, WHILE, and only their rows.
using Rows = KernelSet<Use<OperationType::ADD, F32>, Use<OperationType::LESS, F32>, Use<OperationType::WHILE>,
                       SetRowsOnly>;
/// The same kernels validated with every row (the behaviour of a set without SetRowsOnly).
using AllRows = KernelSet<Use<OperationType::ADD, F32>, Use<OperationType::LESS, F32>, Use<OperationType::WHILE>>;
/// Other rows: ADD's only.
using AddRows = KernelSet<Use<OperationType::ADD, F32>, SetRowsOnly>;

namespace {

std::string message_of(const Status& s) { return s ? std::string() : std::string(s.error().c_str()); }
template <class T>
std::string message_of(const Expected<T>& e) {
  return e ? std::string() : std::string(e.error().c_str());
}

std::vector<float> floats_at(const fx::RequestFixture& r, std::uint32_t pool, std::uint32_t offset, std::size_t n) {
  std::vector<float> out(n);
  std::memcpy(out.data(), r.pool_data(pool) + offset, n * sizeof(float));
  return out;
}

/// add_request()'s inputs summed in plain C++.
std::vector<float> add_expected(const fx::RequestFixture& r) {
  const std::vector<float> a = floats_at(r, 0, 0, 2), b = floats_at(r, 0, 8, 2);
  return {a[0] + b[0], a[1] + b[1]};
}

/// For while_model(): x at [0, 4), limit at [4, 8), y at [8, 12) of one pool.
fx::RequestFixture while_request(float x, float limit) {
  fx::RequestFixture r;
  const std::uint32_t p = r.add_pool(12);
  std::memcpy(r.pool_data(p), &x, 4);
  std::memcpy(r.pool_data(p) + 4, &limit, 4);
  r.request.inputs = {fx::RequestFixture::arg(p, 0, 4), fx::RequestFixture::arg(p, 4, 4)};
  r.request.outputs = {fx::RequestFixture::arg(p, 8, 4)};
  return r;
}

/// while_model() in plain C++: x + 1 while x < limit.
float while_expected(float x, float limit) {
  while (x < limit) x += 1.0f;
  return x;
}

/// main: MUL(in0, in1, NONE) -> t; ADD(t, in1, NONE) -> out, on float32 [2].
Model mul_add_model() {
  Model m = fx::add_model().model;
  m.main.operands.insert(m.main.operands.begin() + 3, fx::f32_tensor({2}, OperandLifeTime::TEMPORARY_VARIABLE));
  m.main.operations = {Operation{OperationType::MUL, {0, 1, 2}, {3}}, Operation{OperationType::ADD, {3, 1, 2}, {4}}};
  m.main.outputIndexes = {4};
  fx::fix_consumers(m);
  return m;
}

/// while_model() whose body multiplies instead of adding.
Model while_mul_model() {
  Model m = fx::while_model().model;
  m.referenced[1].operations[0].type = OperationType::MUL;
  return m;
}

struct CachePair {
  MemoryCacheFile model_file, data_file;
  CacheFile* model_files[1] = {&model_file};
  CacheFile* data_files[1] = {&data_file};
  CacheToken token{};

  CachePair() { token[0] = 42; }
  PrepareArgs<> args() {
    PrepareArgs<> a;
    a.model_cache = model_files;
    a.data_cache = data_files;
    a.token = token;
    return a;
  }
  template <class D>
  auto read(D& device) {
    return device.prepare_from_cache(std::nullopt, model_files, data_files, token);
  }
};

}  // namespace

TEST_CASE("set rows only: the device's rows are the set's") {
  const OperationRows& rows = *kernel_table<Rows>().rows;
  CHECK_FALSE(rows.all);
  CHECK(rows.find(OperationType::ADD) == &Row<OperationType::ADD>::info);
  CHECK(rows.find(OperationType::WHILE) == &Row<OperationType::WHILE>::info);
  CHECK(rows.find(OperationType::MUL) == nullptr);
  CHECK(kernel_table<AllRows>().rows == &all_operation_rows());
}

TEST_CASE("set rows only: the device prepares and runs ADD and WHILE, synchronously and in a burst") {
  Device<SteadyClock, Rows> device;
  const fx::ModelFixture add = fx::add_model();
  const fx::ModelFixture loop = fx::while_model();
  auto flags = device.supported_operations(add.model);
  REQUIRE(flags.has_value());
  CHECK(*flags == std::vector<bool>(1, true));
  flags = device.supported_operations(loop.model);
  REQUIRE(flags.has_value());
  CHECK(*flags == std::vector<bool>(1, true));

  auto add_prepared = device.prepare(add.model);
  REQUIRE_MESSAGE(add_prepared.has_value(), message_of(add_prepared));
  auto loop_prepared = device.prepare(loop.model);
  REQUIRE_MESSAGE(loop_prepared.has_value(), message_of(loop_prepared));
  CHECK(&(*add_prepared)->prepared().rows() == kernel_table<Rows>().rows);

  auto add_burst = (*add_prepared)->configure_burst();
  REQUIRE(add_burst.has_value());
  auto loop_burst = (*loop_prepared)->configure_burst();
  REQUIRE(loop_burst.has_value());
  for (int burst = 0; burst < 2; ++burst) {
    fx::RequestFixture r = fx::add_request();
    const ExecutionResult got = burst ? (*add_burst)->execute(r.request) : (*add_prepared)->execute(r.request);
    REQUIRE_MESSAGE(got.status.has_value(), message_of(got.status));
    CHECK(floats_at(r, 0, 16, 2) == add_expected(r));

    for (const float limit : {0.5f, 3.0f, 7.5f}) {
      fx::RequestFixture q = while_request(0.25f, limit);
      const ExecutionResult looped =
          burst ? (*loop_burst)->execute(q.request) : (*loop_prepared)->execute(q.request);
      REQUIRE_MESSAGE(looped.status.has_value(), message_of(looped.status));
      CHECK(floats_at(q, 0, 8, 1)[0] == while_expected(0.25f, limit));
    }
  }

  SUBCASE("a request with a driver-managed buffer is validated with the set's rows and runs") {
    const std::shared_ptr<DevicePreparedModel<>> models[] = {*add_prepared};
    const BufferRole role[] = {{0, 0, 1.0f}};
    auto buffer = device.allocate({}, models, role, role);
    REQUIRE(buffer.has_value());
    fx::RequestFixture r = fx::add_request();  // writes in0 + in1 into the buffer
    r.request.pools.push_back({{}, buffer->token});
    r.request.outputs[0].location = {1, 0, 0};
    REQUIRE_MESSAGE((*add_prepared)->execute(r.request).status.has_value(), "first execution");
    fx::RequestFixture r2 = fx::add_request();  // reads it back as input 0
    r2.request.pools.push_back({{}, buffer->token});
    r2.request.inputs[0].location = {1, 0, 0};
    REQUIRE((*add_prepared)->execute(r2.request).status.has_value());
    const std::vector<float> sum = add_expected(r), in1 = floats_at(r2, 0, 8, 2);
    CHECK(floats_at(r2, 0, 16, 2) == std::vector<float>{sum[0] + in1[0], sum[1] + in1[1]});
    // Still validated: an input too many is INVALID_ARGUMENT before the buffer is looked at.
    r2.request.inputs.push_back(r2.request.inputs[1]);
    CHECK((*add_prepared)->execute(r2.request).status.error().status() == ErrorStatus::INVALID_ARGUMENT);
  }
}

TEST_CASE("set rows only: an operation outside the set is refused by prepare and unsupported in the query") {
  Device<SteadyClock, Rows> device;
  Device<SteadyClock, AllRows> all_rows;
  const Model mul_add = mul_add_model();
  const Model while_mul = while_mul_model();

  // The query: MUL unsupported (and the WHILE that reaches it), the rest supported, with the
  // set's rows as with every row.
  for (const auto& flags : {device.supported_operations(mul_add), all_rows.supported_operations(mul_add)}) {
    REQUIRE_MESSAGE(flags.has_value(), message_of(flags));
    CHECK(*flags == std::vector<bool>{false, true});
  }
  for (const auto& flags : {device.supported_operations(while_mul), all_rows.supported_operations(while_mul)}) {
    REQUIRE_MESSAGE(flags.has_value(), message_of(flags));
    CHECK(*flags == std::vector<bool>{false});
  }

  // prepare: GENERAL_FAILURE, as PreparedModel::prepare<Rows> gives; with every row, the
  // device's INVALID_ARGUMENT for an unsupported operation, named from the names table.
  auto refused = device.prepare(mul_add);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().status() == ErrorStatus::GENERAL_FAILURE);
  CHECK(refused.error().status() == PreparedModel::prepare<Rows>(mul_add).error().status());
  CHECK(message_of(refused).find("operation 0 (MUL) is not in this program's kernel set") != std::string::npos);
  refused = device.prepare(while_mul);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().status() == ErrorStatus::GENERAL_FAILURE);
  CHECK(message_of(refused).find("referenced[1]: operation 0 (MUL)") != std::string::npos);
  auto unsupported = all_rows.prepare(mul_add);
  REQUIRE_FALSE(unsupported.has_value());
  CHECK(unsupported.error().status() == ErrorStatus::INVALID_ARGUMENT);
  CHECK(message_of(unsupported).find("main operation 0 (MUL) is not supported by this device") != std::string::npos);

  SUBCASE("what needs no row is still checked: a MUL reading an operand out of range is invalid") {
    Model bad = mul_add;
    bad.main.operations[0].inputs[1] = 99;
    for (const auto& flags : {device.supported_operations(bad), all_rows.supported_operations(bad)}) {
      REQUIRE_FALSE(flags.has_value());
      CHECK(flags.error().status() == ErrorStatus::INVALID_ARGUMENT);
    }
    Model late = mul_add;  // MUL reads the temporary ADD writes after it
    late.main.operations[0].inputs[0] = 3;
    late.main.operations[0].outputs[0] = 0;
    CHECK(device.supported_operations(late).error().status() == ErrorStatus::INVALID_ARGUMENT);
  }
  SUBCASE("what needs MUL's row is not: a MUL without its activation is only unsupported") {
    Model broken = mul_add;
    broken.main.operations[0].inputs.pop_back();
    fx::fix_consumers(broken);
    auto flags = device.supported_operations(broken);
    REQUIRE_MESSAGE(flags.has_value(), message_of(flags));
    CHECK(*flags == std::vector<bool>{false, true});
    CHECK(all_rows.supported_operations(broken).error().status() == ErrorStatus::INVALID_ARGUMENT);
    CHECK(device.prepare(broken).error().status() == ErrorStatus::GENERAL_FAILURE);
  }
}

TEST_CASE("set rows only: the cache fingerprint is the rows' one; every row gives the default set's") {
  CHECK(cache_fingerprint(all_operation_rows(), {}) == cache_fingerprint());
  CHECK(cache_fingerprint(all_operation_rows(), {}) == detail::cache::compute_fingerprint());
  const std::uint64_t rows = cache_fingerprint(*kernel_table<Rows>().rows, {});
  const std::uint64_t add_rows = cache_fingerprint(*kernel_table<AddRows>().rows, {});
  CHECK(rows != cache_fingerprint());
  CHECK(add_rows != cache_fingerprint());
  CHECK(rows != add_rows);
}

TEST_CASE("set rows only: caches round-trip, and a cache of another set's rows is refused") {
  const fx::ModelFixture add = fx::add_model();
  Device<SteadyClock, Rows> device;
  Device<SteadyClock, AllRows> all_rows;
  Device<SteadyClock, AddRows> add_only;

  CachePair mine;
  REQUIRE(device.prepare(add.model, mine.args()).has_value());
  REQUIRE_FALSE(mine.model_file.bytes().empty());
  auto cached = mine.read(device);
  REQUIRE_MESSAGE(cached.has_value(), message_of(cached));
  fx::RequestFixture r = fx::add_request();
  REQUIRE((*cached)->execute(r.request).status.has_value());
  CHECK(floats_at(r, 0, 16, 2) == add_expected(r));
  // The same kernels with every row, or ADD's rows alone: another fingerprint.
  for (const auto& foreign : {mine.read(all_rows), mine.read(add_only)}) {
    REQUIRE_FALSE(foreign.has_value());
    CHECK(foreign.error().status() == ErrorStatus::GENERAL_FAILURE);
    CHECK(message_of(foreign).find("different nnhal build") != std::string::npos);
  }

  // A set validating with every row writes what nnhal's own reader (every row) reads, and a
  // SetRowsOnly device refuses it.
  CachePair theirs;
  REQUIRE(all_rows.prepare(add.model, theirs.args()).has_value());
  CHECK(read_model_cache(theirs.model_file.bytes(), theirs.data_file.bytes(), theirs.token).has_value());
  CHECK(mine.read(all_rows).error().status() == ErrorStatus::GENERAL_FAILURE);
  auto own = theirs.read(all_rows);
  REQUIRE_MESSAGE(own.has_value(), message_of(own));
  CHECK(theirs.read(device).error().status() == ErrorStatus::GENERAL_FAILURE);
  CHECK_FALSE(read_model_cache(mine.model_file.bytes(), mine.data_file.bytes(), mine.token).has_value());
}

}  // namespace test_device_set_rows_only
