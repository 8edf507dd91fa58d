#include "kinevo/symbolic/detail/coordinate_symbols.hpp"

#include <algorithm>
#include <unordered_set>

namespace kinevo::symbolic {

coordinate_symbols::coordinate_symbols(const std::vector<GiNaC::symbol>& q,
                                       const std::vector<GiNaC::symbol>& qd, const GiNaC::symbol& t)
    : t_(t) {
  for (std::size_t i = 0; i < q.size() && i < qd.size(); ++i) add(q[i], qd[i]);
}

int coordinate_symbols::add(const GiNaC::symbol& q, const GiNaC::symbol& qd) {
  const int i = size();
  q_.push_back(q);
  qd_.push_back(qd);
  position_index_.emplace(q, i);
  velocity_index_.emplace(qd, i);
  return i;
}

std::vector<int> coordinate_symbols::occurring(const GiNaC::ex& e, const index_map& index) {
  // GiNaC shares subexpressions, so the tree can be exponentially larger than the DAG: visit
  // each shared node once. op() of a sum or product may build a temporary (coefficient times
  // rest), so every visited node is kept alive in `visited`: a freed temporary's address could
  // otherwise be reused and mistaken for a node already seen. An explicit stack, as generated
  // expressions can be deep.
  std::vector<int> found;
  std::unordered_set<const GiNaC::basic*> seen;
  std::vector<GiNaC::ex> visited;
  std::vector<GiNaC::ex> stack{e};
  while (!stack.empty()) {
    GiNaC::ex x = stack.back();
    stack.pop_back();
    if (!seen.insert(&GiNaC::ex_to<GiNaC::basic>(x)).second) continue;
    visited.push_back(x);
    if (GiNaC::is_a<GiNaC::symbol>(x)) {
      if (auto it = index.find(x); it != index.end()) found.push_back(it->second);
      continue;
    }
    for (std::size_t k = 0; k < x.nops(); ++k) stack.push_back(x.op(k));
  }
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  return found;
}

std::vector<int> coordinate_symbols::positions_in(const GiNaC::ex& e) const {
  return occurring(e, position_index_);
}

std::vector<int> coordinate_symbols::velocities_in(const GiNaC::ex& e) const {
  return occurring(e, velocity_index_);
}

}  // namespace kinevo::symbolic
