#include "kinevo/analysis/loop_chain_file.hpp"

#include <fmt/format.h>

#include <toml++/toml.h>
#include <algorithm>
#include <numbers>
#include <set>
#include <vector>

#include "kinevo/analysis/rprr_loop.hpp"
#include "kinevo/analysis/rrrp_loop.hpp"
#include "kinevo/analysis/rrrr_loop.hpp"
#include "kinevo/core/numbers.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/io/input_file.hpp"
#include "kinevo/io/toml_syntax.hpp"

namespace kinevo::analysis {

namespace {

// Reads the fields of one TOML table, naming the file, line and field in every error.
class table_reader {
 public:
  table_reader(std::string source, const toml::table& t, std::string section)
      : source_(std::move(source)), t_(t), section_(std::move(section)) {}

  int line(const toml::node* n) const {
    return n != nullptr ? static_cast<int>(n->source().begin.line)
                        : static_cast<int>(t_.source().begin.line);
  }
  // "<file>:<line>: <section>.<field>", as fail() names a field.
  std::string where(const std::string& field) const {
    return fmt::format("{}:{}: {}.{}", source_, line(t_.get(field)), section_, field);
  }
  [[noreturn]] void fail(const std::string& field, const std::string& message) const {
    throw io::input_error(source_, line(t_.get(field)), section_ + "." + field, message);
  }
  double number(const std::string& field, std::optional<double> fallback = std::nullopt) const {
    const toml::node* n = t_.get(field);
    if (n == nullptr) {
      if (fallback) return *fallback;
      fail(field, "missing");
    }
    if (!n->is_number()) fail(field, "must be a number");
    const double v = n->value<double>().value_or(0.0);
    if (!std::isfinite(v)) fail(field, "must be a finite number");
    return v;
  }
  std::string text(const std::string& field, std::optional<std::string> fallback = {}) const {
    const toml::node* n = t_.get(field);
    if (n == nullptr) {
      if (fallback) return *fallback;
      fail(field, "missing");
    }
    if (!n->is_string()) fail(field, "must be a string");
    return n->value<std::string>().value_or("");
  }
  int branch() const {
    const toml::node* n = t_.get("branch");
    if (n == nullptr) return 1;
    const auto v = n->value<int64_t>();
    if (!n->is_integer() || (*v != 1 && *v != -1)) fail("branch", "must be 1 or -1");
    return static_cast<int>(*v);
  }
  void only(const std::vector<std::string>& allowed) const {
    for (const auto& [k, v] : t_) {
      const std::string key(k.str());
      if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      throw io::input_error(source_, line(&v), section_ + "." + key,
                            fmt::format("unknown field (expected one of: {})", list));
    }
  }
  // Runs a dimensions struct's validate(), naming the field of the file it refuses.
  template <class Dimensions>
  void validate(const Dimensions& d) const {
    try {
      d.validate();
    } catch (const io::option_error& e) {
      fail(e.field(), e.requirement());
    }
  }

 private:
  std::string source_;
  const toml::table& t_;
  std::string section_;
};

std::unique_ptr<planar_loop> make_loop(const table_reader& r, const std::string& type) {
  if (type == "rrrr") {
    r.only({"name", "type", "input", "offset_deg", "a1", "a2", "a3", "a4", "branch", "coupler_r",
            "coupler_alpha_deg"});
    rrrr_dimensions d{r.number("a1"),
                      r.number("a2"),
                      r.number("a3"),
                      r.number("a4"),
                      r.number("coupler_r", 0.0),
                      r.number("coupler_alpha_deg", 0.0) * degree,
                      r.branch()};
    r.validate(d);
    return std::make_unique<rrrr_loop>(d);
  }
  if (type == "rprr") {
    r.only({"name", "type", "input", "offset_deg", "a1", "a2", "branch"});
    rprr_dimensions d{r.number("a1"), r.number("a2"), r.branch()};
    r.validate(d);
    return std::make_unique<rprr_loop>(d);
  }
  if (type == "rrrp") {
    r.only({"name", "type", "input", "offset_deg", "a1", "a2", "a3", "branch"});
    rrrp_dimensions d{r.number("a1"), r.number("a2"), r.number("a3"), r.branch()};
    r.validate(d);
    return std::make_unique<rrrp_loop>(d);
  }
  r.fail("type", fmt::format("'{}' is not a loop type (expected rrrr, rprr or rrrp)", type));
}

expression_motion read_motion(const std::string& source, const toml::table& root,
                              std::string& where) {
  const toml::node* n = root.get("motion");
  if (n == nullptr || !n->is_table()) {
    throw io::input_error(source, 0, "motion", "missing [motion] table");
  }
  const table_reader r(source, *n->as_table(), "motion");
  r.only({"expression", "t_start", "t_end", "dt"});
  expression_motion m;
  m.expression = r.text("expression");
  where = r.where("expression");
  m.grid = {r.number("t_start", 0.0), r.number("t_end"), r.number("dt")};
  r.validate(m.grid);
  return m;
}

}  // namespace

chain_file parse_chain_file(const std::string& text, const std::string& source) {
  toml::table root;
  try {
    root = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    throw io::input_error(source, static_cast<int>(e.source().begin.line), "",
                          io::toml_syntax_reason(e.description()));
  }
  for (const auto& [k, v] : root) {
    const std::string key(k.str());
    if (key != "motion" && key != "loop") {
      throw io::input_error(source, static_cast<int>(v.source().begin.line), key,
                            "unknown table (expected [motion] and [[loop]])");
    }
  }
  chain_file f;
  f.motion = read_motion(source, root, f.motion_where);
  const toml::array* loops = root.get("loop") ? root.get("loop")->as_array() : nullptr;
  if (loops == nullptr || loops->empty()) {
    throw io::input_error(source, 0, "loop", "missing: at least one [[loop]] table");
  }
  std::set<std::string> names;
  for (std::size_t i = 0; i < loops->size(); ++i) {
    const toml::table* t = loops->get(i)->as_table();
    if (t == nullptr) throw io::input_error(source, 0, "loop", "must be [[loop]] tables");
    const table_reader r(source, *t, fmt::format("loop[{}]", i + 1));
    chain_stage st;
    st.name = r.text("name");
    if (!names.insert(st.name).second) r.fail("name", fmt::format("'{}' is used twice", st.name));
    st.loop = make_loop(r, r.text("type"));
    if (i == 0) {
      for (const char* key : {"input", "offset_deg"}) {
        if (t->get(key) != nullptr) r.fail(key, "the first loop is driven by [motion]");
      }
    } else {
      const planar_loop& prev = *f.chain.stages.back().loop;
      const auto names_prev = prev.output_names();
      const auto angle = prev.output_is_angle();
      const std::string in = r.text("input");
      const auto it = std::find(names_prev.begin(), names_prev.end(), in);
      if (it == names_prev.end() || !angle[static_cast<std::size_t>(it - names_prev.begin())]) {
        std::string list;
        for (std::size_t o = 0; o < names_prev.size(); ++o) {
          if (angle[o]) list += (list.empty() ? "" : ", ") + names_prev[o];
        }
        r.fail("input", fmt::format("'{}' is not an angle output of loop '{}' (one of: {})", in,
                                    f.chain.stages.back().name, list));
      }
      st.source_output = static_cast<int>(it - names_prev.begin());
      st.offset = r.number("offset_deg", 0.0) * degree;
    }
    f.chain.stages.push_back(std::move(st));
  }
  return f;
}

chain_file read_chain_file(const std::filesystem::path& path) {
  const std::string text = io::read_input_file(path, "loop chain file");
  return parse_chain_file(std::string(io::strip_byte_order_mark(text)), path.string());
}

}  // namespace kinevo::analysis
