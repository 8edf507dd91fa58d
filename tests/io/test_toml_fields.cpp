// The TOML field reader every file format uses: each message names the file, the line and the
// field ("file:line: [section] 'name' field 'key': ...").
#include <gtest/gtest.h>

#include <string>

#include "kinevo/io/detail/toml_fields.hpp"
#include "kinevo/io/errors.hpp"

using kinevo::io::input_error;
using kinevo::io::parse_toml;
using kinevo::io::toml_fields;

namespace {

template <class F>
std::string toml_fields_error(F&& f) {
  try {
    f();
  } catch (const input_error& e) {
    return e.what();
  }
  return "no error";
}

constexpr const char* toml_fields_text =
    "top = 1\n"
    "[[part]]\n"
    "name = \"arm\"\n"
    "length = 2.5\n"
    "count = 3\n"
    "label = 7\n"
    "flag = \"yes\"\n"
    "sizes = [1, 2.5, \"x\"]\n"
    "[motion]\n"
    "rate = inf\n";

}  // namespace

TEST(TomlFields, ReadsFieldsOfEveryKind) {
  const auto root = parse_toml(toml_fields_text, "f.toml");
  const toml_fields r("f.toml");
  const auto parts = r.tables(root, "part");
  ASSERT_EQ(parts.size(), 1u);
  const toml::table& p = *parts[0];
  EXPECT_EQ(r.string(p, "[[part]]", "name"), "arm");
  EXPECT_DOUBLE_EQ(r.number(p, "[[part]]", "length"), 2.5);
  EXPECT_DOUBLE_EQ(r.number(p, "[[part]]", "count"), 3.0);  // an integer is a number too
  EXPECT_EQ(r.integer(p, "[[part]]", "count", 1, 10), 3);
  EXPECT_DOUBLE_EQ(r.number_or(p, "[[part]]", "mass", 4.0), 4.0);
  EXPECT_EQ(r.string_or(p, "[[part]]", "kind", "rigid"), "rigid");
  EXPECT_TRUE(r.boolean_or(p, "[[part]]", "fixed", true));
  EXPECT_EQ(r.where(p.get("length")), "f.toml:4");
  EXPECT_EQ(r.table(root, "", "absent"), nullptr);
  ASSERT_NE(r.table(root, "", "motion"), nullptr);
}

TEST(TomlFields, MessagesNameFileLineAndField) {
  const auto root = parse_toml(toml_fields_text, "f.toml");
  const toml_fields r("f.toml");
  const toml::table& p = *r.tables(root, "part")[0];
  // A missing field points at its table's line.
  EXPECT_EQ(toml_fields_error([&] { (void)r.number(p, "[[part]]", "mass"); }),
            "f.toml:2: [[part]] 'arm' field 'mass': missing");
  EXPECT_EQ(toml_fields_error([&] { (void)r.string(p, "[[part]]", "label"); }),
            "f.toml:6: [[part]] 'arm' field 'label': must be a string");
  EXPECT_EQ(toml_fields_error([&] { (void)r.boolean_or(p, "[[part]]", "flag", false); }),
            "f.toml:7: [[part]] 'arm' field 'flag': must be true or false");
  EXPECT_EQ(toml_fields_error([&] { (void)r.integer(p, "[[part]]", "length", 1, 10); }),
            "f.toml:4: [[part]] 'arm' field 'length': must be an integer in [1, 10]");
  EXPECT_EQ(toml_fields_error([&] { (void)r.integer(p, "[[part]]", "count", 5, 10); }),
            "f.toml:5: [[part]] 'arm' field 'count': must be an integer in [5, 10]");
  EXPECT_EQ(toml_fields_error([&] { (void)r.numbers(p, "[[part]]", "sizes"); }),
            "f.toml:8: [[part]] 'arm' field 'sizes' item 3: must be a finite number");
  EXPECT_EQ(toml_fields_error([&] { (void)r.numbers(p, "[[part]]", "sizes", 2); }),
            "f.toml:8: [[part]] 'arm' field 'sizes': must be an array of 2 values");
  EXPECT_EQ(toml_fields_error([&] { (void)r.array(p, "[[part]]", "name"); }),
            "f.toml:3: [[part]] 'arm' field 'name': must be an array");
  // Top-level fields have no section; a section's table has no name.
  EXPECT_EQ(toml_fields_error([&] { (void)r.string(root, "", "top"); }),
            "f.toml:1: field 'top': must be a string");
  const toml::table& m = *r.table(root, "", "motion");
  EXPECT_EQ(toml_fields_error([&] { (void)r.number(m, "[motion]", "rate"); }),
            "f.toml:10: [motion] field 'rate': must be a finite number");
  EXPECT_EQ(toml_fields_error([&] { (void)r.table(p, "[[part]]", "length"); }),
            "f.toml:4: [[part]] 'arm' field 'length': must be a table [length]");
  EXPECT_EQ(toml_fields_error([&] { (void)r.tables(root, "motion"); }),
            "f.toml:9: 'motion' must be written as [[motion]] tables");
}

TEST(TomlFields, UnknownKeyNamesItsLineAndTheKnownOnes) {
  const auto root = parse_toml(toml_fields_text, "f.toml");
  const toml_fields r("f.toml");
  const toml::table& p = *r.tables(root, "part")[0];
  EXPECT_EQ(toml_fields_error([&] {
              r.only_keys(p, "[[part]]", {"name", "length", "count", "label", "sizes"});
            }),
            "f.toml:7: [[part]]: unknown field 'flag' (expected one of: name, length, count, "
            "label, sizes)");
}

TEST(TomlFields, SyntaxErrorNamesFileAndLine) {
  const std::string e = toml_fields_error([] { (void)parse_toml("a = 1\nb = = 2\n", "s.toml"); });
  EXPECT_EQ(e.rfind("s.toml:2: TOML syntax error", 0), 0u) << e;
  const std::string bad = toml_fields_error([] { (void)parse_toml("a = \"\xff\"\n", "u.toml"); });
  EXPECT_EQ(bad.rfind("u.toml:1: the file is not UTF-8 text", 0), 0u) << bad;
}

TEST(TomlFields, ByteOrderMarkIsSkipped) {
  const auto root = parse_toml(
      "\xEF\xBB\xBF"
      "a = 2\n[t]\nb = \"x\"\n",
      "bom.toml");
  const toml_fields r("bom.toml");
  EXPECT_DOUBLE_EQ(r.number(root, "", "a"), 2.0);
  const toml::table& t = *r.table(root, "", "t");
  EXPECT_EQ(toml_fields_error([&] { (void)r.number(t, "[t]", "b"); }),
            "bom.toml:3: [t] field 'b': must be a finite number");
}
