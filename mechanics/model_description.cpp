#include "mechanics/model_description.hpp"

#include <fmt/format.h>

#include "io/csv_table.hpp"

namespace kinevo::mechanics {

int model_description::add_coordinate(const std::string& coordinate_name, double initial,
                                      double velocity, const std::string& where) {
  coordinate c{coordinate_name,
               context.add_symbol(coordinate_name, where),
               context.add_symbol(coordinate_name + "_dot", where),
               initial,
               velocity,
               where};
  const std::size_t n = coordinates.size();
  // Grow M by one row and column of zeros.
  std::vector<GiNaC::ex> grown((n + 1) * (n + 1), GiNaC::ex(0));
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) grown[i * (n + 1) + j] = mass[i * n + j];
  }
  mass = std::move(grown);
  force.push_back(0);
  coordinates.push_back(std::move(c));
  return static_cast<int>(n);
}

int model_description::index_of(const std::string& coordinate_name) const {
  for (std::size_t i = 0; i < coordinates.size(); ++i) {
    if (coordinates[i].name == coordinate_name) return static_cast<int>(i);
  }
  return -1;
}

std::vector<GiNaC::symbol> model_description::positions() const {
  std::vector<GiNaC::symbol> s;
  for (const auto& c : coordinates) s.push_back(c.q);
  return s;
}

std::vector<GiNaC::symbol> model_description::velocities() const {
  std::vector<GiNaC::symbol> s;
  for (const auto& c : coordinates) s.push_back(c.qd);
  return s;
}

GiNaC::ex& model_description::mass_at(int i, int j) {
  const auto n = coordinates.size();
  return mass[static_cast<std::size_t>(i) * n + static_cast<std::size_t>(j)];
}

GiNaC::ex model_description::time_derivative(const GiNaC::ex& p) const {
  GiNaC::ex d = p.diff(t);
  for (const auto& c : coordinates) d += p.diff(c.q) * c.qd;
  return d;
}

void model_description::apply_point_force(const GiNaC::ex& px, const GiNaC::ex& py,
                                          const GiNaC::ex& fx, const GiNaC::ex& fy) {
  for (std::size_t k = 0; k < coordinates.size(); ++k) {
    const GiNaC::ex w = px.diff(coordinates[k].q) * fx + py.diff(coordinates[k].q) * fy;
    if (!w.is_zero()) force[k] += w;
  }
}

void model_description::add_constraint(std::string constraint_name, std::string where,
                                       bool holonomic, GiNaC::ex e) {
  for (const auto& c : constraints) {
    if (c.name == constraint_name) {
      throw io::input_error(fmt::format("{}: constraint name '{}' is already used at {}", where,
                                        constraint_name, c.where));
    }
  }
  constraints.push_back({std::move(constraint_name), std::move(where), holonomic, std::move(e)});
}

}  // namespace kinevo::mechanics
