#include "kinevo/mechanics/kinematics/rank_analysis.hpp"

#include <fmt/format.h>

#include <Eigen/QR>
#include <Eigen/SVD>
#include <Eigen/SparseCore>
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

#include "kinevo/core/max_abs.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/io/option_error.hpp"
#include "kinevo/mechanics/kinematics/detail/gaussian_elimination.hpp"
#include "kinevo/mechanics/kinematics/detail/sparse_rank_qr.hpp"

namespace kinevo::mechanics {

void rank_options::validate() const {
  io::require_real("relative_tolerance", relative_tolerance, {0.0, 1.0, true, true});
  io::require_real("perturbation", perturbation, {0.0, 0.1, true, false});
  io::require_integer("perturbation_trials", perturbation_trials, 0, 100);
  io::require_integer("projection_iterations", projection_iterations, 1, 1000);
  io::require_integer("probe_coordinates", probe_coordinates, 0, 1000000000);
  io::require_integer("dense_coordinates", dense_coordinates, 0, 1000000000);
}

namespace {

Eigen::MatrixXd select_rows(const Eigen::MatrixXd& a, const std::vector<int>& rows) {
  Eigen::MatrixXd s(static_cast<Eigen::Index>(rows.size()), a.cols());
  for (std::size_t k = 0; k < rows.size(); ++k)
    s.row(static_cast<Eigen::Index>(k)) = a.row(rows[k]);
  return s;
}

// Rows taken in the given order; a row that reduces to zero against the rows kept before it is
// dependent. Returns a flag per row (true: kept). Each kept row is reduced against the earlier
// kept ones and pivots on its largest remaining entry (full pivoting within the row).
std::vector<bool> ordered_basis(const Eigen::MatrixXd& a, const std::vector<int>& order,
                                const std::vector<double>& threshold) {
  std::vector<bool> kept(static_cast<std::size_t>(a.rows()), false);
  std::vector<Eigen::VectorXd> basis;
  std::vector<Eigen::Index> pivot;
  for (int r : order) {
    Eigen::VectorXd v = a.row(r).transpose();
    for (std::size_t b = 0; b < basis.size(); ++b) {
      const double f = v[pivot[b]] / basis[b][pivot[b]];
      if (f != 0.0) v -= f * basis[b];
    }
    Eigen::Index c = 0;
    const double largest = v.size() == 0 ? 0.0 : v.cwiseAbs().maxCoeff(&c);
    if (largest > threshold[static_cast<std::size_t>(r)]) {
      basis.push_back(v);
      pivot.push_back(c);
      kept[static_cast<std::size_t>(r)] = true;
    }
  }
  return kept;
}

int rank_of(const Eigen::MatrixXd& a, double relative_tolerance) {
  if (a.rows() == 0 || a.cols() == 0) return 0;
  elimination_options o;
  o.relative_tolerance = relative_tolerance;
  return eliminate(a, o).rank;
}

// Newton steps (minimum-norm, the system may be under- or overdetermined) from x = p onto
// Phi_kin(x, t) = 0 and the hyperplane c . (x - p) = 0. The hyperplane keeps the iterates off
// q itself: without it, from near a singular point they crawl back to it linearly (the singular
// root of Haug's Table 4.3.2) and end at a point that is neither q nor a regular configuration.
// False when they do not reach the constraints to round-off.
bool project(const model& m, const std::vector<int>& kin, double t, int iterations,
             const Eigen::VectorXd& c, Eigen::VectorXd& x) {
  const Eigen::VectorXd p = x;
  const auto k = static_cast<Eigen::Index>(kin.size());
  Eigen::MatrixXd jac(k + 1, x.size());
  Eigen::VectorXd phi(k + 1);
  bool polished = false;
  for (int it = 0; it < iterations; ++it) {
    const Eigen::MatrixXd full = m.position_jacobian(x, t);
    const Eigen::VectorXd phi_all = m.position_violation(x, t);
    for (Eigen::Index r = 0; r < k; ++r) {
      jac.row(r) = full.row(kin[static_cast<std::size_t>(r)]);
      phi[r] = phi_all[kin[static_cast<std::size_t>(r)]];
    }
    jac.row(k) = c.transpose();
    phi[k] = c.dot(x - p);
    if (!phi.allFinite() || !jac.allFinite()) return false;
    const double scale = std::max(1.0, max_abs(jac) * std::max(1.0, x.cwiseAbs().maxCoeff()));
    if (phi.cwiseAbs().maxCoeff() <= 1e-13 * scale) {
      if (polished) return true;
      polished = true;  // one more step: quadratic convergence takes it to round-off
    }
    x -= Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>(jac).solve(phi);
  }
  return false;
}

// The names of a list in the text report: the first `shown_names`, then how many more (a
// 10,000-link chain has 10,000 of them; the JSON report lists them all).
constexpr std::size_t shown_names = 20;

std::string join(const std::vector<std::string>& names) {
  if (names.empty()) return "none";
  std::string s;
  for (std::size_t k = 0; k < std::min(names.size(), shown_names); ++k) {
    s += (s.empty() ? "" : ", ") + names[k];
  }
  if (names.size() > shown_names) {
    s += fmt::format(" and {} more (--json lists them all)", names.size() - shown_names);
  }
  return s;
}

// What the elimination (dense) or the QR factorisations (sparse) give; analyse_rank() names it.
struct rank_factors {
  double threshold = 0.0;     // of all rows
  int rank = 0;               // of all rows
  std::vector<int> free_all;  // columns without a pivot, all rows
  int kinematic_rank = 0;
  std::vector<int> pivot_kin, free_kin;  // columns with and without a pivot, kinematic rows
  std::vector<bool> kept;                // per row: not redundant against the rows before it
};

rank_factors dense_factors(const Eigen::MatrixXd& jac, const std::vector<int>& kin,
                           const std::vector<int>& drv, double relative_tolerance) {
  rank_factors f;
  const auto h = jac.rows();
  const auto n = jac.cols();
  f.threshold = relative_tolerance * max_abs(jac);
  elimination_options eo;
  eo.relative_tolerance = relative_tolerance;
  if (h > 0 && n > 0) {
    const elimination_result all = eliminate(jac, eo);
    f.rank = all.rank;
    f.free_all = all.free_columns();
  } else {
    for (int c = 0; c < n; ++c) f.free_all.push_back(c);
  }
  const Eigen::MatrixXd kin_jac = select_rows(jac, kin);
  if (!kin.empty() && n > 0) {
    const elimination_result e = eliminate(kin_jac, eo);
    f.kinematic_rank = e.rank;
    f.pivot_kin = e.pivot_columns();
    f.free_kin = e.free_columns();
  } else {
    for (int c = 0; c < n; ++c) f.free_kin.push_back(c);
  }
  // Redundant rows in model order, kinematic rows before drivers (a driver's redundancy is
  // judged against the kinematic rows). The kinematic rows use the threshold of their own
  // elimination, so that their redundant count is rows - kinematic_rank; drivers that of all rows.
  std::vector<int> order = kin;
  order.insert(order.end(), drv.begin(), drv.end());
  std::vector<double> threshold(static_cast<std::size_t>(h), f.threshold);
  for (int i : kin) {
    threshold[static_cast<std::size_t>(i)] = relative_tolerance * max_abs(kin_jac);
  }
  f.kept = ordered_basis(jac, order, threshold);
  return f;
}

using sparse_matrix = Eigen::SparseMatrix<double>;

sparse_matrix select_sparse_rows(const sparse_matrix& a, const std::vector<int>& rows) {
  sparse_matrix pick(static_cast<Eigen::Index>(rows.size()), a.rows());
  std::vector<Eigen::Triplet<double>> ones;
  for (std::size_t k = 0; k < rows.size(); ++k)
    ones.emplace_back(static_cast<int>(k), rows[k], 1.0);
  pick.setFromTriplets(ones.begin(), ones.end());
  return pick * a;
}

double sparse_max_abs(const sparse_matrix& a) {
  double m = 0.0;
  for (Eigen::Index k = 0; k < a.nonZeros(); ++k) m = std::max(m, std::abs(a.valuePtr()[k]));
  return m;
}

// Rank and columns of a sparse QR (detail/sparse_rank_qr.hpp): COLAMD order or the columns' own.
void sparse_qr(const sparse_matrix& a, double threshold, bool fill_reducing, int& rank,
               std::vector<int>& pivots, std::vector<int>& free) {
  sparse_rank_columns c = sparse_rank_qr(a, threshold, fill_reducing);
  rank = c.rank;
  pivots = std::move(c.pivots);
  free = std::move(c.free);
}

rank_factors sparse_factors(const sparse_matrix& jac, const std::vector<int>& kin,
                            const std::vector<int>& drv, double relative_tolerance) {
  rank_factors f;
  f.threshold = relative_tolerance * sparse_max_abs(jac);
  std::vector<int> pivots;
  sparse_qr(jac, f.threshold, true, f.rank, pivots, f.free_all);
  const sparse_matrix kin_jac = select_sparse_rows(jac, kin);
  const double kin_threshold = relative_tolerance * sparse_max_abs(kin_jac);
  sparse_qr(kin_jac, kin_threshold, true, f.kinematic_rank, f.pivot_kin, f.free_kin);
  // Redundant rows: the columns of Phi^T in model order (kinematic rows first, then drivers)
  // that the QR in natural order finds dependent on the columns before them. The kinematic
  // rows with their own threshold, the drivers against all rows with that of all rows.
  f.kept.assign(static_cast<std::size_t>(jac.rows()), false);
  int r = 0;
  std::vector<int> kept_cols, dropped;
  const sparse_matrix kin_t = sparse_matrix(kin_jac.transpose());
  sparse_qr(kin_t, kin_threshold, false, r, kept_cols, dropped);
  for (int c : kept_cols) f.kept[static_cast<std::size_t>(kin[static_cast<std::size_t>(c)])] = true;
  if (!drv.empty()) {
    std::vector<int> order = kin;
    order.insert(order.end(), drv.begin(), drv.end());
    const sparse_matrix all_t = sparse_matrix(select_sparse_rows(jac, order).transpose());
    sparse_qr(all_t, f.threshold, false, r, kept_cols, dropped);
    for (int c : kept_cols) {
      if (static_cast<std::size_t>(c) >= kin.size()) {
        f.kept[static_cast<std::size_t>(order[static_cast<std::size_t>(c)])] = true;
      }
    }
  }
  return f;
}

// Euler parameters of spatial bodies (<body>_e0.._e3 beside <body>_x, _y, _z: Haug, Computer-
// Aided Kinematics and Dynamics of Mechanical Systems, section 6.3) are not coordinates a user
// drives: a suggested driver is one of the others whenever they can do it.
std::vector<bool> euler_parameter_columns(const std::vector<std::string>& names) {
  const auto has = [&](const std::string& n) {
    return std::find(names.begin(), names.end(), n) != names.end();
  };
  std::vector<bool> euler(names.size(), false);
  for (std::size_t c = 0; c < names.size(); ++c) {
    const std::string& n = names[c];
    if (n.size() < 4 || n.compare(n.size() - 3, 2, "_e") != 0) continue;
    const char k = n.back();
    if (k < '0' || k > '3') continue;
    const std::string body = n.substr(0, n.size() - 3);
    euler[c] = has(body + "_x") && has(body + "_y") && has(body + "_z") && has(body + "_e0") &&
               has(body + "_e1") && has(body + "_e2") && has(body + "_e3");
  }
  return euler;
}

// Coordinates to drive so that the holonomic rows `jac` (of rank `rank`) and the drivers on
// them determine q: n - rank columns, drivable ones first. Driving the set S determines q when
// the null space N of jac restricted to the rows S is non-singular; column-pivoted QR of N^T over
// one group of columns at a time (the drivable ones, then the Euler parameters) picks them, the
// null space of the rows and the columns picked so far at each step.
std::vector<int> columns_to_drive(const Eigen::MatrixXd& jac, int rank,
                                  const std::vector<bool>& euler, double relative_tolerance) {
  const auto n = jac.cols();
  std::vector<int> chosen;
  for (const bool group_is_euler : {false, true}) {
    const Eigen::Index free = n - rank - static_cast<Eigen::Index>(chosen.size());
    if (free <= 0) break;
    Eigen::MatrixXd rows(jac.rows() + static_cast<Eigen::Index>(chosen.size()), n);
    rows.topRows(jac.rows()) = jac;
    rows.bottomRows(static_cast<Eigen::Index>(chosen.size())).setZero();
    for (std::size_t k = 0; k < chosen.size(); ++k) {
      rows(jac.rows() + static_cast<Eigen::Index>(k), chosen[k]) = 1.0;
    }
    const Eigen::BDCSVD<Eigen::MatrixXd> svd(rows, Eigen::ComputeFullV);
    const Eigen::MatrixXd null_space = svd.matrixV().rightCols(free);
    std::vector<int> group;
    for (Eigen::Index c = 0; c < n; ++c) {
      if (euler[static_cast<std::size_t>(c)] == group_is_euler)
        group.push_back(static_cast<int>(c));
    }
    if (group.empty()) continue;
    Eigen::MatrixXd candidates(free, static_cast<Eigen::Index>(group.size()));
    for (std::size_t k = 0; k < group.size(); ++k) {
      candidates.col(static_cast<Eigen::Index>(k)) = null_space.row(group[k]).transpose();
    }
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(candidates);
    qr.setThreshold(relative_tolerance);
    const Eigen::Index take = std::min<Eigen::Index>(qr.rank(), free);
    for (Eigen::Index k = 0; k < take; ++k) {
      chosen.push_back(group[static_cast<std::size_t>(qr.colsPermutation().indices()[k])]);
    }
  }
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

// Euler parameters cannot be driven: when the elimination leaves one among the free columns, the
// free columns are chosen again from the null space of Phi_q, drivable coordinates first (the
// dense path; the sparse one keeps its QR's choice).
void prefer_drivable_columns(const Eigen::MatrixXd& jac, const std::vector<int>& kin,
                             const std::vector<std::string>& coord_names, double relative_tolerance,
                             rank_factors& f) {
  const int n = static_cast<int>(jac.cols());
  if (n == 0) return;
  const std::vector<bool> euler = euler_parameter_columns(coord_names);
  const auto any_euler = [&](const std::vector<int>& columns) {
    return std::any_of(columns.begin(), columns.end(),
                       [&](int c) { return euler[static_cast<std::size_t>(c)]; });
  };
  if (jac.rows() > 0 && any_euler(f.free_all)) {
    f.free_all = columns_to_drive(jac, f.rank, euler, relative_tolerance);
  }
  if (!kin.empty() && any_euler(f.free_kin)) {
    f.free_kin =
        columns_to_drive(select_rows(jac, kin), f.kinematic_rank, euler, relative_tolerance);
    f.pivot_kin.clear();
    for (int c = 0; c < n; ++c) {
      if (std::find(f.free_kin.begin(), f.free_kin.end(), c) == f.free_kin.end())
        f.pivot_kin.push_back(c);
    }
  }
}

// Throws io::input_error naming the rows whose Jacobian entries are NaN or infinite.
void require_finite_jacobian(const model& m, const sparse_matrix& jac, const Eigen::VectorXd& q,
                             double t) {
  std::vector<bool> bad(static_cast<std::size_t>(jac.rows()), false);
  bool any = !q.allFinite();
  for (Eigen::Index c = 0; c < jac.outerSize(); ++c) {
    for (sparse_matrix::InnerIterator it(jac, c); it; ++it) {
      if (!std::isfinite(it.value())) any = bad[static_cast<std::size_t>(it.row())] = true;
    }
  }
  if (!any) return;
  std::string rows;
  for (std::size_t i = 0; i < bad.size(); ++i) {
    if (bad[i]) rows += (rows.empty() ? "'" : ", '") + m.constraint_names()[i] + "'";
  }
  // The model (its file) gives no finite Jacobian at this state: unusable input.
  throw io::input_error(
      fmt::format("rank analysis of '{}' at t = {:g}: {}", m.name(), t,
                  rows.empty() ? std::string("q has NaN or infinite entries")
                               : "the Jacobian of constraint(s) " + rows + " is NaN or infinite"));
}

}  // namespace

rank_report analyse_rank(const model& m, const Eigen::VectorXd& q, double t,
                         const rank_options& options) {
  options.validate();
  const int n = m.coordinates();
  if (q.size() != n) {
    throw io::option_error(
        "q", fmt::format("has {} entries for {} coordinates (analyse_rank)", q.size(), n));
  }
  const int h = m.holonomic_constraints();
  const auto& row_names = m.constraint_names();
  const auto& coord_names = m.coordinate_names();

  rank_report r;
  r.model_name = m.name();
  r.t = t;
  r.coordinates = n;
  r.holonomic_rows = h;
  r.nonholonomic_rows = m.constraints() - h;

  std::vector<int> kin, drv;
  for (int i = 0; i < h; ++i) (m.is_driver(i) ? drv : kin).push_back(i);
  for (int i : drv) r.drivers.push_back(row_names[static_cast<std::size_t>(i)]);

  const bool sparse = options.method == rank_method::sparse ||
                      (options.method == rank_method::automatic && n > options.dense_coordinates);
  r.method = sparse ? "sparse" : "dense";
  const sparse_matrix sjac = m.position_jacobian_sparse(q, t);
  require_finite_jacobian(m, sjac, q, t);
  const Eigen::VectorXd phi = m.position_violation(q, t);
  r.violation = phi.size() == 0 ? 0.0 : phi.cwiseAbs().maxCoeff();
  const Eigen::MatrixXd jac = sparse ? Eigen::MatrixXd() : Eigen::MatrixXd(sjac);
  rank_factors f = sparse ? sparse_factors(sjac, kin, drv, options.relative_tolerance)
                          : dense_factors(jac, kin, drv, options.relative_tolerance);
  if (!sparse) prefer_drivable_columns(jac, kin, coord_names, options.relative_tolerance, f);
  r.threshold = f.threshold;
  r.rank = f.rank;
  r.kinematic_rank = f.kinematic_rank;
  auto names = [&](std::vector<int> columns, std::vector<std::string>& out) {
    std::sort(columns.begin(), columns.end());
    for (int c : columns) out.push_back(coord_names[static_cast<std::size_t>(c)]);
  };
  names(f.free_all, r.suggested_drivers);
  names(f.pivot_kin, r.dependent);
  names(f.free_kin, r.independent);
  r.dof = n - r.kinematic_rank;
  int drivers_kept = 0;
  for (int i : kin) {
    if (!f.kept[static_cast<std::size_t>(i)])
      r.redundant.push_back(row_names[static_cast<std::size_t>(i)]);
  }
  for (int i : drv) {
    if (f.kept[static_cast<std::size_t>(i)]) {
      ++drivers_kept;
    } else {
      r.redundant_drivers.push_back(row_names[static_cast<std::size_t>(i)]);
    }
  }
  r.missing_drivers = std::max(0, r.dof - drivers_kept);
  r.determined = r.rank == n && r.redundant_drivers.empty();

  // Isolated singular points: the rank at nearby configurations on the kinematic constraints.
  r.generic_rank = r.rank;
  r.generic_kinematic_rank = r.kinematic_rank;
  std::mt19937 rng(options.seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int trials = n > options.probe_coordinates ? 0 : options.perturbation_trials;
  for (int trial = 0; trial < trials && r.probes < 3; ++trial) {
    Eigen::VectorXd p = q, c(n);
    double reach = 0.0;
    for (int i = 0; i < n; ++i) {
      const double size = options.perturbation * std::max(1.0, std::abs(q[i]));
      p[i] += size * u(rng);
      c[i] = u(rng);
      reach = std::max(reach, size);
    }
    if (n == 0 || !project(m, kin, t, options.projection_iterations, c.normalized(), p)) continue;
    // A probe that ran off to another branch far away says nothing about q; one that ended very
    // near q may sit on a branch that only meets the constraints to second order there (the
    // flat parallelogram's folded branch violates constraint 5 by O(distance^2)).
    const double distance = (p - q).cwiseAbs().maxCoeff();
    if (distance > 1e3 * reach || distance < 0.1 * reach) continue;
    ++r.probes;
    const Eigen::MatrixXd pj = m.position_jacobian(p, t);
    r.generic_rank = std::max(r.generic_rank, rank_of(pj, options.relative_tolerance));
    r.generic_kinematic_rank = std::max(r.generic_kinematic_rank,
                                        rank_of(select_rows(pj, kin), options.relative_tolerance));
  }
  r.singular_test = trials == 0 ? "skipped" : r.probes == 0 ? "inconclusive" : "made";
  r.singular = r.generic_rank > r.rank || r.generic_kinematic_rank > r.kinematic_rank;
  return r;
}

std::vector<std::string> rank_report::lines() const {
  std::vector<std::string> out;
  out.push_back(fmt::format("rank and mobility of '{}' at t = {:g} (max |Phi| = {:.3g})",
                            model_name, t, violation));
  out.push_back(
      fmt::format("  rank of Phi_q: {} ({} holonomic rows, {} coordinates; pivot "
                  "threshold {:.3g})",
                  rank, holonomic_rows, coordinates, threshold));
  out.push_back(fmt::format(
      "  degrees of freedom: {} ({} coordinates - rank {} of the {} rows "
      "without drivers)",
      dof, coordinates, kinematic_rank, holonomic_rows - static_cast<int>(drivers.size())));
  out.push_back(fmt::format("  redundant constraints: {}", join(redundant)));
  out.push_back(fmt::format("  independent coordinates (suggested): {}", join(independent)));
  out.push_back(fmt::format("  dependent coordinates: {}", join(dependent)));
  out.push_back(fmt::format("  drivers: {}", join(drivers)));
  if (!redundant_drivers.empty()) {
    out.push_back(fmt::format("  redundant drivers: {}", join(redundant_drivers)));
  }
  if (determined) {
    out.push_back("  kinematically determined: yes");
  } else if (missing_drivers > 0) {
    const bool all = missing_drivers == static_cast<int>(suggested_drivers.size());
    out.push_back(fmt::format("  kinematically determined: no, {} driver(s) missing (drive {}{})",
                              missing_drivers, all ? "" : fmt::format("{} of: ", missing_drivers),
                              join(suggested_drivers)));
  } else {
    out.push_back("  kinematically determined: no");
  }
  if (singular) {
    out.push_back(fmt::format(
        "  singular: yes, an isolated singular point (rank {} here, {} at nearby configurations; "
        "{} without drivers here, {} nearby)",
        rank, generic_rank, kinematic_rank, generic_kinematic_rank));
  } else {
    if (singular_test == "skipped") {
      out.push_back("  singular: not tested");
    } else if (probes == 0) {
      out.push_back("  singular: not decided (no nearby configuration reached)");
    } else {
      out.push_back(fmt::format("  singular: no (rank {} at {} nearby configurations)",
                                generic_rank, probes));
    }
  }
  if (nonholonomic_rows > 0) {
    out.push_back(fmt::format("  note: {} nonholonomic row(s) not included", nonholonomic_rows));
  }
  return out;
}

std::string rank_report::text() const {
  std::string s;
  for (const auto& l : lines()) s += l + "\n";
  return s;
}

nlohmann::json rank_report::to_json() const {
  return nlohmann::json{{"model", model_name},
                        {"t", t},
                        {"coordinates", coordinates},
                        {"holonomic_rows", holonomic_rows},
                        {"nonholonomic_rows", nonholonomic_rows},
                        {"violation", violation},
                        {"threshold", threshold},
                        {"rank", rank},
                        {"kinematic_rank", kinematic_rank},
                        {"dof", dof},
                        {"redundant", redundant},
                        {"independent", independent},
                        {"dependent", dependent},
                        {"drivers", drivers},
                        {"redundant_drivers", redundant_drivers},
                        {"missing_drivers", missing_drivers},
                        {"suggested_drivers", suggested_drivers},
                        {"determined", determined},
                        {"singular", singular},
                        {"generic_rank", generic_rank},
                        {"generic_kinematic_rank", generic_kinematic_rank},
                        {"probes", probes},
                        {"singular_test", singular_test},
                        {"rank_method", method}};
}

}  // namespace kinevo::mechanics
