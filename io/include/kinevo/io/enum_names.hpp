// An enum's names in one table, read both ways: to_string and parse of a library enum are then
// written once and round-trip by construction. An unknown name is an option_error naming the
// field and listing the names ("'x': use free, prescribed or relative").
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include "kinevo/io/errors.hpp"  // option_error

namespace kinevo::io {

template <class Enum>
struct enum_name {
  Enum value;
  std::string_view name;
};

// The name of `value` (the first entry's name when the table lacks it).
template <class Enum, std::size_t N>
std::string name_of(const std::array<enum_name<Enum>, N>& names, Enum value) {
  for (const auto& n : names) {
    if (n.value == value) return std::string(n.name);
  }
  return std::string(names.front().name);
}

// The value named `text`; throws option_error(field, "'text': use a, b or c") otherwise.
template <class Enum, std::size_t N>
Enum value_named(const std::array<enum_name<Enum>, N>& names, std::string_view text,
                 const std::string& field) {
  std::string choices;
  for (std::size_t i = 0; i < N; ++i) {
    if (names[i].name == text) return names[i].value;
    choices += (i == 0 ? "" : i + 1 == N ? " or " : ", ") + std::string(names[i].name);
  }
  throw option_error(field, "'" + std::string(text) + "': use " + choices);
}

}  // namespace kinevo::io
