// The reason of a TOML syntax error in kinevo's words. toml++'s descriptions are its own
// ("Error while parsing key-value pair: ...", "Encountered invalid utf-8 sequence"); every
// reader of a TOML file passes them through here, so that messages say what is wrong with the
// file, not which library read it.
#pragma once

#include <string>
#include <string_view>

#include "kinevo/io/errors.hpp"

namespace kinevo::io {

inline std::string toml_syntax_reason(std::string_view description) {
  if (description.find("utf-8") != std::string_view::npos ||
      description.find("UTF-8") != std::string_view::npos) {
    return "the file is not UTF-8 text (a binary file, or a byte that is not UTF-8)";
  }
  std::string_view d = description;
  for (const std::string_view prefix : {"Error while parsing ", "Error parsing "}) {
    if (d.substr(0, prefix.size()) == prefix) {
      d.remove_prefix(prefix.size());
      return "TOML syntax error in " + excerpt(d, 200);
    }
  }
  return "TOML syntax error: " + excerpt(d, 200);
}

}  // namespace kinevo::io
