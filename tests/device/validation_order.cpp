// Validation before the deadline, everywhere (HAL13.md c.1.2 steps 2 and 4, c.3 "Common
// rules"): every entry point that takes a deadline validates its arguments first, so an invalid
// call is INVALID_ARGUMENT whatever the deadline, and a valid call whose deadline has already
// passed is MISSED_DEADLINE_PERSISTENT. One matrix:
//   {prepare, prepare_from_cache, sync, async, fenced, burst} x {valid, invalid}
//   x {no deadline, passed deadline}
// A passed deadline is the clock's epoch, long gone whatever the clock reads: no cell depends on
// timing.
#include <doctest/doctest.h>

#include <chrono>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "nnhal/device/device.hpp"
#include "validate/model_fixtures.hpp"

namespace nnhal::test::validation_order {
namespace fx = nnhal::test::malformed;

enum class Entry { Prepare, PrepareFromCache, Sync, Async, Fenced, Burst };

const char* name(Entry e) {
  switch (e) {
    case Entry::Prepare: return "prepare";
    case Entry::PrepareFromCache: return "prepare_from_cache";
    case Entry::Sync: return "sync";
    case Entry::Async: return "async";
    case Entry::Fenced: return "fenced";
    case Entry::Burst: return "burst";
  }
  return "?";
}

/// What one cell observed.
struct Observed {
  ErrorStatus status = ErrorStatus::NONE;
  /// For asynchronous execution: the launch status (`status` is the callback's); for the other
  /// modes equal to `status`.
  ErrorStatus launch = ErrorStatus::NONE;
  int notifications = 0;
  bool output_written = false;
  bool shapes_empty = true;
};

ErrorStatus status_of(const Status& s) { return s ? ErrorStatus::NONE : s.error().status(); }
template <class T>
ErrorStatus status_of(const Expected<T>& e) {
  return e ? ErrorStatus::NONE : e.error().status();
}

constexpr std::byte kUnwritten{0x5A};

/// Runs one execution cell on a prepared add_model(): `invalid` drops an input from the
/// request. Reports the status and whether the output bytes ([16, 24) of the pool) changed.
Observed execute(Entry entry, DevicePreparedModel<>& pm, bool invalid, std::optional<SteadyClock::time_point> deadline) {
  auto r = fx::add_request();
  std::memset(r.pool_data(0) + 16, static_cast<int>(kUnwritten), 8);
  if (invalid) r.request.inputs.pop_back();
  ExecutionArgs<> args;
  args.deadline = deadline;
  args.measure = MeasureTiming::YES;
  Observed o;
  switch (entry) {
    case Entry::Sync: {
      ExecutionResult res = pm.execute(r.request, args);
      o.status = o.launch = res.error_status();
      o.shapes_empty = res.output_shapes.empty();
      if (!res.status) CHECK(res.timing.timeInDriver == UINT64_MAX);
      break;
    }
    case Entry::Burst: {
      auto burst = pm.configure_burst();
      REQUIRE(burst.has_value());
      ExecutionResult res = (*burst)->execute(r.request, args);
      o.status = o.launch = res.error_status();
      o.shapes_empty = res.output_shapes.empty();
      if (!res.status) CHECK(res.timing.timeInDriver == UINT64_MAX);
      break;
    }
    case Entry::Fenced: {
      auto res = pm.execute_fenced(r.request, {}, args);
      o.status = o.launch = status_of(res);
      if (res) {
        res->fence.wait();
        CHECK(res->execution_info().status == ErrorStatus::NONE);
      }
      break;
    }
    case Entry::Async: {
#if NNHAL_ASYNC
      auto callback = std::make_shared<ResultCallback>();
      o.launch = status_of(pm.execute_async(r.request, args, callback));
      ExecutionResult res = callback->wait();  // notified on every launch, failed or not
      o.status = res.error_status();
      o.notifications = callback->notifications();
      o.shapes_empty = res.output_shapes.empty();
      if (!res.status) CHECK(res.timing.timeInDriver == UINT64_MAX);
#endif
      break;
    }
    default: FAIL("not an execution entry");
  }
  std::byte out[8];
  std::memcpy(out, r.pool_data(0) + 16, 8);
  for (std::byte b : out) o.output_written = o.output_written || b != kUnwritten;
  return o;
}

}  // namespace nnhal::test::validation_order

using namespace nnhal;
namespace vo = nnhal::test::validation_order;
namespace fx = nnhal::test::malformed;
using vo::Entry;

TEST_CASE("validation before the deadline: prepare and prepare_from_cache") {
  Device<> device;
  const std::optional<SteadyClock::time_point> passed = SteadyClock::time_point{};
  auto valid = fx::add_model();
  auto invalid = fx::add_model();
  invalid.model.main.operations[0].inputs[0] = 99;  // not an operand

  // A cache of the valid model, for prepare_from_cache.
  MemoryCacheFile model_file, data_file;
  CacheFile* model_files[] = {&model_file};
  CacheFile* data_files[] = {&data_file};
  PrepareArgs<> caching;
  caching.model_cache = model_files;
  caching.data_cache = data_files;
  caching.token[0] = 19;
  REQUIRE(device.prepare(valid.model, caching).has_value());

  for (const bool with_deadline : {false, true}) {
    CAPTURE(with_deadline);
    const auto deadline = with_deadline ? passed : std::nullopt;
    PrepareArgs<> args;
    args.deadline = deadline;
    const ErrorStatus on_valid = with_deadline ? ErrorStatus::MISSED_DEADLINE_PERSISTENT : ErrorStatus::NONE;

    // prepare x {valid, invalid model, invalid preference, invalid priority}
    CHECK(vo::status_of(device.prepare(valid.model, args)) == on_valid);
    CHECK(vo::status_of(device.prepare(invalid.model, args)) == ErrorStatus::INVALID_ARGUMENT);
    PrepareArgs<> bad_preference = args;
    bad_preference.preference = static_cast<ExecutionPreference>(7);
    CHECK(vo::status_of(device.prepare(valid.model, bad_preference)) == ErrorStatus::INVALID_ARGUMENT);
    PrepareArgs<> bad_priority = args;
    bad_priority.priority = static_cast<Priority>(-1);
    CHECK(vo::status_of(device.prepare(valid.model, bad_priority)) == ErrorStatus::INVALID_ARGUMENT);
    // An operation the device does not support is an invalid argument to prepare too.
    DeviceOptions<> narrow;
    narrow.policy.exclude(OperationType::ADD);
    Device<> narrow_device(narrow);
    CHECK(vo::status_of(narrow_device.prepare(valid.model, args)) == ErrorStatus::INVALID_ARGUMENT);

    // prepare_from_cache x {valid, wrong number of files}
    CHECK(vo::status_of(device.prepare_from_cache(deadline, model_files, data_files, caching.token)) == on_valid);
    CHECK(vo::status_of(device.prepare_from_cache(deadline, {}, data_files, caching.token)) ==
          ErrorStatus::INVALID_ARGUMENT);
  }
}

TEST_CASE("validation before the deadline: every execution mode") {
  Device<> device;
  auto prepared = device.prepare(fx::add_model().model);
  REQUIRE(prepared.has_value());
  const std::optional<SteadyClock::time_point> passed = SteadyClock::time_point{};
  std::vector<Entry> entries = {Entry::Sync, Entry::Fenced, Entry::Burst};
#if NNHAL_ASYNC
  entries.push_back(Entry::Async);
#endif
  for (const Entry entry : entries) {
    for (const bool invalid : {false, true}) {
      for (const bool with_deadline : {false, true}) {
        CAPTURE(vo::name(entry));
        CAPTURE(invalid);
        CAPTURE(with_deadline);
        const vo::Observed o = vo::execute(entry, **prepared, invalid, with_deadline ? passed : std::nullopt);
        ErrorStatus want = ErrorStatus::NONE;
        if (invalid) want = ErrorStatus::INVALID_ARGUMENT;
        else if (with_deadline) want = ErrorStatus::MISSED_DEADLINE_PERSISTENT;
        CHECK(o.status == want);
        CHECK(o.output_written == (want == ErrorStatus::NONE));
        if (want != ErrorStatus::NONE) CHECK(o.shapes_empty);
        if (entry == Entry::Async) {
          // An invalid request is refused at launch and notified; a valid one launches and the
          // callback tells the deadline. Either way exactly one notification.
          CHECK(o.launch == (invalid ? ErrorStatus::INVALID_ARGUMENT : ErrorStatus::NONE));
          CHECK(o.notifications == 1);
        } else {
          CHECK(o.launch == o.status);
        }
      }
    }
  }
}

TEST_CASE("validation before the deadline: the executor below the device") {
  auto f = fx::add_model();
  auto prepared = PreparedModel::prepare(f.model);
  REQUIRE(prepared.has_value());
  auto execution = prepared->create_execution<ManualClock>(ManualClock(std::chrono::milliseconds(1)));
  REQUIRE(execution.has_value());
  ExecuteOptions<ManualClock> options;
  options.deadline = ManualClock::time_point{};  // every reading is later than this
  execution->clock().advance(std::chrono::milliseconds(1));
  auto r = fx::add_request();
  r.request.inputs.pop_back();
  const auto readings = execution->clock().readings();
  Status s = execution->run(r.request, options);
  CHECK(vo::status_of(s) == ErrorStatus::INVALID_ARGUMENT);
  CHECK(execution->clock().readings() == readings);  // the clock was not even read
  auto good = fx::add_request();
  CHECK(vo::status_of(execution->run(good.request, options)) == ErrorStatus::MISSED_DEADLINE_PERSISTENT);
}
