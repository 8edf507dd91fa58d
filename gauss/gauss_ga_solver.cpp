#include "kinevo/gauss/gauss_ga_solver.hpp"

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <utility>

#include "kinevo/core/max_abs.hpp"
#include "kinevo/ga/mpi_environment.hpp"
#include "kinevo/ga/range_runs.hpp"
#include "kinevo/ga/search_box.hpp"
#include "kinevo/gauss/detail/coupled_factorisations.hpp"
#include "kinevo/gauss/gauss_objective.hpp"
#include "kinevo/gauss/mass_scaling.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/mechanics/solvers/direct_solver_options.hpp"
#include "kinevo/mechanics/solvers/solver_support.hpp"

namespace kinevo::gauss {

namespace {

// The problem the range runs see: the current run's Gauss objective (replaced between runs,
// when no island is evaluating), optionally remembering the best candidate evaluated so far
// for the convergence figures. The lock is taken only when tracking.
class run_problem final : public ga::problem {
 public:
  explicit run_problem(bool track) : track_(track) {}

  void set(std::unique_ptr<gauss_objective> objective) {
    objective_ = std::move(objective);
    best_value_ = std::numeric_limits<double>::infinity();
    best_x_.resize(0);
  }
  const gauss_objective& objective() const { return *objective_; }

  int dimension() const override { return objective_->dimension(); }
  Eigen::VectorXd lower_bounds() const override { return objective_->lower_bounds(); }
  Eigen::VectorXd upper_bounds() const override { return objective_->upper_bounds(); }
  std::string name() const override { return objective_->name(); }

  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                Eigen::Ref<Eigen::VectorXd> values) const override {
    objective_->evaluate(x, values);
    if (!track_) return;
    Eigen::Index j = 0;
    const double v = values.minCoeff(&j);
    const std::lock_guard<std::mutex> lock(mutex_);
    // Ties go to the lexicographically smaller point, so the order islands report in does
    // not matter.
    const bool tie = v == best_value_ && best_x_.size() == x.rows() &&
                     std::lexicographical_compare(x.col(j).begin(), x.col(j).end(), best_x_.begin(),
                                                  best_x_.end());
    if (v < best_value_ || tie) {
      best_value_ = v;
      best_x_ = x.col(j);
    }
  }

  // Best point evaluated since set(); empty before the first evaluation.
  Eigen::VectorXd best() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return best_x_;
  }

 private:
  bool track_;
  std::unique_ptr<gauss_objective> objective_;
  mutable std::mutex mutex_;
  mutable double best_value_ = std::numeric_limits<double>::infinity();
  mutable Eigen::VectorXd best_x_;
};

// The rows GIGSP's sweep refuses (generalized-inverse dissertation (GIGSP), appendix A): taken
// in order, a row is inconsistent when adding it to the rows kept so far leaves a least-squares
// residual, i.e. it depends on them but its right-hand side disagrees. A diagnosis only (the
// GA has already shown that the residual does not fall with w), so that both solvers name the
// same constraints.
std::vector<int> inconsistent_rows(const Eigen::MatrixXd& a, const Eigen::VectorXd& b) {
  note_coupled_factorisation();
  std::vector<int> kept, out;
  const double tol = 1e-7 * (1.0 + b.cwiseAbs().maxCoeff());
  for (int i = 0; i < static_cast<int>(a.rows()); ++i) {
    kept.push_back(i);
    Eigen::MatrixXd sub(static_cast<Eigen::Index>(kept.size()), a.cols());
    Eigen::VectorXd rhs(static_cast<Eigen::Index>(kept.size()));
    for (std::size_t k = 0; k < kept.size(); ++k) {
      sub.row(static_cast<Eigen::Index>(k)) = a.row(kept[k]);
      rhs(static_cast<Eigen::Index>(k)) = b(kept[k]);
    }
    const Eigen::VectorXd x = sub.completeOrthogonalDecomposition().solve(rhs);
    if ((sub * x - rhs).cwiseAbs().maxCoeff() > tol) {
      kept.pop_back();
      out.push_back(i);
    }
  }
  return out;
}

// The rank of A and the rows that depend on earlier ones, by GIGSP's sweep (modified
// Gram-Schmidt on the rows of A L^-T, generalized-inverse dissertation (GIGSP), eqs. 2.21-2.30,
// with the direct solvers' default tolerances), so that "ga" names the redundant rows GIGSP
// drops. The GA drops none: its penalty (eq. 5.6) weighs a redundant row like any other and a
// consistent one costs nothing at the minimiser. A diagnosis only, O(m n^2 + m^2 n) per solve,
// below the eigen-decomposition of H that every solve pays.
void report_rank(const constrained_system& s, acceleration_result& out) {
  if (s.constraints() == 0) return;
  note_coupled_factorisation();
  mechanics::mass_factor mf;
  if (!mf.compute(s)) return;
  const mechanics::direct_solver_options d;
  const mechanics::gram_schmidt_rows gs =
      mechanics::orthonormalize_rows(mf.right_solve_upper(s.jacobian), s.rhs, d.rank_tolerance,
                                     d.consistency_tolerance, d.degenerate_tolerance);
  out.rank = static_cast<int>(gs.kept.size());
  out.redundant = gs.redundant;
}

}  // namespace

std::string to_string(search_axes a) {
  switch (a) {
    case search_axes::coordinates:
      return "coordinates";
    case search_axes::mass_scaled:
      return "mass-scaled";
    case search_axes::principal:
      return "principal";
    case search_axes::exact_hessian:
      return "exact-hessian";
  }
  return "?";
}

std::string to_string(warm_multipliers w) {
  return w == warm_multipliers::extrapolated ? "extrapolated" : "least-squares";
}

warm_multipliers parse_warm_multipliers(const std::string& name) {
  for (auto w : {warm_multipliers::extrapolated, warm_multipliers::least_squares}) {
    if (to_string(w) == name) return w;
  }
  throw io::option_error("warm_multipliers",
                         fmt::format("'{}' is unknown: use extrapolated or least-squares", name));
}

std::string to_string(cold_box c) {
  return c == cold_box::fixed ? "fixed" : "derived";
}

search_axes parse_search_axes(const std::string& name) {
  for (auto a : {search_axes::coordinates, search_axes::mass_scaled, search_axes::principal,
                 search_axes::exact_hessian}) {
    if (to_string(a) == name) return a;
  }
  throw io::option_error(
      "search_axes",
      fmt::format("'{}' is unknown: use coordinates, mass-scaled, principal or exact-hessian",
                  name));
}

cold_box parse_cold_box(const std::string& name) {
  for (auto c : {cold_box::fixed, cold_box::derived}) {
    if (to_string(c) == name) return c;
  }
  throw io::option_error("cold_box", fmt::format("'{}' is unknown: use fixed or derived", name));
}

int gauss_ga_options::population(int coordinates) const {
  const auto wanted = static_cast<int>(std::ceil(population_per_coordinate * coordinates));
  return std::max(ga.population, wanted);
}

double gauss_ga_options::sigma_eta(int coordinates) const {
  if (sigma_eta_reference <= 0 || coordinates <= sigma_eta_reference) return ga.pcx_sigma_eta;
  return ga.pcx_sigma_eta * std::sqrt(static_cast<double>(sigma_eta_reference) / coordinates);
}

int gauss_ga_options::run_cap(int coordinates) const {
  const double grown = std::ceil(max_runs_per_coordinate * static_cast<double>(coordinates));
  // The growth is bounded (1e6 runs, what run indices can count); max_runs is never lowered
  // (std::clamp would need max_runs <= 1e6).
  return std::max(max_runs, static_cast<int>(std::min(grown, 1e6)));
}

long long gauss_ga_options::run_budget(int coordinates) const {
  const long long base =
      std::max(evaluations_per_run,
               evaluations_per_coordinate * static_cast<long long>(std::max(coordinates, 1)));
  if (!budget_follows_population) return base;
  return base * population(coordinates) / ga.population;
}

void gauss_ga_options::validate() const {
  ga.validate();
  islands.validate(ga);
  penalty.validate();
  // Each check names the field (io::option_error); the rest says what it must be.
  auto fail = [](const std::string& field, const std::string& requirement) {
    throw io::option_error(field, requirement);
  };
  auto finite_positive = [](double v) { return std::isfinite(v) && v > 0.0; };
  if (evaluations_per_run < 2LL * ga.population * islands.islands) {
    fail("evaluations_per_run",
         fmt::format("= {} is less than two generations of all islands ({}): "
                     "raise it or lower the population",
                     evaluations_per_run, 2LL * ga.population * islands.islands));
  }
  if (evaluations_per_coordinate < 0) fail("evaluations_per_coordinate", "must be >= 0");
  if (migrations_per_run < 0) fail("migrations_per_run", "must be >= 0");
  if (sigma_eta_reference < 0) fail("sigma_eta_reference", "must be >= 0 (0: off)");
  if (!(population_per_coordinate >= 0.0) || !std::isfinite(population_per_coordinate)) {
    fail("population_per_coordinate", "must be >= 0 and finite");
  }
  if (max_runs < 1) fail("max_runs", "must be at least 1");
  if (!(max_runs_per_coordinate >= 0.0) || !(max_runs_per_coordinate <= 1e3)) {
    fail("max_runs_per_coordinate", "must be in [0, 1000]");
  }
  if (carry_population != ga::carry_mode::off && ga.genes != ga::encoding::real) {
    fail("carry_population", "needs real genes (ga.genes = real)");
  }
  if (!(stall_fraction >= 0.0) || !std::isfinite(stall_fraction)) {
    fail("stall_fraction", "must be >= 0 and finite");
  }
  if (!(stall_window > 0.0) || !std::isfinite(stall_window)) {
    fail("stall_window", "must be positive and finite");
  }
  if (!finite_positive(cold_radius)) fail("cold_radius", "must be positive and finite");
  if (!std::isfinite(cold_guess)) fail("cold_guess", "must be finite");
  if (!(box_margin >= 1.0) || !std::isfinite(box_margin)) fail("box_margin", "must be >= 1");
  if (!(shrink > 0.0 && shrink <= 1.0)) fail("shrink", "must be in (0, 1]");
  for (double r : radii_per_run) {
    if (!finite_positive(r)) fail("radii_per_run", "must have every entry positive and finite");
  }
  if (!(face_fraction > 0.0 && face_fraction <= 1.0)) fail("face_fraction", "must be in (0, 1]");
  if (!(growth > 1.0) || !std::isfinite(growth)) fail("growth", "must be > 1 and finite");
  if (warm_history < 1) fail("warm_history", "must be at least 1");
  if (warm_cycle < 1) fail("warm_cycle", "must be at least 1");
  if (warm_order < 0 || warm_order > 3) fail("warm_order", "must be 0, 1, 2 or 3");
  if (!(run_resolution >= 0.0 && run_resolution < 1.0)) {
    fail("run_resolution", "must be in [0, 1)");
  }
  if (!finite_positive(warm_factor)) fail("warm_factor", "must be positive and finite");
  if (!finite_positive(warm_min_radius)) fail("warm_min_radius", "must be positive and finite");
  if (!(tolerance >= 0.0) || !std::isfinite(tolerance))
    fail("tolerance", "must be >= 0 and finite");
  if (!(change_fraction > 0.0 && change_fraction <= 1.0))
    fail("change_fraction", "must be in (0, 1]");
  if (probe_runs < 2) fail("probe_runs", "must be at least 2");
  if (!(max_contraction > 0.0 && max_contraction < 1.0))
    fail("max_contraction", "must be in (0, 1)");
  if (!finite_positive(inconsistency_tolerance)) {
    fail("inconsistency_tolerance", "must be positive and finite");
  }
}

// G3-PCX (Deb, Anand and Joshi 2002: parent-centric recombination in the generalized
// generation gap model) in mass-scaled axes, in a metric the population learns from the ranks of
// its own children (ga_options::metric: no derivative, no factorisation of anything containing
// A). PCX is rotation-invariant: children spread along the index parent's direction from the
// parents' centroid and across it in proportion to the parents' spread, and the learned metric
// takes up the shape of the constraint rows' valley that the mass scaling leaves out. The metric
// is kept from run to run and solve to solve (H changes little between them) and decomposed
// thirty times more lazily than CMA-ES's rule. Measured in docs/gauss.md ("The learned metric as
// the default"): against G3-PCX without it, fewer evaluations on every model, cold and warm, and
// cold solves that converge on the 100-link chain and the 20-link spatial chain.
ga::ga_options oracle_free_ga() {
  ga::ga_options g;
  g.genes = ga::encoding::real;
  g.population = 100;
  g.crossover = ga::crossover_method::pcx;
  g.model = ga::generation_model::g3;
  g.mutation = ga::mutation_method::polynomial;
  g.gene_mutation_rate = 0.0;
  g.elites = 0;
  g.metric = ga::metric_model::learned;
  g.metric_carry = true;
  g.metric_lazy = 30;
  // The metric's Cholesky factor as its root: the children's distribution of the symmetric root
  // for about half the flops per child and a twentieth of the decomposition's (the two side by
  // side in docs/gauss.md, "The Cholesky root").
  g.metric_root_kind = ga::metric_root::cholesky;
  return g;
}

// Weights 1e4: with the learned metric the inner runs resolve the valley of a tenfold weight,
// which speeds the multiplier loop (without the metric, 1e3: "g3-pcx" below).
gauss_penalty_options oracle_free_penalty() {
  gauss_penalty_options p;
  p.kind = penalty_kind::multipliers;
  p.relative = true;
  p.weight = 1e4;
  return p;
}

namespace {

// The former default, kept for the ablation: BLX-0.3 and a fine polynomial mutation in the
// whitened eigen-axes of H (Z1 a unit sphere: the eigen-decomposition already determines the
// minimiser) with least-squares warm multipliers. Not oracle-free; see docs/gauss.md. Every
// field that differs from the oracle-free default is set here.
gauss_ga_options exact_hessian_preset() {
  gauss_ga_options o;
  o.ga = ga::ga_options{};
  o.ga.genes = ga::encoding::real;
  o.ga.population = 20;
  o.ga.selection = ga::selection_method::tournament;
  o.ga.tournament_size = 2;
  o.ga.crossover = ga::crossover_method::blx;
  o.ga.crossover_rate = 0.9;
  o.ga.blx_alpha = 0.3;
  o.ga.mutation = ga::mutation_method::polynomial;
  o.ga.polynomial_eta = 100.0;
  o.ga.elites = 2;
  o.penalty.kind = penalty_kind::multipliers;
  o.penalty.relative = true;
  o.penalty.weight = 1e4;
  o.evaluations_per_run = 6400;
  o.evaluations_per_coordinate = 1600;
  o.migrations_per_run = 0;  // the island model's own interval
  o.axes = search_axes::exact_hessian;
  o.multipliers = warm_multipliers::least_squares;
  o.diagnose_rank = true;
  o.cold = cold_box::derived;
  o.box_margin = 4.0;
  o.shrink = 0.01;
  o.max_runs = 12;
  o.max_runs_per_coordinate = 0.0;
  o.tolerance = 1e-9;
  o.change_fraction = 1.0;
  return o;
}

// The dissertation's GAucsd settings (Table 5.1).
gauss_ga_options thesis_preset() {
  gauss_ga_options o;
  o.ga = ga::gaucsd_options();
  o.ga.population = 100;
  o.ga.bits_per_variable = 16;
  o.ga.crossover_points = 2;
  o.ga.crossover_rate = 0.6;
  o.ga.bit_mutation_rate = 0.001;
  o.evaluations_per_run = 6400;
  o.evaluations_per_coordinate = 0;
  o.migrations_per_run = 0;
  o.penalty.kind = penalty_kind::fixed;
  o.penalty.weight = 1e4;  // eq. 5.18
  o.penalty.relative = false;
  o.axes = search_axes::coordinates;  // GAucsd searched the accelerations themselves
  o.cold = cold_box::fixed;
  o.cold_radius = 50.0;
  // r = 50 in run 1 and r = 10 in run 2 are printed; later runs shrink by ten likewise.
  o.radii_per_run = {50.0, 10.0, 1.0, 0.1, 0.01};
  o.shrink = 0.1;
  o.face_fraction = 0.5;
  o.max_runs = 5;
  o.max_runs_per_coordinate = 0.0;
  o.tolerance = 0.0;  // the dissertation always makes its five runs
  o.change_fraction = 1.0;
  o.run_resolution = 0.0;  // runs are compared, never accepted alone
  return o;
}

// The default until session 24: G3-PCX in mass-scaled axes without the learned metric, weights
// 1e3 (1e4 gives an inner problem PCX alone cannot resolve in one run), 1600 n evaluations per
// run and a fixed cap of 60 runs. Cheaper per child below n ~ 15; kept for comparison.
gauss_ga_options g3_pcx_preset() {
  gauss_ga_options o;
  o.ga.metric = ga::metric_model::isotropic;
  o.ga.metric_carry = false;
  o.ga.metric_lazy = ga::ga_options{}.metric_lazy;
  o.ga.metric_root_kind = ga::ga_options{}.metric_root_kind;
  o.penalty.weight = 1e3;
  o.evaluations_per_coordinate = 1600;
  o.max_runs_per_coordinate = 0.0;
  o.hold_multipliers_on_face = false;
  o.sigma_eta_reference = 0;
  return o;
}

}  // namespace

std::vector<std::string> gauss_ga_preset_names() {
  return {"default", "exact-hessian", "g3-pcx", "learned-metric", "no-oracle", "thesis"};
}

gauss_ga_options gauss_ga_preset(const std::string& name) {
  if (name == "thesis") return thesis_preset();
  if (name == "exact-hessian") return exact_hessian_preset();
  if (name == "g3-pcx") return g3_pcx_preset();
  // "learned-metric" (what the default is) and "no-oracle" are the default's older names.
  if (name == "default" || name == "learned-metric" || name == "no-oracle") {
    return gauss_ga_options{};
  }
  throw io::option_error("preset", fmt::format("must be default, exact-hessian, g3-pcx, thesis or "
                                               "one of the default's older names learned-metric "
                                               "and no-oracle, not '{}'",
                                               name));
}

gauss_ga_solver::gauss_ga_solver(gauss_ga_options options) : options_(std::move(options)) {
  options_.validate();
  model_ = std::make_unique<ga::island_model>(options_.ga, options_.islands);
}

gauss_ga_solver::~gauss_ga_solver() = default;

// The island model for n coordinates: rebuilt (rarely: n changes between models, not steps)
// when population_per_coordinate asks for another population or migrations_per_run for
// another migration interval.
void gauss_ga_solver::fit_model(int coordinates) {
  ga::ga_options ga = options_.ga;
  ga.population = options_.population(coordinates);
  ga.pcx_sigma_eta = options_.sigma_eta(coordinates);
  ga::island_options islands = options_.islands;
  if (options_.migrations_per_run > 0 && islands.islands > 1) {
    const long long k = islands.islands;
    const long long generations = (options_.run_budget(coordinates) - k * ga.population) /
                                  (k * ga.offspring_per_generation());
    islands.migration_interval = static_cast<int>(std::clamp<long long>(
        generations / options_.migrations_per_run, 1, std::numeric_limits<int>::max()));
  }
  if (ga.population == model_->ga().population && ga.pcx_sigma_eta == model_->ga().pcx_sigma_eta &&
      islands.migration_interval == model_->islands().migration_interval) {
    return;
  }
  model_ = std::make_unique<ga::island_model>(ga, islands);
}

void gauss_ga_solver::set_inner_minimiser(std::string name, inner_minimiser minimiser) {
  inner_name_ = minimiser ? std::move(name) : std::string();
  inner_ = std::move(minimiser);
}

ga::run_result gauss_ga_solver::run_inner(const ga::problem& objective, const ga::search_box& box,
                                          const ga::termination& limits,
                                          const ga::run_settings& settings) {
  if (inner_) return inner_(objective, box, limits, settings);
  return model_->run(objective, box, limits, settings);
}

bool gauss_ga_solver::is_root() const {
  return model_->is_root();
}

void gauss_ga_solver::reset() {
  previous_.resize(0);
  recent_errors_.clear();
  history_.clear();
  multiplier_history_.clear();
}

// The frame of a run: a = centre + basis x, with the curvature of Z1 along its axes.
struct search_frame {
  Eigen::MatrixXd basis;                // dense (the exact-Hessian ablation); empty: see below
  Eigen::SparseMatrix<double> scaling;  // mass-scaled axes (sparse B); empty: x = a
  Eigen::VectorXd axis_width;           // |basis column| (m/s^2 per unit of x)
  // B^T H B >= I: a distance in the H-norm bounds the distance in x (mass-scaled and
  // exact-Hessian axes).
  bool h_norm_bound = false;
  double softest = 1.0;  // coordinates: smallest eigenvalue of M's blocks' scaling (1/|B|^2)

  std::unique_ptr<gauss_objective> objective(const gauss_terms& t, const Eigen::VectorXd& c,
                                             const Eigen::VectorXd& half) const {
    if (scaling.size() > 0) return std::make_unique<gauss_objective>(t, c, half, scaling);
    return std::make_unique<gauss_objective>(t, c, half, basis);
  }
  // B^T v (the identity for coordinates).
  Eigen::VectorXd transpose_times(const Eigen::VectorXd& v) const {
    if (scaling.size() > 0) return scaling.transpose() * v;
    if (basis.size() > 0) return basis.transpose() * v;
    return v;
  }
};

namespace {

// Under MPI every rank must give the GA the same problem, bit for bit; a model evaluated on
// each rank need not be (the last bit of a sum can depend on the process). Rank 0's numbers
// are sent to all.
void share_rank0_system(constrained_system& s) {
  if (ga::mpi_environment::size() < 2) return;
  const auto n = s.mass.rows();
  const auto m = s.jacobian.rows();
  std::vector<double> buf;
  buf.reserve(static_cast<std::size_t>(n * n + n + m * n + m));
  buf.insert(buf.end(), s.mass.data(), s.mass.data() + n * n);
  buf.insert(buf.end(), s.force.data(), s.force.data() + n);
  buf.insert(buf.end(), s.jacobian.data(), s.jacobian.data() + m * n);
  buf.insert(buf.end(), s.rhs.data(), s.rhs.data() + m);
  ga::mpi_environment::broadcast_from_root(buf);
  const double* p = buf.data();
  for (Eigen::Ref<Eigen::MatrixXd> part :
       {Eigen::Ref<Eigen::MatrixXd>(s.mass), Eigen::Ref<Eigen::MatrixXd>(s.force),
        Eigen::Ref<Eigen::MatrixXd>(s.jacobian), Eigen::Ref<Eigen::MatrixXd>(s.rhs)}) {
    std::copy(p, p + part.size(), part.data());
    p += part.size();
  }
}

// The frame of a run. Mass-scaled and coordinate axes come from M alone (ms); the principal
// and exact-Hessian axes eigen-decompose H (the ablation; counted).
search_frame make_frame(const gauss_terms& t, search_axes axes, const mass_scaling& ms) {
  const int n = static_cast<int>(t.mass.rows());
  if (axes == search_axes::mass_scaled || axes == search_axes::coordinates) {
    search_frame f;
    if (axes == search_axes::mass_scaled) {
      f.scaling = ms.basis;
      f.axis_width = ms.axis_width;
      f.h_norm_bound = true;
    } else {
      f.axis_width = Eigen::VectorXd::Ones(n);
      // |x|_2 <= |x|_H / sqrt(lambda_min(M)), and lambda_min(M) >= min over blocks of
      // 1 / |L_b^-T|_F^2 (M's blocks only).
      double softest = std::numeric_limits<double>::infinity();
      for (const auto& [first, size] : ms.blocks) {
        double frob = 0.0;
        for (int j = first; j < first + size; ++j) frob += ms.basis.col(j).squaredNorm();
        softest = std::min(softest, 1.0 / frob);
      }
      f.softest = std::isfinite(softest) ? softest : 1.0;
    }
    return f;
  }
  note_coupled_factorisation();
  const Eigen::MatrixXd h =
      t.mass + 2.0 * t.jacobian.transpose() * t.weights.asDiagonal() * t.jacobian;
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(h);
  search_frame f;
  const Eigen::VectorXd lambda = eig.eigenvalues().cwiseMax(1e-300);
  f.softest = lambda.minCoeff();
  f.axis_width = Eigen::VectorXd::Ones(n);
  if (axes == search_axes::principal) f.basis = eig.eigenvectors();
  if (axes == search_axes::exact_hessian) {
    f.axis_width = lambda.cwiseSqrt().cwiseInverse();
    f.basis = eig.eigenvectors() * f.axis_width.asDiagonal();
    f.h_norm_bound = true;
  }
  return f;
}

// Half widths (in units of x) at least large enough for the box to resolve around centre c in
// floating point along every axis.
Eigen::VectorXd with_floor(const Eigen::VectorXd& half, const Eigen::VectorXd& c,
                           const search_frame& f) {
  return half.cwiseMax(1e-13 * std::max(1.0, max_abs(c)) * f.axis_width.cwiseInverse());
}

// Estimated H-norm distance from a centre c to the constrained acceleration a*, from the
// centre's residual r = A c - b: |a* - c|_H^2 = |a* - c|_M^2 + 2 r^T W r when A a* = b, and
// the M-norm part is about sum r_i^2 / (A_i M^-1 A_i^T) (exact when the rows are
// M^-1-orthogonal; more coupled rows move further, which the margin and widening cover).
// `extra_m2` adds an M-norm part from elsewhere (a warm start's prediction error).
double h_distance(const gauss_terms& t, const Eigen::VectorXd& c, const Eigen::VectorXd& scales,
                  double extra_m2) {
  const Eigen::VectorXd r = t.jacobian * c - t.rhs;
  double m2 = extra_m2;
  for (Eigen::Index i = 0; i < r.size(); ++i) m2 += r(i) * r(i) * scales(i);
  return std::sqrt(m2 + 2.0 * r.dot(t.weights.cwiseProduct(r)));
}

// Warm multipliers: the least-squares estimate A^T lambda = -M (a_pred - a_f) at this state
// (the constraint force of the predicted acceleration, eq. 2.18). Carrying the last solve's
// lambda instead feeds each solve's GA noise (amplified by 2 W) into the next.
void estimate_multipliers(const constrained_system& system, const Eigen::VectorXd& predicted,
                          gauss_penalty_schedule& schedule) {
  if (schedule.kind() != penalty_kind::multipliers) return;
  note_coupled_factorisation();
  const gauss_terms plain =
      gauss_terms::from_system(system, schedule.weights(), schedule.multipliers());
  const Eigen::VectorXd fc = system.mass * (predicted - plain.free_accel);
  schedule.set_multipliers(-plain.jacobian.transpose().colPivHouseholderQr().solve(fc));
}

}  // namespace

Eigen::VectorXd gauss_ga_solver::predict(const std::vector<Eigen::VectorXd>& history,
                                         const Eigen::VectorXd& previous) const {
  Eigen::VectorXd predicted = previous;
  const auto n = previous.size();
  const auto c = static_cast<std::size_t>(options_.warm_cycle);
  const std::size_t have = history.size();
  std::vector<const Eigen::VectorXd*> same;  // same stage, newest first
  for (std::size_t j = 1; j <= static_cast<std::size_t>(options_.warm_order) + 1; ++j) {
    if (have < j * c) break;
    const Eigen::VectorXd& h = history[have - j * c];
    if (h.size() != n) break;
    same.push_back(&h);
  }
  // Newton's backward differences for equally spaced steps, only once the whole history
  // exists: a lower degree from older steps can be worse than the previous acceleration,
  // and the box (sized from the previous predictor's errors) would then miss the answer.
  if (same.size() == static_cast<std::size_t>(options_.warm_order) + 1) {
    if (same.size() == 1) predicted = *same[0];
    if (same.size() == 2) predicted = 2.0 * *same[0] - *same[1];
    if (same.size() == 3) predicted = 3.0 * *same[0] - 3.0 * *same[1] + *same[2];
    if (same.size() == 4) {
      predicted = 4.0 * *same[0] - 6.0 * *same[1] + 4.0 * *same[2] - *same[3];
    }
  }
  return predicted;
}

// What the stages of one solve share: the system, its penalty and the search frame, and what the
// range runs found.
struct gauss_ga_solver::solve_state {
  solve_state(const constrained_system& of, gauss_penalty_schedule penalty)
      : system(of), schedule(std::move(penalty)) {}

  const constrained_system& system;
  gauss_penalty_schedule schedule;
  mass_scaling scaling;       // M's diagonal blocks factored
  Eigen::VectorXd scales;     // 1 / (A_i M^-1 A_i^T) per row (row-relative weights)
  bool warm = false;          // started from the prediction of the last solves
  Eigen::VectorXd predicted;  // the prediction (warm solves)
  gauss_terms terms;
  search_frame frame;
  std::uint64_t first_run_index = 0;
  long long evaluations = 0;
  bool converged = false;
  // The multiplier loop's acceleration: rho (< 0 while probing), the multipliers before the
  // previous update, the changes of the best so far and when the acceleration began.
  double contraction = -1.0;
  Eigen::VectorXd lambda_previous;
  std::vector<double> changes;       // max |best - previous best| of the runs so far
  std::size_t accelerated_from = 0;  // runs made when rho was read
};

acceleration_result gauss_ga_solver::solve(const constrained_system& given) {
  // Stage 1: the same numbers on every rank, checked. Copied only under MPI (every solve of a
  // simulation passes here).
  constrained_system shared;
  if (ga::mpi_environment::size() > 1) {
    shared = given;
    share_rank0_system(shared);
  }
  const constrained_system& system = ga::mpi_environment::size() > 1 ? shared : given;
  if (system.coordinates() < 1) throw io::option_error("system", "has no coordinates (ga solver)");
  if (auto bad = refuse_non_finite(system, "ga")) {
    reset();
    return *bad;
  }
  fit_model(system.coordinates());
  solve_state state = prepare(system);  // stage 2
  run_ranges(state, first_box(state));  // stages 3-5
  ++solves_;
  return finish(state);  // stages 6-7
}

// Stage 2: weights, multipliers, the prediction and the search frame.
gauss_ga_solver::solve_state gauss_ga_solver::prepare(const constrained_system& system) {
  const int n = system.coordinates();
  const int m = system.constraints();
  solve_state s(system, gauss_penalty_schedule(options_.penalty, system.constraint_names, m));
  s.scaling = mass_scaling::of(system);
  s.terms = gauss_terms::from_system(system, s.schedule.weights(), s.schedule.multipliers());
  s.scales = m > 0 ? row_scales(s.terms.jacobian_sparse, s.scaling) : Eigen::VectorXd();
  if (options_.penalty.relative && m > 0) s.schedule.set_row_scales(s.scales);
  s.warm = options_.warm_start && previous_.size() == n;
  if (!s.warm) {
    history_.clear();
    multiplier_history_.clear();
  }
  if (s.warm) s.predicted = predict(history_, previous_);
  if (s.warm) s.contraction = contraction_;
  if (s.warm && m > 0) predict_multipliers(system, s);
  s.terms.weights = s.schedule.weights();
  s.terms.multipliers = s.schedule.multipliers();
  s.frame = make_frame(s.terms, options_.axes, s.scaling);
  s.first_run_index =
      static_cast<std::uint64_t>(solves_) * static_cast<std::uint64_t>(options_.run_cap(n) + 2);
  return s;
}

// A warm solve's multipliers: extrapolated from the same stage of the last steps like the
// accelerations (the default), or by least squares (the ablation). Only for multiplier updates.
void gauss_ga_solver::predict_multipliers(const constrained_system& system, solve_state& s) const {
  if (s.schedule.kind() != penalty_kind::multipliers) return;
  if (options_.multipliers == warm_multipliers::least_squares) {
    estimate_multipliers(system, s.predicted, s.schedule);
    return;
  }
  if (multiplier_history_.empty() || multiplier_history_.back().size() != system.constraints()) {
    return;
  }
  s.schedule.set_multipliers(predict(multiplier_history_, multiplier_history_.back()));
}

// Stage 3: the first box (centre in accelerations, half widths in units of x).
gauss_ga_solver::box gauss_ga_solver::first_box(const solve_state& s) const {
  return s.warm ? warm_box(s.predicted, s.frame) : cold_box_of(s.terms, s.scales, s.frame);
}

// One run's record and whether it shows convergence (decided from the GA's result and shared
// data only, so that all ranks agree).
gauss_run_record gauss_ga_solver::judge_run(
    const solve_state& s, int k, const ga::run_result& r, const Eigen::VectorXd& start,
    const Eigen::VectorXd& run_centre, const Eigen::VectorXd& half,
    const Eigen::VectorXd& last_best, const Eigen::VectorXd& best, const Eigen::VectorXd& residual,
    bool& converged) const {
  gauss_run_record rec;
  rec.run = k + 1;
  rec.centre = run_centre;
  rec.radii = half.cwiseProduct(s.frame.axis_width);
  rec.acceleration = best;
  rec.z1 = s.terms.penalised(best);
  rec.z = s.terms.gauss_function(best);
  rec.max_residual = max_abs(residual);
  rec.change = max_abs(best - last_best);
  rec.evaluations = r.evaluations;
  rec.seconds = r.seconds;
  const double tol = options_.tolerance * std::max(1.0, max_abs(best));
  rec.near_face = max_abs((r.best_x - start).cwiseQuotient(half)) > options_.face_fraction;
  const bool residual_ok = s.terms.residual_within(residual, tol);
  // What this run could resolve: run_resolution of its box, in m/s^2 on the loosest axis.
  const double resolution =
      max_abs(half.cwiseProduct(s.frame.axis_width)) * options_.run_resolution;
  // Two GA runs must agree, in a box that resolves the tolerance: a run that finds nothing
  // better than its start point (already closer than the box resolves) shows no change
  // without showing convergence.
  // A run stopped by the stall rule (stall_fraction) is never the evidence: the next one, with
  // its whole budget, must agree.
  const bool full_run = r.reason != ga::stop_reason::stall;
  converged = k > 0 && rec.change <= options_.change_fraction * tol && !rec.near_face &&
              residual_ok && resolution <= tol && full_run;
  // A warm box drawn from the prediction error holds the answer, so the first run alone
  // suffices when it resolves a quarter of the tolerance (run_resolution is a typical
  // resolution, not a bound) and the best is not pressing on a face (the box was not too
  // small).
  if (s.warm && k == 0 && full_run && !rec.near_face && residual_ok && resolution <= 0.25 * tol) {
    converged = true;
  }
  return rec;
}

// What the multiplier loop carries from one range run to the next (stages 4-5).
struct gauss_ga_solver::range_loop {
  explicit range_loop(bool track) : problem(track) {}
  run_problem problem;
  Eigen::VectorXd run_centre;     // in accelerations
  Eigen::VectorXd half;           // half widths in the run's search coordinates
  Eigen::VectorXd last_best;      // the previous run's best acceleration
  Eigen::VectorXd previous_move;  // best - previous best of the last run
  int current_run = 1;
};

// Stages 4-5: range runs (generalized-inverse dissertation (GIGSP), sec. 5.4) driven by
// ga::run_range_runs: each run re-centred on the best so far and shrunk, or widened when the
// best pressed on a face; the previous best (the new centre) joins the initial population so
// that no run loses it. Between runs the hook judges the run, updates the multipliers and sets
// the next objective, box and stop rule.
void gauss_ga_solver::run_ranges(solve_state& s, box first) {
  const int n = s.system.coordinates();
  range_loop loop(options_.record_trace);
  loop.run_centre = std::move(first.centre);
  loop.half = std::move(first.half);
  loop.last_best = loop.run_centre;
  loop.problem.set(s.frame.objective(s.terms, loop.run_centre, loop.half));
  runs_.clear();
  snapshots_.clear();

  ga::termination per_run;
  per_run.max_generations = 0;
  per_run.max_evaluations = options_.run_budget(n);
  ga::range_run_options ranges;
  ranges.runs = options_.run_cap(n);
  ranges.keep_best = true;
  ranges.floor_radii = false;  // with_floor, in m/s^2 along each axis
  ranges.first_run_index = s.first_run_index;
  // Moving a population between runs needs their coordinates to differ by a translation: the
  // frame must stay (it is remade after each run only under an increasing penalty).
  if (s.schedule.kind() != penalty_kind::increasing) ranges.carry = options_.carry_population;
  const Eigen::VectorXd start = loop.problem.objective().search_centre();
  ga::run_settings settings;
  settings.start_point = s.warm ? &start : nullptr;
  if (options_.record_trace) {
    settings.on_sync = [&](const ga::sync_report& report) {
      const Eigen::VectorXd best = loop.problem.best();
      if (best.size() != n) return;
      const Eigen::VectorXd a = loop.problem.objective().acceleration_of(best);
      snapshots_.push_back({loop.current_run, report.generation, s.evaluations + report.evaluations,
                            a, s.terms.penalised(a)});
    };
  }
  const ga::range_run_hook hook = [&](ga::range_run_step& step) {
    return after_run(s, loop, *step.last, step.next_run - 1, &step);
  };
  const ga::range_run_result result =
      ga::run_range_runs(*model_, loop.problem, ga::search_box::around(start, loop.half), per_run,
                         ranges, hook, settings, inner_);
  // The hook runs between runs only: the last run is judged here.
  if (runs_.size() < result.runs.size()) {
    (void)after_run(s, loop, result.runs.back().result, static_cast<int>(runs_.size()), nullptr);
  }
}

// After run k: judge it, update the multipliers and, when another run follows (`next`), set its
// objective, box, start point and stop rule. False: the loop ends.
bool gauss_ga_solver::after_run(solve_state& s, range_loop& loop, const ga::run_result& r, int k,
                                ga::range_run_step* next) {
  const int m = s.system.constraints();
  const gauss_objective& objective = loop.problem.objective();
  const Eigen::VectorXd start = objective.search_centre();
  const Eigen::VectorXd best = objective.acceleration_of(r.best_x);
  const Eigen::VectorXd residual = s.terms.jacobian_sparse * best - s.terms.rhs;
  s.evaluations += r.evaluations;
  gauss_run_record rec = judge_run(s, k, r, start, loop.run_centre, loop.half, loop.last_best, best,
                                   residual, s.converged);
  loop.previous_move = best - loop.last_best;
  loop.last_best = best;
  const Eigen::VectorXd lambda_before = s.schedule.multipliers();
  if (!(rec.near_face && options_.hold_multipliers_on_face)) {
    s.schedule.after_run(residual);
    accelerate_multipliers(s, lambda_before, rec.change);
  }
  const double update_move = multiplier_move(s, s.schedule.multipliers() - lambda_before, m > 0);
  const bool widen = rec.near_face;
  rec.multipliers = s.schedule.multipliers();
  runs_.push_back(std::move(rec));
  if (s.converged || next == nullptr) return false;

  // Stage 5: the next box.
  const Eigen::VectorXd half = next_half(loop.half, k + 1, s.warm, widen, update_move);
  loop.run_centre = best;
  s.terms.weights = s.schedule.weights();
  s.terms.multipliers = s.schedule.multipliers();
  if (s.schedule.kind() == penalty_kind::increasing) {
    s.frame = make_frame(s.terms, options_.axes, s.scaling);
  }
  loop.half = with_floor(half, loop.run_centre, s.frame);
  loop.problem.set(s.frame.objective(s.terms, loop.run_centre, loop.half));
  loop.current_run = k + 2;
  next->centre = loop.problem.objective().search_centre();
  next->start = next->centre;
  next->radii = loop.half;
  stop_on_stall(s, k + 1, loop.previous_move,
                options_.change_fraction * options_.tolerance * std::max(1.0, max_abs(best)),
                next->limits);
  return true;
}

// The multiplier update moves the minimiser by H^-1 A^T dlambda; in axes with B^T H B >= I
// its length is at most |B^T A^T dlambda| (exactly that when H' = I) and at most its H-norm
// sqrt(dlambda^T A H^-1 A^T dlambda) <= sqrt(dlambda^T (2W)^-1 dlambda) (H >= 2 A^T W A). The
// next box must hold that move as well as this run's error.
double gauss_ga_solver::multiplier_move(const solve_state& s, const Eigen::VectorXd& dlambda,
                                        bool constrained) const {
  if (!s.frame.h_norm_bound || !constrained || !options_.box_follows_multipliers) return 0.0;
  const double by_rows =
      s.frame.transpose_times(s.terms.jacobian_sparse.transpose() * dlambda).norm();
  if (!options_.move_bound_from_weights) return by_rows;
  const Eigen::VectorXd& w = s.schedule.weights();
  const double by_weights = std::sqrt(0.5 * dlambda.cwiseAbs2().cwiseQuotient(w).sum());
  return std::isfinite(by_weights) ? std::min(by_rows, by_weights) : by_rows;
}

// The per-run stop rule (stall_fraction > 0): run k > 0 stops once its best has not improved Z1
// by more than tau = 1/2 (stall_fraction |c|_M)^2 for stall_window n evaluations, c the previous
// run's change of the best. Z1 - min Z1 >= 1/2 |a - a_min|_M^2 (H >= M), so a run
// that no longer gains tau per window is within about the fraction of the last change that the
// outer loop can use; the budget stays the cap. Decided from shared numbers only (every rank
// stops at the same generation).
void gauss_ga_solver::stop_on_stall(const solve_state& s, int k,
                                    const Eigen::VectorXd& previous_move, double converged_change,
                                    ga::termination& per_run) const {
  per_run.stall_generations = 0;
  per_run.stall_tolerance = 0.0;
  if (options_.stall_fraction <= 0.0 || k == 0 || previous_move.size() == 0) return;
  // A run that stalls on its start point shows no change without showing convergence: once the
  // previous run's change would pass the convergence test, this run spends its whole budget
  // (and judge_run never counts a stalled run as converged).
  if (max_abs(previous_move) <= converged_change) return;
  const double moved_m =
      std::sqrt(std::max(0.0, previous_move.dot(s.terms.mass_sparse * previous_move)));
  const double tau = 0.5 * std::pow(options_.stall_fraction * moved_m, 2);
  if (!(tau > 0.0) || !std::isfinite(tau)) return;
  const double per_generation =
      static_cast<double>(model_->islands().islands) * model_->ga().offspring_per_generation();
  per_run.stall_tolerance = tau;
  per_run.stall_generations = std::max<long long>(
      1, static_cast<long long>(
             std::ceil(options_.stall_window * s.system.coordinates() / per_generation)));
}

// Polyak's heavy ball on the multiplier loop (see the options): after probe_runs plain updates
// rho is read from the GA's residuals, then each update gets the step alpha and the momentum
// beta of a dual iteration whose modes contract by factors in [0, rho].
void gauss_ga_solver::accelerate_multipliers(solve_state& s, const Eigen::VectorXd& lambda_before,
                                             double change) const {
  if (!options_.multiplier_momentum || s.schedule.kind() != penalty_kind::multipliers ||
      lambda_before.size() == 0) {
    return;
  }
  const Eigen::VectorXd plain = s.schedule.multipliers();  // lambda + 2 W r
  std::vector<double>& changes = s.changes;
  changes.push_back(change);
  const std::size_t q = changes.size();
  const auto ratio = [&](std::size_t j) {
    return changes[j - 1] > 0.0 ? changes[j] / changes[j - 1] : 2.0;
  };
  // The first runs find the box (their ratios say nothing of the loop's rate): rho is read
  // only once three consecutive ratios of the best's change agree within a factor 1.5.
  if (s.contraction < 0.0 && q >= static_cast<std::size_t>(options_.probe_runs) && q >= 4) {
    const double r[3] = {ratio(q - 3), ratio(q - 2), ratio(q - 1)};
    const double hi = std::max({r[0], r[1], r[2]});
    const double lo = std::min({r[0], r[1], r[2]});
    if (hi < 1.0 && hi <= 1.5 * lo) {
      s.contraction = std::min(hi, options_.max_contraction);
      s.accelerated_from = q;
    }
  }
  // Safeguard (adaptive restart): accelerated, the change must fall faster than the plain loop
  // would make it; two ratios above rho in a row and the loop is plain again (rho = 0).
  if (s.contraction > 0.0 && q >= s.accelerated_from + 2 &&
      std::min(ratio(q - 1), ratio(q - 2)) > s.contraction) {
    s.contraction = 0.0;
  }
  const bool have_previous = s.lambda_previous.size() == lambda_before.size();
  if (s.contraction <= 0.0 || !have_previous) {
    s.lambda_previous = lambda_before;
    return;
  }
  const double root = std::sqrt(1.0 - s.contraction);
  const double alpha = 4.0 / ((1.0 + root) * (1.0 + root));
  const double beta = std::pow((1.0 - root) / (1.0 + root), 2);
  const Eigen::VectorXd next =
      lambda_before + alpha * (plain - lambda_before) + beta * (lambda_before - s.lambda_previous);
  s.lambda_previous = lambda_before;
  s.schedule.set_multipliers(next);
}

// Stages 6-7: diagnose rows the penalty could not satisfy, report, remember for the next warm
// start.
acceleration_result gauss_ga_solver::finish(solve_state& s) {
  acceleration_result out;
  out.runs = static_cast<int>(runs_.size());
  out.evaluations = s.evaluations;
  const Eigen::VectorXd a = runs_.back().acceleration;
  out.rank = -1;  // not diagnosed: GIGSP's sweep factors A
  if (options_.diagnose_rank) report_rank(s.system, out);
  if (diagnose_inconsistent(s.system, s.terms, s.scales, a, s.first_run_index, out)) {
    reset();
    return out;
  }
  out.status =
      s.converged || options_.tolerance == 0.0 ? solve_status::ok : solve_status::not_converged;
  if (!s.converged && options_.tolerance > 0.0) {
    out.message = fmt::format(
        "{}: not converged after {} runs ({} evaluations): the best moved by {:.3g} in the last "
        "run (tolerance {:.3g}), max residual {:.3g}{}",
        name(), out.runs, out.evaluations, runs_.back().change,
        options_.tolerance * std::max(1.0, max_abs(a)), runs_.back().max_residual,
        runs_.back().near_face ? ", best on the face of its box" : "");
    const int k = model_->islands().islands;
    if (k > 1) {
      // Measured (docs/gauss.md, "More islands on one cold solve"): from ~40 links one island
      // converges where islands sharing a run do not.
      const long long budget = options_.run_budget(s.system.coordinates());
      out.message += fmt::format(
          "; the {} islands share each run's {} evaluations ({} each), and on large models one "
          "island, with a run's whole budget, converges where several do not",
          k, budget, budget / k);
    }
  }
  out.acceleration = a;
  out.constraint_force = s.system.mass * (a - s.terms.free_accel);
  // An unconverged answer must not seed the next prediction: the next solve starts cold.
  if (out.status == solve_status::ok) {
    if (!s.warm && s.contraction >= 0.0) contraction_ = s.contraction;
    remember(a, s.schedule.multipliers(), s.warm ? max_abs(a - s.predicted) : -1.0);
  } else {
    reset();
  }
  if (!options_.record_trace) runs_.clear();
  return out;
}

gauss_ga_solver::box gauss_ga_solver::warm_box(const Eigen::VectorXd& predicted,
                                               const search_frame& frame) const {
  const double moved = recent_errors_.empty()
                           ? options_.cold_radius
                           : *std::max_element(recent_errors_.begin(), recent_errors_.end());
  double error = std::max(options_.warm_factor * moved,
                          options_.warm_min_radius * std::max(1.0, max_abs(predicted)));
  if (options_.cold == cold_box::fixed) error = std::min(error, options_.cold_radius);
  // The same error in m/s^2 along every axis: in whitened axes a half width of
  // error * sqrt(lambda_i) (an isotropic box would have to hold the stiff axes' large values
  // on the soft axes too, and one run could no longer resolve the tolerance there).
  return {predicted, with_floor(error * frame.axis_width.cwiseInverse(), predicted, frame)};
}

gauss_ga_solver::box gauss_ga_solver::cold_box_of(const gauss_terms& terms,
                                                  const Eigen::VectorXd& scales,
                                                  const search_frame& frame) const {
  const auto n = terms.mass.rows();
  if (options_.cold == cold_box::derived) {
    const double d = options_.box_margin * h_distance(terms, terms.free_accel, scales, 0.0);
    const bool in_h_norm = frame.h_norm_bound;
    const Eigen::VectorXd half =
        Eigen::VectorXd::Constant(n, in_h_norm ? d : d / std::sqrt(frame.softest));
    return {terms.free_accel, with_floor(half, terms.free_accel, frame)};
  }
  const Eigen::VectorXd centre = Eigen::VectorXd::Constant(n, options_.cold_guess);
  const Eigen::VectorXd half = Eigen::VectorXd::Constant(
      n, options_.radii_per_run.empty() ? options_.cold_radius : options_.radii_per_run[0]);
  return {centre, with_floor(half, centre, frame)};
}

Eigen::VectorXd gauss_ga_solver::next_half(const Eigen::VectorXd& half, int next_run, bool warm,
                                           bool widen, double update_move) const {
  const auto k = static_cast<std::size_t>(next_run);
  double factor = options_.shrink;
  if (!warm && k < options_.radii_per_run.size()) {
    // The schedule's ratio, so that a widened run shrinks from where it is.
    factor = options_.radii_per_run[k] / options_.radii_per_run[k - 1];
  }
  if (widen) factor = options_.growth;
  Eigen::VectorXd next = factor * half;
  // A fixed box never grows past the cold radius (the dissertation's setting).
  if (options_.cold == cold_box::fixed) next = next.cwiseMin(options_.cold_radius);
  return next.cwiseMax(options_.box_margin * update_move);
}

void gauss_ga_solver::remember(const Eigen::VectorXd& a, const Eigen::VectorXd& lambda,
                               double prediction_error) {
  if (prediction_error >= 0.0) {
    recent_errors_.push_back(prediction_error);
    if (static_cast<int>(recent_errors_.size()) > options_.warm_history) {
      recent_errors_.erase(recent_errors_.begin());
    }
  }
  previous_ = a;
  history_.push_back(a);
  multiplier_history_.push_back(lambda);
  const auto keep = static_cast<std::size_t>(options_.warm_cycle) *
                    static_cast<std::size_t>(options_.warm_order + 1);
  if (history_.size() > keep) history_.erase(history_.begin());
  if (multiplier_history_.size() > keep) multiplier_history_.erase(multiplier_history_.begin());
}

bool gauss_ga_solver::diagnose_inconsistent(const constrained_system& system,
                                            const gauss_terms& terms, const Eigen::VectorXd& scales,
                                            const Eigen::VectorXd& a, std::uint64_t first_run_index,
                                            acceleration_result& out) {
  const int n = system.coordinates();
  const int m = system.constraints();
  const Eigen::VectorXd residual = terms.jacobian * a - terms.rhs;
  std::vector<int> suspects;
  for (int i = 0; i < m; ++i) {
    if (std::abs(residual(i)) > options_.inconsistency_tolerance * (1.0 + std::abs(terms.rhs(i)))) {
      suspects.push_back(i);
    }
  }
  if (suspects.empty()) return false;
  // Confirm: minimise Z1 without multipliers at w and at 10 w around the compromise. For a
  // consistent set the residual at the minimiser falls like 1/w; for an inconsistent one it
  // stays (the least-squares conflict) and Z1 grows with w (eq. 5.6 and the remarks after it).
  const Eigen::VectorXd base =
      options_.penalty.weight *
      (options_.penalty.relative && m > 0 ? scales : Eigen::VectorXd::Ones(m));
  double z1_min[2] = {0.0, 0.0};
  double residual_at[2] = {0.0, 0.0};
  const double r = std::max(1e-6, 100.0 * max_abs(residual));
  for (int k = 0; k < 2; ++k) {
    gauss_terms t =
        gauss_terms::from_system(system, base * (k == 0 ? 1.0 : 10.0), Eigen::VectorXd::Zero(m));
    const search_frame frame = make_frame(t, options_.axes, mass_scaling::of(system));
    const std::unique_ptr<gauss_objective> made =
        frame.objective(t, a, Eigen::VectorXd::Constant(n, r).cwiseQuotient(frame.axis_width));
    const gauss_objective& check = *made;
    ga::termination lim;
    lim.max_generations = 0;
    lim.max_evaluations = options_.run_budget(n);
    ga::run_settings s;
    s.run_index = first_run_index + static_cast<std::uint64_t>(options_.run_cap(n)) +
                  static_cast<std::uint64_t>(k);
    const Eigen::VectorXd start = check.search_centre();
    s.start_point = &start;
    const auto res = run_inner(
        check,
        ga::search_box::around(check.search_centre(), check.upper_bounds() - check.search_centre()),
        lim, s);
    const Eigen::VectorXd best = check.acceleration_of(res.best_x);
    z1_min[k] = t.penalised(best);
    residual_at[k] = max_abs(t.jacobian * best - t.rhs);
    out.evaluations += res.evaluations;
  }
  // Both must agree: the GA's evidence (the residual does not fall with w) and the sweep that
  // names the rows; an unconverged GA alone (the thesis preset) must not condemn a consistent
  // set.
  const std::vector<int> named = inconsistent_rows(terms.jacobian, terms.rhs);
  if (!(residual_at[1] > 0.5 * residual_at[0]) || named.empty()) return false;
  std::vector<std::string> names;
  for (int i : named) {
    names.push_back(static_cast<std::size_t>(i) < system.constraint_names.size()
                        ? std::string(system.constraint_names[static_cast<std::size_t>(i)])
                        : fmt::format("row {}", i));
  }
  out.status = solve_status::inconsistent;
  out.inconsistent = named;
  out.message = fmt::format(
      "inconsistent constraints: {} (residual {:.3g} that no acceleration removes; the "
      "minimum of Z1 grows with the penalty weight: {:.6g} at w, {:.6g} at 10 w)",
      fmt::join(names, ", "), max_abs(residual), z1_min[0], z1_min[1]);
  return true;
}

}  // namespace kinevo::gauss
