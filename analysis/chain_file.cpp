#include "kinevo/analysis/chain_file.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <cmath>
#include <numbers>
#include <optional>

#include "kinevo/core/numbers.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/io/input_file.hpp"
#include "kinevo/io/toml_syntax.hpp"
#include "kinevo/symbolic/detail/exact_numbers.hpp"
#include "kinevo/symbolic/detail/expression_context.hpp"

namespace kinevo::analysis {

namespace {

constexpr std::size_t max_points = 10'000;

// Where a node is, for messages: "file:line: field".
struct locator {
  std::string source;
  [[noreturn]] void fail(const toml::node* n, const std::string& field,
                         const std::string& what) const {
    const int line = n == nullptr ? 0 : static_cast<int>(n->source().begin.line);
    throw io::input_error(source, line, field, what);
  }
  double number(const toml::node& n, const std::string& field) const {
    const auto v = n.value<double>();  // integers convert too
    if (!v || !std::isfinite(*v)) fail(&n, field, "must be a finite number");
    return *v;
  }
  double number(const toml::table& t, const std::string& key, const std::string& field,
                std::optional<double> fallback = std::nullopt) const {
    const toml::node* n = t.get(key);
    if (n == nullptr) {
      if (fallback) return *fallback;
      fail(&t, field, "is missing");
    }
    return number(*n, field);
  }
  std::string text(const toml::node& n, const std::string& field) const {
    const auto v = n.value_exact<std::string>();
    if (!v) fail(&n, field, "must be a string");
    return *v;
  }
  const toml::array& array(const toml::table& t, const std::string& key,
                           const std::string& field) const {
    const toml::node* n = t.get(key);
    if (n == nullptr) fail(&t, field, "is missing");
    if (!n->is_array()) fail(n, field, "must be an array");
    return *n->as_array();
  }
  const toml::table& table(const toml::table& t, const std::string& key) const {
    const toml::node* n = t.get(key);
    if (n == nullptr) fail(&t, "[" + key + "]", "is missing");
    if (!n->is_table()) fail(n, key, "must be a table");
    return *n->as_table();
  }
  void only(const toml::table& t, std::initializer_list<const char*> keys,
            const std::string& where) const {
    for (const auto& [k, v] : t) {
      bool known = false;
      for (const char* key : keys) known = known || k.str() == key;
      if (!known) {
        fail(&v, where + io::excerpt(k.str(), 40), "is not a known key");
      }
    }
  }
};

dh_link parse_link(const locator& at, const toml::node& n, std::size_t i) {
  const std::string field = fmt::format("links[{}]", i + 1);
  if (!n.is_table()) at.fail(&n, field, "must be an inline table { a, b, alpha, pair }");
  const toml::table& t = *n.as_table();
  at.only(t, {"a", "b", "alpha", "pair", "theta"}, field + ".");
  dh_link l;
  l.a = at.number(t, "a", field + ".a");
  l.alpha = at.number(t, "alpha", field + ".alpha") * degree;
  const toml::node* pair = t.get("pair");
  const std::string kind = pair == nullptr ? "R" : at.text(*pair, field + ".pair");
  if (kind != "R" && kind != "P") at.fail(pair, field + ".pair", "must be \"R\" or \"P\"");
  l.pair = kind == "R" ? pair_kind::revolute : pair_kind::prismatic;
  if (l.pair == pair_kind::revolute) {
    if (t.get("theta") != nullptr) {
      at.fail(t.get("theta"), field + ".theta",
              "is the variable of an R pair: give its value in start");
    }
    l.b = at.number(t, "b", field + ".b");
  } else {
    if (t.get("b") != nullptr) {
      at.fail(t.get("b"), field + ".b", "is the variable of a P pair: give its value in start");
    }
    l.theta = at.number(t, "theta", field + ".theta") * degree;
  }
  return l;
}

// Sample times (or input values) from, from + step, ..., to.
std::vector<double> samples(const locator& at, const toml::table& t, const std::string& prefix,
                            const std::string& section) {
  const double from = at.number(t, prefix + "from", section + prefix + "from");
  const double to = at.number(t, prefix + "to", section + prefix + "to");
  const double step = at.number(t, prefix + "step", section + prefix + "step");
  if (!(step > 0.0) && to != from)
    at.fail(t.get(prefix + "step"), section + prefix + "step", "must be > 0");
  const double count = to == from ? 1.0 : std::floor((to - from) / step + 1e-9) + 1.0;
  if (to < from || count > static_cast<double>(max_points)) {
    at.fail(t.get(prefix + "to"), section + prefix + "to",
            fmt::format("must be >= {}from and give at most {} points", prefix, max_points));
  }
  std::vector<double> v;
  for (std::size_t k = 0; k < static_cast<std::size_t>(count); ++k) {
    v.push_back(from + static_cast<double>(k) * step);
  }
  return v;
}

// An expression in t with its first two derivatives, evaluated at sample times.
class motion_expression {
 public:
  motion_expression(const symbolic::expression_context& ctx, const GiNaC::symbol& t,
                    const std::string& text, std::string where)
      : t_(t), where_(std::move(where)) {
    value_ = ctx.parse(text, where_);
    try {
      rate_ = value_.diff(t_);
      acceleration_ = rate_.diff(t_);
    } catch (const GiNaC::pole_error&) {
      // d/dt 0^(-pi) ...: GiNaC evaluates while it differentiates (found by the grammar fuzzer).
      throw io::input_error(fmt::format("{}: its derivatives in t divide by zero", where_));
    }
  }
  // The time as an exact number: GiNaC::numeric(1e-320) throws CLN's "floating point
  // underflow" (a subnormal t_from escaped as a non-input error, found by the grammar fuzzer),
  // and GiNaC evaluates while substituting, so a value out of the double range traps there too.
  Eigen::Vector3d at(double t) const {
    const std::string where = fmt::format("{} at t = {:g}", where_, t);
    try {
      const GiNaC::exmap m{{t_, symbolic::exact_number(t)}};
      return {symbolic::to_double(value_.subs(m), where), symbolic::to_double(rate_.subs(m), where),
              symbolic::to_double(acceleration_.subs(m), where)};
    } catch (const GiNaC::pole_error&) {
      throw io::input_error(fmt::format("{}: the value divides by zero", where));
    } catch (const std::exception& e) {
      if (!symbolic::is_floating_point_trap(e)) throw;
      throw io::input_error(fmt::format("{}: the value leaves the range of doubles", where));
    }
  }

 private:
  GiNaC::symbol t_;
  std::string where_;
  GiNaC::ex value_, rate_, acceleration_;
};

std::vector<motion_expression> vector_expression(const locator& at, const toml::table& t,
                                                 const std::string& key,
                                                 const symbolic::expression_context& ctx,
                                                 const GiNaC::symbol& sym) {
  const std::string field = "[motion]." + key;
  const toml::array& a = at.array(t, key, field);
  if (a.size() != 3) at.fail(t.get(key), field, "must hold three expressions (x, y, z)");
  std::vector<motion_expression> e;
  for (std::size_t i = 0; i < 3; ++i) {
    const std::string fi = fmt::format("{}[{}]", field, i + 1);
    const std::string where = fmt::format("{}:{}: {}", at.source, a[i].source().begin.line, fi);
    e.emplace_back(ctx, sym, at.text(a[i], fi), where);
  }
  return e;
}

void parse_closure_motion(const locator& at, const toml::table& m, chain_description& d,
                          const symbolic::expression_context& ctx, const GiNaC::symbol& t) {
  const bool angle =
      d.closure.links[static_cast<std::size_t>(d.closure.input)].pair == pair_kind::revolute;
  if (const toml::node* v = m.get("value")) {
    at.only(m, {"value", "t_from", "t_to", "t_step"}, "[motion].");
    const std::string where =
        fmt::format("{}:{}: [motion].value", at.source, v->source().begin.line);
    const motion_expression e(ctx, t, at.text(*v, "[motion].value"), where);
    for (const double time : samples(at, m, "t_", "[motion].")) {
      const Eigen::Vector3d s = e.at(time);
      d.inputs.push_back({time, s[0], s[1], s[2]});
    }
    return;
  }
  at.only(m, {"from", "to", "step", "rate", "acceleration"}, "[motion].");
  // A range of the input in the file's units (deg for an R pair) at a constant rate.
  const double scale = angle ? degree : 1.0;
  const double rate = at.number(m, "rate", "[motion].rate", 1.0);
  const double acceleration = at.number(m, "acceleration", "[motion].acceleration", 0.0);
  if (rate == 0.0)
    at.fail(m.get("rate"), "[motion].rate",
            "must not be 0 (the time of a sample is the input over the rate)");
  const auto values = samples(at, m, "", "[motion].");
  for (const double v : values) {
    d.inputs.push_back({(v - values.front()) * scale / rate, v * scale, rate, acceleration});
  }
}

void parse_guidance_motion(const locator& at, const toml::table& m, chain_description& d,
                           const symbolic::expression_context& ctx, const GiNaC::symbol& t) {
  at.only(m, {"a", "b", "t_from", "t_to", "t_step"}, "[motion].");
  const auto a = vector_expression(at, m, "a", ctx, t);
  const auto b = vector_expression(at, m, "b", ctx, t);
  for (const double time : samples(at, m, "t_", "[motion].")) {
    guidance_target g;
    g.t = time;
    for (int i = 0; i < 3; ++i) {
      const Eigen::Vector3d ea = a[static_cast<std::size_t>(i)].at(time);
      const Eigen::Vector3d eb = b[static_cast<std::size_t>(i)].at(time);
      g.a[i] = ea[0], g.a_dot[i] = ea[1], g.a_ddot[i] = ea[2];
      g.b[i] = eb[0], g.b_dot[i] = eb[1], g.b_ddot[i] = eb[2];
    }
    d.targets.push_back(g);
  }
}

void parse_solver(const locator& at, const toml::table& root, chain_newton_options& o) {
  const toml::node* n = root.get("solver");
  if (n == nullptr) return;
  if (!n->is_table()) at.fail(n, "solver", "must be a table");
  const toml::table& s = *n->as_table();
  at.only(s,
          {"tolerance", "damping", "max_iterations", "singular_ratio", "residual", "skip_singular"},
          "[solver].");
  o.tolerance = at.number(s, "tolerance", "[solver].tolerance", o.tolerance);
  o.damping = at.number(s, "damping", "[solver].damping", o.damping);
  o.singular_ratio = at.number(s, "singular_ratio", "[solver].singular_ratio", o.singular_ratio);
  const double it = at.number(s, "max_iterations", "[solver].max_iterations", o.max_iterations);
  if (it != std::floor(it) || it < 1 || it > 10000) {
    at.fail(s.get("max_iterations"), "[solver].max_iterations", "must be an integer in [1, 10000]");
  }
  o.max_iterations = static_cast<int>(it);
  if (const toml::node* r = s.get("residual")) {
    try {
      o.residual = parse_rotation_residual(at.text(*r, "[solver].residual"));
    } catch (const io::option_error& e) {
      at.fail(r, "[solver].residual", e.requirement());
    }
  }
  if (const toml::node* k = s.get("skip_singular")) {
    const auto v = k->value_exact<bool>();
    if (!v) at.fail(k, "[solver].skip_singular", "must be true or false");
    o.skip_singular = *v;
  }
  try {
    o.validate();
  } catch (const io::option_error& e) {
    at.fail(s.get(e.field()), "[solver]." + e.field(), e.requirement());
  }
}

}  // namespace

chain_description parse_chain_description(const std::string& text, const std::string& source) {
  toml::table root;
  try {
    root = toml::parse(io::strip_byte_order_mark(text), source);
  } catch (const toml::parse_error& e) {
    throw io::input_error(source, static_cast<int>(e.source().begin.line), "",
                          "cannot read the chain file: " + io::toml_syntax_reason(e.description()));
  }
  const locator at{source};
  at.only(root, {"name", "kind", "links", "input", "start", "motion", "solver"}, "");
  chain_description d;
  const toml::node* kind = root.get("kind");
  const std::string k = kind == nullptr ? "closure" : at.text(*kind, "kind");
  if (k != "closure" && k != "guidance")
    at.fail(kind, "kind", "must be \"closure\" or \"guidance\"");
  d.kind = k == "closure" ? chain_kind::closure : chain_kind::guidance;
  std::string name = "chain";
  if (const toml::node* n = root.get("name")) name = at.text(*n, "name");

  std::vector<dh_link> links;
  const toml::array& rows = at.array(root, "links", "links");
  for (std::size_t i = 0; i < rows.size(); ++i) links.push_back(parse_link(at, rows[i], i));

  if (d.kind == chain_kind::closure) {
    d.closure.name = name;
    d.closure.links = links;
    const toml::node* in = root.get("input");
    if (in == nullptr) at.fail(&root, "input", "is missing (the driven joint, 1-based)");
    const auto v = in->value_exact<int64_t>();
    if (!v || *v < 1 || *v > static_cast<int64_t>(links.size())) {
      at.fail(in, "input", fmt::format("must be a joint number in [1, {}]", links.size()));
    }
    d.closure.input = static_cast<int>(*v - 1);
    try {
      d.closure.validate();
    } catch (const io::option_error& e) {
      at.fail(root.get("links"), "links", fmt::format("{} {}", e.field(), e.requirement()));
    }
  } else {
    if (root.get("input") != nullptr)
      at.fail(root.get("input"), "input", "is for kind = \"closure\" only");
    d.guidance.name = name;
    d.guidance.links = links;
    try {
      d.guidance.validate();
    } catch (const io::option_error& e) {
      at.fail(root.get("links"), "links", fmt::format("{} {}", e.field(), e.requirement()));
    }
  }

  const toml::array& start = at.array(root, "start", "start");
  if (start.size() != links.size()) {
    at.fail(root.get("start"), "start",
            fmt::format("must hold {} joint values (one per link)", links.size()));
  }
  d.start.resize(static_cast<Eigen::Index>(links.size()));
  for (std::size_t i = 0; i < links.size(); ++i) {
    const double v = at.number(start[i], fmt::format("start[{}]", i + 1));
    d.start[static_cast<Eigen::Index>(i)] = links[i].pair == pair_kind::revolute ? v * degree : v;
  }

  symbolic::expression_context ctx;
  const GiNaC::symbol t = ctx.add_symbol("t", source);
  const toml::table& motion = at.table(root, "motion");
  if (d.kind == chain_kind::closure) {
    parse_closure_motion(at, motion, d, ctx, t);
  } else {
    parse_guidance_motion(at, motion, d, ctx, t);
  }
  parse_solver(at, root, d.options);
  return d;
}

chain_description read_chain_description(const std::filesystem::path& path) {
  return parse_chain_description(io::read_input_file(path, "chain file"), path.string());
}

chain_path_result analyze_chain(const chain_description& d) {
  if (d.kind == chain_kind::closure)
    return analyze_closed_chain(d.closure, d.inputs, d.start, d.options);
  return analyze_guidance(d.guidance, d.targets, d.start, d.options);
}

}  // namespace kinevo::analysis
