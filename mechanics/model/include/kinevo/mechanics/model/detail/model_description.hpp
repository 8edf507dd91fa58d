// The expression-level model between the model file and the compiled evaluator: coordinates,
// mass matrix, applied forces, potential and named constraints as GiNaC expressions.
// Components (particles, bodies, joints, forces) and the equations sections of a model file
// only ever add to this; model.cpp differentiates and compiles it once.
// Everything here is kept sparse and indexed (mass diagonal plus the off-diagonal entries
// given, coordinates and constraints by name, derivatives only with respect to the symbols an
// expression contains), so that building a model is linear in its size.
#pragma once

#include <ginac/ginac.h>

#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "kinevo/mechanics/model/detail/model_geometry.hpp"
#include "kinevo/symbolic/detail/coordinate_symbols.hpp"
#include "kinevo/symbolic/detail/expression_context.hpp"

namespace kinevo::mechanics {

struct model_description {
  std::string source;  // file name for messages
  std::string name;
  bool kinematic = false;
  symbolic::expression_context context;
  GiNaC::symbol t{"t"};

  struct coordinate {
    std::string name;
    GiNaC::symbol q, qd;
    double initial = 0.0;
    double velocity = 0.0;
    std::string where;  // "file:line" of its definition
  };
  std::vector<coordinate> coordinates;

  // Mass matrix: the diagonal (n) and the off-diagonal entries that were set, by (row, column).
  std::vector<GiNaC::ex> mass_diagonal;
  std::map<std::pair<int, int>, GiNaC::ex> mass_off_diagonal;
  std::string mass_where;
  std::map<std::string, double> parameters;  // after overrides
  std::vector<GiNaC::ex> force;              // generalized applied forces (n)
  std::vector<GiNaC::ex> potential_terms;    // V(q, t) of gravity and springs, as terms
  bool conservative = true;                  // false once a force without potential is added

  struct constraint {
    std::string name;
    std::string where;
    bool holonomic = true;
    GiNaC::ex expression;  // Phi(q, t) or C(q, q', t)
    bool driver = false;   // a driving constraint (rank analysis counts it apart)
    // Intermittent rows (docs/intermittent.md): switched on and off during a simulation.
    // Only nonholonomic rows; `friction` (F >= 0, 0 when absent) acts while the row is off,
    // `on` switches the row on when it falls to <= 0, `off` (which may use `force`, this row's
    // multiplier) switches it off.
    bool intermittent = false;
    bool initially_active = true;
    bool has_friction = false;
    GiNaC::ex friction = 0;
    GiNaC::ex on_condition = 1;   // > 0: stays off
    GiNaC::ex off_condition = 1;  // > 0: stays on
    GiNaC::symbol force{"force"};
    double on_tolerance = 1e-6;
    bool slip_condition = false;  // the default `on` of a row with friction
    std::string slip_unit;        // `unit`: of the row's value C, the slip velocity ("m/s")
  };
  std::vector<constraint> constraints;

  // What a drawing of the model needs (mechanics/model/model_drawing.hpp).
  model_geometry geometry;

  // Sets the time symbol (the one expressions parse `t` to).
  void set_time(const GiNaC::symbol& time);
  // Adds a coordinate named `name` (its velocity is `<name>_dot` in expressions).
  int add_coordinate(const std::string& name, double initial, double velocity,
                     const std::string& where);
  int index_of(const std::string& coordinate_name) const;  // -1 if unknown
  std::vector<GiNaC::symbol> positions() const { return symbols_.positions(); }
  std::vector<GiNaC::symbol> velocities() const { return symbols_.velocities(); }
  // The coordinates' symbols with their indices.
  const symbolic::coordinate_symbols& symbols() const { return symbols_; }

  // M(i, j), for writing (an off-diagonal entry is created as 0 when first asked for).
  GiNaC::ex& mass_at(int i, int j);
  // M(i, j), for reading (0 when never set).
  GiNaC::ex mass_entry(int i, int j) const;
  // True when every off-diagonal entry is zero.
  bool mass_is_diagonal() const;
  // M = I, no off-diagonal entries (kinematic mode).
  void set_identity_mass();

  // Adds a term to the potential V. Terms are summed once, in potential(): adding them to a
  // growing sum one by one copied the sum each time (quadratic in the number of bodies).
  void add_potential(const GiNaC::ex& term) { potential_terms.push_back(term); }
  GiNaC::ex potential() const;

  // The time derivative of a position-level expression p(q, t).
  GiNaC::ex time_derivative(const GiNaC::ex& p) const;
  // Adds the generalized force of a force vector F (fx, fy) applied at point P(q):
  // f_k += dP/dq_k . F (virtual work).
  void apply_point_force(const GiNaC::ex& px, const GiNaC::ex& py, const GiNaC::ex& fx,
                         const GiNaC::ex& fy);
  // Adds the generalized force of a torque tq acting on the angle phi(q): f_k += dphi/dq_k tq.
  void apply_torque(const GiNaC::ex& phi, const GiNaC::ex& tq);
  void add_constraint(std::string name, std::string where, bool holonomic, GiNaC::ex e);

 private:
  symbolic::coordinate_symbols symbols_;
  std::unordered_map<std::string, int> coordinate_index_;
  std::unordered_map<std::string, std::size_t> constraint_index_;
};

}  // namespace kinevo::mechanics
