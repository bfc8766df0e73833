#pragma once
/// \file
/// Tagged verbose logging, in the spirit of Android's `debug.nn.vlog`.
///
///     NNHAL_VLOG(prepare, "subgraph %u: %zu nodes", g, n);
///
/// Tags: validate, prepare, execute, control, device, cache. Which are on is chosen at run time:
/// by the environment variable `NNHAL_VLOG` (`all`, or a comma-separated list such as
/// `prepare,control`; read once, at the first log statement reached) or by the caller with
/// vlog::set_tags(), which overrides it. Lines go to a caller's sink (vlog::set_sink); the
/// default sink writes `nnhal <tag>: <message>` lines to stderr through <cstdio> (no iostream).
///
/// Cost: a log statement whose tag is off is one relaxed atomic load and a predictable branch;
/// its arguments are not evaluated. Define NNHAL_VLOG_ENABLED=0 (the firmware setting) and every
/// NNHAL_VLOG compiles to nothing, with no global state and no getenv. Messages are formatted
/// into a fixed buffer on the stack (truncated at NNHAL_VLOG_LINE_CAPACITY characters), so
/// logging allocates nothing.

#include <cstdint>
#include <string_view>

#include "nnhal/config.hpp"

#ifndef NNHAL_VLOG_ENABLED
#define NNHAL_VLOG_ENABLED 1
#endif

#ifndef NNHAL_VLOG_LINE_CAPACITY
#define NNHAL_VLOG_LINE_CAPACITY 512
#endif

#if NNHAL_VLOG_ENABLED
#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>

#include "nnhal/core/format.hpp"
#endif

namespace nnhal::vlog {

/// The log tags, one bit each.
enum class Tag : std::uint32_t {
  validate = 1u << 0,
  prepare = 1u << 1,
  execute = 1u << 2,
  control = 1u << 3,
  device = 1u << 4,
  cache = 1u << 5,
};

/// Every tag.
inline constexpr std::uint32_t kAllTags = (1u << 6) - 1;

/// A tag's name ("validate", ...).
constexpr std::string_view tag_name(Tag t) noexcept {
  switch (t) {
    case Tag::validate: return "validate";
    case Tag::prepare: return "prepare";
    case Tag::execute: return "execute";
    case Tag::control: return "control";
    case Tag::device: return "device";
    case Tag::cache: return "cache";
  }
  return "?";
}

/// The tag mask of a `NNHAL_VLOG`-style list: "all", "1" or a comma-separated list of tag
/// names (spaces ignored, unknown names skipped). Empty or null: no tag.
constexpr std::uint32_t parse_tags(std::string_view list) noexcept {
  std::uint32_t mask = 0;
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    std::string_view word = list.substr(0, comma);
    while (!word.empty() && word.front() == ' ') word.remove_prefix(1);
    while (!word.empty() && word.back() == ' ') word.remove_suffix(1);
    if (word == "all" || word == "1") mask |= kAllTags;
    for (std::uint32_t bit = 1; bit <= kAllTags; bit <<= 1)
      if (word == tag_name(static_cast<Tag>(bit))) mask |= bit;
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return mask;
}

/// Receives each enabled line: its tag and the formatted message (no trailing newline).
using Sink = void (*)(Tag tag, std::string_view message, void* user);

#if NNHAL_VLOG_ENABLED

namespace detail {

/// Set while the mask has not been read from the environment yet; the log statements' fast
/// test then fails over to init_from_environment().
inline constexpr std::uint32_t kUnset = 1u << 31;

/// The enabled tags (plus kUnset before the first use).
inline std::atomic<std::uint32_t> g_mask{kUnset | kAllTags};

/// The sink and its user pointer (nullptr: the default stderr sink).
inline std::atomic<Sink> g_sink{nullptr};
inline std::atomic<void*> g_sink_user{nullptr};

/// Reads NNHAL_VLOG unless set_tags() came first.
inline std::uint32_t init_from_environment() noexcept {
  std::uint32_t expected = g_mask.load(std::memory_order_relaxed);
  if ((expected & kUnset) == 0) return expected;
  const char* env = std::getenv("NNHAL_VLOG");
  const std::uint32_t mask = parse_tags(env == nullptr ? std::string_view() : std::string_view(env));
  // Another thread may have set the tags meanwhile; theirs wins.
  g_mask.compare_exchange_strong(expected, mask, std::memory_order_relaxed);
  return g_mask.load(std::memory_order_relaxed);
}

inline void default_sink(Tag tag, std::string_view message, void*) {
  std::fprintf(stderr, "nnhal %.*s: %.*s\n", static_cast<int>(tag_name(tag).size()), tag_name(tag).data(),
               static_cast<int>(message.size()), message.data());
}

/// Formats and delivers one line (the slow path of NNHAL_VLOG).
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3), cold, noinline))
#endif
inline void write(Tag tag, const char* format, ...) noexcept {
  if ((init_from_environment() & static_cast<std::uint32_t>(tag)) == 0) return;
  char line[NNHAL_VLOG_LINE_CAPACITY];
  std::va_list args;
  va_start(args, format);
  // nnhal's formatter, not vsnprintf: the lines come from library code (%zu, %llu, %g), which
  // newlib-nano's printf cannot format. The default sink alone uses <cstdio>.
  const std::size_t n = ::nnhal::vformat(line, sizeof line, format, args);
  va_end(args);
  const std::size_t len = n < sizeof line ? n : sizeof line - 1;
  const Sink sink = g_sink.load(std::memory_order_acquire);
  if (sink == nullptr) default_sink(tag, std::string_view(line, len), nullptr);
  else sink(tag, std::string_view(line, len), g_sink_user.load(std::memory_order_relaxed));
}

}  // namespace detail

/// Whether lines of `tag` are written (the first call may read NNHAL_VLOG).
inline bool enabled(Tag tag) noexcept {
  const std::uint32_t mask = detail::g_mask.load(std::memory_order_relaxed);
  if ((mask & detail::kUnset) != 0) return (detail::init_from_environment() & static_cast<std::uint32_t>(tag)) != 0;
  return (mask & static_cast<std::uint32_t>(tag)) != 0;
}

/// Turns on exactly the tags of `mask` (a bitwise or of Tag values, or kAllTags; 0: none),
/// whatever NNHAL_VLOG says.
inline void set_tags(std::uint32_t mask) noexcept {
  detail::g_mask.store(mask & kAllTags, std::memory_order_relaxed);
}

/// The tags currently on.
inline std::uint32_t tags() noexcept { return detail::init_from_environment() & kAllTags; }

/// Sends lines to `sink` (called with `user`); nullptr restores the stderr sink. Lines may
/// come from several threads at once (the device's workers): the sink must cope.
inline void set_sink(Sink sink, void* user = nullptr) noexcept {
  detail::g_sink_user.store(user, std::memory_order_relaxed);
  detail::g_sink.store(sink, std::memory_order_release);
}

#else  // NNHAL_VLOG_ENABLED == 0: nothing is logged and no state exists

inline constexpr bool enabled(Tag) noexcept { return false; }
inline void set_tags(std::uint32_t) noexcept {}
inline constexpr std::uint32_t tags() noexcept { return 0; }
inline void set_sink(Sink, void* = nullptr) noexcept {}

#endif

}  // namespace nnhal::vlog

/// Logs a printf-style message under `tag` (a bare tag name: validate, prepare, execute,
/// control, device, cache) when that tag is on. The arguments are evaluated only then.
#if NNHAL_VLOG_ENABLED
#define NNHAL_VLOG(tag, ...)                                                                     \
  do {                                                                                           \
    if (__builtin_expect(::nnhal::vlog::enabled(::nnhal::vlog::Tag::tag), 0))                    \
      ::nnhal::vlog::detail::write(::nnhal::vlog::Tag::tag, __VA_ARGS__);                        \
  } while (0)
#else
#define NNHAL_VLOG(tag, ...)                                          \
  do {                                                                \
    if (false) (void)sizeof(::nnhal::vlog::Tag::tag); /* tag checked */ \
  } while (0)
#endif
