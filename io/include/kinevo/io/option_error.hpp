// Validation of numeric option fields: an options struct's validate() throws option_error (in
// io/errors.hpp) naming the field and its allowed range, so that a C++ caller and the CLI (which
// renames the field to its --option) refuse the same values with the same words.
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "kinevo/io/errors.hpp"  // option_error

namespace kinevo::io {

// The bounds of a real interval; open ends exclude the bound, infinite bounds mean none.
struct real_range {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool lo_open = false;
  bool hi_open = false;

  bool contains(double v) const {
    if (!std::isfinite(v)) return false;  // NaN and infinities are never a usable setting
    if (lo_open ? !(v > lo) : !(v >= lo)) return false;
    return hi_open ? v < hi : v <= hi;
  }
  std::string describe() const {
    const bool has_lo = std::isfinite(lo), has_hi = std::isfinite(hi);
    if (has_lo && has_hi) {
      return fmt::format("in {}{:g}, {:g}{}", lo_open ? '(' : '[', lo, hi, hi_open ? ')' : ']');
    }
    if (has_lo) return fmt::format("{} {:g}", lo_open ? ">" : ">=", lo);
    if (has_hi) return fmt::format("{} {:g}", hi_open ? "<" : "<=", hi);
    return "";
  }
};

inline real_range positive() {
  return {0.0, std::numeric_limits<double>::infinity(), true};
}
inline real_range non_negative() {
  return {0.0, std::numeric_limits<double>::infinity()};
}
inline real_range any_finite() {
  return {};
}

// Throws option_error(field, what) unless ok: a condition between fields that no range states.
inline void require_option(bool ok, const std::string& field, const std::string& what) {
  if (!ok) throw option_error(field, what);
}

// Throws option_error unless v is finite and in `range`.
inline void require_real(const std::string& field, double v, const real_range& range) {
  if (range.contains(v)) return;
  const std::string where = range.describe();
  throw option_error(
      field, fmt::format("must be finite{}{} (got {})", where.empty() ? "" : " and ", where, v));
}

// Throws option_error unless lo <= v <= hi.
inline void require_integer(const std::string& field, long long v, long long lo,
                            long long hi = std::numeric_limits<long long>::max()) {
  if (v >= lo && v <= hi) return;
  throw option_error(field,
                     hi == std::numeric_limits<long long>::max()
                         ? fmt::format("must be an integer >= {} (got {})", lo, v)
                         : fmt::format("must be an integer in [{}, {}] (got {})", lo, hi, v));
}

}  // namespace kinevo::io
