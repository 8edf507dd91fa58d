// Reading fields of a TOML model file with messages that name the file, line and field: the
// TOML field reader of io/ with the expression fields of symbolic/ (numbers or expression
// strings over the model's names).
#pragma once

#include <cstddef>
#include <string>

#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/detail/toml_fields.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/symbolic/detail/toml_expression_fields.hpp"

namespace kinevo::mechanics {

using toml_fields = symbolic::toml_expression_fields;

// The keys of a map by name as "a, b, c, ... (n more)" for a message: at most 20, each cut short
// (a model may have thousands of bodies, and a name may be huge).
template <class Map>
std::string listed_names(const Map& all) {
  std::string names;
  std::size_t listed = 0;
  for (const auto& entry : all) {
    if (listed++ == 20) {
      names += ", ... (" + std::to_string(all.size() - 20) + " more)";
      break;
    }
    names += (names.empty() ? "" : ", ") + io::excerpt(entry.first, 40);
  }
  return names;
}

}  // namespace kinevo::mechanics
