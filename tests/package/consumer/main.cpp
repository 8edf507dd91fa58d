// A program outside kinevo, built against the installed package (tests/package/): the island GA
// on a sphere function (as a ga::problem and as a lambda through ga::minimize), a model file's
// constrained acceleration against its closed form, and a model built from a string, with the
// same errors as a file.
// Prints what it checked and exits 1 when a check fails.
#include <kinevo/ga/island_model.hpp>
#include <kinevo/ga/minimize.hpp>
#include <kinevo/ga/search_box.hpp>
#include <kinevo/io/errors.hpp>
#include <kinevo/mechanics/model/model.hpp>
#include <kinevo/mechanics/solvers/solver_factory.hpp>

#include <Eigen/Core>
#include <cmath>
#include <cstdio>
#include <string>

namespace {

// f(x) = sum x_i^2 on [-5, 5]^3, minimum 0 at the origin.
class sphere final : public kinevo::ga::problem {
 public:
  int dimension() const override { return 3; }
  Eigen::VectorXd lower_bounds() const override { return Eigen::VectorXd::Constant(3, -5.0); }
  Eigen::VectorXd upper_bounds() const override { return Eigen::VectorXd::Constant(3, 5.0); }
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                Eigen::Ref<Eigen::VectorXd> values) const override {
    values = x.colwise().squaredNorm().transpose();
  }
};

bool check(bool ok, const char* what) {
  std::printf("%s: %s\n", ok ? "ok" : "FAILED", what);
  return ok;
}

bool ga_finds_the_sphere_minimum() {
  kinevo::ga::ga_options ga;
  ga.population = 40;
  kinevo::ga::island_options islands;
  islands.islands = 2;
  islands.via = kinevo::ga::transport::threads;
  islands.threads = 1;
  islands.seed = 7;
  kinevo::ga::termination limits;
  limits.max_generations = 2000;
  limits.target_value = 1e-6;
  kinevo::ga::island_model model(ga, islands);
  const sphere p;
  const auto result = model.run(p, kinevo::ga::search_box::of(p), limits);
  std::printf("sphere: best %.3g after %lld evaluations\n", result.best_value, result.evaluations);
  return check(result.best_value <= 1e-6, "the GA minimises the sphere function");
}

// At rest at angle theta from the downward vertical, the constrained acceleration is gravity's
// tangential part: (x'', y'') = -g sin(theta) (cos(theta), sin(theta)).
bool pendulum_acceleration_matches_closed_form() {
  const auto m = kinevo::mechanics::load_model(CONSUMER_MODEL);
  const auto system = m.evaluate(m.initial_positions(), m.initial_velocities(), 0.0);
  const auto solver = kinevo::mechanics::make_solver("lm");
  const auto result = solver->solve(system);
  const double g = 9.81, theta = 0.1;
  Eigen::Vector2d expected(-g * std::sin(theta) * std::cos(theta),
                           -g * std::sin(theta) * std::sin(theta));
  const bool ok = result.status == kinevo::mechanics::solve_status::ok &&
                  result.acceleration.size() == 2 && (result.acceleration - expected).norm() < 1e-9;
  if (result.acceleration.size() == 2) {
    std::printf("pendulum: a = (%.12g, %.12g), expected (%.12g, %.12g)\n", result.acceleration(0),
                result.acceleration(1), expected(0), expected(1));
  }
  return check(ok, "the model file's acceleration matches the closed form");
}

// The same minimum through ga::minimize on a lambda, one point at a time.
bool minimize_finds_the_sphere_minimum() {
  kinevo::ga::minimize_options options;
  options.ga.population = 40;
  options.islands.seed = 7;
  options.limits.target_value = 1e-6;
  const auto result = kinevo::ga::minimize([](const Eigen::VectorXd& x) { return x.squaredNorm(); },
                                           Eigen::VectorXd::Constant(3, -5.0),
                                           Eigen::VectorXd::Constant(3, 5.0), options);
  std::printf("minimize: best %.3g after %lld evaluations\n", result.best_value,
              result.evaluations);
  return check(result.best_value <= 1e-6, "ga::minimize minimises a lambda");
}

// A model from text loads like the file, and a mistake in it is the same io::input_error,
// naming the source given and the line.
bool model_from_string_loads_and_names_its_errors() {
  const std::string text =
      "[model]\nname = \"pendulum\"\n[parameters]\nl = 1.0\n"
      "[[coordinate]]\nname = \"x\"\ninitial = \"l\"\nmass = 1\n"
      "[[coordinate]]\nname = \"y\"\ninitial = 0\nmass = 1\ngravity = -9.81\n"
      "[[constraint]]\nname = \"rod\"\nholonomic = \"x^2 + y^2 - l^2\"\n";
  const auto m = kinevo::mechanics::load_model_from_string(text, "pendulum-text");
  bool ok = m.coordinates() == 2 && m.constraints() == 1;
  std::string message;
  try {
    std::string wrong = text;
    wrong.replace(wrong.find("y^2"), 3, "z^2");
    (void)kinevo::mechanics::load_model_from_string(wrong, "pendulum-text");
  } catch (const kinevo::io::input_error& e) {
    message = e.what();
  }
  std::printf("model from a string with an unknown name: %s\n", message.c_str());
  ok = ok && message.rfind("pendulum-text:", 0) == 0 && message.find("'z'") != std::string::npos;
  return check(ok, "a model from a string loads and names the source and line of an error");
}

}  // namespace

int main() {
  const bool ga_ok = ga_finds_the_sphere_minimum();
  const bool minimize_ok = minimize_finds_the_sphere_minimum();
  const bool accel_ok = pendulum_acceleration_matches_closed_form();
  const bool text_ok = model_from_string_loads_and_names_its_errors();
  return ga_ok && minimize_ok && accel_ok && text_ok ? 0 : 1;
}
