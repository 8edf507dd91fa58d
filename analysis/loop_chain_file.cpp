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
#include "kinevo/io/detail/toml_fields.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/io/input_file.hpp"

namespace kinevo::analysis {

namespace {

// The fields of one table of the file ([[loop]] or [motion]), naming the file, line and field in
// every error ("file:line: [[loop]] 'crank' field 'a1': ...").
class table_reader {
 public:
  table_reader(const io::toml_fields& fields, const toml::table& t, std::string section)
      : fields_(fields), t_(t), section_(std::move(section)) {}

  std::string where(const std::string& field) const {
    return fields_.field_where(t_, section_, field);
  }
  [[noreturn]] void fail(const std::string& field, const std::string& message) const {
    fields_.fail_field(t_, section_, field, message);
  }
  double number(const std::string& field) const { return fields_.number(t_, section_, field); }
  double number(const std::string& field, double fallback) const {
    return fields_.number_or(t_, section_, field, fallback);
  }
  std::string text(const std::string& field) const { return fields_.string(t_, section_, field); }
  bool has(const std::string& field) const { return fields_.has(t_, field); }
  int branch() const {
    const toml::node* n = t_.get("branch");
    if (n == nullptr) return 1;
    const auto v = n->value_exact<int64_t>();
    if (!v || (*v != 1 && *v != -1)) fail("branch", "must be 1 or -1");
    return static_cast<int>(*v);
  }
  void only(const std::vector<std::string_view>& allowed) const {
    fields_.only_keys(t_, section_, allowed);
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
  const io::toml_fields& fields_;
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

expression_motion read_motion(const io::toml_fields& fields, const toml::table& root,
                              std::string& where) {
  const toml::table* t = fields.table(root, "", "motion");
  if (t == nullptr) fields.fail(fields.source(), "missing [motion] table");
  const table_reader r(fields, *t, "[motion]");
  r.only({"expression", "t_start", "t_end", "dt"});
  expression_motion m;
  m.expression = r.text("expression");
  where = r.where("expression");
  m.grid = {r.number("t_start", 0.0), r.number("t_end"), r.number("dt")};
  r.validate(m.grid);
  return m;
}

// The input of a loop after the first: an angle output of the loop before it.
void connect_input(const table_reader& r, const chain_stage& previous, chain_stage& st) {
  const planar_loop& prev = *previous.loop;
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
                                previous.name, list));
  }
  st.source_output = static_cast<int>(it - names_prev.begin());
  st.offset = r.number("offset_deg", 0.0) * degree;
}

}  // namespace

chain_file parse_chain_file(const std::string& text, const std::string& source) {
  const toml::table root = io::parse_toml(text, source);
  const io::toml_fields fields(source);
  fields.only_keys(root, "loop chain file", {"motion", "loop"});
  chain_file f;
  f.motion = read_motion(fields, root, f.motion_where);
  const auto loops = fields.tables(root, "loop");
  if (loops.empty()) fields.fail(source, "missing: at least one [[loop]] table");
  std::set<std::string> names;
  for (std::size_t i = 0; i < loops.size(); ++i) {
    const table_reader r(fields, *loops[i], "[[loop]]");
    chain_stage st;
    st.name = r.text("name");
    if (!names.insert(st.name).second) r.fail("name", fmt::format("'{}' is used twice", st.name));
    st.loop = make_loop(r, r.text("type"));
    if (i == 0) {
      for (const char* key : {"input", "offset_deg"}) {
        if (r.has(key)) r.fail(key, "the first loop is driven by [motion]");
      }
    } else {
      connect_input(r, f.chain.stages.back(), st);
    }
    f.chain.stages.push_back(std::move(st));
  }
  return f;
}

chain_file read_chain_file(const std::filesystem::path& path) {
  return parse_chain_file(io::read_input_file(path, "loop chain file"), path.string());
}

}  // namespace kinevo::analysis
