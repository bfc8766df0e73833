#pragma once
/// \file
/// Errors as values. An Error carries an ErrorStatus and a message in an inline buffer, so
/// reporting an error never allocates (with NNHAL_ERROR_MESSAGES=0, the status alone);
/// Expected<T> holds either a value or an Error.

// <cinttypes>: messages format fixed-width integers with PRIu32 / PRId32 (uint32_t and int32_t are
// unsigned long and long on arm-none-eabi, unsigned int and int on Linux), so every caller of
// NNHAL_INVALID / NNHAL_FAILURE / Error::prefix gets the macros from here.
#include <cinttypes>
#include <cstdarg>
#include <cstring>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

#include "nnhal/config.hpp"
#include "nnhal/core/enums.hpp"
#include "nnhal/core/format.hpp"

namespace nnhal {

/// A failure: the HAL status to report and a human-readable reason (truncated to
/// NNHAL_ERROR_MESSAGE_CAPACITY - 1 bytes).
class Error {
 public:
  Error() noexcept : Error(ErrorStatus::GENERAL_FAILURE, std::string_view{}) {}
#if NNHAL_ERROR_MESSAGES
  Error(ErrorStatus status, std::string_view message) noexcept : status_(status) {
    const std::size_t n = message.size() < kCapacity - 1 ? message.size() : kCapacity - 1;
    if (n != 0) std::memcpy(message_, message.data(), n);
    message_[n] = '\0';
  }

  /// printf-style constructor (nnhal::vformat, the same text on every C library).
  [[gnu::format(printf, 2, 3)]] static Error format(ErrorStatus status, const char* fmt,
                                                    ...) noexcept {
    Error e(status, std::string_view{});
    va_list args;
    va_start(args, fmt);
    vformat(e.message_, kCapacity, fmt, args);
    va_end(args);
    return e;
  }

  /// Prepends "context: " to the message (keeps the status).
  [[gnu::format(printf, 2, 3)]] Error& prefix(const char* fmt, ...) noexcept {
    char head[kCapacity];
    va_list args;
    va_start(args, fmt);
    vformat(head, kCapacity, fmt, args);
    va_end(args);
    char joined[kCapacity];
    std::size_t at = 0;
    auto append = [&](const char* s) {
      for (; *s != '\0' && at + 1 < kCapacity; ++s) joined[at++] = *s;
    };
    append(head);
    append(": ");
    append(message_);
    joined[at] = '\0';
    std::memcpy(message_, joined, at + 1);
    return *this;
  }
#else
  // NNHAL_ERROR_MESSAGES=0: the status only. These take the same arguments as the functions
  // above and ignore them; being templates they are inlined, so no message text stays in the
  // program.
  Error(ErrorStatus status, std::string_view) noexcept : status_(status) { message_[0] = '\0'; }
  template <class... Args>
  static Error format(ErrorStatus status, const char*, const Args&...) noexcept {
    return Error(status, std::string_view{});
  }
  template <class... Args>
  Error& prefix(const char*, const Args&...) noexcept {
    return *this;
  }
#endif

  ErrorStatus status() const noexcept { return status_; }
  std::string_view message() const noexcept { return message_; }
  const char* c_str() const noexcept { return message_; }

 private:
  static constexpr std::size_t kCapacity = NNHAL_ERROR_MESSAGE_CAPACITY;
  static_assert(kCapacity >= 1, "NNHAL_ERROR_MESSAGE_CAPACITY counts the terminator");
  ErrorStatus status_;
  char message_[kCapacity];
};

#if NNHAL_ERROR_MESSAGES
/// Shorthand for an INVALID_ARGUMENT error with a printf-style message.
#define NNHAL_INVALID(...) ::nnhal::Error::format(::nnhal::ErrorStatus::INVALID_ARGUMENT, __VA_ARGS__)
/// Shorthand for a GENERAL_FAILURE error with a printf-style message.
#define NNHAL_FAILURE(...) ::nnhal::Error::format(::nnhal::ErrorStatus::GENERAL_FAILURE, __VA_ARGS__)
#else
namespace detail {
template <class... Args>
int message_arguments(const Args&...) noexcept;  // never defined: named in sizeof only
}  // namespace detail
// The message's arguments are named in an unevaluated operand only: nothing is computed for a
// message nobody reads, and parameters used only in messages still count as used.
#define NNHAL_INVALID(...)                                                    \
  ((void)sizeof(::nnhal::detail::message_arguments(__VA_ARGS__)),             \
   ::nnhal::Error(::nnhal::ErrorStatus::INVALID_ARGUMENT, ::std::string_view{}))
#define NNHAL_FAILURE(...)                                                    \
  ((void)sizeof(::nnhal::detail::message_arguments(__VA_ARGS__)),             \
   ::nnhal::Error(::nnhal::ErrorStatus::GENERAL_FAILURE, ::std::string_view{}))
#endif

/// Either a T or an Error. Never throws: accessing the wrong alternative is a debug-checked
/// precondition violation.
template <class T>
class [[nodiscard]] Expected {
 public:
  Expected(const T& v) : v_(std::in_place_index<0>, v) {}
  Expected(T&& v) : v_(std::in_place_index<0>, std::move(v)) {}
  Expected(Error e) noexcept : v_(std::in_place_index<1>, std::move(e)) {}
  template <class... A>
  explicit Expected(std::in_place_t, A&&... a) : v_(std::in_place_index<0>, std::forward<A>(a)...) {}

  bool has_value() const noexcept { return v_.index() == 0; }
  explicit operator bool() const noexcept { return has_value(); }

  T& value() & noexcept { NNHAL_ASSERT(has_value()); return *std::get_if<0>(&v_); }
  const T& value() const& noexcept { NNHAL_ASSERT(has_value()); return *std::get_if<0>(&v_); }
  T&& value() && noexcept { NNHAL_ASSERT(has_value()); return std::move(*std::get_if<0>(&v_)); }
  T& operator*() & noexcept { return value(); }
  const T& operator*() const& noexcept { return value(); }
  T&& operator*() && noexcept { return std::move(value()); }
  T* operator->() noexcept { return &value(); }
  const T* operator->() const noexcept { return &value(); }

  const Error& error() const& noexcept { NNHAL_ASSERT(!has_value()); return *std::get_if<1>(&v_); }
  Error& error() & noexcept { NNHAL_ASSERT(!has_value()); return *std::get_if<1>(&v_); }

 private:
  std::variant<T, Error> v_;
};

/// Success or an Error.
template <>
class [[nodiscard]] Expected<void> {
 public:
  // User-provided on purpose: a defaulted constructor would make `return {};` value-initialize
  // (zero) the whole message buffer on every successful call.
  Expected() noexcept {}
  Expected(Error e) noexcept : ok_(false), error_(std::move(e)) {}
  bool has_value() const noexcept { return ok_; }
  explicit operator bool() const noexcept { return ok_; }
  const Error& error() const noexcept { NNHAL_ASSERT(!ok_); return error_; }
  Error& error() noexcept { NNHAL_ASSERT(!ok_); return error_; }

 private:
  bool ok_ = true;
  Error error_{ErrorStatus::NONE, std::string_view{}};
};

/// Result of an operation that yields nothing on success.
using Status = Expected<void>;

/// Propagates an error from an expression yielding Expected<...>.
#define NNHAL_TRY(expr)                                   \
  do {                                                    \
    if (auto nnhal_try_result_ = (expr); !nnhal_try_result_) \
      return std::move(nnhal_try_result_.error());        \
  } while (false)

}  // namespace nnhal
