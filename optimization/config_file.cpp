#include "kinevo/optimization/config_file.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cstdint>

#include "kinevo/io/errors.hpp"
#include "kinevo/io/input_file.hpp"
#include "kinevo/io/toml_syntax.hpp"

namespace kinevo::optimization {

namespace {

std::string scalar_text(const toml::node& n, const std::string& at) {
  if (const auto s = n.value_exact<std::string>()) return *s;
  if (const auto b = n.value_exact<bool>()) return *b ? "true" : "false";
  if (const auto i = n.value_exact<int64_t>()) return std::to_string(*i);
  // Shortest text that reads back as the same double; nan and inf are refused by the option.
  if (const auto d = n.value_exact<double>()) return fmt::format("{}", *d);
  throw io::input_error(
      fmt::format("{}: must be a string, number, boolean or an array of them", at));
}

config_entry entry_of(const std::string& source, const std::string& key, const toml::node& v) {
  config_entry e;
  e.key = key;
  std::replace(e.key.begin(), e.key.end(), '_', '-');
  e.at = fmt::format("{}:{}: key '{}'", source, v.source().begin.line, io::excerpt(key, 40));
  if (const toml::array* a = v.as_array()) {
    for (const auto& x : *a) e.values.push_back(scalar_text(x, e.at));
  } else {
    e.values.push_back(scalar_text(v, e.at));
  }
  return e;
}

}  // namespace

std::vector<config_entry> parse_config(const std::string& text, const std::string& source) {
  toml::table root;
  try {
    root = toml::parse(io::strip_byte_order_mark(text), source);
  } catch (const toml::parse_error& e) {
    throw io::input_error(fmt::format("{}:{}: cannot read the config file: {}", source,
                                      e.source().begin.line,
                                      io::toml_syntax_reason(e.description())));
  }
  std::vector<config_entry> out;
  for (const auto& [k, v] : root) {
    const std::string key(k.str());
    const toml::table* section = v.as_table();
    if (section == nullptr) {
      out.push_back(entry_of(source, key, v));
      continue;
    }
    if (key != "optimize") {
      throw io::input_error(fmt::format(
          "{}:{}: section [{}] is not known; put the options at the top or under [optimize]",
          source, v.source().begin.line, io::excerpt(key, 40)));
    }
    for (const auto& [sk, sv] : *section) {
      if (sv.is_table()) {
        throw io::input_error(fmt::format("{}:{}: section [optimize.{}] is not known", source,
                                          sv.source().begin.line, io::excerpt(sk.str(), 40)));
      }
      out.push_back(entry_of(source, std::string(sk.str()), sv));
    }
  }
  return out;
}

std::vector<config_entry> read_config_file(const std::filesystem::path& path) {
  return parse_config(io::read_input_file(path, "config file"), path.string());
}

}  // namespace kinevo::optimization
