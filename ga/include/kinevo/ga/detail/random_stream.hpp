// One island's random stream: xoshiro256++ seeded from (master seed, island, run index) through
// boost::random::seed_seq, so that every island's sequence is fixed by those three numbers
// alone, whatever transport runs it. The helpers turn raw 64-bit outputs into numbers directly:
// distribution objects cost more than the generator.
#pragma once

#include <array>
#include <boost/random/seed_seq.hpp>
#include <cmath>
#include <cstdint>
#include <istream>
#include <ostream>

namespace kinevo::ga {

namespace detail {

// xoshiro256++ (Blackman and Vigna, "Scrambled linear pseudorandom number generators", ACM
// TOMS 47(4), 2021): 256 bits of state, period 2^256 - 1, passes BigCrush. It replaced a
// 64-bit Mersenne twister, whose 2.5 kB state and block refill (a call inside every hot loop)
// cost the real-coded GA about a sixth of its time; four words stay in registers.
class xoshiro256pp {
 public:
  std::uint64_t operator()() {
    const std::uint64_t out = rotl(s_[0] + s_[3], 23) + s_[0];
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return out;
  }
  void seed(boost::random::seed_seq& seq) {
    std::array<std::uint32_t, 8> w{};
    seq.generate(w.begin(), w.end());
    for (int k = 0; k < 4; ++k) s_[k] = (std::uint64_t{w[2 * k]} << 32) | w[2 * k + 1];
    if ((s_[0] | s_[1] | s_[2] | s_[3]) == 0) s_[0] = 1;  // the one state it must not be in
  }
  friend std::ostream& operator<<(std::ostream& os, const xoshiro256pp& g) {
    return os << g.s_[0] << ' ' << g.s_[1] << ' ' << g.s_[2] << ' ' << g.s_[3];
  }
  friend std::istream& operator>>(std::istream& is, xoshiro256pp& g) {
    std::array<std::uint64_t, 4> s{};
    if (is >> s[0] >> s[1] >> s[2] >> s[3]) {
      if ((s[0] | s[1] | s[2] | s[3]) == 0) {
        is.setstate(std::ios::failbit);
      } else {
        g.s_ = s;
      }
    }
    return is;
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::array<std::uint64_t, 4> s_{1, 0, 0, 0};
};

// Tables of Marsaglia and Tsang's ziggurat for Exp(1) ("The ziggurat method for generating
// random variables", J. Stat. Softw. 5(8), 2000): 256 layers of equal area v; layer i >= 1 is
// the rectangle [0, x[i]) x [e^-x[i], e^-x[i+1]], layer 0 the rectangle below e^-r plus the
// tail beyond r. Built once per process from std::exp/std::log, so every rank has the same.
struct exponential_ziggurat {
  static constexpr double r = 7.69711747013104972;
  static constexpr double v = 3.949659822581572e-3;  // = (r + 1) e^-r
  std::array<double, 257> x{};
  std::array<double, 257> f{};  // e^-x[i]

  exponential_ziggurat() {
    x[0] = v / std::exp(-r);
    x[1] = r;
    for (int i = 1; i < 255; ++i) x[i + 1] = -std::log(v / x[i] + std::exp(-x[i]));
    x[256] = 0.0;
    for (int i = 0; i < 257; ++i) f[i] = std::exp(-x[i]);
  }
};

// Built during static initialisation: no guard on every draw, as a function-local static has.
inline const exponential_ziggurat ziggurat{};

// The same construction for the standard normal (Marsaglia and Tsang 2000, sec. 2): 256 layers
// of equal area v under f(x) = e^(-x^2 / 2), x >= 0, with the tail beyond r. v is the base
// strip r f(r) plus the tail's integral, from erfc; the recurrence f(x[i+1]) = v / x[i] + f(x[i])
// then closes the top layer [0, x[255]) x [f(x[255]), 1] to within 1e-13 of v.
struct normal_ziggurat {
  static constexpr double r = 3.6541528853610088;
  std::array<double, 257> x{};
  std::array<double, 257> f{};  // e^(-x[i]^2 / 2)

  normal_ziggurat() {
    const double fr = std::exp(-0.5 * r * r);
    const double v = r * fr + 1.2533141373155003 * std::erfc(r * 0.7071067811865476);
    x[0] = v / fr;
    x[1] = r;
    for (int i = 1; i < 255; ++i) {
      x[i + 1] = std::sqrt(-2.0 * std::log(v / x[i] + std::exp(-0.5 * x[i] * x[i])));
    }
    x[256] = 0.0;
    for (int i = 0; i < 257; ++i) f[i] = std::exp(-0.5 * x[i] * x[i]);
  }
};

inline const normal_ziggurat normal_layers{};

}  // namespace detail

class random_stream {
 public:
  random_stream() = default;
  random_stream(std::uint64_t seed, std::uint64_t island, std::uint64_t run) {
    reseed(seed, island, run);
  }

  void reseed(std::uint64_t seed, std::uint64_t island, std::uint64_t run) {
    const auto lo = [](std::uint64_t v) { return static_cast<std::uint32_t>(v & 0xffffffffu); };
    const auto hi = [](std::uint64_t v) { return static_cast<std::uint32_t>(v >> 32); };
    boost::random::seed_seq seq{lo(seed), hi(seed), lo(island), hi(island), lo(run), hi(run)};
    engine_.seed(seq);
    drop_pieces();
  }

  std::uint64_t bits() { return engine_(); }

  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  // Uniform in (0, 1]: safe for log().
  double uniform_open0() { return (static_cast<double>(engine_() >> 11) + 1.0) * 0x1.0p-53; }
  // Uniform integer in [0, n), n < 2^32 (multiply-shift; bias below 2^-32, fixed and portable).
  int below(int n) {
    return static_cast<int>(((engine_() >> 32) * static_cast<std::uint64_t>(n)) >> 32);
  }
  bool chance(double p) { return uniform() < p; }

  // Fair coins from the bits of an engine output, 64 per output. The unused coins are NOT part
  // of the saved state: islands call drop_pieces() at the start of every generation, so a run
  // resumed from a checkpoint (written between generations) draws exactly what the
  // uninterrupted run draws.
  bool coin() {
    if (coins_left_ == 0) {
      coins_ = engine_();
      coins_left_ = 64;
    }
    --coins_left_;
    const bool heads = (coins_ & 1u) != 0;
    coins_ >>= 1;
    return heads;
  }
  // k fair coins (1 <= k <= 64) as the low bits of a word.
  std::uint64_t coins(int k) {
    if (coins_left_ < k) {
      coins_ = engine_();
      coins_left_ = 64;
    }
    const std::uint64_t m = k == 64 ? coins_ : coins_ & ((std::uint64_t{1} << k) - 1);
    coins_ = k == 64 ? 0 : coins_ >> k;
    coins_left_ -= k;
    return m;
  }
  void drop_pieces() { coins_left_ = 0; }

  // Exp(1) by the ziggurat: one engine output (8 bits pick the layer, 53 the abscissa) and no
  // logarithm ~99% of the time; exact in distribution. Replaces -log(uniform) where a log
  // per variate would dominate (geometric skips, powers of uniforms as exp(-E / k)).
  double exponential() {
    const auto& z = detail::ziggurat;
    double shift = 0.0;
    for (;;) {
      const std::uint64_t b = engine_();
      const int i = static_cast<int>(b & 0xffu);
      const double x = static_cast<double>(b >> 11) * 0x1.0p-53 * z.x[i];
      if (x < z.x[i + 1]) return shift + x;  // inside the layer's core, under the curve
      if (i == 0) {
        shift += z.r;  // tail: r + Exp(1) (memoryless)
        continue;
      }
      if (z.f[i] + uniform() * (z.f[i + 1] - z.f[i]) < std::exp(-x)) return shift + x;
    }
  }
  // Geometric skip (as below) from an exponential variate: `inv_minus_log1mp` = -1 / log(1 - p).
  std::uint64_t geometric_skip_exp(double inv_minus_log1mp) {
    const double g = std::floor(exponential() * inv_minus_log1mp);
    // Through int64: a double -> uint64 conversion costs a branch on x86-64.
    return !(g < 9.2e18) ? ~std::uint64_t{0}  // (also NaN: 0 * inf for a denormal rate)
                         : static_cast<std::uint64_t>(static_cast<std::int64_t>(g));
  }
  // Standard normal (Box-Muller, one value per call). Used only by gaussian mutation, whose
  // results it fixes (tests pin them); the crossovers draw ziggurat_normal().
  double normal() {
    const double r = std::sqrt(-2.0 * std::log(uniform_open0()));
    return r * std::cos(6.283185307179586 * uniform());
  }
  // Standard normal by the ziggurat: one engine output (8 bits pick the layer, 1 the sign, 53
  // the abscissa) and no logarithm or trigonometry ~99% of the time; exact in distribution.
  // Box-Muller's log, square root, sine and cosine per pair were an eighth of a G3-PCX run on a
  // cheap objective (n + 1 normals per child).
  double ziggurat_normal() {
    const auto& z = detail::normal_layers;
    for (;;) {
      const std::uint64_t b = engine_();
      const int i = static_cast<int>(b & 0xffu);
      const double sign = (b & 0x100u) != 0 ? -1.0 : 1.0;
      const double x = static_cast<double>(b >> 11) * 0x1.0p-53 * z.x[i];
      if (x < z.x[i + 1]) return sign * x;  // inside the layer's core, under the curve
      if (i == 0) {
        // The tail beyond r (Marsaglia 1964, as in Marsaglia and Tsang): r + t with t = E1 / r,
        // accepted when 2 E2 > t^2, E1 and E2 independent Exp(1).
        for (;;) {
          const double t = exponential() / z.r;
          if (2.0 * exponential() > t * t) return sign * (z.r + t);
        }
      }
      if (z.f[i] + uniform() * (z.f[i + 1] - z.f[i]) < std::exp(-0.5 * x * x)) return sign * x;
    }
  }
  // Fills `out` with independent standard normals (the multi-parent crossovers draw n per child).
  template <typename Vector>
  void normals(Vector& out) {
    const auto size = out.size();
    for (decltype(out.size()) k = 0; k < size; ++k) out[k] = ziggurat_normal();
  }
  // Number of failures before the next success of a Bernoulli(p) sequence: geometric skip, so
  // that sparse events (bit mutations) cost one random number per event, not one per trial.
  // `log1mp` = log(1 - p) < 0.
  std::uint64_t geometric_skip(double log1mp) {
    const double g = std::floor(std::log(uniform_open0()) / log1mp);
    return g >= 1.8e19 ? ~std::uint64_t{0} : static_cast<std::uint64_t>(g);
  }

  // The engine alone: the pieces are dropped at every generation start (see coin()).
  friend std::ostream& operator<<(std::ostream& os, const random_stream& r) {
    return os << r.engine_;
  }
  friend std::istream& operator>>(std::istream& is, random_stream& r) {
    r.drop_pieces();
    return is >> r.engine_;
  }

 private:
  detail::xoshiro256pp engine_;
  std::uint64_t coins_ = 0;
  int coins_left_ = 0;
};

}  // namespace kinevo::ga
