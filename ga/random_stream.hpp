// One island's random stream: a 64-bit Mersenne twister (Boost.Random) seeded from
// (master seed, island, run index) through boost::random::seed_seq, so that every island's
// sequence is fixed by those three numbers alone, whatever transport runs it. The helpers turn
// raw 64-bit outputs into numbers directly: distribution objects cost more than the generator.
#pragma once

#include <boost/random/mersenne_twister.hpp>
#include <boost/random/seed_seq.hpp>
#include <cmath>
#include <cstdint>
#include <iosfwd>

namespace kinevo::ga {

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
  // Standard normal (Box-Muller, one value per call; used only by gaussian mutation).
  double normal() {
    const double r = std::sqrt(-2.0 * std::log(uniform_open0()));
    return r * std::cos(6.283185307179586 * uniform());
  }
  // Number of failures before the next success of a Bernoulli(p) sequence: geometric skip, so
  // that sparse events (bit mutations) cost one random number per event, not one per trial.
  // `log1mp` = log(1 - p) < 0.
  std::uint64_t geometric_skip(double log1mp) {
    const double g = std::floor(std::log(uniform_open0()) / log1mp);
    return g >= 1.8e19 ? ~std::uint64_t{0} : static_cast<std::uint64_t>(g);
  }

  friend std::ostream& operator<<(std::ostream& os, const random_stream& r) {
    return os << r.engine_;
  }
  friend std::istream& operator>>(std::istream& is, random_stream& r) { return is >> r.engine_; }

 private:
  boost::random::mt19937_64 engine_;
};

}  // namespace kinevo::ga
