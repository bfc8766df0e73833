#pragma once
/// \file
/// Time for the executor: the Clock concept (anything with `now()` returning a time point whose
/// differences convert to nanoseconds), optionally with a cheaper `coarse_now()`, the default
/// steady-clock adapter, and a manual clock for deterministic tests. Firmware plugs in its own
/// tick counter (see examples/).

#include <chrono>
#include <concepts>
#include <cstdint>
#if defined(__linux__)
#include <time.h>
#endif

namespace nnhal {

/// A source of time points. The difference of two time points is signed (negative when the
/// first is earlier), so a wrapping tick counter works as long as the intervals measured are
/// shorter than half its period.
///
/// When an execution has a deadline, `now()` is read between operations outside loops. A WHILE
/// loop reads the clock once per iteration (Execution::run_while): `coarse_now()` when the clock
/// has it (CoarseClock), else `now()`.
template <class C>
concept Clock = requires(C& c) {
  typename C::time_point;
  { c.now() } -> std::same_as<typename C::time_point>;
  { c.now() - c.now() } -> std::convertible_to<std::chrono::nanoseconds>;
};

/// How far a `coarse_now()` reading may trail the `now()` reading taken at the same moment.
inline constexpr std::chrono::nanoseconds kCoarseClockLag{10'000'000};

/// A clock that also offers `coarse_now()`: a cheaper reading of the same time line that is
/// never later than `now()` and at most kCoarseClockLag earlier. A WHILE loop reads it every
/// iteration and reads `now()` only once the coarse reading is within kCoarseClockLag of the
/// loop's limit, so the limit is still honoured to within an iteration. Optional: a clock
/// without it works unchanged, with `now()` read once per iteration instead.
template <class C>
concept CoarseClock = Clock<C> && requires(C& c) {
  { c.coarse_now() } -> std::same_as<typename C::time_point>;
};

/// The default clock: std::chrono::steady_clock (CLOCK_MONOTONIC on Linux). On Linux,
/// `coarse_now()` reads CLOCK_MONOTONIC_COARSE, the same time line as of the last timer tick
/// (about 5 ns against about 30-40 ns for `now()`), when its resolution is at most
/// kCoarseClockLag (a kernel tick rate of 100 Hz or more); elsewhere, and if it is coarser, it
/// reads `now()`.
struct SteadyClock {
  using time_point = std::chrono::steady_clock::time_point;
  time_point now() const noexcept { return std::chrono::steady_clock::now(); }
  time_point coarse_now() const noexcept {
#if defined(__linux__) && defined(CLOCK_MONOTONIC_COARSE)
    if (coarse_) {
      timespec ts;
      clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
      return time_point(std::chrono::duration_cast<time_point::duration>(std::chrono::seconds(ts.tv_sec) +
                                                                        std::chrono::nanoseconds(ts.tv_nsec)));
    }
#endif
    return now();
  }

  /// Whether coarse_now() reads a coarse clock (false: it reads now()).
  static bool coarse_available() noexcept {
#if defined(__linux__) && defined(CLOCK_MONOTONIC_COARSE)
    static const bool usable = [] {
      timespec res;
      if (clock_getres(CLOCK_MONOTONIC_COARSE, &res) != 0) return false;
      const auto r = std::chrono::seconds(res.tv_sec) + std::chrono::nanoseconds(res.tv_nsec);
      return r > std::chrono::nanoseconds{0} && r <= kCoarseClockLag;
    }();
    return usable;
#else
    return false;
#endif
  }

 private:
  bool coarse_ = coarse_available();
};

/// A clock that only moves when told to: `advance()` by hand, and optionally by `step` on
/// every reading, so timeouts can be tested without waiting. Counts its readings.
class ManualClock {
 public:
  using duration = std::chrono::nanoseconds;
  struct time_point {
    duration since_start{0};
    friend duration operator-(time_point a, time_point b) noexcept {
      return a.since_start - b.since_start;
    }
    friend auto operator<=>(time_point, time_point) = default;
  };

  explicit ManualClock(duration step_per_reading = duration{0}) noexcept : step_(step_per_reading) {}
  time_point now() noexcept {
    ++readings_;
    const time_point t = now_;
    now_.since_start += step_;
    return t;
  }
  void advance(duration d) noexcept { now_.since_start += d; }
  std::uint64_t readings() const noexcept { return readings_; }

 private:
  time_point now_{};
  duration step_;
  std::uint64_t readings_ = 0;
};

static_assert(CoarseClock<SteadyClock>);
static_assert(Clock<ManualClock> && !CoarseClock<ManualClock>);

}  // namespace nnhal
