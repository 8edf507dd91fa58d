#include "mechanics/model.hpp"

#include <fmt/format.h>

#include <toml++/toml.h>
#include <Eigen/Cholesky>
#include <cmath>
#include <fstream>
#include <sstream>

#include "io/csv_table.hpp"
#include "mechanics/model_file.hpp"
#include "symbolic/constraint_derivatives.hpp"
#include "symbolic/evaluation_tape.hpp"

namespace kinevo::mechanics {

// The compiled form: one tape per quantity, all with inputs (q, q', t).
class compiled_model {
 public:
  int n = 0, m = 0, h = 0;
  bool diagonal = false;
  int holonomic_nnz = 0;           // the first holonomic_nnz pattern entries are the rows of Phi_q
  symbolic::evaluation_tape main;  // M (n or n*n), f (n), A non-zeros, b (m)
  symbolic::evaluation_tape position;  // Phi (h)
  symbolic::evaluation_tape velocity;  // C (m)
  symbolic::evaluation_tape jacobian;  // Phi_q non-zeros (holonomic_nnz)
  symbolic::evaluation_tape energy;    // T + V (1), only when the model defines energy
  int registers = 0;
  int main_outputs = 0;
};

model::model() = default;
model::model(model&&) noexcept = default;
model& model::operator=(model&&) noexcept = default;
model::model(const model&) = default;
model& model::operator=(const model&) = default;
model::~model() = default;

parameter_override parse_parameter_override(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
    throw io::input_error(fmt::format("--set '{}': expected name=value", text));
  }
  parameter_override p;
  p.name = text.substr(0, eq);
  const std::string v = text.substr(eq + 1);
  std::size_t used = 0;
  try {
    p.value = std::stod(v, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != v.size() || !std::isfinite(p.value)) {
    throw io::input_error(fmt::format("--set '{}': '{}' is not a number", text, v));
  }
  return p;
}

namespace {

struct input_buffer {
  std::vector<double> values;
  void fill(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t) {
    const auto n = static_cast<std::size_t>(q.size());
    values.resize(2 * n + 1);
    for (std::size_t i = 0; i < n; ++i) {
      values[i] = q[static_cast<Eigen::Index>(i)];
      values[n + i] = qd[static_cast<Eigen::Index>(i)];
    }
    values[2 * n] = t;
  }
};

thread_local input_buffer inputs;
thread_local std::vector<double> outputs;

}  // namespace

void model::evaluate(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                     constrained_system& out) const {
  const compiled_model& c = *compiled_;
  if (out.mass.rows() != c.n || out.jacobian.rows() != c.m || out.jacobian.cols() != c.n) {
    out.mass.setZero(c.n, c.n);
    out.jacobian.setZero(c.m, c.n);
    out.force.resize(c.n);
    out.rhs.resize(c.m);
  }
  out.mass_is_diagonal = c.diagonal;
  out.constraint_names = constraint_names_;
  out.jacobian_pattern = pattern_;
  inputs.fill(q, qd, t);
  outputs.resize(static_cast<std::size_t>(c.main_outputs));
  scratch_.resize(static_cast<std::size_t>(c.registers));
  c.main.evaluate(inputs.values.data(), outputs.data(), scratch_.data());
  const double* o = outputs.data();
  if (c.diagonal) {
    for (int i = 0; i < c.n; ++i) out.mass(i, i) = *o++;
  } else {
    for (int i = 0; i < c.n; ++i) {
      for (int j = 0; j < c.n; ++j) out.mass(i, j) = *o++;
    }
  }
  for (int i = 0; i < c.n; ++i) out.force[i] = *o++;
  for (const auto& [r, col] : pattern_) out.jacobian(r, col) = *o++;
  for (int i = 0; i < c.m; ++i) out.rhs[i] = *o++;
}

constrained_system model::evaluate(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                   double t) const {
  constrained_system s;
  evaluate(q, qd, t, s);
  return s;
}

Eigen::VectorXd model::position_violation(const Eigen::VectorXd& q, double t) const {
  const compiled_model& c = *compiled_;
  Eigen::VectorXd out(c.h);
  inputs.fill(q, Eigen::VectorXd::Zero(c.n), t);
  scratch_.resize(static_cast<std::size_t>(c.registers));
  c.position.evaluate(inputs.values.data(), out.data(), scratch_.data());
  return out;
}

Eigen::VectorXd model::velocity_violation(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                          double t) const {
  const compiled_model& c = *compiled_;
  Eigen::VectorXd out(c.m);
  inputs.fill(q, qd, t);
  scratch_.resize(static_cast<std::size_t>(c.registers));
  c.velocity.evaluate(inputs.values.data(), out.data(), scratch_.data());
  return out;
}

Eigen::MatrixXd model::position_jacobian(const Eigen::VectorXd& q, double t) const {
  const compiled_model& c = *compiled_;
  Eigen::MatrixXd out = Eigen::MatrixXd::Zero(c.h, c.n);
  inputs.fill(q, Eigen::VectorXd::Zero(c.n), t);
  outputs.resize(static_cast<std::size_t>(std::max(c.holonomic_nnz, 1)));
  scratch_.resize(static_cast<std::size_t>(c.registers));
  c.jacobian.evaluate(inputs.values.data(), outputs.data(), scratch_.data());
  for (int k = 0; k < c.holonomic_nnz; ++k) {
    const auto& [r, col] = pattern_[static_cast<std::size_t>(k)];
    out(r, col) = outputs[static_cast<std::size_t>(k)];
  }
  return out;
}

std::optional<double> model::energy(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                    double t) const {
  if (!has_energy_) return std::nullopt;
  const compiled_model& c = *compiled_;
  double e = 0.0;
  inputs.fill(q, qd, t);
  scratch_.resize(static_cast<std::size_t>(c.registers));
  c.energy.evaluate(inputs.values.data(), &e, scratch_.data());
  return e;
}

class model_builder {
 public:
  static model build(model_description& d, const model_options& options);
};

model model_builder::build(model_description& d, const model_options& options) {
  model result;
  auto c = std::make_shared<compiled_model>();
  const int n = static_cast<int>(d.coordinates.size());
  const auto q = d.positions();
  const auto qd = d.velocities();
  std::vector<GiNaC::symbol> in(q);
  in.insert(in.end(), qd.begin(), qd.end());
  in.push_back(d.t);

  result.name_ = d.name;
  result.source_ = d.source;
  result.kinematic_ = d.kinematic;
  result.parameters_ = d.parameters;
  for (const auto& co : d.coordinates) result.coordinate_names_.push_back(co.name);
  result.q0_.resize(n);
  result.qd0_.resize(n);
  for (int i = 0; i < n; ++i) {
    result.q0_[i] = d.coordinates[static_cast<std::size_t>(i)].initial;
    result.qd0_[i] = d.coordinates[static_cast<std::size_t>(i)].velocity;
  }
  if (d.kinematic) {
    // Generalized-inverse dissertation (GIGSP), eq. 4.8: M = I, no forces.
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) d.mass_at(i, j) = i == j ? 1 : 0;
    }
    for (auto& f : d.force) f = 0;
  }
  bool diagonal = true;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) diagonal = diagonal && (i == j || d.mass_at(i, j).is_zero());
  }
  // Holonomic rows first, then nonholonomic ones, each with its derivatives.
  std::vector<const model_description::constraint*> rows;
  for (const auto& k : d.constraints) {
    if (k.holonomic) rows.push_back(&k);
  }
  const int h = static_cast<int>(rows.size());
  for (const auto& k : d.constraints) {
    if (!k.holonomic) rows.push_back(&k);
  }
  const int m = static_cast<int>(rows.size());
  std::vector<symbolic::constraint_row_expressions> derived;
  for (const auto* k : rows) {
    result.constraint_names_.push_back(k->name);
    if (k->holonomic) {
      // A holonomic constraint must not depend on velocities.
      for (const auto& v : qd) {
        if (k->expression.has(v)) {
          throw io::input_error(fmt::format(
              "{}: constraint '{}' uses the velocity {}: write it as nonholonomic = \"...\"",
              k->where, k->name, v.get_name()));
        }
      }
      derived.push_back(symbolic::holonomic_row(k->expression, q, qd, d.t));
    } else {
      derived.push_back(symbolic::nonholonomic_row(k->expression, q, qd, d.t, k->where));
    }
  }
  result.holonomic_ = h;
  for (int r = 0; r < m; ++r) {
    for (int j = 0; j < n; ++j) {
      if (!derived[static_cast<std::size_t>(r)].jacobian[static_cast<std::size_t>(j)].is_zero()) {
        result.pattern_.emplace_back(r, j);
        if (r < h) ++c->holonomic_nnz;
      }
    }
  }
  c->n = n;
  c->m = m;
  c->h = h;
  c->diagonal = diagonal;
  result.mass_is_diagonal_ = diagonal;

  auto compile = [&](const std::string& what, auto&& add) {
    symbolic::tape_builder b(in);
    try {
      add(b);
    } catch (const std::invalid_argument& e) {
      throw io::input_error(fmt::format("{}: cannot compile the {}: {}", d.source, what, e.what()));
    }
    return b.build();
  };
  int k = 0;
  c->main = compile("model equations", [&](symbolic::tape_builder& b) {
    if (diagonal) {
      for (int i = 0; i < n; ++i) b.set_output(k++, d.mass_at(i, i));
    } else {
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) b.set_output(k++, d.mass_at(i, j));
      }
    }
    for (int i = 0; i < n; ++i) b.set_output(k++, d.force[static_cast<std::size_t>(i)]);
    for (const auto& [r, col] : result.pattern_) {
      b.set_output(k++,
                   derived[static_cast<std::size_t>(r)].jacobian[static_cast<std::size_t>(col)]);
    }
    for (int r = 0; r < m; ++r) b.set_output(k++, derived[static_cast<std::size_t>(r)].rhs);
  });
  c->main_outputs = k;
  c->position = compile("constraints", [&](symbolic::tape_builder& b) {
    for (int r = 0; r < h; ++r) b.set_output(r, rows[static_cast<std::size_t>(r)]->expression);
  });
  c->velocity = compile("velocity constraints", [&](symbolic::tape_builder& b) {
    for (int r = 0; r < m; ++r) b.set_output(r, derived[static_cast<std::size_t>(r)].velocity);
  });
  c->jacobian = compile("constraint Jacobian", [&](symbolic::tape_builder& b) {
    for (int i = 0; i < c->holonomic_nnz; ++i) {
      const auto& [r, col] = result.pattern_[static_cast<std::size_t>(i)];
      b.set_output(i, derived[static_cast<std::size_t>(r)].jacobian[static_cast<std::size_t>(col)]);
    }
  });
  result.has_energy_ = d.conservative && !d.kinematic;
  if (result.has_energy_) {
    c->energy = compile("energy", [&](symbolic::tape_builder& b) {
      GiNaC::ex kinetic = 0;
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
          if (!d.mass_at(i, j).is_zero())
            kinetic +=
                d.mass_at(i, j) * qd[static_cast<std::size_t>(i)] * qd[static_cast<std::size_t>(j)];
        }
      }
      b.set_output(0, kinetic / 2 + d.potential);
    });
  }
  c->registers = std::max({c->main.registers(), c->position.registers(), c->velocity.registers(),
                           c->jacobian.registers(), c->energy.registers(), 1});
  result.compiled_ = c;

  // Checks at the initial state.
  const double t0 = 0.0;
  if (!d.kinematic) {
    const constrained_system s = result.evaluate(result.q0_, result.qd0_, t0);
    for (int i = 0; i < n; ++i) {
      if (!(s.mass(i, i) > 0.0)) {
        const auto& co = d.coordinates[static_cast<std::size_t>(i)];
        throw io::input_error(fmt::format(
            "{}: coordinate '{}' has mass {} at the initial state: the mass matrix is not positive "
            "definite (give it a positive mass)",
            d.mass_where.empty() ? co.where : d.mass_where, co.name, s.mass(i, i)));
      }
    }
    if (!diagonal && Eigen::LLT<Eigen::MatrixXd>(s.mass).info() != Eigen::Success) {
      throw io::input_error(fmt::format(
          "{}: the mass matrix is not positive definite at the initial state", d.mass_where));
    }
  }
  const Eigen::VectorXd phi = result.position_violation(result.q0_, t0);
  for (int r = 0; r < h; ++r) {
    if (!(std::abs(phi[r]) <= options.assembly_tolerance)) {
      throw io::input_error(fmt::format(
          "{}: the initial positions violate constraint '{}' by {:.3g} (tolerance {:g}); "
          "correct the initial values (assembly is not automatic yet)",
          rows[static_cast<std::size_t>(r)]->where,
          result.constraint_names_[static_cast<std::size_t>(r)], phi[r],
          options.assembly_tolerance));
    }
  }
  const Eigen::VectorXd vel = result.velocity_violation(result.q0_, result.qd0_, t0);
  for (int r = 0; r < m; ++r) {
    if (!(std::abs(vel[r]) <= options.assembly_tolerance)) {
      throw io::input_error(fmt::format(
          "{}: the initial velocities violate constraint '{}' by {:.3g} (tolerance {:g}); "
          "correct the initial velocities",
          rows[static_cast<std::size_t>(r)]->where,
          result.constraint_names_[static_cast<std::size_t>(r)], vel[r],
          options.assembly_tolerance));
    }
  }
  return result;
}

model load_model_from_string(const std::string& text, const std::string& source,
                             const model_options& options) {
  toml::table root;
  try {
    root = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    throw io::input_error(fmt::format("{}:{}: {}", source, e.source().begin.line, e.description()));
  }
  model_description d;
  read_model_file(root, source, options, d);
  return model_builder::build(d, options);
}

model load_model(const std::filesystem::path& path, const model_options& options) {
  std::ifstream in(path);
  if (!in) throw io::input_error(fmt::format("{}: cannot open the model file", path.string()));
  std::stringstream ss;
  ss << in.rdbuf();
  model m = load_model_from_string(ss.str(), path.string(), options);
  m.source_ = path;
  return m;
}

std::vector<std::string> non_finite_entries(const model& m, const constrained_system& s) {
  std::vector<std::string> out;
  const auto& q = m.coordinate_names();
  const auto& c = m.constraint_names();
  for (int i = 0; i < s.coordinates() && static_cast<std::size_t>(i) < q.size(); ++i) {
    const std::string& name = q[static_cast<std::size_t>(i)];
    if (!std::isfinite(s.force[i])) out.push_back(fmt::format("force of '{}'", name));
    if (!s.mass.row(i).allFinite()) out.push_back(fmt::format("mass matrix row '{}'", name));
  }
  for (int i = 0; i < s.constraints() && static_cast<std::size_t>(i) < c.size(); ++i) {
    if (!s.jacobian.row(i).allFinite() || !std::isfinite(s.rhs[i])) {
      out.push_back(fmt::format("constraint '{}'", c[static_cast<std::size_t>(i)]));
    }
  }
  return out;
}

}  // namespace kinevo::mechanics
