// The expression-level model between the model file and the compiled evaluator: coordinates,
// mass matrix, applied forces, potential and named constraints as GiNaC expressions.
// Components (particles, bodies, joints, forces) and the equations sections of a model file
// only ever add to this; model.cpp differentiates and compiles it once.
#pragma once

#include <ginac/ginac.h>

#include <map>
#include <string>
#include <vector>

#include "symbolic/expression_context.hpp"

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

  // Mass matrix, row-major n x n, grown as coordinates are added (diagonal by default).
  std::vector<GiNaC::ex> mass;
  std::string mass_where;
  std::map<std::string, double> parameters;  // after overrides
  std::vector<GiNaC::ex> force;              // generalized applied forces (n)
  GiNaC::ex potential = 0;                   // V(q, t) of gravity and springs
  bool conservative = true;                  // false once a force without potential is added

  struct constraint {
    std::string name;
    std::string where;
    bool holonomic = true;
    GiNaC::ex expression;  // Phi(q, t) or C(q, q', t)
  };
  std::vector<constraint> constraints;

  // Adds a coordinate named `name` (its velocity is `<name>_dot` in expressions).
  int add_coordinate(const std::string& name, double initial, double velocity,
                     const std::string& where);
  int index_of(const std::string& coordinate_name) const;  // -1 if unknown
  std::vector<GiNaC::symbol> positions() const;
  std::vector<GiNaC::symbol> velocities() const;
  GiNaC::ex& mass_at(int i, int j);

  // The time derivative of a position-level expression p(q, t).
  GiNaC::ex time_derivative(const GiNaC::ex& p) const;
  // Adds the generalized force of a force vector F (fx, fy) applied at point P(q):
  // f_k += dP/dq_k . F (virtual work).
  void apply_point_force(const GiNaC::ex& px, const GiNaC::ex& py, const GiNaC::ex& fx,
                         const GiNaC::ex& fy);
  void add_constraint(std::string name, std::string where, bool holonomic, GiNaC::ex e);
};

}  // namespace kinevo::mechanics
