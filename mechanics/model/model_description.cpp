#include "kinevo/mechanics/model/detail/model_description.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "kinevo/io/csv_table.hpp"

namespace kinevo::mechanics {

void model_description::set_time(const GiNaC::symbol& time) {
  t = time;
  symbols_.set_time(time);
}

int model_description::add_coordinate(const std::string& coordinate_name, double initial,
                                      double velocity, const std::string& where) {
  coordinate c{coordinate_name,
               context.add_symbol(coordinate_name, where),
               context.add_symbol(coordinate_name + "_dot", where),
               initial,
               velocity,
               where};
  const int i = symbols_.add(c.q, c.qd);
  coordinate_index_.emplace(coordinate_name, i);
  mass_diagonal.push_back(0);
  force.push_back(0);
  coordinates.push_back(std::move(c));
  return i;
}

int model_description::index_of(const std::string& coordinate_name) const {
  const auto it = coordinate_index_.find(coordinate_name);
  return it == coordinate_index_.end() ? -1 : it->second;
}

GiNaC::ex& model_description::mass_at(int i, int j) {
  if (i == j) return mass_diagonal[static_cast<std::size_t>(i)];
  return mass_off_diagonal.try_emplace({i, j}, 0).first->second;
}

GiNaC::ex model_description::mass_entry(int i, int j) const {
  if (i == j) return mass_diagonal[static_cast<std::size_t>(i)];
  const auto it = mass_off_diagonal.find({i, j});
  return it == mass_off_diagonal.end() ? GiNaC::ex(0) : it->second;
}

bool model_description::mass_is_diagonal() const {
  for (const auto& [ij, e] : mass_off_diagonal) {
    if (!e.is_zero()) return false;
  }
  return true;
}

void model_description::set_identity_mass() {
  for (auto& m : mass_diagonal) m = 1;
  mass_off_diagonal.clear();
}

GiNaC::ex model_description::potential() const {
  return potential_terms.empty() ? GiNaC::ex(0) : GiNaC::ex(GiNaC::add(potential_terms));
}

GiNaC::ex model_description::time_derivative(const GiNaC::ex& p) const {
  GiNaC::ex d = p.diff(t);
  for (const int k : symbols_.positions_in(p)) {
    const auto& c = coordinates[static_cast<std::size_t>(k)];
    d += p.diff(c.q) * c.qd;
  }
  return d;
}

void model_description::apply_point_force(const GiNaC::ex& px, const GiNaC::ex& py,
                                          const GiNaC::ex& fx, const GiNaC::ex& fy) {
  // The coordinates P depends on, in ascending order (the order a loop over all would take).
  std::vector<int> used = symbols_.positions_in(px);
  const std::vector<int> in_y = symbols_.positions_in(py);
  used.insert(used.end(), in_y.begin(), in_y.end());
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  for (const int k : used) {
    const GiNaC::symbol& q = coordinates[static_cast<std::size_t>(k)].q;
    const GiNaC::ex w = px.diff(q) * fx + py.diff(q) * fy;
    if (!w.is_zero()) force[static_cast<std::size_t>(k)] += w;
  }
}

void model_description::apply_torque(const GiNaC::ex& phi, const GiNaC::ex& tq) {
  for (const int k : symbols_.positions_in(phi)) {
    const GiNaC::ex w = phi.diff(coordinates[static_cast<std::size_t>(k)].q) * tq;
    if (!w.is_zero()) force[static_cast<std::size_t>(k)] += w;
  }
}

void model_description::add_constraint(std::string constraint_name, std::string where,
                                       bool holonomic, GiNaC::ex e) {
  if (const auto it = constraint_index_.find(constraint_name); it != constraint_index_.end()) {
    throw io::input_error(fmt::format("{}: constraint name '{}' is already used at {}", where,
                                      io::excerpt(constraint_name, 40),
                                      constraints[it->second].where));
  }
  constraint_index_.emplace(constraint_name, constraints.size());
  constraint c;
  c.name = std::move(constraint_name);
  c.where = std::move(where);
  c.holonomic = holonomic;
  c.expression = std::move(e);
  constraints.push_back(std::move(c));
}

}  // namespace kinevo::mechanics
