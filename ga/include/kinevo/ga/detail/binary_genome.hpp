// Bit-string genomes: b bits per variable packed into 64-bit words, decoded onto [lo, hi] as in
// GAucsd (Schraudolph and Grefenstette's package used by the generalized-inverse dissertation
// (GIGSP), sec. 5.4): x = lo + (hi - lo) k / (2^b - 1), with k the plain or Gray-decoded integer.
#pragma once

#include <cstdint>
#include <span>

namespace kinevo::ga {

struct binary_layout {
  int variables = 0;
  int bits = 16;  // per variable, 1..32
  int total_bits() const { return variables * bits; }
  int words() const { return (total_bits() + 63) / 64; }
};

// The b-bit field starting at bit `offset` (bit i of the genome is bit i % 64 of word i / 64).
inline std::uint32_t read_field(std::span<const std::uint64_t> g, int offset, int bits) {
  const int w = offset >> 6;
  const int s = offset & 63;
  std::uint64_t v = g[w] >> s;
  if (s + bits > 64) v |= g[w + 1] << (64 - s);
  return static_cast<std::uint32_t>(v & ((std::uint64_t{1} << bits) - 1));
}

inline void write_field(std::span<std::uint64_t> g, int offset, int bits, std::uint32_t value) {
  const int w = offset >> 6;
  const int s = offset & 63;
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  const std::uint64_t v = value & mask;
  g[w] = (g[w] & ~(mask << s)) | (v << s);
  if (s + bits > 64) {
    const int spill = 64 - s;
    g[w + 1] = (g[w + 1] & ~(mask >> spill)) | (v >> spill);
  }
}

inline std::uint32_t gray_to_binary(std::uint32_t g) {
  g ^= g >> 16;
  g ^= g >> 8;
  g ^= g >> 4;
  g ^= g >> 2;
  g ^= g >> 1;
  return g;
}
inline std::uint32_t binary_to_gray(std::uint32_t b) {
  return b ^ (b >> 1);
}

// Integer of the field -> value in [lo, hi] (k = 0 -> lo, k = 2^b - 1 -> hi).
inline double decode_value(std::uint32_t k, int bits, double lo, double hi) {
  const double top = static_cast<double>((std::uint64_t{1} << bits) - 1);
  return lo + (hi - lo) * (static_cast<double>(k) / top);
}
// Nearest grid integer of a value (clamped into [lo, hi]).
inline std::uint32_t encode_value(double x, int bits, double lo, double hi) {
  const double top = static_cast<double>((std::uint64_t{1} << bits) - 1);
  double t = (x - lo) / (hi - lo);
  t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
  return static_cast<std::uint32_t>(t * top + 0.5);
}

}  // namespace kinevo::ga
