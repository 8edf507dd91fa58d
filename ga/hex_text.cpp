#include "kinevo/ga/detail/hex_text.hpp"

#include <cstdio>
#include <cstdlib>
#include <istream>
#include <ostream>
#include <string>

#include "kinevo/io/errors.hpp"

namespace kinevo::ga {

void put_hex(std::ostream& os, double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%a", v);
  os << buf;
}

double get_hex(std::istream& is) {
  std::string s;
  if (!(is >> s)) throw io::input_error("truncated number list");
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0') throw io::input_error("'" + s + "' is not a number");
  return v;
}

}  // namespace kinevo::ga
