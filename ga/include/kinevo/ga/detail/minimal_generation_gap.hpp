// The survivor rule of the minimal generation gap model (MGG): Satoh, Yamamura and Kobayashi,
// "Minimal generation gap model for GAs considering both exploration and exploitation", Proc.
// IIZUKA '96 (1996), the model UNDX was designed for (Ono and Kobayashi 1997; Kita, Ono and
// Kobayashi 1999). A family step draws its parents at random, and the family (the two parents
// that may be replaced and their children) gives back two members: its best (the elite) and
// one of the others drawn by rank-based roulette, here linear in the rank: the member at
// position k = 1..size-1 of the family's order (0 the best) is drawn with probability
//   (size - k) / ((size - 1) size / 2),
// so the second best is size - 1 times as likely as the worst. Both replace the two parents:
// the population's best, when it is a parent, survives (its family's best is at least as good).
#pragma once

#include <array>
#include <span>

#include "kinevo/ga/detail/random_stream.hpp"

namespace kinevo::ga {

// Positions in the family's order (size >= 2) of the two survivors: {0, k}, k drawn as above
// with one uniform of `rng`.
std::array<int, 2> mgg_survivor_positions(int size, random_stream& rng);

// Probability that position k (1..size-1) is the roulette's draw (the definition, for tests).
double mgg_roulette_probability(int size, int k);

}  // namespace kinevo::ga
