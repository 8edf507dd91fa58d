// A loaded mechanical model: named coordinates and constraints, the initial state, and a fast
// numeric evaluator of (M, f, A, b) compiled once at load from the model file's expressions
// (the step loop never touches GiNaC). Model files are described in docs/model-files.md.
//   M(q) q'' = f(q, q', t) + f_c,   A(q, t) q'' = b(q, q', t)
// where the holonomic rows are A = Phi_q, b = gamma = -(Phi_q q')_q q' - 2 Phi_qt q' - Phi_tt
// (Haug, Computer-Aided Kinematics and Dynamics of Mechanical Systems, eq. 4.2.3) and
// the nonholonomic rows A_n q' + a_t = 0 give A = A_n, b = -(A_n q')_q q' - A_n,t q' - a_t,t.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kinevo/mechanics/solvers/acceleration_solver.hpp"

namespace kinevo::mechanics {

// `--set name=value`: replaces a named parameter of the model file before anything is compiled.
struct parameter_override {
  std::string name;
  double value = 0.0;
};

// Parses "name=value" (throws io::input_error with a message naming the option otherwise).
parameter_override parse_parameter_override(const std::string& text);

struct model_options {
  std::vector<parameter_override> overrides;  // unknown names are an input error
  // Kinematic mode (generalized-inverse dissertation (GIGSP), eq. 4.8): M = I, f = 0, drivers
  // are constraints. Also switched on by `kinematic = true` in the model file.
  bool kinematic = false;
  // The initial state must satisfy |Phi| and the velocity-level violation within this
  // tolerance, or loading fails with the offending constraint's name.
  double assembly_tolerance = 1e-6;
  // false: load an unassembled initial state without that check, to assemble it
  // (mechanics/kinematics/assembly.hpp).
  bool require_assembled = true;
  // Evaluate the model with its expressions compiled to native code by the system C compiler
  // (docs/native-code.md) instead of the tape interpreter; the same numbers to the last bit.
  // nullopt: the environment variable KINEVO_NATIVE_CODE decides ("1" on, otherwise off). When
  // the compile fails (no compiler, ...) the model keeps the tape and says why on stderr.
  std::optional<bool> native_code;
};

class compiled_model;  // the evaluation tapes (symbolic/), private to model.cpp

// A constraint row switched on and off during a simulation (`[[constraint]]` with `active`,
// `friction`, `on`, `off`; docs/intermittent.md).
struct intermittent_constraint {
  int row = 0;  // index among constraint_names() (a nonholonomic row)
  bool initially_active = true;
  bool has_friction = false;
  double on_tolerance = 1e-6;
  // `on` not given, friction given: the row switches on when the slip C enters the band
  // |C| <= on_tolerance from the side it slips on (or jumps across it within a step).
  bool slip_condition = false;
  // The unit of the row's value C (the `<name>_slip` column), as the file's `unit` gives it
  // ("m/s", "rad/s"); empty when the file does not say.
  std::string slip_unit;
};

// The values of the intermittent rows' quantities at one state, in the order of
// model::intermittent_constraints().
struct intermittent_values {
  Eigen::VectorXd friction;  // Coulomb friction magnitude F (0 without friction)
  Eigen::VectorXd on;        // switch on when <= 0 (used while the row is off)
  Eigen::VectorXd off;       // switch off when <= 0 (used while the row is on)
};

class model {
 public:
  model(model&&) noexcept;
  model& operator=(model&&) noexcept;
  model(const model&);  // copies share the immutable tapes; each copy has its own scratch
  model& operator=(const model&);
  ~model();

  const std::string& name() const { return name_; }
  const std::filesystem::path& source() const { return source_; }
  int coordinates() const { return static_cast<int>(coordinate_names_.size()); }
  // All constraint rows: holonomic ones first, then nonholonomic ones.
  int constraints() const { return static_cast<int>(constraint_names_.size()); }
  int holonomic_constraints() const { return holonomic_; }
  const std::vector<std::string>& coordinate_names() const { return coordinate_names_; }
  const std::vector<std::string>& constraint_names() const { return constraint_names_; }
  bool kinematic() const { return kinematic_; }
  // Driving constraints among the rows (size constraints()): `[[joint]] type = "driver"` whose
  // value depends on t, and `[[constraint]]` rows with `driver = true`. A driver with a constant
  // value is an absolute constraint (Haug, Computer-Aided Kinematics and Dynamics of Mechanical
  // Systems, section 3.2), i.e. kinematic.
  bool is_driver(int row) const { return driver_rows_[static_cast<std::size_t>(row)]; }
  const std::vector<bool>& driver_rows() const { return driver_rows_; }
  bool mass_is_diagonal() const { return mass_is_diagonal_; }
  // A non-diagonal M's diagonal blocks as (first coordinate, size), in order (empty when M is
  // diagonal); a model whose M couples everything has one block of size n.
  const std::vector<std::pair<int, int>>& mass_blocks() const { return mass_blocks_; }
  bool has_energy() const { return has_energy_; }
  // Whether the evaluation runs compiled native code (model_options::native_code).
  bool native_code() const;
  // Parameter values after overrides, by name.
  const std::map<std::string, double>& parameters() const { return parameters_; }

  const Eigen::VectorXd& initial_positions() const { return q0_; }
  const Eigen::VectorXd& initial_velocities() const { return qd0_; }
  // Replaces the initial state (by an assembled one: mechanics/kinematics/assembly.hpp). Throws
  // std::invalid_argument when a size differs from coordinates().
  void set_initial_state(const Eigen::VectorXd& q, const Eigen::VectorXd& qd);

  // (M, f, A, b) at one state into `out`, reusing its storage. Only the structurally non-zero
  // entries of A are written (the rest stay zero), so a reused `out` costs O(nnz). compact:
  // M and A by their non-zero entries only (constrained_system::compact), for a solver whose
  // reads_compact() is true. Not thread-safe on one model object: give each thread its own copy.
  void evaluate(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                constrained_system& out, bool compact = false) const;
  constrained_system evaluate(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t) const;

  // Phi(q, t) for the holonomic rows (size holonomic_constraints()).
  Eigen::VectorXd position_violation(const Eigen::VectorXd& q, double t) const;
  // Phi_q q' + Phi_t for holonomic rows, A_n q' + a_t for nonholonomic rows (size constraints()).
  Eigen::VectorXd velocity_violation(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                     double t) const;
  // Phi_q (holonomic rows only, dense) and Phi_t, for projection onto the constraints.
  Eigen::MatrixXd position_jacobian(const Eigen::VectorXd& q, double t) const;
  // The same as a sparse matrix (its pattern is jacobian_pattern()'s holonomic part): the rank
  // analysis of large models, whose dense Phi_q would not fit in memory.
  Eigen::SparseMatrix<double> position_jacobian_sparse(const Eigen::VectorXd& q, double t) const;
  // Kinetic energy 1/2 q'^T M q' plus the potentials of gravity and springs; nullopt when the
  // model has forces without a potential (dampers, applied forces, free-form f).
  std::optional<double> energy(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t) const;

  // Rows switched on and off during a simulation (empty for most models).
  const std::vector<intermittent_constraint>& intermittent_constraints() const {
    return intermittent_;
  }
  bool has_intermittent() const { return !intermittent_.empty(); }
  // Friction magnitudes and switching conditions of the intermittent rows at (q, q', t);
  // `force` holds each row's multiplier lambda (f_c = A^T lambda), used by the off conditions
  // (size intermittent_constraints().size()).
  void evaluate_intermittent(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                             const Eigen::VectorXd& force, intermittent_values& out) const;

  // Non-zero pattern of A: (row, column) pairs, row-major order.
  const std::vector<std::pair<int, int>>& jacobian_pattern() const { return pattern_; }

 private:
  friend model load_model(const std::filesystem::path&, const model_options&);
  friend class model_builder;
  model();
  void evaluate_compact(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                        constrained_system& out) const;
  const double* run_main(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                         constrained_system& out) const;

  std::string name_;
  std::filesystem::path source_;
  std::vector<std::string> coordinate_names_;
  std::vector<std::string> constraint_names_;
  std::vector<bool> driver_rows_;
  int holonomic_ = 0;
  bool kinematic_ = false;
  bool mass_is_diagonal_ = false;
  bool has_energy_ = false;
  std::map<std::string, double> parameters_;
  Eigen::VectorXd q0_, qd0_;
  std::vector<std::pair<int, int>> pattern_;
  std::vector<std::pair<int, int>> mass_blocks_;
  std::vector<intermittent_constraint> intermittent_;
  std::shared_ptr<const compiled_model> compiled_;
  mutable std::vector<double> scratch_;  // tape registers
};

// Loads a TOML model file. Throws io::input_error naming the file, line and field for every
// problem: unknown coordinate, expression parse error, missing initial value, mass matrix not
// positive definite, initial state violating a constraint.
model load_model(const std::filesystem::path& path, const model_options& options = {});
// The same from text; `source` names it in messages.
model load_model_from_string(const std::string& text, const std::string& source,
                             const model_options& options = {});

// The entries of (M, f, A, b) that are NaN or infinite, by name ("force of 'x'", "mass matrix
// row 'x'", "constraint 'rod'"), so that a NaN acceleration names the expression that made it.
std::vector<std::string> non_finite_entries(const model& m, const constrained_system& s);

}  // namespace kinevo::mechanics
