// An expression as GiNaC prints it, for messages and for keys that must tell two expressions
// apart by their printed form.
#pragma once

#include <ginac/ginac.h>

#include <sstream>
#include <string>

namespace kinevo::symbolic {

inline std::string text_of(const GiNaC::ex& e) {
  std::ostringstream os;
  os << e;
  return os.str();
}

}  // namespace kinevo::symbolic
