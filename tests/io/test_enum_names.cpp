// io/enum_names.hpp: one table read both ways, so to_string and parse round-trip, and an unknown
// name is an option_error naming the field and listing the names in the table's order.
#include <gtest/gtest.h>

#include <array>
#include <string>

#include "kinevo/io/enum_names.hpp"

namespace kinevo::io {
namespace {

enum class colour { red, green, blue };

constexpr std::array<enum_name<colour>, 3> colour_names{{
    {colour::red, "red"},
    {colour::green, "green"},
    {colour::blue, "blue"},
}};

TEST(EnumNames, NamesAndValuesRoundTrip) {
  for (const auto& n : colour_names) {
    EXPECT_EQ(name_of(colour_names, n.value), n.name);
    EXPECT_EQ(value_named(colour_names, name_of(colour_names, n.value), "colour"), n.value);
  }
}

TEST(EnumNames, AnUnknownNameIsAnOptionErrorListingTheNames) {
  try {
    (void)value_named(colour_names, "mauve", "colour");
    FAIL() << "an unknown name must be refused";
  } catch (const option_error& e) {
    EXPECT_EQ(e.field(), "colour");
    EXPECT_EQ(e.requirement(), "'mauve': use red, green or blue");
  }
  constexpr std::array<enum_name<bool>, 2> shape{{{false, "open"}, {true, "closed"}}};
  try {
    (void)value_named(shape, "", "path");
    FAIL() << "an empty name must be refused";
  } catch (const option_error& e) {
    EXPECT_EQ(std::string(e.what()), "path '': use open or closed");
  }
}

}  // namespace
}  // namespace kinevo::io
