// Doubles in checkpoint text as C's hexadecimal floating point ("%a"): they round-trip exactly,
// which checkpoint/resume equality needs. Used by the island's state and its learned metric.
#pragma once

#include <iosfwd>

namespace kinevo::ga {

void put_hex(std::ostream& os, double v);
// The next whitespace-separated word as a double; throws io::input_error when there is none
// ("truncated number list") or it is not a number.
double get_hex(std::istream& is);

}  // namespace kinevo::ga
