// The limits a Device applies (DeviceOptions::limits, nnhal/core/limits.hpp, docs/security.md):
// driver-managed buffers above Limits::max_buffer_bytes and cache files above
// Limits::max_cache_file_bytes are refused before anything of their size is allocated, and the
// model limits reach prepare and the supported-operations query.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "nnhal/builder/builder.hpp"
#include "nnhal/device/device.hpp"
#include "nnhal/kernels/abs.hpp"
#include "nnhal/kernels/add.hpp"
#include "nnhal/kernels/if.hpp"
#include "nnhal/kernels/resolve.hpp"
#include "support/counting_allocator.hpp"

namespace nnhal::test::device_limits {

constexpr auto kF32 = OperandType::TENSOR_FLOAT32;
using AddAbs = KernelSet<Use<OperationType::ADD, kF32>, Use<OperationType::ABS, kF32>>;
using LimitedDevice = Device<SteadyClock, AddAbs>;

/// main: y = x + x, both declared `dims`.
inline Model add_model(std::vector<std::uint32_t> dims) {
  ModelBuilder b;
  const auto x = b.input<kF32>({dims});
  b.output(b.operation<OperationType::ADD, kF32>({dims}, x, x, b.scalar<OperandType::INT32>(0)));
  return std::move(b).model();
}

/// main: y = abs(x), both declared `dims` (ABS takes any rank).
inline Model abs_model(std::vector<std::uint32_t> dims) {
  ModelBuilder b;
  const auto x = b.input<kF32>({dims});
  b.output(b.operation<OperationType::ABS, kF32>({dims}, x));
  return std::move(b).model();
}

inline DeviceOptions<> options_with(const Limits& limits) {
  DeviceOptions<> o;
  o.worker_threads = 1;
  o.limits = limits;
  return o;
}

template <class T>
std::string message_of(const Expected<T>& e) {
  return e ? std::string() : std::string(e.error().message());
}

/// allocate() of a buffer for input 0 of `prepared`.
inline Expected<AllocatedBuffer> allocate_input(LimitedDevice& device, const LimitedDevice::PreparedModelPtr& prepared) {
  const LimitedDevice::PreparedModelPtr models[] = {prepared};
  const BufferRole roles[] = {BufferRole{0, 0, 1.0f}};
  return device.allocate(BufferDesc{}, models, roles, {});
}

TEST_CASE("limits: a driver-managed buffer of almost 4 GiB is refused at max_buffer_bytes without allocating it") {
  // 16383 x 65536 float32: 4294705152 bytes, a valid operand (below 2^32) that the default
  // 1 GiB limit refuses. Preparing the model allocates nothing of that size either.
  LimitedDevice device(options_with(Limits{}));
  auto prepared = device.prepare(add_model({16383, 65536}));
  REQUIRE_MESSAGE(prepared.has_value(), message_of(prepared));
  start_counting_allocations();
  const auto made = allocate_input(device, *prepared);
  stop_counting_allocations();
  REQUIRE_FALSE(made.has_value());
  CHECK(made.error().status() == ErrorStatus::GENERAL_FAILURE);
  CHECK(message_of(made).find("4294705152 bytes, above Limits::max_buffer_bytes (1073741824)") != std::string::npos);
  CHECK(peak_counted_bytes() < (std::size_t{1} << 20));
  CHECK(device.buffers().size() == 0);
}

TEST_CASE("limits: a driver moves max_buffer_bytes; the boundary is the buffer's size") {
  const Model model = add_model({256, 256});  // 256 KiB
  Limits limits;
  limits.max_buffer_bytes = 256 << 10;
  LimitedDevice exact(options_with(limits));
  auto prepared = exact.prepare(model);
  REQUIRE(prepared.has_value());
  const auto made = allocate_input(exact, *prepared);
  REQUIRE_MESSAGE(made.has_value(), message_of(made));
  CHECK(made->buffer->size() == (256u << 10));

  limits.max_buffer_bytes = (256 << 10) - 1;
  LimitedDevice below(options_with(limits));
  auto prepared_below = below.prepare(model);
  REQUIRE(prepared_below.has_value());
  const auto refused = allocate_input(below, *prepared_below);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().status() == ErrorStatus::GENERAL_FAILURE);
  CHECK(message_of(refused).find("Limits::max_buffer_bytes (262143)") != std::string::npos);
}

/// Prepares `model` on a default device, writing its cache files.
struct Cached {
  MemoryCacheFile model_file, data_file;
  CacheFile* model_files[1] = {&model_file};
  CacheFile* data_files[1] = {&data_file};
  CacheToken token{};

  explicit Cached(const Model& model) {
    LimitedDevice writer(options_with(Limits{}));
    PrepareArgs<> args;
    args.model_cache = model_files;
    args.data_cache = data_files;
    token[0] = 7;
    args.token = token;
    REQUIRE(writer.prepare(model, args).has_value());
    REQUIRE_FALSE(model_file.bytes().empty());
  }
};

TEST_CASE("limits: cache files above max_cache_file_bytes are refused before they are read") {
  Cached cached(add_model({64, 64}));  // the data cache holds no constants; the model cache ~ 200 bytes
  const std::size_t largest = std::max(cached.model_file.bytes().size(), cached.data_file.bytes().size());
  Limits limits;
  limits.max_cache_file_bytes = largest;
  LimitedDevice exact(options_with(limits));
  const auto restored = exact.prepare_from_cache({}, cached.model_files, cached.data_files, cached.token);
  CHECK_MESSAGE(restored.has_value(), message_of(restored));

  limits.max_cache_file_bytes = largest - 1;
  LimitedDevice below(options_with(limits));
  const auto refused = below.prepare_from_cache({}, cached.model_files, cached.data_files, cached.token);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().status() == ErrorStatus::GENERAL_FAILURE);
  CHECK(message_of(refused).find("above Limits::max_cache_file_bytes") != std::string::npos);

  // A 64 MiB model cache file against a 1 MiB limit: refused without copying it.
  cached.model_file.bytes().resize(64u << 20);
  limits.max_cache_file_bytes = 1u << 20;
  LimitedDevice small(options_with(limits));
  start_counting_allocations();
  const auto huge = small.prepare_from_cache({}, cached.model_files, cached.data_files, cached.token);
  stop_counting_allocations();
  REQUIRE_FALSE(huge.has_value());
  CHECK(message_of(huge).find("model cache file is above Limits::max_cache_file_bytes (1048576)") != std::string::npos);
  CHECK(peak_counted_bytes() < (std::size_t{1} << 20));
}

TEST_CASE("limits: a device applies its model limits to prepare and to the supported-operations query") {
  const Model model = add_model({4});  // main: 3 operands
  Limits limits;
  limits.max_operands = 3;
  LimitedDevice exact(options_with(limits));
  CHECK(exact.prepare(model).has_value());
  CHECK(exact.supported_operations(model).has_value());
  limits.max_operands = 2;
  LimitedDevice below(options_with(limits));
  const auto refused = below.prepare(model);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().status() == ErrorStatus::INVALID_ARGUMENT);
  CHECK(message_of(refused).find("Limits::max_operands (2)") != std::string::npos);
  const auto query = below.supported_operations(model);
  REQUIRE_FALSE(query.has_value());
  CHECK(query.error().status() == ErrorStatus::INVALID_ARGUMENT);
  CHECK(below.limits().max_operands == 2);
}

TEST_CASE("limits: a tensor of rank above NNHAL_MAX_RANK is valid but not supported") {
  // The HAL puts no bound on rank; nnhal holds shapes inline (NNHAL_MAX_RANK dimensions), so
  // such an operation is reported unsupported and the model is not prepared.
  LimitedDevice device(options_with(Limits{}));
  // The builder takes shapes up to NNHAL_MAX_RANK only (OperandSpec); one more dimension by hand.
  Model deep = abs_model(std::vector<std::uint32_t>(NNHAL_MAX_RANK, 1));
  for (Operand& op : deep.main.operands) op.dimensions.push_back(1);
  CHECK(validate_model(deep).has_value());
  const auto query = device.supported_operations(deep);
  REQUIRE_MESSAGE(query.has_value(), message_of(query));
  CHECK(*query == std::vector<bool>{false});
  const auto refused = device.prepare(deep);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().status() == ErrorStatus::INVALID_ARGUMENT);
  INFO(message_of(refused));
  CHECK(device.prepare(abs_model(std::vector<std::uint32_t>(NNHAL_MAX_RANK, 1))).has_value());
  // PreparedModel::prepare, below the device, finds it when it prepares the operation.
  const auto direct = PreparedModel::prepare<AddAbs>(deep);
  REQUIRE_FALSE(direct.has_value());
  CHECK(direct.error().status() == ErrorStatus::GENERAL_FAILURE);
  CHECK(message_of(direct).find("rank 9 exceeds the supported maximum 8") != std::string::npos);
}

}  // namespace nnhal::test::device_limits

namespace nnhal::test::device_limits {
using AddIf = KernelSet<Use<OperationType::ADD, kF32>, Use<OperationType::IF>>;

/// main(c, x) = three IFs in a row, each c ? v + v : v + v over `n` floats, with branches of
/// their own: each branch's output is a buffer of known size allocated when an execution is
/// created (six of them), beside the arena (main's two temporaries between the IFs). No single
/// operation touches more than three tensors and a scalar.
template <int K = 0>
Model if_add_model(std::uint32_t n) {
  ModelBuilder b;
  const OperandSpec spec{{n}};
  auto branch = [&]<class Tag>(Tag*) {
    auto g = b.add_subgraph<Tag, kF32>(spec);
    const auto x = g.template input<0>();
    return g.returns(g.template operation<OperationType::ADD, kF32>(spec, x, x, g.template scalar<OperandType::INT32>(0)));
  };
  const auto c = b.input<OperandType::TENSOR_BOOL8>({{1}});
  const auto x = b.input<kF32>(spec);
  const auto [y1] = b.if_(c, branch(static_cast<struct Then1*>(nullptr)), branch(static_cast<struct Else1*>(nullptr)), x);
  const auto [y2] = b.if_(c, branch(static_cast<struct Then2*>(nullptr)), branch(static_cast<struct Else2*>(nullptr)), y1);
  const auto [y3] = b.if_(c, branch(static_cast<struct Then3*>(nullptr)), branch(static_cast<struct Else3*>(nullptr)), y2);
  b.output(y3);
  return std::move(b).model();
}
}  // namespace nnhal::test::device_limits

// Regression (found by validate_fuzz): the memory an execution fixes when it is created was
// counted as the arena alone, so IF branch outputs (and WHILE buffers) of known size escaped the
// device's memory limit and the fuzz target's own bound; a FILL of 757,935,405 halves in a branch
// was allocated and written.
TEST_CASE("limits: execution_bytes counts what creating an execution allocates, and the device's memory limit uses it") {
  using namespace nnhal;
  namespace dl = nnhal::test::device_limits;
  constexpr std::uint32_t n = 1u << 16;  // 256 KiB per tensor
  auto prepared = PreparedModel::prepare<dl::AddIf>(dl::if_add_model(n));
  REQUIRE(prepared.has_value());
  const std::uint64_t tensor = n * sizeof(float);
  CHECK(prepared->arena_bytes() <= 2 * tensor);
  CHECK(prepared->execution_bytes() >= prepared->arena_bytes() + 6 * tensor);
  // Creating an execution holds at least that much, and not much more (its records and tables).
  test::start_counting_allocations();
  {
    auto execution = prepared->create_execution();
    REQUIRE(execution.has_value());
  }
  test::stop_counting_allocations();
  const std::size_t peak = test::peak_counted_bytes();
  if (peak != 0) {  // glibc tells block sizes; elsewhere the bound is not measured
    CHECK(peak >= prepared->execution_bytes());
    CHECK(peak < prepared->execution_bytes() + (std::size_t{64} << 10));  // records, tables
  }

  // The device refuses it with a limit above the arena and every operation's operands (so each
  // operation is supported) but below what an execution really needs.
  DeviceOptions<> options;
  options.policy.memory_limit = 4 * tensor;
  REQUIRE(prepared->execution_bytes() > options.policy.memory_limit);
  Device<SteadyClock, dl::AddIf> device(options);
  auto refused = device.prepare(dl::if_add_model(n));
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().status() == ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT);
  CHECK(std::string(refused.error().c_str()).find("bytes of execution memory") != std::string::npos);
  options.policy.memory_limit = prepared->execution_bytes();
  Device<SteadyClock, dl::AddIf> roomy(options);
  CHECK(roomy.prepare(dl::if_add_model(n)).has_value());
}

