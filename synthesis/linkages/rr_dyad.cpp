#include "kinevo/synthesis/linkages/rr_dyad.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_real_distribution.hpp>
#include <cmath>
#include <stdexcept>

#include "kinevo/io/option_error.hpp"
#include "kinevo/numerics/damped_newton.hpp"
#include "kinevo/numerics/gauss_newton.hpp"

namespace kinevo::synthesis {

void dyad_residuals(const std::vector<pose>& poses, const Eigen::Vector4d& x, Eigen::VectorXd& f,
                    Eigen::MatrixXd* jac) {
  const auto n = static_cast<Eigen::Index>(poses.size()) - 1;
  f.resize(n);
  if (jac) jac->resize(n, 4);
  const std::complex<double> a0(x(0), x(1)), b(x(2), x(3)), r0(poses[0].x, poses[0].y);
  const std::complex<double> w = a0 - b;
  for (Eigen::Index j = 0; j < n; ++j) {
    const pose& p = poses[static_cast<std::size_t>(j + 1)];
    const std::complex<double> rot = std::polar(1.0, p.theta - poses[0].theta);
    const std::complex<double> u = rot * (a0 - r0) + std::complex<double>(p.x, p.y) - b;
    f(j) = std::norm(u) - std::norm(w);
    if (jac) {
      // d|u|^2 = 2 Re(conj(u) du), du/da0x = rot, du/da0y = i rot, du/db = -1 (-i).
      const std::complex<double> cu = std::conj(u);
      (*jac)(j, 0) = 2.0 * (cu * rot).real() - 2.0 * w.real();
      (*jac)(j, 1) = 2.0 * (cu * rot * std::complex<double>(0.0, 1.0)).real() - 2.0 * w.imag();
      (*jac)(j, 2) = -2.0 * u.real() + 2.0 * w.real();
      (*jac)(j, 3) = -2.0 * u.imag() + 2.0 * w.imag();
    }
  }
}

double dyad_error_measure(const std::vector<pose>& poses, const Eigen::Vector4d& x) {
  Eigen::VectorXd f;
  dyad_residuals(poses, x, f);
  const double len = std::hypot(x(0) - x(2), x(1) - x(3));
  return f.cwiseAbs().cwiseSqrt().mean() / len;
}

void dyad_options::validate() const {
  io::require_integer("starts", starts, 1, max_dyad_starts);
  io::require_integer("keep", keep, 1, max_dyad_starts);
}

std::vector<dyad_solution> dyad_synthesis(const std::vector<pose>& poses, const dyad_options& o,
                                          const core::run_context& context) {
  if (poses.size() < 5) throw io::option_error("poses", "must be at least 5 for dyad synthesis");
  o.validate();
  double xmin = poses[0].x, xmax = xmin, ymin = poses[0].y, ymax = ymin;
  for (const auto& p : poses) {
    xmin = std::min(xmin, p.x), xmax = std::max(xmax, p.x);
    ymin = std::min(ymin, p.y), ymax = std::max(ymax, p.y);
  }
  // Starts in a box twice the size of the poses' extent around their centre.
  const double cx = 0.5 * (xmin + xmax), cy = 0.5 * (ymin + ymax);
  const double half = std::max({xmax - xmin, ymax - ymin, 1e-3});
  const double scale = half;
  boost::random::mt19937 rng(static_cast<std::uint32_t>(o.seed));
  boost::random::uniform_real_distribution<double> u(-1.0, 1.0);
  const bool exact = poses.size() == 5;
  std::vector<dyad_solution> found;
  for (int s = 0; s < o.starts; ++s) {
    Eigen::Vector4d x0(cx + half * u(rng), cy + half * u(rng), cx + half * u(rng),
                       cy + half * u(rng));
    Eigen::Vector4d x;
    double rn = 0.0;
    bool ok = false;
    if (exact) {
      const numerics::system_function sys = [&](const Eigen::VectorXd& v, Eigen::VectorXd& f,
                                                Eigen::MatrixXd* j) {
        dyad_residuals(poses, v, f, j);
        return f.allFinite();
      };
      numerics::newton_options no;
      no.tol_x = 1e-12;
      no.tol_f = 1e-10 * scale * scale;
      const auto r = numerics::damped_newton(sys, x0, no);
      ok = r.status == numerics::newton_status::converged;
      x = r.x;
      rn = r.residual;
    } else {
      const numerics::residual_function fun = [&](const Eigen::VectorXd& v, Eigen::VectorXd& f,
                                                  Eigen::MatrixXd* j) {
        dyad_residuals(poses, v, f, j);
      };
      const auto r = numerics::gauss_newton(fun, x0);
      ok = r.status == numerics::newton_status::converged;
      x = r.x;
      rn = r.residual;
    }
    if (context.on_progress) {
      context.report({static_cast<double>(s + 1) / o.starts, 0, s + 1, 0,
                      fmt::format("start {}/{}", s + 1, o.starts)});
    }
    const double len = std::hypot(x(0) - x(2), x(1) - x(3));
    if (!ok || !x.allFinite() || len < 1e-9 * scale || x.norm() > 1e6 * scale) continue;
    const double err = dyad_error_measure(poses, x);
    bool merged = false;
    for (auto& d : found) {
      const Eigen::Vector4d y(d.a0.real(), d.a0.imag(), d.b.real(), d.b.imag());
      if ((y - x).norm() <= 1e-6 * (scale + x.norm())) {
        ++d.found;
        merged = true;
        break;
      }
    }
    if (!merged) found.push_back({{x(0), x(1)}, {x(2), x(3)}, err, rn, 1});
  }
  std::sort(found.begin(), found.end(),
            [](const auto& a, const auto& b) { return a.error < b.error; });
  if (found.size() > static_cast<std::size_t>(o.keep))
    found.resize(static_cast<std::size_t>(o.keep));
  return found;
}

}  // namespace kinevo::synthesis
