// The symbols of a model's coordinates (q, q') and time, each with its index, so that
// derivatives are taken only with respect to the symbols an expression contains. Looping over
// every coordinate for every expression made loading quadratic to cubic in the number of
// coordinates (a 1,000-link chain did not load in 30 s).
#pragma once

#include <ginac/ginac.h>

#include <unordered_map>
#include <vector>

namespace kinevo::symbolic {

class coordinate_symbols {
 public:
  coordinate_symbols() = default;
  coordinate_symbols(const std::vector<GiNaC::symbol>& q, const std::vector<GiNaC::symbol>& qd,
                     const GiNaC::symbol& t);

  // Appends coordinate q with velocity qd; returns its index.
  int add(const GiNaC::symbol& q, const GiNaC::symbol& qd);
  void set_time(const GiNaC::symbol& t) { t_ = t; }

  int size() const { return static_cast<int>(q_.size()); }
  const std::vector<GiNaC::symbol>& positions() const { return q_; }
  const std::vector<GiNaC::symbol>& velocities() const { return qd_; }
  const GiNaC::symbol& time() const { return t_; }

  // Ascending indices of the positions (velocities) that occur in e, in O(size of e).
  std::vector<int> positions_in(const GiNaC::ex& e) const;
  std::vector<int> velocities_in(const GiNaC::ex& e) const;

 private:
  using index_map = std::unordered_map<GiNaC::ex, int, std::hash<GiNaC::ex>, GiNaC::ex_is_equal>;
  static std::vector<int> occurring(const GiNaC::ex& e, const index_map& index);

  std::vector<GiNaC::symbol> q_, qd_;
  GiNaC::symbol t_{"t"};
  index_map position_index_, velocity_index_;
};

}  // namespace kinevo::symbolic
