// A counting allocator proves that executing a prepared model whose operands all have known
// sizes, WHILE loops included, allocates nothing: every buffer is reserved when the Execution
// is created.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "control_flow_models.hpp"
#include "nnhal/exec/prepared_model.hpp"

namespace {
std::atomic<bool> g_counting{false};
std::atomic<std::size_t> g_allocations{0};

void* counted_alloc(std::size_t n, std::size_t align) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1, std::memory_order_relaxed);
  const std::size_t a = align < alignof(std::max_align_t) ? alignof(std::max_align_t) : align;
  const std::size_t size = ((n == 0 ? 1 : n) + a - 1) / a * a;
  return std::aligned_alloc(a, size);
}
}  // namespace

// Replacements of the global allocation functions for the whole test program; they only count
// while a test asks them to.
void* operator new(std::size_t n) {
  if (void* p = counted_alloc(n, 0)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void* operator new(std::size_t n, std::align_val_t a) {
  if (void* p = counted_alloc(n, static_cast<std::size_t>(a))) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::align_val_t a) { return operator new(n, a); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return counted_alloc(n, 0); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return counted_alloc(n, 0); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return counted_alloc(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return counted_alloc(n, static_cast<std::size_t>(a));
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }

namespace {
/// Allocations made while `f` runs.
template <class F>
std::size_t allocations_during(F&& f) {
  g_allocations = 0;
  g_counting = true;
  f();
  g_counting = false;
  return g_allocations.load();
}

struct Counter {
  nnhal::PreparedModel prepared;
  nnhal::Execution<nnhal::ManualClock> execution;
  std::int32_t io[3] = {0, 0, 0};
  nnhal::Request request;

  explicit Counter(const nnhal::Model& model)
      : prepared(*nnhal::PreparedModel::prepare(model)),
        execution(*prepared.create_execution<nnhal::ManualClock>()) {
    request.pools.push_back({{reinterpret_cast<std::byte*>(io), sizeof io}, 0});
    request.inputs = {{false, {0, 0, 4}, {}}, {false, {0, 4, 4}, {}}};
    request.outputs = {{false, {0, 8, 4}, {}}};
  }
  bool run(std::int32_t limit) {
    io[0] = 0;
    io[1] = limit;
    return execution.run(request).has_value() && io[2] == limit;
  }
};
}  // namespace

TEST_CASE("the counting allocator sees allocations") {
  CHECK(allocations_during([] { delete new int(1); }) == 1);
}

TEST_CASE("a WHILE loop over operands of known size allocates nothing while it executes") {
  Counter c(nnhal::test::cf::while_counter_model());
  REQUIRE(c.run(3));  // first execution
  bool ok = true;
  CHECK(allocations_during([&] { ok = c.run(1); }) == 0);
  CHECK(allocations_during([&] { ok = ok && c.run(100'000); }) == 0);
  CHECK(ok);
}

TEST_CASE("an IF execution allocates nothing") {
  Counter c(nnhal::test::cf::if_model());
  REQUIRE(c.execution.run(c.request).has_value());
  CHECK(allocations_during([&] { (void)c.execution.run(c.request); }) == 0);
}
