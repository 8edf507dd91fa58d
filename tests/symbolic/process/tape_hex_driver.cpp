// Prints M, f, A and b of each model file given on the command line as hexadecimal floats, at a
// fixed state with non-zero velocities. tape_order_identical.cmake runs it as several separate
// processes (address-space randomisation on) and requires identical output: the compiled tapes
// must not depend on GiNaC's address-dependent operand order.
#include <Eigen/Core>
#include <cmath>
#include <cstdio>
#include <exception>

#include "kinevo/mechanics/model/model.hpp"

namespace {
void print(const char* what, const double* v, Eigen::Index n) {
  std::printf("%s", what);
  for (Eigen::Index i = 0; i < n; ++i) std::printf(" %a", v[i]);
  std::printf("\n");
}
}  // namespace

int main(int argc, char** argv) {
  try {
    for (int k = 1; k < argc; ++k) {
      const auto m = kinevo::mechanics::load_model(argv[k]);
      // A generic state near the initial one, so no term vanishes by symmetry.
      Eigen::VectorXd q = m.initial_positions(), qd = m.initial_velocities();
      for (Eigen::Index i = 0; i < q.size(); ++i) {
        const double x = static_cast<double>(i + 1);
        q[i] += 0.1 * std::sin(1.7 * x);
        qd[i] += 0.3 * std::cos(2.3 * x) + 0.7;
      }
      const auto s = m.evaluate(q, qd, 0.37);
      std::printf("%s\n", argv[k]);
      print("M", s.mass.data(), s.mass.size());
      print("f", s.force.data(), s.force.size());
      print("A", s.jacobian.data(), s.jacobian.size());
      print("b", s.rhs.data(), s.rhs.size());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tape_hex_driver: %s\n", e.what());
    return 1;
  }
  return 0;
}
