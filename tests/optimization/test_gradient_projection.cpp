// SANLSU gradient projection (Angeles et al., Diseño cinemático de maquinaria, paper "Análisis
// cinemático de manipuladores con articulaciones redundantes haciendo uso de minimización
// cuadrática"): Ejemplo 1 (ellipse) and Ejemplo 2 (planar 3R arm reaching Q(0, 1)) against the
// derived reference answers, a sphere model with a closed form, rank-deficient starts diagnosed,
// the first-order (KKT) conditions checked here independently of the solver, and the memetic run
// (GA, then SANLSU) against the GA alone.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <numbers>

#include "kinevo/io/errors.hpp"
#include "kinevo/optimization/gradient_projection.hpp"
#include "kinevo/optimization/run_driver.hpp"
#include "kinevo/optimization/sanlsu_run.hpp"

namespace kinevo::optimization {
namespace {

constexpr double pi = std::numbers::pi;

double deg(double d) {
  return d * pi / 180.0;
}

// Ejemplo 1 written by hand (no constant Hessian given: alpha comes from Brent's search).
class ellipse : public equality_constrained_problem {
 public:
  int dimension() const override { return 2; }
  int constraint_count() const override { return 1; }
  std::string constraint_name(int) const override { return "ellipse"; }
  double objective(const Eigen::VectorXd& x) const override { return 0.5 * x.squaredNorm(); }
  Eigen::VectorXd constraints(const Eigen::VectorXd& x) const override {
    return Eigen::VectorXd::Constant(1, x[0] * x[0] + 4 * x[1] * x[1] - 1);
  }
  void derivatives(const Eigen::VectorXd& x, Eigen::VectorXd& g,
                   Eigen::MatrixXd& j) const override {
    g = x;
    j.resize(1, 2);
    j << 2 * x[0], 8 * x[1];
  }
};

// Ejemplo 2 written by hand: link angles phi_i = theta_1 + ... + theta_i, P = sum (cos, sin).
class arm : public equality_constrained_problem {
 public:
  int dimension() const override { return 3; }
  int constraint_count() const override { return 2; }
  std::string constraint_name(int i) const override { return i == 0 ? "reach_x" : "reach_y"; }
  double objective(const Eigen::VectorXd& t) const override { return 0.5 * t.squaredNorm(); }
  Eigen::VectorXd constraints(const Eigen::VectorXd& t) const override {
    const Eigen::Vector3d phi(t[0], t[0] + t[1], t[0] + t[1] + t[2]);
    return Eigen::Vector2d(phi.array().cos().sum(), phi.array().sin().sum() - 1.0);
  }
  void derivatives(const Eigen::VectorXd& t, Eigen::VectorXd& g,
                   Eigen::MatrixXd& j) const override {
    const Eigen::Vector3d phi(t[0], t[0] + t[1], t[0] + t[1] + t[2]);
    g = t;
    j.resize(2, 3);
    for (int k = 0; k < 3; ++k) {  // d/dtheta_k moves links k..3
      j(0, k) = -phi.tail(3 - k).array().sin().sum();
      j(1, k) = phi.tail(3 - k).array().cos().sum();
    }
  }
};

// First-order optimality checked without the solver's QR: lambda from the normal equations
// (J J^T) lambda = J grad z, then |grad z - J^T lambda| and |f|.
struct kkt {
  Eigen::VectorXd lambda;
  double stationarity = 0.0;
  double residual = 0.0;
};
kkt check_kkt(const equality_constrained_problem& p, const Eigen::VectorXd& x) {
  Eigen::VectorXd g;
  Eigen::MatrixXd j;
  p.derivatives(x, g, j);
  kkt k;
  k.lambda = (j * j.transpose()).llt().solve(j * g);
  k.stationarity = (g - j.transpose() * k.lambda).norm();
  k.residual = p.constraints(x).cwiseAbs().maxCoeff();
  return k;
}

// The paper's tolerances (TOLX = TOLF = 1e-6) leave |f| up to 1e-6, so z within about
// lambda 1e-6 of its minimum; the reference digits are checked with tighter ones.
gradient_projection_options with_case(restoration r) {
  gradient_projection_options o;
  o.method = r;
  o.tolerance_x = 1e-10;
  o.tolerance_f = 1e-12;
  return o;
}

class GradientProjectionCases : public ::testing::TestWithParam<restoration> {};
INSTANTIATE_TEST_SUITE_P(Sanlsu, GradientProjectionCases,
                         ::testing::Values(restoration::closest_point, restoration::minimum_norm));

TEST_P(GradientProjectionCases, EllipseFromStartsOffTheAxisReachesTheMinima) {
  const ellipse p;
  for (const Eigen::Vector2d& x0 : {Eigen::Vector2d(0.6, 0.4), Eigen::Vector2d(0.9, -0.2),
                                    Eigen::Vector2d(-0.3, 0.45), Eigen::Vector2d(0.999, 0.01)}) {
    const auto r = minimize_gradient_projection(p, x0, with_case(GetParam()));
    ASSERT_EQ(r.summary.status(), "converged") << r.message;
    // B = (0, 0.5) or D = (0, -0.5), on the side of the start.
    EXPECT_NEAR(r.x[0], 0.0, 1e-5);
    EXPECT_NEAR(r.x[1], std::copysign(0.5, x0[1]), 1e-6);
    EXPECT_NEAR(r.value, 0.125, 1e-9);
    EXPECT_NEAR(r.lambda[0], 0.125, 1e-5);
    EXPECT_GT(r.smallest_curvature, 0.0);
    const kkt k = check_kkt(p, r.x);
    EXPECT_LT(k.stationarity, 1e-5);
    EXPECT_LT(k.residual, 1e-6);
    EXPECT_NEAR(k.lambda[0], r.lambda[0], 1e-9);
  }
}

TEST_P(GradientProjectionCases, EllipseStartOnTheAxisIsReportedNotReturnedAsAMinimum) {
  const ellipse p;
  for (const double s : {1.0, -1.0}) {
    const auto r = minimize_gradient_projection(p, Eigen::Vector2d(s, 0.0), with_case(GetParam()));
    // A and C are stationary (xi = 0, lambda = 0.5) but maxima of z on the ellipse.
    EXPECT_EQ(r.summary.status(), "not_a_minimum");
    EXPECT_FALSE(r.ok());
    EXPECT_NEAR(r.lambda[0], 0.5, 1e-12);
    EXPECT_LT(r.smallest_curvature, 0.0);
    EXPECT_NE(r.message.find("not a minimum"), std::string::npos) << r.message;
  }
}

TEST_P(GradientProjectionCases, ArmReachesTheGlobalMinimumFromFourStarts) {
  const arm p;
  for (const auto& s : {Eigen::Vector3d(30, 60, 60), Eigen::Vector3d(10, 80, 80),
                        Eigen::Vector3d(45, 45, 45), Eigen::Vector3d(-30, 100, 100)}) {
    const Eigen::VectorXd x0 = s.unaryExpr(&deg);
    const auto r = minimize_gradient_projection(p, x0, with_case(GetParam()));
    ASSERT_EQ(r.summary.status(), "converged") << r.message;
    EXPECT_NEAR(r.x[0], 0.0, 1e-5);
    EXPECT_NEAR(r.x[1], pi / 2, 1e-5);
    EXPECT_NEAR(r.x[2], pi / 2, 1e-5);
    EXPECT_NEAR(r.value, pi * pi / 4, 1e-7);  // 2.4674011
    EXPECT_LE(r.iterations, 3);               // the derived reference: 2-3 outer iterations
    // lambda = (0, -pi/2) with J^T lambda = grad z (the Lagrangian z - lambda^T f).
    EXPECT_NEAR(r.lambda[0], 0.0, 1e-5);
    EXPECT_NEAR(r.lambda[1], -pi / 2, 1e-5);
    const kkt k = check_kkt(p, r.x);
    EXPECT_LT(k.stationarity, 1e-5);
    EXPECT_LT(k.residual, 1e-6);
  }
}

TEST_P(GradientProjectionCases, ArmFromAFoldedStartStopsAtTheThirdKktPoint) {
  const arm p;
  const Eigen::VectorXd x0 = Eigen::Vector3d(120, -60, -60).unaryExpr(&deg);
  const auto r = minimize_gradient_projection(p, x0, with_case(GetParam()));
  ASSERT_EQ(r.summary.status(), "converged") << r.message;
  EXPECT_NEAR(r.x[0], deg(120), 1e-5);
  EXPECT_NEAR(r.x[1], deg(-30), 1e-5);
  EXPECT_NEAR(r.x[2], deg(-150), 1e-5);
  EXPECT_NEAR(r.value, 5.7572692, 1e-7);
  EXPECT_LT(check_kkt(p, r.x).stationarity, 1e-5);
}

TEST_P(GradientProjectionCases, StretchedArmIsDiagnosedRankDeficient) {
  const arm p;
  // theta = 0: every link along x, d(reach_x)/dtheta = 0. theta = (90, 0, 0) deg: along y.
  const auto r0 = minimize_gradient_projection(p, Eigen::Vector3d::Zero(), with_case(GetParam()));
  EXPECT_EQ(r0.summary.status(), "rank_deficient");
  EXPECT_EQ(r0.rank_deficient_constraints, std::vector<std::string>{"reach_x"});
  EXPECT_NE(r0.message.find("'reach_x'"), std::string::npos) << r0.message;
  EXPECT_FALSE(r0.ok());
  const auto r90 =
      minimize_gradient_projection(p, Eigen::Vector3d(deg(90), 0, 0), with_case(GetParam()));
  EXPECT_EQ(r90.summary.status(), "rank_deficient");
  EXPECT_EQ(r90.rank_deficient_constraints, std::vector<std::string>{"reach_y"});
}

// A model written here, through a problem file (exact derivatives from GiNaC, the quadratic
// objective's closed-form step): the point of the sphere |x| = 2 closest to p = (3, 4, 12),
// x* = 2 p / 13, z = (13 - 2)^2 / 2 = 60.5; grad z = x - p = lambda 2x gives lambda = -11/4.
TEST_P(GradientProjectionCases, SphereModelMatchesTheClosedForm) {
  std::shared_ptr<const symbolic::expression_problem> file =
      symbolic::load_optimization_problem_from_string(R"(
[problem]
objective = "((x - 3)^2 + (y - 4)^2 + (z - 12)^2)/2"
[[variable]]
name = "x"
lower = -5
upper = 5
initial = 1
[[variable]]
name = "y"
lower = -5
upper = 5
initial = -1
[[variable]]
name = "z"
lower = -5
upper = 5
[[constraint]]
name = "sphere"
type = "="
expression = "x^2 + y^2 + z^2 - 4"
)",
                                                      "sphere.toml");
  const expression_equality_problem p(file, "sphere.toml");
  ASSERT_TRUE(p.constant_hessian().has_value());
  EXPECT_TRUE(p.constant_hessian()->isApprox(Eigen::Matrix3d::Identity()));
  const Eigen::VectorXd x0 = p.start_point({});
  EXPECT_EQ(x0, Eigen::Vector3d(1, -1, 0));  // initial values, z at its box centre
  const auto r = minimize_gradient_projection(p, x0, with_case(GetParam()));
  ASSERT_EQ(r.summary.status(), "converged") << r.message;
  EXPECT_TRUE(r.x.isApprox(Eigen::Vector3d(6, 8, 24) / 13.0, 1e-6)) << r.x.transpose();
  EXPECT_NEAR(r.value, 60.5, 1e-8);
  EXPECT_NEAR(r.lambda[0], -11.0 / 4.0, 1e-5);
  const kkt k = check_kkt(p, r.x);
  EXPECT_LT(k.stationarity, 1e-5);
  EXPECT_LT(k.residual, 1e-6);
}

// A non-quadratic objective whose domain ends inside alpha's interval [-2.5, 2.5]: z = x ln x +
// y ln y on x + y = 1, from near the edge (y = 0.001). Closed form: x = y = 1/2, z = -ln 2, and
// grad z = (ln x + 1, ln y + 1) = lambda (1, 1) gives lambda = 1 - ln 2.
TEST_P(GradientProjectionCases, EntropyModelStaysInTheLogarithmsDomain) {
  std::shared_ptr<const symbolic::expression_problem> file =
      symbolic::load_optimization_problem_from_string(R"toml(
[problem]
objective = "x*log(x) + y*log(y)"
[[variable]]
name = "x"
lower = 0
upper = 1
initial = 0.999
[[variable]]
name = "y"
lower = 0
upper = 1
initial = 0.001
[[constraint]]
name = "sum"
type = "="
expression = "x + y - 1"
)toml",
                                                      "entropy.toml");
  const expression_equality_problem p(file, "entropy.toml");
  EXPECT_FALSE(p.constant_hessian().has_value());
  const auto r = minimize_gradient_projection(p, p.start_point({}), with_case(GetParam()));
  ASSERT_EQ(r.summary.status(), "converged") << r.message;
  EXPECT_NEAR(r.x[0], 0.5, 1e-6);
  EXPECT_NEAR(r.x[1], 0.5, 1e-6);
  EXPECT_NEAR(r.value, -std::log(2.0), 1e-10);
  EXPECT_NEAR(r.lambda[0], 1.0 - std::log(2.0), 1e-6);
  EXPECT_LT(check_kkt(p, r.x).stationarity, 1e-6);
}

TEST(GradientProjection, FileDerivativesMatchTheHandWrittenArm) {
  std::shared_ptr<const symbolic::expression_problem> file =
      symbolic::load_optimization_problem(std::string(KINEVO_EXAMPLES) + "/sanlsu_arm.toml");
  const expression_equality_problem p(file, "sanlsu_arm.toml");
  EXPECT_TRUE(p.start_point({}).isApprox(Eigen::Vector3d(30, 60, 60).unaryExpr(&deg)));
  const Eigen::Vector3d t(0.3, -1.1, 2.0);
  Eigen::VectorXd g, gh;
  Eigen::MatrixXd j, jh;
  p.derivatives(t, g, j);
  arm().derivatives(t, gh, jh);
  EXPECT_TRUE(g.isApprox(gh, 1e-14));
  EXPECT_TRUE(j.isApprox(jh, 1e-14));
  EXPECT_TRUE(p.constraints(t).isApprox(arm().constraints(t), 1e-14));
}

TEST(GradientProjection, OptionsValidateThemselves) {
  gradient_projection_options o;
  EXPECT_NO_THROW(o.validate());
  EXPECT_EQ(o.tolerance_x, 1e-6);
  EXPECT_EQ(o.tolerance_f, 1e-6);
  EXPECT_EQ(o.damping, 0.5);
  EXPECT_EQ(o.max_iterations, 200);
  o.damping = 1.0;
  EXPECT_THROW(o.validate(), io::option_error);
  o = {};
  o.tolerance_x = 0.0;
  EXPECT_THROW(o.validate(), io::option_error);
  o = {};
  o.max_iterations = 0;
  EXPECT_THROW(o.validate(), io::option_error);
  EXPECT_EQ(parse_restoration("2"), restoration::closest_point);
  EXPECT_THROW(parse_restoration("1"), std::invalid_argument);
}

TEST(GradientProjection, InequalitiesAndDiscreteVariablesAreRefused) {
  std::shared_ptr<const symbolic::expression_problem> with_inequality =
      symbolic::load_optimization_problem(std::string(KINEVO_EXAMPLES) +
                                          "/problem_constrained.toml");
  try {
    const expression_equality_problem p(with_inequality, "bm.toml");
    FAIL() << "an inequality was accepted";
  } catch (const io::input_error& e) {
    EXPECT_NE(std::string(e.what()).find("'ellipse' is an inequality"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(symbolic::load_optimization_problem_from_string(R"(
[problem]
objective = "k"
[[variable]]
name = "k"
type = "integer"
lower = 0
upper = 3
initial = 1
)",
                                                               "k.toml"),
               io::input_error);
}

// Memetic: the GA with default settings (constrained preset, epsilon level) and a fixed seed,
// then SANLSU from its best. The GA alone satisfies h only to its equality tolerance (1e-4), so
// its point and value are off by about that; the refinement reaches the KKT point.
TEST(GradientProjection, MemeticRunReachesTheArmOptimumTheGaAloneDoesNot) {
  optimize_options o;
  o.problem_file = std::string(KINEVO_EXAMPLES) + "/sanlsu_arm.toml";
  o.seed = 7;
  o.refine_sanlsu = true;
  const optimization_run ga = run_optimization(o);
  const Eigen::Vector3d optimum(0, pi / 2, pi / 2);
  const double ga_error = (ga.result.best_x - optimum).lpNorm<Eigen::Infinity>();
  const sanlsu_run run = refine_with_sanlsu(o, ga);
  ASSERT_TRUE(run.sanlsu.ok()) << run.sanlsu.message;
  const double refined_error = (run.sanlsu.x - optimum).lpNorm<Eigen::Infinity>();
  EXPECT_LT(refined_error, 1e-5);
  EXPECT_NEAR(run.sanlsu.value, pi * pi / 4, 1e-7);
  EXPECT_LT(run.sanlsu.constraint_residual, 1e-6);
  EXPECT_GT(ga_error, 10 * refined_error);
  EXPECT_GT(ga.expression->max_violation, run.sanlsu.constraint_residual);
  const auto j = run.to_json();
  EXPECT_EQ(j["status"], "converged");
  EXPECT_EQ(j["ga_best_x"].size(), 3u);
  EXPECT_NEAR(j["best_value"].get<double>(), pi * pi / 4, 1e-7);
}

}  // namespace
}  // namespace kinevo::optimization
