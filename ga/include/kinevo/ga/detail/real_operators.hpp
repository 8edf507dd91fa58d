// The arithmetic of the real-coded operators, apart from the island so that their distributions
// can be tested directly: powers for a distribution index eta, the spread factors of bounded SBX
// and the step of bounded polynomial mutation, both as defined by Deb's NSGA-II code. The
// samplers draw differently from NSGA-II's inverse-CDF formulas wherever that saves a pow or a
// log (these dominated the real-coded GA's time), but the distributions are the same:
// tests/ga/test_real_operators.cpp checks them against the closed-form CDFs.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

#include "kinevo/ga/detail/random_stream.hpp"

namespace kinevo::ga {

namespace detail {

// 2^(j/128), j = 0..127, as bit patterns less j << 45 (see exp_inline).
struct exp_table {
  std::array<std::uint64_t, 128> bits{};
  exp_table() {
    for (int j = 0; j < 128; ++j) {
      bits[j] = std::bit_cast<std::uint64_t>(std::exp2(j / 128.0)) -
                (static_cast<std::uint64_t>(j) << 45);
    }
  }
};

inline const exp_table exp_bits{};  // built during static initialisation, like the ziggurat

// e^x within ~1.5 ulp, inlined: the samplers call it once or twice per offspring, where the
// call into libm was a tenth of the GA's time. x = (k + j/128) ln 2 + r with |r| <= ln2/256,
// e^x = 2^(k + j/128) (1 + r + ... + r^5/5!) (the method of glibc's exp, without its special
// cases: arguments are clamped to [-700, 700], far beyond what the samplers pass).
inline double exp_inline(double x) {
  x = std::clamp(x, -700.0, 700.0);
  constexpr double inv_ln2_n = 0x1.71547652b82fep0 * 128.0;
  constexpr double shift = 0x1.8p52;  // adding it rounds to an integer in the low bits
  constexpr double ln2hi_n = 0x1.62e42fefa0000p-8;
  constexpr double ln2lo_n = 0x1.cf79abc9e3b3ap-47;
  double kd = x * inv_ln2_n + shift;
  const std::uint64_t ki = std::bit_cast<std::uint64_t>(kd);
  kd -= shift;
  const double r = (x - kd * ln2hi_n) - kd * ln2lo_n;
  // ki << 45 puts k into the exponent field; its low 7 bits (j) land in the mantissa and are
  // cancelled by the table, which stores 2^(j/128) - (j << 45).
  const double scale = std::bit_cast<double>(exp_bits.bits[ki & 127] + (ki << 45));
  const double r2 = r * r;
  const double p = r + r2 * (0.5 + r * (1.0 / 6.0) + r2 * (1.0 / 24.0 + r * (1.0 / 120.0)));
  return scale + scale * p;
}

// a if `pick` else b, without a branch: the picks are coin flips, which a branch predictor
// gets wrong half of the time.
inline double select(bool pick, double a, double b) {
  const std::uint64_t m = std::uint64_t{0} - static_cast<std::uint64_t>(pick);
  return std::bit_cast<double>((std::bit_cast<std::uint64_t>(a) & m) |
                               (std::bit_cast<std::uint64_t>(b) & ~m));
}

}  // namespace detail

// x^(eta+1) and x^(1/(eta+1)) for one distribution index eta >= 0.
class eta_power {
 public:
  eta_power() = default;
  explicit eta_power(double eta) : exponent_(eta + 1.0), inv_(1.0 / (eta + 1.0)) {
    // Integer exponents (eta = 20, 100 are the usual) by repeated squaring: a handful of
    // products instead of std::pow, relative error below m * 2^-53 <= 1e-13.
    const bool small_integer = exponent_ <= 1024.0 && exponent_ == std::floor(exponent_);
    m_ = small_integer ? static_cast<int>(exponent_) : 0;
  }

  double power(double x) const {
    if (m_ == 0) return std::pow(x, exponent_);
    double r = 1.0;
    for (int k = m_;;) {
      if (k & 1) r *= x;
      k >>= 1;
      if (k == 0) return r;
      x *= x;
    }
  }
  // x^(1/(eta+1)) for x >= 0 (~1e-304 for 0; used where that is as good as 0).
  double root(double x) const { return detail::exp_inline(inv_ * std::log(x)); }
  double inv() const { return inv_; }

 private:
  double exponent_ = 1.0;
  double inv_ = 1.0;
  int m_ = 1;  // integer exponent, 0 when eta + 1 is not a (small) integer
};

// Spread factors beta_q of bounded SBX for parents y1 < y2 in [yl, yu]: child 1 is
// (y1 + y2 - lower (y2 - y1)) / 2, child 2 is (y1 + y2 + upper (y2 - y1)) / 2.
struct sbx_spread {
  double lower = 1.0;
  double upper = 1.0;
};

// Bounded simulated binary crossover: Deb and Agrawal, "Simulated binary crossover for
// continuous search space", Complex Systems 9 (1995), in the bounded form of NSGA-II. With one
// uniform u, for each side (beta = 1 + 2 (y1 - yl) / (y2 - y1), resp. 1 + 2 (yu - y2) / ...):
//   alpha = 2 - beta^-(eta+1),  beta_q = (u alpha)^(1/(eta+1))         if u <= 1/alpha,
//                                        (2 - u alpha)^(-1/(eta+1))    otherwise.
class sbx_sampler {
 public:
  sbx_sampler() = default;
  explicit sbx_sampler(double eta)
      : p_(eta), far_(std::exp(37.0 / (eta + 1.0))), far_half_(0.5 * (far_ - 1.0)) {}

  sbx_spread draw(random_stream& rng, double y1, double y2, double yl, double yu) const {
    const double d = y2 - y1;
    if (y1 - yl > far_half_ * d && yu - y2 > far_half_ * d) {
      // Both betas > far: alpha is exactly 2 on both sides and both get the same beta_q,
      // (2u)^(1/(eta+1)) or (2 - 2u)^(-1/(eta+1)) with equal odds: exp(-+E/(eta+1)) with
      // E = -log(2u) resp. -log(2 - 2u) ~ Exp(1). One exp instead of two pow.
      const double e = p_.inv() * rng.exponential();
      const double b = detail::exp_inline(detail::select(rng.coin(), e, -e));
      return {b, b};
    }
    const double u = rng.uniform();
    return {beta_q(u, 1.0 + 2.0 * (y1 - yl) / d), beta_q(u, 1.0 + 2.0 * (yu - y2) / d)};
  }

 private:
  double beta_q(double u, double beta) const {
    // Far from the bound beta^-(eta+1) < 1e-16 and alpha rounds to exactly 2.
    const double alpha = beta > far_ ? 2.0 : 2.0 - 1.0 / p_.power(beta);
    return u * alpha <= 1.0 ? p_.root(u * alpha) : 1.0 / p_.root(2.0 - u * alpha);
  }

  eta_power p_;
  double far_ = 0.0;       // beta above which beta^-(eta+1) < e^-37 ~ 8.5e-17
  double far_half_ = 0.0;  // (far - 1) / 2: beta > far <=> distance to the bound > far_half d
};

// Polynomial mutation: Deb and Goyal, "A combined genetic adaptive search (GeneAS) for
// engineering design", Computer Science and Informatics 26 (1996), bounded form of NSGA-II.
// With d1 = (y - yl) / (yu - yl), d2 = (yu - y) / (yu - yl) and one uniform u:
//   u < 1/2: v = 2u + (1 - 2u)(1 - d1)^(eta+1),            y += (v^(1/(eta+1)) - 1)(yu - yl),
//   else:    v = 2(1 - u) + 2(u - 1/2)(1 - d2)^(eta+1),    y += (1 - v^(1/(eta+1)))(yu - yl).
class polynomial_sampler {
 public:
  polynomial_sampler() = default;
  explicit polynomial_sampler(double eta) : p_(eta), near_(1.0 - p_.root(0.5)) {}

  double mutate(random_stream& rng, double y, double yl, double yu) const {
    const double w = yu - yl;
    // The side (u < 1/2: down) is a coin, selected without a branch.
    const bool down = rng.coin();
    const double room = detail::select(down, y - yl, yu - y);  // d w, d = d1 or d2
    // Given the side, v is uniform on [c, 1) with c = (1 - d)^(eta+1), so r = v^(1/(eta+1)) is
    // exp(-E/(eta+1)), E ~ Exp(1), conditioned on r >= 1 - d (<=> v >= c): the step
    // (1 - r) w must not pass the bound. By rejection when c <= 1/2, i.e. d >= 1 - 2^(-1/(eta+1))
    // (at most two tries on average, one exp and no log or division each); otherwise (the gene
    // is near the bound it moves to) by the formula.
    double step = 0.0;
    if (room >= near_ * w) {
      do {
        step = (1.0 - detail::exp_inline(-p_.inv() * rng.exponential())) * w;
      } while (step > room);
    } else {
      const double c = p_.power(1.0 - std::clamp(room / w, 0.0, 1.0));
      step = (1.0 - p_.root(c + (1.0 - c) * rng.uniform())) * w;
    }
    return std::clamp(y + detail::select(down, -step, step), yl, yu);
  }

 private:
  eta_power p_;
  double near_ = 0.5;  // 1 - 2^(-1/(eta+1)): (1 - d)^(eta+1) <= 1/2 <=> d >= near_
};

}  // namespace kinevo::ga
