#include "ga/range_runs.hpp"

#include <Eigen/QR>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "io/option_error.hpp"

namespace kinevo::ga {

// Each check names its field (io::option_error).
void range_run_options::validate() const {
  io::require_integer("runs", runs, 1);
  io::require_real("shrink", shrink, {0.0, 1.0, true, false});
  if (!radii_per_run.empty() && static_cast<int>(radii_per_run.size()) != runs) {
    throw io::option_error("radii_per_run", "has " + std::to_string(radii_per_run.size()) +
                                                " radii for " + std::to_string(runs) +
                                                " runs; give one radius per run");
  }
  for (double r : radii_per_run) io::require_real("radii_per_run", r, io::positive());
  io::require_real("move_floor", move_floor, {0.0, 1.0});
  io::require_real("first_run_budget", first_run_budget, io::positive());
  io::require_real("move_factor", move_factor, io::any_finite());
  if (rotate && !(move_factor > 0.0)) {
    throw io::option_error("rotate", "needs move_factor > 0");
  }
  if (!radii_per_run.empty() && rotate) {
    throw io::option_error("rotate", "and radii_per_run exclude each other");
  }
  if (clip_lower.size() != clip_upper.size()) {
    throw io::option_error("clip_lower", "and clip_upper differ in size");
  }
}

namespace {

// p seen in the coordinates y of a rotated box: x = clip(c + Q y). The coefficient-wise product
// rounds the same for one column as for a batch, so a best y maps back to the point evaluated.
class rotated_problem : public problem {
 public:
  rotated_problem(const problem& p, const Eigen::VectorXd& c, const Eigen::MatrixXd& q,
                  const Eigen::VectorXd& lo, const Eigen::VectorXd& hi)
      : p_(p), c_(c), q_(q), lo_(lo), hi_(hi) {}
  int dimension() const override { return p_.dimension(); }
  Eigen::VectorXd lower_bounds() const override { return p_.lower_bounds(); }
  Eigen::VectorXd upper_bounds() const override { return p_.upper_bounds(); }
  std::string name() const override { return p_.name(); }
  Eigen::MatrixXd to_x(const Eigen::Ref<const Eigen::MatrixXd>& y) const {
    Eigen::MatrixXd x = q_.lazyProduct(y);
    x.colwise() += c_;
    if (lo_.size() > 0) {
      for (Eigen::Index i = 0; i < x.cols(); ++i) x.col(i) = x.col(i).cwiseMax(lo_).cwiseMin(hi_);
    }
    return x;
  }
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& y,
                Eigen::Ref<Eigen::VectorXd> values) const override {
    p_.evaluate(to_x(y), values);
  }

 private:
  const problem& p_;
  const Eigen::VectorXd& c_;
  const Eigen::MatrixXd& q_;
  const Eigen::VectorXd& lo_;
  const Eigen::VectorXd& hi_;
};

}  // namespace

range_run_result run_range_runs(island_model& model, const problem& p, const search_box& first,
                                const termination& per_run, const range_run_options& options,
                                const range_run_hook& hook, run_settings settings) {
  options.validate();
  const int n = p.dimension();
  first.validate(n);
  const bool clip = options.clip_lower.size() > 0;
  if (clip && options.clip_lower.size() != n) {
    throw std::invalid_argument("range runs: clip bounds must have the problem's dimension");
  }
  range_run_result out;
  out.best_value = std::numeric_limits<double>::infinity();
  Eigen::VectorXd centre = first.centre();
  Eigen::VectorXd radii = first.radii();
  search_box box = first;
  Eigen::VectorXd previous_best;
  // Memory stays linear in n unless the boxes rotate: axes and moves are n x n only then.
  Eigen::MatrixXd axes;
  if (options.rotate) axes = Eigen::MatrixXd::Identity(n, n);
  bool rotated = false;  // the current run searches along `axes`
  // Columns: the last moves of the best, newest first (at most one per run).
  Eigen::MatrixXd moves(options.rotate ? n : 0, options.rotate ? std::min(n, options.runs) : 0);
  int move_count = 0;
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(n);
  for (int k = 0; k < options.runs; ++k) {
    settings.run_index = options.first_run_index + static_cast<std::uint64_t>(k);
    settings.start_point = (options.keep_best && k > 0) ? &previous_best : nullptr;
    range_run_record rec;
    rec.run = k;
    rec.centre = centre;  // as asked for (the box may be clipped)
    rec.radii = radii;
    rec.axes = axes;
    termination limits = per_run;
    if (k == 0 && options.first_run_budget != 1.0) {
      const auto scale = [&](long long v) {
        return v > 0
                   ? std::max(1LL, std::llround(static_cast<double>(v) * options.first_run_budget))
                   : v;
      };
      limits.max_generations = scale(per_run.max_generations);
      limits.max_evaluations = scale(per_run.max_evaluations);
    }
    if (rotated) {
      const rotated_problem rp(p, centre, axes, options.clip_lower, options.clip_upper);
      settings.start_point = options.keep_best ? &zero : nullptr;
      rec.result = model.run(rp, search_box::around(zero, radii), limits, settings);
      rec.result.best_x = rp.to_x(rec.result.best_x).col(0);
    } else {
      rec.result = model.run(p, box, limits, settings);
    }
    out.evaluations += rec.result.evaluations;
    // The problem may have changed between runs (penalty weights): the latest run's best is
    // the one that counts for the next centre; the overall best is by value as evaluated.
    if (rec.result.best_value <= out.best_value) {
      out.best_value = rec.result.best_value;
      out.best_x = rec.result.best_x;
    }
    previous_best = rec.result.best_x;
    const bool stopped = rec.result.reason == stop_reason::interrupted ||
                         rec.result.reason == stop_reason::wall_time;
    out.runs.push_back(std::move(rec));
    if (k + 1 == options.runs || stopped) break;

    range_run_step step;
    step.next_run = k + 1;
    step.last = &out.runs.back().result;
    step.centre = previous_best;
    if (options.rotate) {
      const Eigen::VectorXd d = previous_best - centre;
      if (d.norm() > 0.0) {
        move_count = std::min<int>(move_count + 1, static_cast<int>(moves.cols()));
        for (int i = move_count - 1; i > 0; --i) moves.col(i) = moves.col(i - 1);
        moves.col(0) = d;
      }
    }
    if (options.rotate && move_count > 0) {
      const Eigen::MatrixXd q =
          Eigen::HouseholderQR<Eigen::MatrixXd>(moves.leftCols(move_count)).householderQ();
      const Eigen::VectorXd along = (q.transpose() * moves.col(0)).cwiseAbs() * options.move_factor;
      const double largest = along.maxCoeff();
      step.radii = along.cwiseMax(std::max(options.move_floor, 1e-9) * largest)
                       .cwiseMax(radii * options.shrink)
                       .cwiseMin(radii / options.shrink);
      axes = q;
      rotated = true;
    } else if (!options.radii_per_run.empty()) {
      step.radii = Eigen::VectorXd::Constant(n, options.radii_per_run[k + 1]);
    } else if (options.move_factor > 0.0) {
      const Eigen::VectorXd move = (previous_best - centre).cwiseAbs() * options.move_factor;
      const double largest = move.maxCoeff();
      if (largest > 0.0) {
        step.radii = move.cwiseMax(std::max(options.move_floor, 1e-9) * largest)
                         .cwiseMax(radii * options.shrink)
                         .cwiseMin(radii / options.shrink);
      } else {
        step.radii = radii * options.shrink;
      }
    } else {
      step.radii = radii * options.shrink;
    }
    if (hook && !hook(step)) break;
    if (step.centre.size() != n || step.radii.size() != n || !(step.radii.array() > 0.0).all()) {
      throw std::invalid_argument(
          "range runs: the hook left a centre or radii of the wrong size or a radius <= 0");
    }
    centre = step.centre;
    // Keep the box resolvable in floating point: a few hundred ulps of the centre at least.
    radii = step.radii.cwiseMax((centre.cwiseAbs().array() + 1.0).matrix() * 256.0 *
                                std::numeric_limits<double>::epsilon());
    box = search_box::around(centre, radii);
    if (clip) {
      box.lower = box.lower.cwiseMax(options.clip_lower);
      box.upper = box.upper.cwiseMin(options.clip_upper);
    }
    previous_best = previous_best.cwiseMax(box.lower).cwiseMin(box.upper);
  }
  return out;
}

}  // namespace kinevo::ga
