#pragma once
/// \file
/// Time for the executor: the Clock concept (anything with `now()` returning a time point whose
/// differences convert to nanoseconds), the default steady-clock adapter, and a manual clock for
/// deterministic tests. Firmware plugs in its own tick counter (see examples/).

#include <chrono>
#include <concepts>
#include <cstdint>

namespace nnhal {

/// A source of time points. `now()` is called at most once per WHILE iteration and, when an
/// execution has a deadline, between operations outside loops. The difference of two time
/// points is signed (negative when the first is earlier), so a wrapping tick counter works as
/// long as the intervals measured are shorter than half its period.
template <class C>
concept Clock = requires(C& c) {
  typename C::time_point;
  { c.now() } -> std::same_as<typename C::time_point>;
  { c.now() - c.now() } -> std::convertible_to<std::chrono::nanoseconds>;
};

/// The default clock: std::chrono::steady_clock.
struct SteadyClock {
  using time_point = std::chrono::steady_clock::time_point;
  time_point now() const noexcept { return std::chrono::steady_clock::now(); }
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

static_assert(Clock<SteadyClock>);
static_assert(Clock<ManualClock>);

}  // namespace nnhal
