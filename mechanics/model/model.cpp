#include "kinevo/mechanics/model/model.hpp"

#include <fmt/format.h>

#include <toml++/toml.h>
#include <Eigen/Cholesky>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/io/input_file.hpp"
#include "kinevo/mechanics/model/detail/model_file.hpp"
#include "kinevo/mechanics/model/detail/toml_fields.hpp"
#include "kinevo/mechanics/solvers/solver_support.hpp"
#include "kinevo/symbolic/detail/constraint_derivatives.hpp"
#include "kinevo/symbolic/detail/evaluation_tape.hpp"
#include "kinevo/symbolic/detail/exact_numbers.hpp"
#include "kinevo/symbolic/detail/native_code.hpp"

namespace kinevo::mechanics {

// The compiled form: one tape per quantity, all with inputs (q, q', t).
class compiled_model {
 public:
  int n = 0, m = 0, h = 0;
  bool diagonal = false;
  // Non-diagonal M: its structurally non-zero entries (row-major, diagonal included), the
  // main tape's first outputs, and the diagonal blocks they form (spatial bodies: 1 x 1 for
  // the centre of mass, 4 x 4 for the Euler parameters).
  std::vector<std::pair<int, int>> mass_pattern;
  // Where each mass_pattern entry goes in a compact system's mass_values (its block, dense and
  // column-major, after the earlier blocks), and their count.
  std::vector<int> mass_packed;
  int mass_packed_size = 0;
  int holonomic_nnz = 0;  // the first holonomic_nnz pattern entries are the rows of Phi_q
  // Phi_q's compressed structure (zero values) and where each of the holonomic_nnz pattern
  // entries goes among its values: position_jacobian_sparse fills a copy instead of building
  // it from triplets at every call. Empty when two pattern entries coincide.
  Eigen::SparseMatrix<double> jacobian_structure;
  std::vector<int> jacobian_at;
  symbolic::evaluation_tape main;      // M (n or its pattern), f (n), A non-zeros, b (m)
  symbolic::evaluation_tape position;  // Phi (h)
  symbolic::evaluation_tape velocity;  // C (m)
  symbolic::evaluation_tape jacobian;  // Phi_q non-zeros (holonomic_nnz)
  symbolic::evaluation_tape energy;    // T + V (1), only when the model defines energy
  // Intermittent rows: inputs (q, q', t, force_1..force_k), outputs (F_i, on_i, off_i) per row.
  symbolic::evaluation_tape intermittent;
  // The tapes above (but intermittent) as native code, when model_options::native_code is on
  // and the compile succeeded; empty functions run the tapes.
  symbolic::native_function main_native, position_native, velocity_native, jacobian_native,
      energy_native;
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
  // strtod, not stod: stod refuses subnormal values (ERANGE), which are valid here.
  char* end = nullptr;
  p.value = std::strtod(v.c_str(), &end);
  const bool underflow = p.value == 0.0 && v.find_first_of("123456789") < v.find_first_of("eE");
  if (end != v.c_str() + v.size() || std::isspace(static_cast<unsigned char>(v[0])) != 0 ||
      !std::isfinite(p.value) || underflow) {
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

thread_local input_buffer tape_inputs;
thread_local std::vector<double> tape_outputs;

// The native function when there is one, else the tape.
void run_tape_or_native(const symbolic::evaluation_tape& tape,
                        const symbolic::native_function& native, const double* in, double* out,
                        double* scratch) {
  if (native) {
    native(in, out);
  } else {
    tape.evaluate(in, out, scratch);
  }
}

}  // namespace

bool model::native_code() const {
  return static_cast<bool>(compiled_->main_native);
}

// The main tape (or its native code) at (q, qd, t), with the system's structure copied into
// `out`: M's values, f, A's non-zeros and b, in that order, from the returned pointer.
const double* model::run_main(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                              constrained_system& out) const {
  const compiled_model& c = *compiled_;
  out.mass_is_diagonal = c.diagonal;
  out.mass_blocks = mass_blocks_;
  out.constraint_names = constraint_names_;
  out.jacobian_pattern = pattern_;
  tape_inputs.fill(q, qd, t);
  tape_outputs.resize(static_cast<std::size_t>(c.main_outputs));
  scratch_.resize(static_cast<std::size_t>(c.registers));
  run_tape_or_native(c.main, c.main_native, tape_inputs.values.data(), tape_outputs.data(),
                     scratch_.data());
  const double* o = tape_outputs.data();
  return o;
}

void model::evaluate(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                     constrained_system& out, bool compact) const {
  const compiled_model& c = *compiled_;
  if (compact) {
    evaluate_compact(q, qd, t, out);
    return;
  }
  if (out.compact || out.mass.rows() != c.n || out.jacobian.rows() != c.m ||
      out.jacobian.cols() != c.n) {
    out.compact = false;
    out.mass_values.resize(0);
    out.jacobian_values.resize(0);
    out.mass.setZero(c.n, c.n);
    out.jacobian.setZero(c.m, c.n);
    out.force.resize(c.n);
    out.rhs.resize(c.m);
  }
  const double* o = run_main(q, qd, t, out);
  if (c.diagonal) {
    for (int i = 0; i < c.n; ++i) out.mass(i, i) = *o++;
  } else {
    for (const auto& [i, j] : c.mass_pattern) out.mass(i, j) = *o++;
  }
  for (int i = 0; i < c.n; ++i) out.force[i] = *o++;
  for (const auto& [r, col] : pattern_) out.jacobian(r, col) = *o++;
  for (int i = 0; i < c.m; ++i) out.rhs[i] = *o++;
}

// The same outputs into the compact form (constrained_system::compact): no dense M or A.
void model::evaluate_compact(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                             constrained_system& out) const {
  const compiled_model& c = *compiled_;
  const auto nnz = static_cast<Eigen::Index>(pattern_.size());
  if (!out.compact) {
    out.compact = true;
    out.mass.resize(0, 0);
    out.jacobian.resize(0, 0);
  }
  out.mass_values.setZero(c.diagonal ? c.n : c.mass_packed_size);
  out.jacobian_values.resize(nnz);
  out.force.resize(c.n);
  out.rhs.resize(c.m);
  const double* o = run_main(q, qd, t, out);
  if (c.diagonal) {
    for (int i = 0; i < c.n; ++i) out.mass_values[i] = *o++;
  } else {
    for (const int k : c.mass_packed) out.mass_values[k] = *o++;
  }
  for (int i = 0; i < c.n; ++i) out.force[i] = *o++;
  for (Eigen::Index k = 0; k < nnz; ++k) out.jacobian_values[k] = *o++;
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
  tape_inputs.fill(q, Eigen::VectorXd::Zero(c.n), t);
  scratch_.resize(static_cast<std::size_t>(c.registers));
  run_tape_or_native(c.position, c.position_native, tape_inputs.values.data(), out.data(),
                     scratch_.data());
  return out;
}

Eigen::VectorXd model::velocity_violation(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                          double t) const {
  const compiled_model& c = *compiled_;
  Eigen::VectorXd out(c.m);
  tape_inputs.fill(q, qd, t);
  scratch_.resize(static_cast<std::size_t>(c.registers));
  run_tape_or_native(c.velocity, c.velocity_native, tape_inputs.values.data(), out.data(),
                     scratch_.data());
  return out;
}

Eigen::MatrixXd model::position_jacobian(const Eigen::VectorXd& q, double t) const {
  const compiled_model& c = *compiled_;
  Eigen::MatrixXd out = Eigen::MatrixXd::Zero(c.h, c.n);
  tape_inputs.fill(q, Eigen::VectorXd::Zero(c.n), t);
  tape_outputs.resize(static_cast<std::size_t>(std::max(c.holonomic_nnz, 1)));
  scratch_.resize(static_cast<std::size_t>(c.registers));
  run_tape_or_native(c.jacobian, c.jacobian_native, tape_inputs.values.data(), tape_outputs.data(),
                     scratch_.data());
  for (int k = 0; k < c.holonomic_nnz; ++k) {
    const auto& [r, col] = pattern_[static_cast<std::size_t>(k)];
    out(r, col) = tape_outputs[static_cast<std::size_t>(k)];
  }
  return out;
}

Eigen::SparseMatrix<double> model::position_jacobian_sparse(const Eigen::VectorXd& q,
                                                            double t) const {
  const compiled_model& c = *compiled_;
  tape_inputs.fill(q, Eigen::VectorXd::Zero(c.n), t);
  tape_outputs.resize(static_cast<std::size_t>(std::max(c.holonomic_nnz, 1)));
  scratch_.resize(static_cast<std::size_t>(c.registers));
  // The same evaluation as position_jacobian's (native code when compiled), so that the dense
  // and the sparse paths see the same Phi_q.
  run_tape_or_native(c.jacobian, c.jacobian_native, tape_inputs.values.data(), tape_outputs.data(),
                     scratch_.data());
  if (!c.jacobian_at.empty()) {
    // Each entry once: the values setFromTriplets would give, bit for bit.
    Eigen::SparseMatrix<double> out = c.jacobian_structure;
    double* values = out.valuePtr();
    for (std::size_t k = 0; k < c.jacobian_at.size(); ++k) {
      values[c.jacobian_at[k]] = tape_outputs[k];
    }
    return out;
  }
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(static_cast<std::size_t>(c.holonomic_nnz));
  for (int k = 0; k < c.holonomic_nnz; ++k) {
    const auto& [r, col] = pattern_[static_cast<std::size_t>(k)];
    entries.emplace_back(r, col, tape_outputs[static_cast<std::size_t>(k)]);
  }
  Eigen::SparseMatrix<double> out(c.h, c.n);
  out.setFromTriplets(entries.begin(), entries.end());
  return out;
}

void model::evaluate_intermittent(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                                  const Eigen::VectorXd& force, intermittent_values& out) const {
  const compiled_model& c = *compiled_;
  const auto k = static_cast<Eigen::Index>(intermittent_.size());
  out.friction.resize(k);
  out.on.resize(k);
  out.off.resize(k);
  if (k == 0) return;
  tape_inputs.fill(q, qd, t);
  for (Eigen::Index i = 0; i < k; ++i)
    tape_inputs.values.push_back(i < force.size() ? force[i] : 0.0);
  tape_outputs.resize(static_cast<std::size_t>(3 * k));
  scratch_.resize(static_cast<std::size_t>(c.registers));
  c.intermittent.evaluate(tape_inputs.values.data(), tape_outputs.data(), scratch_.data());
  for (Eigen::Index i = 0; i < k; ++i) {
    out.friction[i] = tape_outputs[static_cast<std::size_t>(3 * i)];
    out.on[i] = tape_outputs[static_cast<std::size_t>(3 * i + 1)];
    out.off[i] = tape_outputs[static_cast<std::size_t>(3 * i + 2)];
  }
}

std::optional<double> model::energy(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                    double t) const {
  if (!has_energy_) return std::nullopt;
  const compiled_model& c = *compiled_;
  double e = 0.0;
  tape_inputs.fill(q, qd, t);
  scratch_.resize(static_cast<std::size_t>(c.registers));
  run_tape_or_native(c.energy, c.energy_native, tape_inputs.values.data(), &e, scratch_.data());
  return e;
}

// model_builder turns a model_description into a model in named stages:
//   identity (names, initial state) -> kinematic mode -> constraint rows (holonomic first) ->
//   derivatives -> Jacobian pattern -> tapes -> checks at the initial state.
// Every stage is linear in the size of the description (see model_description.hpp).
class model_builder {
 public:
  static model build(model_description& d, const model_options& options);

 private:
  using row_list = std::vector<const model_description::constraint*>;
  using derived_rows = std::vector<symbolic::constraint_row_expressions>;

  static void copy_identity(const model_description& d, model& result);
  static void build_mass_pattern(const model_description& d, model& result, compiled_model& c);
  static void apply_kinematic_mode(model_description& d);
  static row_list order_rows(const model_description& d, int& holonomic);
  static derived_rows differentiate(const model_description& d, const row_list& rows);
  static symbolic::constraint_row_expressions derived_row(const model_description::constraint& k,
                                                          const symbolic::coordinate_symbols& s);
  static void build_pattern(const derived_rows& derived, int holonomic, model& result,
                            compiled_model& c);
  static void compile_native(const model& result, const model_options& options, compiled_model& c);
  static void compile_tapes(const model_description& d, const row_list& rows,
                            const derived_rows& derived, model& result, compiled_model& c);
  static void check_initial_mass(const model_description& d, const model& result,
                                 const compiled_model& c);
  static void check_initial_constraints(const row_list& rows, const model& result,
                                        const model_options& options);
};

// M's non-zero entries and its finest partition into contiguous diagonal blocks: a block ends
// at row i when no entry of the rows so far reaches past column i (M is symmetric, so no entry
// reaches back into an earlier block either).
void model_builder::build_mass_pattern(const model_description& d, model& result,
                                       compiled_model& c) {
  const int n = static_cast<int>(d.coordinates.size());
  std::vector<std::vector<int>> columns(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) columns[static_cast<std::size_t>(i)].push_back(i);
  for (const auto& [ij, e] : d.mass_off_diagonal) {
    if (!e.is_zero()) columns[static_cast<std::size_t>(ij.first)].push_back(ij.second);
  }
  int start = 0, reach = 0;
  for (int i = 0; i < n; ++i) {
    auto& row = columns[static_cast<std::size_t>(i)];
    std::sort(row.begin(), row.end());
    for (const int j : row) c.mass_pattern.emplace_back(i, j);
    reach = std::max(reach, row.back());
    if (reach == i) {
      result.mass_blocks_.emplace_back(start, i - start + 1);
      start = i + 1;
    }
  }
  // Each entry's place in its block of a compact mass_values (the pattern is row-major and a
  // block's rows reach only into its columns, so the blocks come in order).
  std::size_t b = 0;
  int offset = 0;
  for (const auto& [i, j] : c.mass_pattern) {
    while (i >= result.mass_blocks_[b].first + result.mass_blocks_[b].second) {
      offset += result.mass_blocks_[b].second * result.mass_blocks_[b].second;
      ++b;
    }
    const auto [first, size] = result.mass_blocks_[b];
    c.mass_packed.push_back(offset + (i - first) + (j - first) * size);
  }
  for (; b < result.mass_blocks_.size(); ++b) {
    offset += result.mass_blocks_[b].second * result.mass_blocks_[b].second;
  }
  c.mass_packed_size = offset;
}

void model_builder::copy_identity(const model_description& d, model& result) {
  const auto n = static_cast<Eigen::Index>(d.coordinates.size());
  result.name_ = d.name;
  result.source_ = d.source;
  result.kinematic_ = d.kinematic;
  result.parameters_ = d.parameters;
  result.coordinate_names_.reserve(d.coordinates.size());
  result.q0_.resize(n);
  result.qd0_.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto& co = d.coordinates[static_cast<std::size_t>(i)];
    result.coordinate_names_.push_back(co.name);
    result.q0_[i] = co.initial;
    result.qd0_[i] = co.velocity;
  }
}

void model_builder::apply_kinematic_mode(model_description& d) {
  if (!d.kinematic) return;
  // Generalized-inverse dissertation (GIGSP), eq. 4.8: M = I, no forces.
  d.set_identity_mass();
  for (auto& f : d.force) f = 0;
}

model_builder::row_list model_builder::order_rows(const model_description& d, int& holonomic) {
  row_list rows;
  rows.reserve(d.constraints.size());
  for (const auto& k : d.constraints) {
    if (k.holonomic) rows.push_back(&k);
  }
  holonomic = static_cast<int>(rows.size());
  for (const auto& k : d.constraints) {
    if (!k.holonomic) rows.push_back(&k);
  }
  return rows;
}

model_builder::derived_rows model_builder::differentiate(const model_description& d,
                                                         const row_list& rows) {
  const symbolic::coordinate_symbols& s = d.symbols();
  derived_rows derived;
  derived.reserve(rows.size());
  for (const auto* k : rows) {
    if (!k->holonomic) {
      derived.push_back(derived_row(*k, s));
      continue;
    }
    // A holonomic constraint must not depend on velocities.
    if (const auto used = s.velocities_in(k->expression); !used.empty()) {
      throw io::input_error(fmt::format(
          "{}: constraint '{}' uses the velocity {}: write it as nonholonomic = \"...\"", k->where,
          k->name, s.velocities()[static_cast<std::size_t>(used.front())].get_name()));
    }
    derived.push_back(derived_row(*k, s));
  }
  return derived;
}

symbolic::constraint_row_expressions model_builder::derived_row(
    const model_description::constraint& k, const symbolic::coordinate_symbols& s) {
  // GiNaC evaluates while it differentiates: d/dt of 0.0^t is 0.0^t log(0.0), a pole
  // ("power::eval(): division by zero" escaped the loader, found by the grammar fuzzer).
  try {
    return k.holonomic ? symbolic::holonomic_row(k.expression, s)
                       : symbolic::nonholonomic_row(k.expression, s, k.where);
  } catch (const GiNaC::pole_error&) {
    throw io::input_error(
        fmt::format("{}: constraint '{}': its derivatives divide by zero (e.g. a power of 0 with a "
                    "variable exponent, whose derivative has log(0))",
                    k.where, k.name));
  }
}

void model_builder::build_pattern(const derived_rows& derived, int holonomic, model& result,
                                  compiled_model& c) {
  for (std::size_t r = 0; r < derived.size(); ++r) {
    for (const auto& [j, entry] : derived[r].jacobian) {
      result.pattern_.emplace_back(static_cast<int>(r), j);
      if (static_cast<int>(r) < holonomic) ++c.holonomic_nnz;
    }
  }
  std::vector<Eigen::Triplet<double>> entries;
  for (int k = 0; k < c.holonomic_nnz; ++k) {
    const auto& [r, col] = result.pattern_[static_cast<std::size_t>(k)];
    entries.emplace_back(r, col, 0.0);
  }
  c.jacobian_structure.resize(c.h, c.n);
  c.jacobian_structure.setFromTriplets(entries.begin(), entries.end());
  if (c.jacobian_structure.nonZeros() != c.holonomic_nnz) return;  // coinciding entries
  const int* outer = c.jacobian_structure.outerIndexPtr();
  const int* inner = c.jacobian_structure.innerIndexPtr();
  for (const Eigen::Triplet<double>& e : entries) {
    const int* at = std::lower_bound(inner + outer[e.col()], inner + outer[e.col() + 1], e.row());
    c.jacobian_at.push_back(static_cast<int>(at - inner));
  }
}

namespace {
// Sets one output of a tape, naming what it is when it cannot be compiled.
void set_named_output(symbolic::tape_builder& b, int index, const GiNaC::ex& e,
                      const std::string& what) {
  try {
    b.set_output(index, e);
  } catch (const std::invalid_argument& err) {
    throw io::input_error(fmt::format("{}: cannot compile: {}", what, err.what()));
  }
}

// Kinetic energy 2T = q'^T M q', summed in row-major order of M's non-zero entries.
GiNaC::ex twice_kinetic_energy(const model_description& d) {
  const auto qd = d.velocities();
  GiNaC::exvector terms;  // summed once at the end: a growing sum is copied on every +=
  auto off = d.mass_off_diagonal.begin();
  const int n = static_cast<int>(d.coordinates.size());
  for (int i = 0; i < n; ++i) {
    auto add = [&](int j, const GiNaC::ex& m) {
      if (!m.is_zero())
        terms.push_back(m * qd[static_cast<std::size_t>(i)] * qd[static_cast<std::size_t>(j)]);
    };
    for (; off != d.mass_off_diagonal.end() && off->first.first == i && off->first.second < i;
         ++off) {
      add(off->first.second, off->second);
    }
    add(i, d.mass_diagonal[static_cast<std::size_t>(i)]);
    for (; off != d.mass_off_diagonal.end() && off->first.first == i; ++off) {
      add(off->first.second, off->second);
    }
  }
  return terms.empty() ? GiNaC::ex(0) : GiNaC::ex(GiNaC::add(terms));
}
}  // namespace

void model_builder::compile_tapes(const model_description& d, const row_list& rows,
                                  const derived_rows& derived, model& result, compiled_model& c) {
  const int n = c.n, m = c.m, h = c.h;
  std::vector<GiNaC::symbol> in = d.positions();
  const auto qd = d.velocities();
  in.insert(in.end(), qd.begin(), qd.end());
  in.push_back(d.t);
  auto coordinate = [&](int i) -> const model_description::coordinate& {
    return d.coordinates[static_cast<std::size_t>(i)];
  };
  auto row = [&](int r) -> const model_description::constraint& {
    return *rows[static_cast<std::size_t>(r)];
  };
  auto row_what = [&](int r) {
    return fmt::format("{}: constraint '{}'", row(r).where, row(r).name);
  };

  symbolic::tape_builder main(in);
  int k = 0;
  auto mass_output = [&](int i, int j) {
    set_named_output(main, k++, d.mass_entry(i, j),
                     fmt::format("{}: mass matrix entry ({}, {})",
                                 d.mass_where.empty() ? coordinate(i).where : d.mass_where,
                                 coordinate(i).name, coordinate(j).name));
  };
  if (c.diagonal) {
    for (int i = 0; i < n; ++i) mass_output(i, i);
  } else {
    for (const auto& [i, j] : c.mass_pattern) mass_output(i, j);
  }
  for (int i = 0; i < n; ++i) {
    set_named_output(main, k++, d.force[static_cast<std::size_t>(i)],
                     fmt::format("{}: force of '{}'", coordinate(i).where, coordinate(i).name));
  }
  for (const auto& [r, col] : result.pattern_) {
    set_named_output(main, k++, derived[static_cast<std::size_t>(r)].jacobian_at(col), row_what(r));
  }
  for (int r = 0; r < m; ++r) {
    set_named_output(main, k++, derived[static_cast<std::size_t>(r)].rhs, row_what(r));
  }
  c.main = main.build();
  c.main_outputs = k;

  symbolic::tape_builder position(in);
  for (int r = 0; r < h; ++r) set_named_output(position, r, row(r).expression, row_what(r));
  c.position = position.build();

  symbolic::tape_builder velocity(in);
  for (int r = 0; r < m; ++r) {
    set_named_output(velocity, r, derived[static_cast<std::size_t>(r)].velocity, row_what(r));
  }
  c.velocity = velocity.build();

  symbolic::tape_builder jacobian(in);
  for (int i = 0; i < c.holonomic_nnz; ++i) {
    const auto& [r, col] = result.pattern_[static_cast<std::size_t>(i)];
    set_named_output(jacobian, i, derived[static_cast<std::size_t>(r)].jacobian_at(col),
                     row_what(r));
  }
  c.jacobian = jacobian.build();

  result.has_energy_ = d.conservative && !d.kinematic;
  if (result.has_energy_) {
    symbolic::tape_builder energy(in);
    set_named_output(energy, 0, twice_kinetic_energy(d) / 2 + d.potential(),
                     fmt::format("{}: energy", d.source));
    c.energy = energy.build();
  }
  std::vector<GiNaC::symbol> with_forces = in;
  std::vector<int> intermittent_rows;
  for (int r = 0; r < m; ++r) {
    if (!row(r).intermittent) continue;
    intermittent_rows.push_back(r);
    with_forces.push_back(row(r).force);
  }
  symbolic::tape_builder intermittent(with_forces);
  int out_index = 0;
  for (const int r : intermittent_rows) {
    const auto& ir = row(r);
    set_named_output(intermittent, out_index++, ir.friction, row_what(r) + " field 'friction'");
    set_named_output(intermittent, out_index++, ir.on_condition, row_what(r) + " field 'on'");
    set_named_output(intermittent, out_index++, ir.off_condition, row_what(r) + " field 'off'");
    result.intermittent_.push_back({r, ir.initially_active, ir.has_friction, ir.on_tolerance,
                                    ir.slip_condition, ir.slip_unit});
  }
  if (!intermittent_rows.empty()) c.intermittent = intermittent.build();
  c.registers =
      std::max({c.main.registers(), c.position.registers(), c.velocity.registers(),
                c.jacobian.registers(), c.energy.registers(), c.intermittent.registers(), 1});
}

void model_builder::check_initial_mass(const model_description& d, const model& result,
                                       const compiled_model& c) {
  if (d.kinematic) return;
  // Only M's outputs are needed: the main tape's first outputs, without forming the dense
  // (n x n) system, so that loading a large diagonal model takes linear memory.
  input_buffer state;
  state.fill(result.q0_, result.qd0_, 0.0);
  std::vector<double> out(static_cast<std::size_t>(c.main_outputs));
  std::vector<double> scratch(static_cast<std::size_t>(c.registers));
  c.main.evaluate(state.values.data(), out.data(), scratch.data());
  const int n = c.n;
  // M's diagonal, then its blocks one at a time: never the dense n x n (a 3,000-link spatial
  // chain's would take 3.5 GB). The pattern is row-major and each block's rows reach only into
  // the block's columns (build_mass_pattern), so a block's entries are contiguous in it.
  std::vector<double> diagonal(static_cast<std::size_t>(n));
  if (c.diagonal) {
    for (int i = 0; i < n; ++i)
      diagonal[static_cast<std::size_t>(i)] = out[static_cast<std::size_t>(i)];
  } else {
    for (std::size_t k = 0; k < c.mass_pattern.size(); ++k) {
      const auto& [i, j] = c.mass_pattern[k];
      if (i == j) diagonal[static_cast<std::size_t>(i)] = out[k];
    }
  }
  for (int i = 0; i < n; ++i) {
    const double mii = diagonal[static_cast<std::size_t>(i)];
    if (!(mii > 0.0)) {
      const auto& co = d.coordinates[static_cast<std::size_t>(i)];
      throw io::input_error(fmt::format(
          "{}: coordinate '{}' has mass {} at the initial state: the mass matrix is not positive "
          "definite (give it a positive mass)",
          d.mass_where.empty() ? co.where : d.mass_where, co.name, mii));
    }
  }
  std::size_t k = 0;
  for (const auto& [start, size] : result.mass_blocks_) {
    Eigen::MatrixXd block = Eigen::MatrixXd::Zero(size, size);
    for (; k < c.mass_pattern.size() && c.mass_pattern[k].first < start + size; ++k) {
      block(c.mass_pattern[k].first - start, c.mass_pattern[k].second - start) = out[k];
    }
    if (Eigen::LLT<Eigen::MatrixXd>(block).info() != Eigen::Success) {
      const auto& co = d.coordinates[static_cast<std::size_t>(start)];
      throw io::input_error(fmt::format(
          "{}: the mass matrix is not positive definite at the initial state (the block of "
          "'{}' to '{}')",
          d.mass_where.empty() ? co.where : d.mass_where, co.name,
          d.coordinates[static_cast<std::size_t>(start + size - 1)].name));
    }
  }
}

void model_builder::check_initial_constraints(const row_list& rows, const model& result,
                                              const model_options& options) {
  const double t0 = 0.0;
  auto violated = [&](const char* what, int r, double by, const char* fix) {
    throw io::input_error(
        fmt::format("{}: the initial {} violate constraint '{}' by {:.3g} (tolerance {:g}); {}",
                    rows[static_cast<std::size_t>(r)]->where, what,
                    result.constraint_names_[static_cast<std::size_t>(r)], by,
                    options.assembly_tolerance, fix));
  };
  const Eigen::VectorXd phi = result.position_violation(result.q0_, t0);
  for (int r = 0; r < result.holonomic_; ++r) {
    if (!(std::abs(phi[r]) <= options.assembly_tolerance)) {
      violated("positions", r, phi[r],
               "correct the initial values, or run with --assemble or `kinevo model assemble`");
    }
  }
  const Eigen::VectorXd vel = result.velocity_violation(result.q0_, result.qd0_, t0);
  for (int r = 0; r < result.constraints(); ++r) {
    // A row that starts switched off (slipping) holds nothing yet.
    if (!rows[static_cast<std::size_t>(r)]->initially_active) continue;
    if (!(std::abs(vel[r]) <= options.assembly_tolerance)) {
      violated("velocities", r, vel[r],
               "correct the initial velocities, or run with --assemble or `kinevo model "
               "assemble`");
    }
  }
}

// The tapes as native code (symbolic/detail/native_code.hpp), checked against the tapes at the
// initial state; a failure keeps the tapes and says why in one line.
void model_builder::compile_native(const model& result, const model_options& options,
                                   compiled_model& c) {
  bool wanted = false;
  if (options.native_code) {
    wanted = *options.native_code;
  } else {
    const char* env = std::getenv("KINEVO_NATIVE_CODE");
    wanted = env != nullptr && std::string_view(env) == "1";
  }
  if (!wanted) return;
  std::vector<double> at_start(result.q0_.data(), result.q0_.data() + result.q0_.size());
  at_start.insert(at_start.end(), result.qd0_.data(), result.qd0_.data() + result.qd0_.size());
  at_start.push_back(0.0);
  std::vector<const symbolic::evaluation_tape*> tapes{&c.main, &c.position, &c.velocity,
                                                      &c.jacobian};
  if (result.has_energy_) tapes.push_back(&c.energy);
  const symbolic::native_build b =
      symbolic::build_native(tapes, std::vector<std::vector<double>>(tapes.size(), at_start));
  if (b.functions.empty()) {
    fmt::print(stderr, "kinevo: {}: native code not used, evaluating with the tape: {}\n",
               result.name_.empty() ? std::string("model") : result.name_, b.reason);
    return;
  }
  c.main_native = b.functions[0];
  c.position_native = b.functions[1];
  c.velocity_native = b.functions[2];
  c.jacobian_native = b.functions[3];
  if (result.has_energy_) c.energy_native = b.functions[4];
}

model model_builder::build(model_description& d, const model_options& options) {
  model result;
  auto c = std::make_shared<compiled_model>();
  copy_identity(d, result);
  apply_kinematic_mode(d);
  const row_list rows = order_rows(d, result.holonomic_);
  for (const auto* k : rows) {
    result.constraint_names_.push_back(k->name);
    result.driver_rows_.push_back(k->driver);
  }
  const derived_rows derived = differentiate(d, rows);
  c->n = static_cast<int>(d.coordinates.size());
  c->m = static_cast<int>(rows.size());
  c->h = result.holonomic_;
  c->diagonal = d.mass_is_diagonal();
  result.mass_is_diagonal_ = c->diagonal;
  if (!c->diagonal) build_mass_pattern(d, result, *c);
  build_pattern(derived, c->h, result, *c);
  compile_tapes(d, rows, derived, result, *c);
  compile_native(result, options, *c);
  result.compiled_ = c;
  check_initial_mass(d, result, *c);
  if (options.require_assembled) check_initial_constraints(rows, result, options);
  return result;
}

namespace {
constexpr std::size_t max_message_bytes = 1000;
}  // namespace

// Runs one stage of reading a model file, turning what GiNaC and CLN throw on the file's values
// into io::input_error naming the file.
template <class Stage>
auto with_input_errors(const std::string& source, Stage&& stage) {
  try {
    return stage();
  } catch (const io::input_error& e) {
    // The messages cut echoed text short where they echo it; this bounds the rest (names
    // repeated in labels), so that no input gives a message of megabytes.
    if (std::string_view(e.what()).size() <= max_message_bytes) throw;
    throw io::input_error(io::excerpt(e.what(), max_message_bytes));
  } catch (const GiNaC::pole_error&) {
    // GiNaC evaluates while it substitutes and differentiates: 0^(-pi) reached through a
    // substitution is a division by zero (found by the grammar fuzzer).
    throw io::input_error(fmt::format(
        "{}: an expression of the file divides by zero once its values are put in (e.g. a power "
        "of 0 with a negative exponent)",
        source));
  } catch (const std::exception& e) {
    // CLN's floating-point traps from GiNaC's arithmetic on the file's constants (a product of
    // tiny or huge values): an input the double range cannot hold, not a failed computation.
    if (!symbolic::is_floating_point_trap(e)) throw;
    throw io::input_error(fmt::format(
        "{}: a product or sum of the file's numbers leaves the range of doubles ({}): values "
        "beyond 1e308 or below 2.2e-308 in products (e.g. a subnormal mass times gravity) "
        "cannot be represented; rescale the units",
        source, e.what()));
  }
}

model load_model_from_string(const std::string& text, const std::string& source,
                             const model_options& options) {
  const toml::table root = io::parse_toml(text, source);
  return with_input_errors(source, [&] {
    model_description d;
    read_model_file(root, source, options, d);
    return model_builder::build(d, options);
  });
}

std::unique_ptr<model_description> describe_model_file(const std::string& text,
                                                       const std::string& source,
                                                       const model_options& options) {
  const toml::table root = io::parse_toml(text, source);
  return with_input_errors(source, [&] {
    auto d = std::make_unique<model_description>();
    read_model_file(root, source, options, *d);
    return d;
  });
}

model load_model(const std::filesystem::path& path, const model_options& options) {
  model m = load_model_from_string(io::read_input_file(path, "model file"), path.string(), options);
  m.source_ = path;
  return m;
}

void model::set_initial_state(const Eigen::VectorXd& q, const Eigen::VectorXd& qd) {
  if (q.size() != coordinates() || qd.size() != coordinates()) {
    throw io::option_error(
        "q", fmt::format("and qd must have {2} entries each (got {0} and {1}; set_initial_state)",
                         q.size(), qd.size(), coordinates()));
  }
  q0_ = q;
  qd0_ = qd;
}

std::vector<std::string> non_finite_entries(const model& m, const constrained_system& s) {
  if (s.compact) return non_finite_entries(m, dense_system(s));
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
