#include "kinevo/ga/detail/minimal_generation_gap.hpp"

namespace kinevo::ga {

double mgg_roulette_probability(int size, int k) {
  if (size < 2 || k < 1 || k >= size) return 0.0;
  return static_cast<double>(size - k) /
         (0.5 * static_cast<double>(size - 1) * static_cast<double>(size));
}

std::array<int, 2> mgg_survivor_positions(int size, random_stream& rng) {
  // Weights size - k over k = 1..size-1 sum to (size - 1) size / 2.
  const double total = 0.5 * static_cast<double>(size - 1) * static_cast<double>(size);
  double u = rng.uniform() * total;
  for (int k = 1; k < size - 1; ++k) {
    u -= static_cast<double>(size - k);
    if (u < 0.0) return {0, k};
  }
  return {0, size - 1};
}

}  // namespace kinevo::ga
