#pragma once
/// \file
/// nnhal's own printf-style formatter, so that error messages read the same on every C library.
///
/// Why: firmware links newlib-nano, whose printf has no %zu, no %ll.. and no floating point
/// unless asked; nnhal's messages use all three. This formatter is freestanding (no <cstdio>, no
/// heap, no floating-point arithmetic: doubles are taken apart bit by bit; on 32-bit targets it
/// uses only 32-bit divisions, so it pulls no 64-bit division helper from libgcc).
///
///   std::size_t nnhal::vformat(char* out, std::size_t capacity, const char* fmt, va_list);
///   std::size_t nnhal::format(char* out, std::size_t capacity, const char* fmt, ...);
///
/// Semantics of vsnprintf: writes at most capacity - 1 characters and a NUL (nothing at all when
/// capacity is 0), returns the length the full text would have. `format` carries
/// [[gnu::format(printf, 3, 4)]], so g++/clang check every call's arguments against its format.
///
/// Supported: flags - 0 + space #; width and precision (digits or *); length modifiers hh h l ll z
/// j t; conversions d i u o x X c s p f F e E g G %. %s of a null pointer prints "(null)" (as
/// glibc: nothing when the precision is below 6), %p prints 0x... in lower-case hex and "(nil)"
/// for null. Not supported: %n (writes nothing), %a/%A, %L (long double), %ls/%lc; such a
/// conversion is copied to the output as written (%n and %a/%A still consume their argument,
/// so the ones after them print right).
///
/// Floating point (%f %F %e %E %g %G): exact. The digits come from round-half-even of the exact
/// binary value (the double's 53-bit mantissa times a power of two, times a power of ten, in a
/// 1344-bit integer), which is what glibc prints: the same text for every finite double (all
/// magnitudes, denormals included) when the precision is at most 40 (%f and %e: digits after
/// the point; %g: up to 41 significant digits). Above that, the value is rounded at the 40th
/// digit (41st significant for %g) and the further requested digits are printed as '0', where
/// glibc prints the exact binary expansion. inf and nan print as glibc does: "inf", "-inf",
/// "nan", "-nan" (upper case for F E G), padded with spaces, never zeros. One deliberate
/// difference: %#g whose rounding carries into e-style (999999.5 at the default precision) keeps
/// its zeros, "1.00000e+06", as the C standard says; glibc 2.36 prints "1.e+06".
///
/// Cost on a Cortex-M7 (arm-none-eabi-g++ 12 -Os -mthumb): about 3.8 KB of code, and about
/// 850 bytes of stack while formatting a double (110 for the other conversions).

#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace nnhal {

namespace format_detail {

/// The output: counts every character, stores those that fit before the NUL.
struct Sink {
  char* out;
  std::size_t cap;
  std::size_t n = 0;
  void put(char c) noexcept {
    if (n + 1 < cap) out[n] = c;
    ++n;
  }
  void put(const char* s, std::size_t len) noexcept {
    for (std::size_t i = 0; i < len; ++i) put(s[i]);
  }
  void fill(char c, std::size_t count) noexcept {
    for (; count != 0; --count) put(c);
  }
};

/// One conversion's flags, width and precision.
struct Spec {
  bool left = false, plus = false, space = false, alt = false, zero = false;
  std::size_t width = 0;
  int precision = -1;  // -1: not given
};

/// Emits prefix, `zeros` '0's, body, `tail_zeros` '0's and suffix, padded to the width: with
/// spaces on the left (or right for '-'), or with '0's after the prefix when `zero_pad`.
inline void emit(Sink& s, const Spec& spec, bool zero_pad, const char* prefix, std::size_t prefix_len,
                 std::size_t zeros, const char* body, std::size_t body_len, std::size_t tail_zeros,
                 const char* suffix, std::size_t suffix_len) noexcept {
  const std::size_t len = prefix_len + zeros + body_len + tail_zeros + suffix_len;
  const std::size_t pad = spec.width > len ? spec.width - len : 0;
  if (!spec.left && !zero_pad) s.fill(' ', pad);
  s.put(prefix, prefix_len);
  if (!spec.left && zero_pad) s.fill('0', pad);
  s.fill('0', zeros);
  s.put(body, body_len);
  s.fill('0', tail_zeros);
  s.put(suffix, suffix_len);
  if (spec.left) s.fill(' ', pad);
}

/// v /= d, returns v % d, with 32-bit divisions only (d <= 65536).
inline std::uint32_t divmod_u64(std::uint64_t& v, std::uint32_t d) noexcept {
  const std::uint32_t hi = static_cast<std::uint32_t>(v >> 32);
  const std::uint32_t lo = static_cast<std::uint32_t>(v);
  const std::uint32_t qh = hi / d;
  std::uint32_t r = hi % d;
  std::uint32_t t = (r << 16) | (lo >> 16);
  const std::uint32_t q1 = t / d;
  r = t % d;
  t = (r << 16) | (lo & 0xffffu);
  const std::uint32_t q0 = t / d;
  r = t % d;
  v = (static_cast<std::uint64_t>(qh) << 32) | (q1 << 16) | q0;
  return r;
}

/// Digits of v in `base` (8, 10, 16), written backwards ending at `end`; returns the first.
inline char* utoa(std::uint64_t v, unsigned base, bool upper, char* end) noexcept {
  const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  char* p = end;
  if (base == 10) {
    while (v >> 32 != 0) {
      std::uint32_t r = divmod_u64(v, 10000);
      for (int i = 0; i < 4; ++i, r /= 10) *--p = static_cast<char>('0' + r % 10);
    }
    for (std::uint32_t w = static_cast<std::uint32_t>(v); w != 0; w /= 10)
      *--p = static_cast<char>('0' + w % 10);
  } else {
    const unsigned shift = base == 16 ? 4 : 3;
    for (; v != 0; v >>= shift) *--p = digits[v & (base - 1)];
  }
  return p;
}

/// Integer conversions d i u o x X p.
inline void format_integer(Sink& s, Spec spec, std::uint64_t magnitude, bool negative, bool is_signed,
                           unsigned base, bool upper) noexcept {
  char buf[24];
  char* const end = buf + sizeof buf;
  char* first = utoa(magnitude, base, upper, end);
  std::size_t digits = static_cast<std::size_t>(end - first);
  char prefix[2];
  std::size_t prefix_len = 0;
  if (is_signed) {
    if (negative) prefix[prefix_len++] = '-';
    else if (spec.plus) prefix[prefix_len++] = '+';
    else if (spec.space) prefix[prefix_len++] = ' ';
  }
  if (base == 16 && spec.alt && magnitude != 0) {
    prefix[prefix_len++] = '0';
    prefix[prefix_len++] = upper ? 'X' : 'x';
  }
  std::size_t zeros = 0;
  if (spec.precision >= 0) {
    const std::size_t p = static_cast<std::size_t>(spec.precision);
    if (p > digits) zeros = p - digits;
  } else if (digits == 0) {
    zeros = 1;  // the value 0 with no precision prints "0"
  }
  if (base == 8 && spec.alt && zeros == 0 && (digits == 0 || *first != '0')) zeros = 1;
  emit(s, spec, spec.zero && !spec.left && spec.precision < 0, prefix, prefix_len, zeros, first, digits, 0,
       nullptr, 0);
}

/// A non-negative integer in 16-bit limbs (little end first), large enough for every finite
/// double times 10^(precision + 1 - exponent) with precision <= kMaxFloatPrecision.
struct Big {
  static constexpr int kLimbs = 84;
  std::uint16_t limb[kLimbs];
  int n = 0;  // limbs in use; limb[n - 1] != 0 unless n == 0

  void set(std::uint64_t v) noexcept {
    n = 0;
    for (; v != 0; v >>= 16) limb[n++] = static_cast<std::uint16_t>(v);
  }
  void mul(std::uint32_t k) noexcept {  // k <= 10000
    std::uint32_t carry = 0;
    for (int i = 0; i < n; ++i) {
      const std::uint32_t t = limb[i] * k + carry;
      limb[i] = static_cast<std::uint16_t>(t);
      carry = t >> 16;
    }
    if (carry != 0) limb[n++] = static_cast<std::uint16_t>(carry);
  }
  std::uint32_t div(std::uint32_t d) noexcept {  // d <= 10000; returns the remainder
    std::uint32_t r = 0;
    for (int i = n - 1; i >= 0; --i) {
      const std::uint32_t t = (r << 16) | limb[i];
      limb[i] = static_cast<std::uint16_t>(t / d);
      r = t % d;
    }
    while (n > 0 && limb[n - 1] == 0) --n;
    return r;
  }
  void shl(int bits) noexcept {
    if (n == 0) return;
    const int whole = bits / 16, part = bits % 16;
    limb[n] = 0;
    for (int i = n; i >= 0; --i) {
      const std::uint32_t hi = static_cast<std::uint32_t>(limb[i]) << part;
      const std::uint32_t lo = i > 0 ? static_cast<std::uint32_t>(limb[i - 1]) >> (16 - part) : 0;
      limb[i + whole] = static_cast<std::uint16_t>(hi | (part != 0 ? lo : 0));
    }
    for (int i = 0; i < whole; ++i) limb[i] = 0;
    n += whole + 1;
    while (n > 0 && limb[n - 1] == 0) --n;
  }
  bool shr(int bits) noexcept {  // returns whether a 1 bit was shifted out
    const int whole = bits / 16, part = bits % 16;
    if (whole >= n) {
      const bool lost = n != 0;
      n = 0;
      return lost;
    }
    bool lost = false;
    for (int i = 0; i < whole; ++i) lost |= limb[i] != 0;
    lost |= (limb[whole] & ((1u << part) - 1)) != 0;
    for (int i = whole; i < n; ++i) {
      const std::uint32_t lo = static_cast<std::uint32_t>(limb[i]) >> part;
      const std::uint32_t hi = i + 1 < n ? static_cast<std::uint32_t>(limb[i + 1]) << (16 - part) : 0;
      limb[i - whole] = static_cast<std::uint16_t>(lo | hi);
    }
    n -= whole;
    while (n > 0 && limb[n - 1] == 0) --n;
    return lost;
  }
  void add1() noexcept {
    for (int i = 0; i < n; ++i)
      if (++limb[i] != 0) return;
    limb[n++] = 1;
  }
};

inline constexpr int kMaxFloatPrecision = 40;
/// Longest digit string: DBL_MAX has 309 integer digits, plus 40 after the point, plus slack.
inline constexpr int kMaxDigits = 360;

/// Decimal digits of round-half-even(mantissa * 2^exp2 * 10^exp10) into `out` (no leading zeros,
/// "0" for zero; `out` holds kMaxDigits + 4); returns their count.
inline int scaled_digits(std::uint64_t mantissa, int exp2, int exp10, char* out) noexcept {
  Big b;
  b.set(mantissa);
  b.shl(1);  // one more bit: after the divisions, bit 0 is the half
  bool sticky = false;
  if (exp2 > 0) b.shl(exp2);
  for (int e = exp10; e > 0; e -= 4) b.mul(e >= 4 ? 10000u : (e == 3 ? 1000u : e == 2 ? 100u : 10u));
  if (exp2 < 0) sticky |= b.shr(-exp2);
  for (int e = -exp10; e > 0; e -= 4) sticky |= b.div(e >= 4 ? 10000u : (e == 3 ? 1000u : e == 2 ? 100u : 10u)) != 0;
  const bool half = b.n != 0 && (b.limb[0] & 1u) != 0;
  b.shr(1);
  if (half && (sticky || (b.n != 0 && (b.limb[0] & 1u) != 0))) b.add1();
  int len = 0;  // digits written backwards, four at a time, then turned around
  while (b.n != 0) {
    std::uint32_t r = b.div(10000);
    for (int i = 0; i < 4; ++i, r /= 10) out[len++] = static_cast<char>('0' + r % 10);
  }
  while (len > 0 && out[len - 1] == '0') --len;
  if (len == 0) out[len++] = '0';
  for (int i = 0, j = len - 1; i < j; ++i, --j) {
    const char c = out[i];
    out[i] = out[j];
    out[j] = c;
  }
  return len;
}

/// round(x * 10^(precision - X)) with exactly precision + 1 digits, X the decimal exponent of
/// the rounded value (so d.ddd * 10^X); mantissa != 0.
inline int significant_digits(std::uint64_t mantissa, int exp2, int precision, char* out, int& exponent) noexcept {
  int bits = 0;
  for (std::uint64_t m = mantissa; m != 0; m >>= 1) ++bits;
  // floor(log10(2^(exp2 + bits - 1))), a low estimate; the loop corrects it.
  // 1233 / 4096 is just below log10(2): the estimate is low (never high) by at most 2.
  const int e2 = exp2 + bits - 1;
  int x = ((e2 * 1233) >> 12) - (e2 < 0 ? 1 : 0);
  int len = 0;
  for (int tries = 0; tries < 5; ++tries) {
    len = scaled_digits(mantissa, exp2, precision - x, out);
    if (len > precision + 1) ++x;
    else if (len < precision + 1 || out[0] == '0') --x;
    else break;
  }
  exponent = x;
  return len;
}

/// Floating conversions f F e E g G.
inline void format_float(Sink& s, Spec spec, double value, char conv) noexcept {
  std::uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  const bool negative = (bits >> 63) != 0;
  const int biased = static_cast<int>((bits >> 52) & 0x7ff);
  std::uint64_t mantissa = bits & ((std::uint64_t{1} << 52) - 1);
  const bool upper = conv == 'F' || conv == 'E' || conv == 'G';
  char sign[1];
  std::size_t sign_len = 0;
  if (negative) sign[sign_len++] = '-';
  else if (spec.plus) sign[sign_len++] = '+';
  else if (spec.space) sign[sign_len++] = ' ';
  if (biased == 0x7ff) {
    const char* text = mantissa != 0 ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf");
    emit(s, spec, false, sign, sign_len, 0, text, 3, 0, nullptr, 0);
    return;
  }
  int exp2;
  if (biased == 0) {
    exp2 = -1074;
  } else {
    mantissa |= std::uint64_t{1} << 52;
    exp2 = biased - 1075;
  }
  while (mantissa != 0 && (mantissa & 1u) == 0) {
    mantissa >>= 1;
    ++exp2;
  }
  const bool is_zero = mantissa == 0;
  const char lower = static_cast<char>(conv | 0x20);
  int precision = spec.precision < 0 ? 6 : spec.precision;
  if (lower == 'g' && precision == 0) precision = 1;
  const int computed = precision > kMaxFloatPrecision + (lower == 'g' ? 1 : 0)
                           ? kMaxFloatPrecision + (lower == 'g' ? 1 : 0)
                           : precision;
  std::size_t extra = static_cast<std::size_t>(precision - computed);  // zeros past the exact digits

  // One buffer: the digits, then turned in place into the text between sign and exponent.
  char text[kMaxDigits + 8];
  char exp_text[8];
  std::size_t exp_len = 0;
  int len = 0, exponent = 0;
  auto insert = [&](int at, char c, int count) {  // `count` copies of c at `at`
    std::memmove(text + at + count, text + at, static_cast<std::size_t>(len - at));
    for (int i = 0; i < count; ++i) text[at + i] = c;
    len += count;
  };

  bool style_e = lower == 'e';
  int frac_digits = computed;  // digits after the point (before stripping, for g)
  if (lower == 'f') {
    len = is_zero ? (text[0] = '0', 1) : scaled_digits(mantissa, exp2, computed, text);
  } else {
    const int p = lower == 'g' ? computed - 1 : computed;  // digits after the first
    if (is_zero) {
      for (int i = 0; i <= p; ++i) text[i] = '0';
      len = p + 1;
      exponent = 0;
    } else {
      len = significant_digits(mantissa, exp2, p, text, exponent);
    }
    if (lower == 'g') {
      style_e = exponent < -4 || exponent >= precision;
      // The same digits in fixed notation have p - exponent digits after the point.
      frac_digits = style_e ? p : p - exponent;
    }
  }

  if (style_e) {
    if (len > 1 || spec.alt || extra != 0) insert(1, '.', 1);
    exp_text[exp_len++] = upper ? 'E' : 'e';
    exp_text[exp_len++] = exponent < 0 ? '-' : '+';
    unsigned e = static_cast<unsigned>(exponent < 0 ? -exponent : exponent);
    char ebuf[4];
    int elen = 0;
    do {
      ebuf[elen++] = static_cast<char>('0' + e % 10);
      e /= 10;
    } while (e != 0);
    if (elen < 2) ebuf[elen++] = '0';
    while (elen > 0) exp_text[exp_len++] = ebuf[--elen];
  } else {
    // Fixed: the digits are round(x * 10^frac_digits); at least frac_digits + 1 of them.
    if (len < frac_digits + 1) insert(0, '0', frac_digits + 1 - len);
    if (frac_digits > 0 || spec.alt || extra != 0) insert(len - frac_digits, '.', 1);
  }
  std::size_t body_len = static_cast<std::size_t>(len);
  if (lower == 'g' && !spec.alt) {
    extra = 0;
    // Strip trailing zeros of the fraction, and the point when nothing remains after it.
    std::size_t point = body_len;
    for (std::size_t i = 0; i < body_len; ++i)
      if (text[i] == '.') point = i;
    if (point != body_len) {
      while (body_len > point + 1 && text[body_len - 1] == '0') --body_len;
      if (body_len == point + 1) --body_len;
    }
  }
  emit(s, spec, spec.zero && !spec.left, sign, sign_len, 0, text, body_len, extra, exp_text, exp_len);
}

}  // namespace format_detail

/// vsnprintf with nnhal's formatter: see the file comment.
[[gnu::format(printf, 3, 0)]] inline std::size_t vformat(char* out, std::size_t capacity, const char* fmt,
                                                         va_list args) noexcept {
  using namespace format_detail;
  Sink s{out, capacity};
  while (*fmt != '\0') {
    if (*fmt != '%') {
      s.put(*fmt++);
      continue;
    }
    const char* const start = fmt++;
    Spec spec;
    for (;; ++fmt) {
      if (*fmt == '-') spec.left = true;
      else if (*fmt == '+') spec.plus = true;
      else if (*fmt == ' ') spec.space = true;
      else if (*fmt == '#') spec.alt = true;
      else if (*fmt == '0') spec.zero = true;
      else break;
    }
    if (*fmt == '*') {
      const int w = va_arg(args, int);
      if (w < 0) {
        spec.left = true;
        spec.width = static_cast<std::size_t>(-static_cast<long long>(w));
      } else {
        spec.width = static_cast<std::size_t>(w);
      }
      ++fmt;
    } else {
      for (; *fmt >= '0' && *fmt <= '9'; ++fmt) spec.width = spec.width * 10 + static_cast<std::size_t>(*fmt - '0');
    }
    if (*fmt == '.') {
      ++fmt;
      if (*fmt == '*') {
        const int p = va_arg(args, int);
        spec.precision = p < 0 ? -1 : p;
        ++fmt;
      } else {
        int p = 0;
        for (; *fmt >= '0' && *fmt <= '9'; ++fmt) p = p * 10 + (*fmt - '0');
        spec.precision = p;
      }
    }
    // Length: 'H' hh, 'h', 'l', 'L' ll, 'z', 'j', 't', or 0.
    char length = 0;
    if (*fmt == 'h') {
      length = 'h';
      if (*++fmt == 'h') { length = 'H'; ++fmt; }
    } else if (*fmt == 'l') {
      length = 'l';
      if (*++fmt == 'l') { length = 'L'; ++fmt; }
    } else if (*fmt == 'z' || *fmt == 'j' || *fmt == 't') {
      length = *fmt++;
    }
    const char conv = *fmt;
    if (conv == '\0') {  // a lone '%' at the end: copied as written
      s.put(start, static_cast<std::size_t>(fmt - start));
      break;
    }
    ++fmt;
    switch (conv) {
      case 'd':
      case 'i': {
        long long v;
        switch (length) {
          case 'H': v = static_cast<signed char>(va_arg(args, int)); break;
          case 'h': v = static_cast<short>(va_arg(args, int)); break;
          case 'l': v = va_arg(args, long); break;
          case 'L': v = va_arg(args, long long); break;
          case 'z': v = static_cast<long long>(va_arg(args, std::ptrdiff_t)); break;  // signed size_t
          case 'j': v = static_cast<long long>(va_arg(args, std::intmax_t)); break;
          case 't': v = static_cast<long long>(va_arg(args, std::ptrdiff_t)); break;
          default: v = va_arg(args, int); break;
        }
        const std::uint64_t magnitude =
            v < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
        format_integer(s, spec, magnitude, v < 0, true, 10, false);
        break;
      }
      case 'u':
      case 'o':
      case 'x':
      case 'X': {
        std::uint64_t v;
        switch (length) {
          case 'H': v = static_cast<unsigned char>(va_arg(args, unsigned)); break;
          case 'h': v = static_cast<unsigned short>(va_arg(args, unsigned)); break;
          case 'l': v = va_arg(args, unsigned long); break;
          case 'L': v = va_arg(args, unsigned long long); break;
          case 'z': v = va_arg(args, std::size_t); break;
          case 'j': v = static_cast<std::uint64_t>(va_arg(args, std::uintmax_t)); break;
          case 't': v = static_cast<std::size_t>(va_arg(args, std::ptrdiff_t)); break;  // same width
          default: v = va_arg(args, unsigned); break;
        }
        format_integer(s, spec, v, false, false, conv == 'u' ? 10 : conv == 'o' ? 8 : 16, conv == 'X');
        break;
      }
      case 'p': {
        const void* p = va_arg(args, void*);
        if (p == nullptr) {
          Spec text = spec;
          text.precision = -1;
          emit(s, text, false, nullptr, 0, 0, "(nil)", 5, 0, nullptr, 0);
        } else {
          spec.alt = true;
          format_integer(s, spec, static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p)), false,
                         spec.plus || spec.space, 16, false);
        }
        break;
      }
      case 'c': {
        const char c = static_cast<char>(va_arg(args, int));
        emit(s, spec, false, nullptr, 0, 0, &c, 1, 0, nullptr, 0);
        break;
      }
      case 's': {
        const char* str = va_arg(args, const char*);
        if (str == nullptr) str = spec.precision < 0 || spec.precision >= 6 ? "(null)" : "";
        std::size_t len = 0;
        if (spec.precision < 0) len = std::strlen(str);
        else
          while (len < static_cast<std::size_t>(spec.precision) && str[len] != '\0') ++len;
        emit(s, spec, false, nullptr, 0, 0, str, len, 0, nullptr, 0);
        break;
      }
      case 'f':
      case 'F':
      case 'e':
      case 'E':
      case 'g':
      case 'G':
        format_float(s, spec, va_arg(args, double), conv);
        break;
      case '%':
        s.put('%');
        break;
      default:  // not supported: copied as written; %a and %n still take their argument
        if (conv == 'a' || conv == 'A') static_cast<void>(va_arg(args, double));
        else if (conv == 'n') static_cast<void>(va_arg(args, void*));
        s.put(start, static_cast<std::size_t>(fmt - start));
        break;
    }
  }
  if (capacity != 0) out[s.n < capacity ? s.n : capacity - 1] = '\0';
  return s.n;
}

/// snprintf with nnhal's formatter: see the file comment.
[[gnu::format(printf, 3, 4)]] inline std::size_t format(char* out, std::size_t capacity, const char* fmt,
                                                        ...) noexcept {
  va_list args;
  va_start(args, fmt);
  const std::size_t n = vformat(out, capacity, fmt, args);
  va_end(args);
  return n;
}

}  // namespace nnhal
