#include "kinevo/analysis/chain_file.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <cmath>
#include <numbers>
#include <optional>

#include "kinevo/core/numbers.hpp"
#include "kinevo/io/detail/toml_fields.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/io/input_file.hpp"
#include "kinevo/symbolic/detail/exact_numbers.hpp"
#include "kinevo/symbolic/detail/expression_context.hpp"

namespace kinevo::analysis {

namespace {

constexpr std::size_t max_points = 10'000;

dh_link parse_link(const io::toml_fields& f, const toml::node& n, std::size_t i) {
  if (!n.is_table()) {
    f.fail(fmt::format("{}: field 'links' item {}", f.where(n), i + 1),
           "must be an inline table { a, b, alpha, pair }");
  }
  const toml::table& t = *n.as_table();
  const std::string sec = fmt::format("links[{}]", i + 1);
  f.only_keys(t, sec, {"a", "b", "alpha", "pair", "theta"});
  dh_link l;
  l.a = f.number(t, sec, "a");
  l.alpha = f.number(t, sec, "alpha") * degree;
  const std::string kind = f.string_or(t, sec, "pair", "R");
  if (kind != "R" && kind != "P") f.fail_field(t, sec, "pair", "must be \"R\" or \"P\"");
  l.pair = kind == "R" ? pair_kind::revolute : pair_kind::prismatic;
  if (l.pair == pair_kind::revolute) {
    if (f.has(t, "theta")) {
      f.fail_field(t, sec, "theta", "is the variable of an R pair: give its value in start");
    }
    l.b = f.number(t, sec, "b");
  } else {
    if (f.has(t, "b")) {
      f.fail_field(t, sec, "b", "is the variable of a P pair: give its value in start");
    }
    l.theta = f.number(t, sec, "theta") * degree;
  }
  return l;
}

// Sample times (or input values) from, from + step, ..., to: the fields <prefix>from, ...
// of [motion].
std::vector<double> samples(const io::toml_fields& f, const toml::table& t,
                            const std::string& prefix) {
  const std::string sec = "[motion]";
  const double from = f.number(t, sec, prefix + "from");
  const double to = f.number(t, sec, prefix + "to");
  const double step = f.number(t, sec, prefix + "step");
  if (!(step > 0.0) && to != from) f.fail_field(t, sec, prefix + "step", "must be > 0");
  const double count = to == from ? 1.0 : std::floor((to - from) / step + 1e-9) + 1.0;
  if (to < from || count > static_cast<double>(max_points)) {
    f.fail_field(t, sec, prefix + "to",
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

std::vector<motion_expression> vector_expression(const io::toml_fields& f, const toml::table& t,
                                                 const std::string& key,
                                                 const symbolic::expression_context& ctx,
                                                 const GiNaC::symbol& sym) {
  const toml::array& a = f.array(t, "[motion]", key);
  if (a.size() != 3) f.fail_field(t, "[motion]", key, "must hold three expressions (x, y, z)");
  std::vector<motion_expression> e;
  for (std::size_t i = 0; i < 3; ++i) {
    const std::string where =
        fmt::format("{}: [motion] field '{}' item {}", f.where(a[i]), key, i + 1);
    if (!a[i].is_string()) f.fail(where, "must be a string");
    e.emplace_back(ctx, sym, a[i].value<std::string>().value_or(""), where);
  }
  return e;
}

void parse_closure_motion(const io::toml_fields& f, const toml::table& m, chain_description& d,
                          const symbolic::expression_context& ctx, const GiNaC::symbol& t) {
  const bool angle =
      d.closure.links[static_cast<std::size_t>(d.closure.input)].pair == pair_kind::revolute;
  if (f.has(m, "value")) {
    f.only_keys(m, "[motion]", {"value", "t_from", "t_to", "t_step"});
    const motion_expression e(ctx, t, f.string(m, "[motion]", "value"),
                              f.field_where(m, "[motion]", "value"));
    for (const double time : samples(f, m, "t_")) {
      const Eigen::Vector3d s = e.at(time);
      d.inputs.push_back({time, s[0], s[1], s[2]});
    }
    return;
  }
  f.only_keys(m, "[motion]", {"from", "to", "step", "rate", "acceleration"});
  // A range of the input in the file's units (deg for an R pair) at a constant rate.
  const double scale = angle ? degree : 1.0;
  const double rate = f.number_or(m, "[motion]", "rate", 1.0);
  const double acceleration = f.number_or(m, "[motion]", "acceleration", 0.0);
  if (rate == 0.0) {
    f.fail_field(m, "[motion]", "rate",
                 "must not be 0 (the time of a sample is the input over the rate)");
  }
  const auto values = samples(f, m, "");
  for (const double v : values) {
    d.inputs.push_back({(v - values.front()) * scale / rate, v * scale, rate, acceleration});
  }
}

void parse_guidance_motion(const io::toml_fields& f, const toml::table& m, chain_description& d,
                           const symbolic::expression_context& ctx, const GiNaC::symbol& t) {
  f.only_keys(m, "[motion]", {"a", "b", "t_from", "t_to", "t_step"});
  const auto a = vector_expression(f, m, "a", ctx, t);
  const auto b = vector_expression(f, m, "b", ctx, t);
  for (const double time : samples(f, m, "t_")) {
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

void parse_solver(const io::toml_fields& f, const toml::table& root, chain_newton_options& o) {
  const toml::table* found = f.table(root, "", "solver");
  if (found == nullptr) return;
  const toml::table& s = *found;
  const std::string sec = "[solver]";
  f.only_keys(
      s, sec,
      {"tolerance", "damping", "max_iterations", "singular_ratio", "residual", "skip_singular"});
  o.tolerance = f.number_or(s, sec, "tolerance", o.tolerance);
  o.damping = f.number_or(s, sec, "damping", o.damping);
  o.singular_ratio = f.number_or(s, sec, "singular_ratio", o.singular_ratio);
  const double it = f.number_or(s, sec, "max_iterations", o.max_iterations);
  if (it != std::floor(it) || it < 1 || it > 10000) {
    f.fail_field(s, sec, "max_iterations", "must be an integer in [1, 10000]");
  }
  o.max_iterations = static_cast<int>(it);
  if (f.has(s, "residual")) {
    try {
      o.residual = parse_rotation_residual(f.string(s, sec, "residual"));
    } catch (const io::option_error& e) {
      f.fail_field(s, sec, "residual", e.requirement());
    }
  }
  o.skip_singular = f.boolean_or(s, sec, "skip_singular", o.skip_singular);
  try {
    o.validate();
  } catch (const io::option_error& e) {
    f.fail_field(s, sec, e.field(), e.requirement());
  }
}

// The links' validate() (closure or guidance), naming the file's links field.
template <class Chain>
void validate_links(const io::toml_fields& f, const toml::table& root, const Chain& chain) {
  try {
    chain.validate();
  } catch (const io::option_error& e) {
    f.fail_field(root, "", "links", fmt::format("{} {}", e.field(), e.requirement()));
  }
}

// The driven joint of a closure chain (1-based in the file).
int closure_input(const io::toml_fields& f, const toml::table& root, std::size_t links) {
  const toml::node* in = root.get("input");
  if (in == nullptr) f.fail_field(root, "", "input", "missing (the driven joint, 1-based)");
  const auto v = in->value_exact<int64_t>();
  if (!v || *v < 1 || *v > static_cast<int64_t>(links)) {
    f.fail_field(root, "", "input", fmt::format("must be a joint number in [1, {}]", links));
  }
  return static_cast<int>(*v - 1);
}

}  // namespace

chain_description parse_chain_description(const std::string& text, const std::string& source) {
  const toml::table root = io::parse_toml(text, source);
  const io::toml_fields f(source);
  f.only_keys(root, "chain file", {"name", "kind", "links", "input", "start", "motion", "solver"});
  chain_description d;
  const std::string k = f.string_or(root, "", "kind", "closure");
  if (k != "closure" && k != "guidance") {
    f.fail_field(root, "", "kind", "must be \"closure\" or \"guidance\"");
  }
  d.kind = k == "closure" ? chain_kind::closure : chain_kind::guidance;
  const std::string name = f.string_or(root, "", "name", "chain");

  std::vector<dh_link> links;
  const toml::array& rows = f.array(root, "", "links");
  for (std::size_t i = 0; i < rows.size(); ++i) links.push_back(parse_link(f, rows[i], i));

  if (d.kind == chain_kind::closure) {
    d.closure.name = name;
    d.closure.links = links;
    d.closure.input = closure_input(f, root, links.size());
    validate_links(f, root, d.closure);
  } else {
    if (f.has(root, "input")) f.fail_field(root, "", "input", "is for kind = \"closure\" only");
    d.guidance.name = name;
    d.guidance.links = links;
    validate_links(f, root, d.guidance);
  }

  if (f.array(root, "", "start").size() != links.size()) {
    f.fail_field(root, "", "start",
                 fmt::format("must hold {} joint values (one per link)", links.size()));
  }
  const std::vector<double> start = f.numbers(root, "", "start");
  d.start.resize(static_cast<Eigen::Index>(links.size()));
  for (std::size_t i = 0; i < links.size(); ++i) {
    d.start[static_cast<Eigen::Index>(i)] =
        links[i].pair == pair_kind::revolute ? start[i] * degree : start[i];
  }

  symbolic::expression_context ctx;
  const GiNaC::symbol t = ctx.add_symbol("t", source);
  const toml::table* motion = f.table(root, "", "motion");
  if (motion == nullptr) f.fail_field(root, "", "motion", "missing");
  if (d.kind == chain_kind::closure) {
    parse_closure_motion(f, *motion, d, ctx, t);
  } else {
    parse_guidance_motion(f, *motion, d, ctx, t);
  }
  parse_solver(f, root, d.options);
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
