#include "kinevo/symbolic/optimization_problem.hpp"

#include <fmt/format.h>

#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/io/input_file.hpp"
#include "kinevo/symbolic/detail/evaluation_tape.hpp"
#include "kinevo/symbolic/detail/expression_context.hpp"
#include "kinevo/symbolic/detail/toml_expression_fields.hpp"

namespace kinevo::symbolic {

struct expression_problem::impl {
  std::string name;
  std::vector<std::string> variables;
  Eigen::VectorXd lower, upper;  // the GA's box: index space [0, k - 1] for discrete variables
  std::vector<variable_kind> kinds;
  std::vector<std::vector<double>> values;  // a discrete variable's values; empty otherwise
  std::vector<constraint_info> constraints;
  evaluation_tape tape;  // outputs: f, then each constraint's value
  std::vector<std::optional<double>> initial;
  // The parsed expressions, kept for the derivatives built on first use (derivatives()).
  std::string source;
  std::vector<GiNaC::symbol> symbols;
  GiNaC::ex objective;
  std::vector<GiNaC::ex> constraint_expressions;
  std::once_flag derivatives_built;
  evaluation_tape derivative_tape;  // outputs: grad f, then each constraint's gradient
  std::optional<Eigen::MatrixXd> hessian;

  void build_derivatives();
};

void expression_problem::impl::build_derivatives() {
  const auto n = static_cast<int>(symbols.size());
  tape_builder builder(symbols);
  const auto differentiate = [&](const GiNaC::ex& e, int first, const std::string& what) {
    for (int j = 0; j < n; ++j) {
      try {
        builder.set_output(first + j, e.diff(symbols[static_cast<std::size_t>(j)]));
      } catch (const std::exception& err) {
        throw io::input_error(
            fmt::format("{}: the derivative of {} with respect to '{}' cannot "
                        "be compiled: {}",
                        source, what, variables[static_cast<std::size_t>(j)], err.what()));
      }
    }
  };
  differentiate(objective, 0, "the objective");
  for (std::size_t k = 0; k < constraint_expressions.size(); ++k) {
    differentiate(constraint_expressions[k], n * static_cast<int>(k + 1),
                  fmt::format("constraint '{}'", constraints[k].name));
  }
  derivative_tape = builder.build();
  // A constant Hessian (a quadratic objective) lets a line search use its closed form.
  Eigen::MatrixXd w(n, n);
  for (int i = 0; i < n; ++i) {
    const GiNaC::ex gi = objective.diff(symbols[static_cast<std::size_t>(i)]);
    for (int j = 0; j < n; ++j) {
      const GiNaC::ex wij = gi.diff(symbols[static_cast<std::size_t>(j)]).evalf();
      if (!GiNaC::is_a<GiNaC::numeric>(wij) || !GiNaC::ex_to<GiNaC::numeric>(wij).is_real()) {
        return;
      }
      w(i, j) = GiNaC::ex_to<GiNaC::numeric>(wij).to_double();
    }
  }
  hessian = std::move(w);
}

expression_problem::expression_problem(std::unique_ptr<impl> p) : impl_(std::move(p)) {}
expression_problem::~expression_problem() = default;

int expression_problem::dimension() const {
  return static_cast<int>(impl_->variables.size());
}
Eigen::VectorXd expression_problem::lower_bounds() const {
  return impl_->lower;
}
Eigen::VectorXd expression_problem::upper_bounds() const {
  return impl_->upper;
}
std::string expression_problem::name() const {
  return impl_->name;
}
const std::vector<std::string>& expression_problem::variable_names() const {
  return impl_->variables;
}
const std::vector<expression_problem::constraint_info>& expression_problem::constraints() const {
  return impl_->constraints;
}
const std::vector<expression_problem::variable_kind>& expression_problem::variable_kinds() const {
  return impl_->kinds;
}
bool expression_problem::has_integer_variables() const {
  return std::any_of(impl_->kinds.begin(), impl_->kinds.end(),
                     [](variable_kind k) { return k != variable_kind::real; });
}
const std::vector<std::vector<double>>& expression_problem::discrete_values() const {
  return impl_->values;
}

namespace {

// Nearest whole number (ties to even in the default rounding mode) within [lo, hi]. NaN stays
// NaN, explicitly, so that the discrete branch can tell it from an index.
double round_into(double gene, double lo, double hi) {
  const double r = std::nearbyint(gene);
  if (std::isnan(r)) return r;
  return std::min(std::max(r, lo), hi);
}

}  // namespace

void expression_problem::decode(const double* genes, double* x) const {
  const impl& d = *impl_;
  for (std::size_t j = 0; j < d.kinds.size(); ++j) {
    const double g = genes[j];
    const auto i = static_cast<Eigen::Index>(j);
    switch (d.kinds[j]) {
      case variable_kind::real:
        x[j] = g;
        break;
      case variable_kind::integer:
        x[j] = round_into(g, d.lower[i], d.upper[i]);
        break;
      case variable_kind::discrete: {
        const std::vector<double>& v = d.values[j];
        const double k = round_into(g, 0.0, static_cast<double>(v.size() - 1));
        x[j] = std::isnan(k) ? k : v[static_cast<std::size_t>(k)];
        break;
      }
    }
  }
}

Eigen::VectorXd expression_problem::decode(const Eigen::VectorXd& genes) const {
  if (genes.size() != dimension()) {
    throw io::option_error("genes", fmt::format("has {} entries for {} variables (decode)",
                                                genes.size(), dimension()));
  }
  Eigen::VectorXd x(genes.size());
  decode(genes.data(), x.data());
  return x;
}

int expression_problem::outputs() const {
  return impl_->tape.outputs();
}
int expression_problem::scratch_size() const {
  return impl_->tape.registers();
}
void expression_problem::evaluate(const double* x, double* out, double* scratch) const {
  impl_->tape.evaluate(x, out, scratch);
}

double expression_problem::objective(const Eigen::VectorXd& x) const {
  std::vector<double> scratch(static_cast<std::size_t>(impl_->tape.registers()));
  std::vector<double> out(static_cast<std::size_t>(impl_->tape.outputs()));
  impl_->tape.evaluate(x.data(), out.data(), scratch.data());
  return out[0];
}

Eigen::VectorXd expression_problem::constraint_values(const Eigen::VectorXd& x) const {
  std::vector<double> scratch(static_cast<std::size_t>(impl_->tape.registers()));
  std::vector<double> out(static_cast<std::size_t>(impl_->tape.outputs()));
  impl_->tape.evaluate(x.data(), out.data(), scratch.data());
  Eigen::VectorXd c(static_cast<Eigen::Index>(impl_->constraints.size()));
  for (Eigen::Index k = 0; k < c.size(); ++k) c[k] = out[static_cast<std::size_t>(k) + 1];
  return c;
}

double expression_problem::max_violation(const Eigen::VectorXd& x) const {
  const Eigen::VectorXd c = constraint_values(x);
  double worst = 0.0;
  for (Eigen::Index k = 0; k < c.size(); ++k) {
    const bool eq = impl_->constraints[static_cast<std::size_t>(k)].equality;
    worst = std::max(worst, eq ? std::abs(c[k]) : std::max(0.0, c[k]));
  }
  return worst;
}

const std::vector<std::optional<double>>& expression_problem::initial_values() const {
  return impl_->initial;
}

void expression_problem::derivatives(const Eigen::VectorXd& x, Eigen::VectorXd& objective_gradient,
                                     Eigen::MatrixXd& constraint_jacobian) const {
  impl& d = *impl_;
  std::call_once(d.derivatives_built, [&d] { d.build_derivatives(); });
  const auto n = static_cast<Eigen::Index>(d.symbols.size());
  const auto m = static_cast<Eigen::Index>(d.constraints.size());
  if (x.size() != n) {
    throw io::option_error(
        "x", fmt::format("has {} values for {} variables (derivatives)", x.size(), n));
  }
  std::vector<double> scratch(static_cast<std::size_t>(d.derivative_tape.registers()));
  std::vector<double> out(static_cast<std::size_t>(n * (m + 1)));
  d.derivative_tape.evaluate(x.data(), out.data(), scratch.data());
  objective_gradient = Eigen::Map<const Eigen::VectorXd>(out.data(), n);
  // Row k of the Jacobian is output block k + 1 (row-major in the tape's outputs).
  constraint_jacobian =
      Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
          out.data() + n, m, n);
}

std::optional<Eigen::MatrixXd> expression_problem::constant_objective_hessian() const {
  impl& d = *impl_;
  std::call_once(d.derivatives_built, [&d] { d.build_derivatives(); });
  return d.hessian;
}

namespace {

using problem_fields = toml_expression_fields;

// The `type` field of a [[variable]]; absent means real.
variable_kind variable_kind_of(const problem_fields& f, const toml::table& v) {
  if (!f.has(v, "type")) return variable_kind::real;
  const std::string at = f.field_where(v, "[[variable]]", "type");
  const toml::node* n = v.get("type");
  constexpr const char* valid = "expected one of: real, integer, discrete";
  if (!n->is_string()) f.fail(at, fmt::format("must be a string ({})", valid));
  const std::string t = n->value<std::string>().value_or("");
  if (t == "real") return variable_kind::real;
  if (t == "integer") return variable_kind::integer;
  if (t == "discrete") return variable_kind::discrete;
  f.fail(at, fmt::format("'{}' is not a variable type ({})", io::excerpt(t, 40), valid));
}

// An integer variable's bound: a whole number that a double holds exactly, with every integer
// between it and zero representable too (|v| <= 2^53), so that rounding genes is exact.
void check_whole(const problem_fields& f, double v, const std::string& at) {
  constexpr double largest_exact = 9007199254740992.0;  // 2^53
  if (std::nearbyint(v) != v) {
    f.fail(at, fmt::format("must be a whole number for type = \"integer\" (got {})", v));
  }
  if (std::abs(v) > largest_exact) {
    f.fail(at, fmt::format("{} is beyond 2^53 in magnitude, too large for type = \"integer\"", v));
  }
}

// A discrete variable's `values`: at least two finite numbers (or constant expressions), strictly
// increasing. Two because the GA's box needs lower < upper: one value is a constant, which
// [parameters] is for.
std::vector<double> discrete_values_of(const problem_fields& f, const toml::table& v,
                                       const std::string& name, const expression_context& ctx) {
  const std::string at = f.field_where(v, "[[variable]]", "values");
  const toml::node* n = v.get("values");
  if (n == nullptr) {
    f.fail(at, "type = \"discrete\" needs values = [v1, v2, ...] (strictly increasing)");
  }
  const toml::array* a = n->as_array();
  if (a == nullptr) f.fail(at, "must be an array of numbers, e.g. values = [10.0, 12.5, 16.0]");
  if (a->empty()) f.fail(at, "is empty; list at least two values in increasing order");
  std::vector<double> out;
  out.reserve(a->size());
  for (std::size_t i = 0; i < a->size(); ++i) {
    const toml::node& e = *a->get(i);
    const std::string eat = fmt::format("{}: [[variable]] '{}' field 'values' item {}", f.where(e),
                                        io::excerpt(name, 40), i + 1);
    const double d = to_double(f.expression_of(e, eat, ctx), eat);
    if (!out.empty() && !(d > out.back())) {
      f.fail(eat, fmt::format("{} {} item {} ({}); values must be strictly increasing", d,
                              d == out.back() ? "repeats" : "is less than", i, out.back()));
    }
    out.push_back(d);
  }
  if (out.size() < 2) {
    f.fail(at, fmt::format("has one value ({}); a discrete variable needs at least two (write a "
                           "constant in [parameters])",
                           out.front()));
  }
  return out;
}

// [parameters], in file order (toml++ sorts keys), each a constant of the context.
void read_problem_parameters(const problem_fields& f, const toml::table& root,
                             expression_context& ctx) {
  const toml::table* pt = f.table(root, "", "parameters");
  if (pt == nullptr) return;
  std::vector<std::pair<std::string, const toml::node*>> params;
  for (const auto& [k, v] : *pt) params.emplace_back(std::string(k.str()), &v);
  std::stable_sort(params.begin(), params.end(), [](const auto& a, const auto& b) {
    return a.second->source().begin.line < b.second->source().begin.line;
  });
  for (const auto& [name, v] : params) {
    const std::string at = fmt::format("{}: [parameters] '{}'", f.where(v), io::excerpt(name, 40));
    ctx.add_constant(name, to_double(f.expression_of(*v, at, ctx), at), at);
  }
}

// A real or integer variable's box [lower, upper] (which may use parameters; variables are not
// constants, so they are refused).
std::pair<double, double> variable_bounds(const problem_fields& f, const toml::table& v,
                                          variable_kind kind, const expression_context& ctx) {
  if (v.get("values") != nullptr) {
    f.fail_field(v, "[[variable]]", "values",
                 "only a variable with type = \"discrete\" takes a list of values");
  }
  const std::string lat = f.field_where(v, "[[variable]]", "lower");
  const std::string uat = f.field_where(v, "[[variable]]", "upper");
  const double l = to_double(f.expression(v, "[[variable]]", "lower", ctx), lat);
  const double u = to_double(f.expression(v, "[[variable]]", "upper", ctx), uat);
  if (kind == variable_kind::integer) {
    check_whole(f, l, lat);
    check_whole(f, u, uat);
  }
  if (!(l < u)) f.fail(uat, fmt::format("needs lower < upper (got {} and {})", l, u));
  return {l, u};
}

// One [[variable]]: its symbol, kind, box (the GA's: an index range for a discrete one) and
// initial value.
void read_variable(const problem_fields& f, const toml::table& v, expression_context& ctx,
                   expression_problem::impl& p, std::vector<GiNaC::symbol>& symbols,
                   std::vector<double>& lo, std::vector<double>& hi) {
  f.only_keys(v, "[[variable]]", {"name", "type", "lower", "upper", "values", "initial"});
  const std::string name = f.string(v, "[[variable]]", "name");
  symbols.push_back(ctx.add_symbol(name, f.where(v)));
  const auto kind = variable_kind_of(f, v);
  std::vector<double> values;
  std::pair<double, double> box;
  if (kind == variable_kind::discrete) {
    // The GA searches the index; the values' own range comes from the list.
    for (const char* field : {"lower", "upper"}) {
      if (v.get(field) != nullptr) {
        f.fail_field(v, "[[variable]]", field,
                     "not allowed with type = \"discrete\" (the GA searches an index into "
                     "'values')");
      }
    }
    values = discrete_values_of(f, v, name, ctx);
    box = {0.0, static_cast<double>(values.size() - 1)};
  } else {
    box = variable_bounds(f, v, kind, ctx);
  }
  std::optional<double> initial;
  if (v.get("initial") != nullptr) {
    const std::string iat = f.field_where(v, "[[variable]]", "initial");
    if (kind != variable_kind::real) f.fail(iat, "only a real variable takes an initial value");
    initial = to_double(f.expression(v, "[[variable]]", "initial", ctx), iat);
  }
  p.initial.push_back(initial);
  p.variables.push_back(name);
  p.kinds.push_back(kind);
  p.values.push_back(std::move(values));
  lo.push_back(box.first);
  hi.push_back(box.second);
}

// An expression field compiled into output `k` of the tape; an expression the tape cannot take
// is refused naming the field.
GiNaC::ex compiled_expression(const problem_fields& f, const toml::table& t,
                              std::string_view section, std::string_view key,
                              const expression_context& ctx, tape_builder& builder, int k) {
  const std::string at = f.field_where(t, section, key);
  try {
    GiNaC::ex e = f.expression(t, section, key, ctx);
    builder.set_output(k, e);
    return e;
  } catch (const std::invalid_argument& err) {
    f.fail(at, err.what());
  }
}

// One [[constraint]] (output k of the tape).
void read_constraint(const problem_fields& f, const toml::table& c, const expression_context& ctx,
                     double default_weight, tape_builder& builder, int k,
                     expression_problem::impl& p) {
  f.only_keys(c, "[[constraint]]", {"name", "expression", "type", "weight"});
  expression_problem::constraint_info ci;
  ci.name = f.string_or(c, "[[constraint]]", "name", fmt::format("c{}", k));
  const std::string type = f.string_or(c, "[[constraint]]", "type", "<=");
  if (type == "<=") {
    ci.equality = false;
  } else if (type == "=" || type == "==") {
    ci.equality = true;
  } else {
    f.fail_field(
        c, "[[constraint]]", "type",
        fmt::format("'{}' is not \"<=\" (g(x) <= 0) or \"=\" (h(x) = 0)", io::excerpt(type, 40)));
  }
  ci.weight = default_weight;
  if (f.has(c, "weight")) {
    const std::string wat = f.field_where(c, "[[constraint]]", "weight");
    ci.weight = to_double(f.expression(c, "[[constraint]]", "weight", ctx), wat);
    if (!(ci.weight > 0.0)) f.fail(wat, "must be positive");
  }
  p.constraint_expressions.push_back(
      compiled_expression(f, c, "[[constraint]]", "expression", ctx, builder, k));
  p.constraints.push_back(ci);
}

}  // namespace

std::unique_ptr<expression_problem> load_optimization_problem_from_string(
    const std::string& text, const std::string& source) {
  const toml::table root = io::parse_toml(text, source);
  const problem_fields f(source);
  f.only_keys(root, "problem file", {"problem", "parameters", "variable", "constraint"});
  auto p = std::make_unique<expression_problem::impl>();
  expression_context ctx;
  const toml::table* prob =
      root.get("problem") != nullptr ? root.get("problem")->as_table() : nullptr;
  if (prob == nullptr) f.fail(source, "missing [problem] table with objective = \"f(x)\"");
  f.only_keys(*prob, "[problem]", {"name", "objective", "penalty"});
  p->name = f.string_or(*prob, "[problem]", "name", "");
  read_problem_parameters(f, root, ctx);
  double default_weight = 1e4;
  if (f.has(*prob, "penalty")) {
    const std::string at = f.field_where(*prob, "[problem]", "penalty");
    default_weight = to_double(f.expression(*prob, "[problem]", "penalty", ctx), at);
    if (!(default_weight > 0.0)) f.fail(at, "must be positive");
  }
  std::vector<GiNaC::symbol> symbols;
  std::vector<double> lo, hi;
  for (const toml::table* v : f.tables(root, "variable")) {
    read_variable(f, *v, ctx, *p, symbols, lo, hi);
  }
  if (symbols.empty()) f.fail(source, "the problem has no [[variable]]");
  ctx.set_name_kinds("a variable or parameter");
  p->lower = Eigen::Map<Eigen::VectorXd>(lo.data(), static_cast<Eigen::Index>(lo.size()));
  p->upper = Eigen::Map<Eigen::VectorXd>(hi.data(), static_cast<Eigen::Index>(hi.size()));
  tape_builder builder(symbols);
  p->objective = compiled_expression(f, *prob, "[problem]", "objective", ctx, builder, 0);
  int k = 1;
  for (const toml::table* c : f.tables(root, "constraint")) {
    read_constraint(f, *c, ctx, default_weight, builder, k++, *p);
  }
  p->tape = builder.build();
  p->source = source;
  p->symbols = std::move(symbols);
  return std::make_unique<expression_problem>(std::move(p));
}

std::unique_ptr<expression_problem> load_optimization_problem(const std::filesystem::path& path) {
  // Refuses devices and FIFOs before reading (/dev/zero was read until memory ran out, a FIFO
  // blocked for ever).
  return load_optimization_problem_from_string(io::read_input_file(path, "problem file"),
                                               path.string());
}

}  // namespace kinevo::symbolic
