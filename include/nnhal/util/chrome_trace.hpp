#pragma once
/// \file
/// Ready TraceSinks (nnhal/util/trace.hpp) for hosted builds:
///
/// - ChromeTrace writes Chrome trace-event JSON (the "JSON Array Format" with a traceEvents
///   member) through a caller's sink, `void(std::string_view)`: one complete event ("ph":"X")
///   per span, in microseconds since the ChromeTrace was made. The file opens in Perfetto
///   (ui.perfetto.dev) and chrome://tracing. Call finish() once, after the last span.
/// - OperationProfile counts node spans per operation type and sums their time; write() prints
///   the table sorted by time.
/// - TraceTee hands every span to two sinks.
///
/// All three are safe to call from several threads (a spin lock around each event, atomics in
/// the profile) and allocate nothing; text goes through a fixed buffer on the stack. Their
/// clock is std::chrono::steady_clock.

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string_view>

#include "nnhal/util/trace.hpp"

namespace nnhal {

namespace detail {
inline std::int64_t steady_now_ns() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// A minimal spin lock (std::mutex is not on every embedded toolchain; events are short).
class SpinLock {
 public:
  void lock() noexcept {
    while (flag_.test_and_set(std::memory_order_acquire)) {
    }
  }
  void unlock() noexcept { flag_.clear(std::memory_order_release); }

 private:
  std::atomic_flag flag_ = ATOMIC_FLAG_INIT;
};

/// Small integer naming the calling thread (1, 2, ... in order of first use): trace viewers
/// nest spans per thread.
inline std::uint32_t trace_thread_id() noexcept {
  static std::atomic<std::uint32_t> next{1};
  thread_local const std::uint32_t id = next.fetch_add(1, std::memory_order_relaxed);
  return id;
}
}  // namespace detail

/// Writes spans as Chrome trace-event JSON through `sink` (see the file comment).
class ChromeTrace final : public TraceSink {
 public:
  /// `sink` is called with pieces of the JSON text; it must outlive this object.
  template <class Sink>
  explicit ChromeTrace(Sink& sink) noexcept
      : context_(&sink), write_([](void* c, std::string_view s) { (*static_cast<Sink*>(c))(s); }) {
    origin_ = detail::steady_now_ns();
    put("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"
        "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"nnhal\"}}");
  }
  ChromeTrace(const ChromeTrace&) = delete;
  ChromeTrace& operator=(const ChromeTrace&) = delete;

  std::int64_t now_ns() noexcept override { return detail::steady_now_ns(); }

  void span(const Span& s) noexcept override {
    char line[320];
    const double ts = static_cast<double>(s.begin_ns - origin_) / 1e3;
    const double dur = static_cast<double>(s.end_ns - s.begin_ns) / 1e3;
    int n = 0;
    const std::string_view status = to_string(s.status);
    switch (s.kind) {
      case SpanKind::Node:
        n = std::snprintf(line, sizeof line,
                          ",\n{\"name\":\"%.*s\",\"cat\":\"node\",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,\"pid\":1,"
                          "\"tid\":%u,\"args\":{\"subgraph\":%u,\"node\":%u,\"status\":\"%.*s\"}}",
                          static_cast<int>(s.name.size()), s.name.data(), ts, dur,
                          static_cast<unsigned>(detail::trace_thread_id()), static_cast<unsigned>(s.subgraph),
                          static_cast<unsigned>(s.node), static_cast<int>(status.size()), status.data());
        break;
      case SpanKind::Iteration:
        n = std::snprintf(line, sizeof line,
                          ",\n{\"name\":\"%.*s\",\"cat\":\"iteration\",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,"
                          "\"pid\":1,\"tid\":%u,\"args\":{\"subgraph\":%u,\"node\":%u,\"iteration\":%llu}}",
                          static_cast<int>(s.name.size()), s.name.data(), ts, dur,
                          static_cast<unsigned>(detail::trace_thread_id()), static_cast<unsigned>(s.subgraph),
                          static_cast<unsigned>(s.node), static_cast<unsigned long long>(s.iteration));
        break;
      case SpanKind::Prepare:
      case SpanKind::Execution:
        n = std::snprintf(line, sizeof line,
                          ",\n{\"name\":\"%.*s\",\"cat\":\"%s\",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,\"pid\":1,"
                          "\"tid\":%u,\"args\":{\"status\":\"%.*s\"}}",
                          static_cast<int>(s.name.size()), s.name.data(), to_string(s.kind).data(), ts, dur,
                          static_cast<unsigned>(detail::trace_thread_id()), static_cast<int>(status.size()),
                          status.data());
        break;
    }
    if (n <= 0) return;
    // Names are operation names or fixed words (no characters JSON would need escaped); a line
    // never reaches the buffer's size, but a truncated one would break the JSON, so drop it.
    if (static_cast<std::size_t>(n) >= sizeof line) return;
    lock_.lock();
    if (!finished_) {
      put(std::string_view(line, static_cast<std::size_t>(n)));
      ++events_;
    }
    lock_.unlock();
  }

  /// Closes the JSON text; later spans are dropped. Called by the destructor if not before.
  void finish() noexcept {
    lock_.lock();
    if (!finished_) put("\n]}\n");
    finished_ = true;
    lock_.unlock();
  }
  ~ChromeTrace() override { finish(); }

  /// Spans written so far.
  std::uint64_t events() const noexcept { return events_; }

 private:
  void put(std::string_view s) noexcept { write_(context_, s); }

  void* context_;
  void (*write_)(void*, std::string_view);
  std::int64_t origin_ = 0;
  detail::SpinLock lock_;
  bool finished_ = false;
  std::uint64_t events_ = 0;
};

/// Per operation type: how many node spans and their total time (see the file comment). The
/// time of an IF or WHILE node includes the nodes it runs, which are counted under their own
/// operations too.
class OperationProfile final : public TraceSink {
 public:
  struct Row {
    OperationType operation;
    std::uint64_t count;
    std::int64_t total_ns;
  };

  std::int64_t now_ns() noexcept override { return detail::steady_now_ns(); }

  void span(const Span& s) noexcept override {
    if (s.kind != SpanKind::Node) return;
    const auto i = static_cast<std::size_t>(s.operation);
    if (i >= kOps) return;
    counts_[i].fetch_add(1, std::memory_order_relaxed);
    totals_[i].fetch_add(s.end_ns - s.begin_ns, std::memory_order_relaxed);
  }

  /// The operations seen, by total time (largest first; ties by operation code). Returns how
  /// many rows `out` holds.
  std::size_t rows(std::array<Row, kOperationTypeCount>& out) const noexcept {
    std::size_t n = 0;
    for (std::size_t i = 0; i < kOps; ++i) {
      const std::uint64_t c = counts_[i].load(std::memory_order_relaxed);
      if (c == 0) continue;
      out[n++] = {static_cast<OperationType>(i), c, totals_[i].load(std::memory_order_relaxed)};
    }
    // Insertion sort: at most 102 rows.
    for (std::size_t a = 1; a < n; ++a)
      for (std::size_t b = a; b > 0 && out[b].total_ns > out[b - 1].total_ns; --b) {
        const Row t = out[b];
        out[b] = out[b - 1];
        out[b - 1] = t;
      }
    return n;
  }

  /// Writes the table through `sink`, `void(std::string_view)`: operation, count, total ms,
  /// mean us, share of the summed node time (IF/WHILE time counted inclusive, see above).
  template <class Sink>
  void write(Sink&& sink) const {
    std::array<Row, kOperationTypeCount> r{};
    const std::size_t n = rows(r);
    std::int64_t all = 0;
    for (std::size_t i = 0; i < n; ++i) all += r[i].total_ns;
    char line[160];
    auto emit = [&](int len) {
      if (len > 0) sink(std::string_view(line, static_cast<std::size_t>(len) < sizeof line ? static_cast<std::size_t>(len) : sizeof line - 1));
    };
    emit(std::snprintf(line, sizeof line, "%-36s %10s %12s %12s %7s\n", "operation", "count", "total ms", "mean us",
                       "share"));
    for (std::size_t i = 0; i < n; ++i) {
      const std::string_view name = to_string(r[i].operation);
      const double ms = static_cast<double>(r[i].total_ns) / 1e6;
      const double mean_us = static_cast<double>(r[i].total_ns) / 1e3 / static_cast<double>(r[i].count);
      const double share = all > 0 ? 100.0 * static_cast<double>(r[i].total_ns) / static_cast<double>(all) : 0.0;
      emit(std::snprintf(line, sizeof line, "%-36.*s %10llu %12.3f %12.3f %6.1f%%\n", static_cast<int>(name.size()),
                         name.data(), static_cast<unsigned long long>(r[i].count), ms, mean_us, share));
    }
  }

 private:
  static constexpr std::size_t kOps = kOperationTypeCount;
  std::array<std::atomic<std::uint64_t>, kOps> counts_{};
  std::array<std::atomic<std::int64_t>, kOps> totals_{};
};

/// Hands every span to two sinks; the time is the first one's.
class TraceTee final : public TraceSink {
 public:
  TraceTee(TraceSink& first, TraceSink& second) noexcept : first_(first), second_(second) {}
  std::int64_t now_ns() noexcept override { return first_.now_ns(); }
  void span(const Span& s) noexcept override {
    first_.span(s);
    second_.span(s);
  }

 private:
  TraceSink& first_;
  TraceSink& second_;
};

}  // namespace nnhal
