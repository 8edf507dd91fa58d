#include "kinevo/optimization/config_file.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cstdint>

#include "kinevo/io/detail/toml_fields.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/io/input_file.hpp"

namespace kinevo::optimization {

namespace {

std::string scalar_text(const io::toml_fields& fields, const toml::node& n, const std::string& at) {
  if (const auto s = n.value_exact<std::string>()) return *s;
  if (const auto b = n.value_exact<bool>()) return *b ? "true" : "false";
  if (const auto i = n.value_exact<int64_t>()) return std::to_string(*i);
  // Shortest text that reads back as the same double; nan and inf are refused by the option.
  if (const auto d = n.value_exact<double>()) return fmt::format("{}", *d);
  fields.fail(at, "must be a string, number, boolean or an array of them");
}

// The entry of `key` in table `t` (the top level, section "", or [optimize]).
config_entry entry_of(const io::toml_fields& fields, const toml::table& t, std::string_view section,
                      const std::string& key) {
  const toml::node& v = *t.get(key);
  config_entry e;
  e.key = key;
  std::replace(e.key.begin(), e.key.end(), '_', '-');
  e.at = fields.field_where(t, section, key);
  if (const toml::array* a = v.as_array()) {
    for (const auto& x : *a) e.values.push_back(scalar_text(fields, x, e.at));
  } else {
    e.values.push_back(scalar_text(fields, v, e.at));
  }
  return e;
}

}  // namespace

std::vector<config_entry> parse_config(const std::string& text, const std::string& source) {
  const toml::table root = io::parse_toml(text, source);
  const io::toml_fields fields(source);
  std::vector<config_entry> out;
  for (const auto& [k, v] : root) {
    const std::string key(k.str());
    const toml::table* section = v.as_table();
    if (section == nullptr) {
      out.push_back(entry_of(fields, root, "", key));
      continue;
    }
    if (key != "optimize") {
      fields.fail(fields.where(v),
                  fmt::format("section [{}] is not known; put the options at the top or under "
                              "[optimize]",
                              io::excerpt(key, 40)));
    }
    for (const auto& [sk, sv] : *section) {
      if (sv.is_table()) {
        fields.fail(fields.where(sv),
                    fmt::format("section [optimize.{}] is not known", io::excerpt(sk.str(), 40)));
      }
      out.push_back(entry_of(fields, *section, "[optimize]", std::string(sk.str())));
    }
  }
  return out;
}

std::vector<config_entry> read_config_file(const std::filesystem::path& path) {
  return parse_config(io::read_input_file(path, "config file"), path.string());
}

}  // namespace kinevo::optimization
