#include "kinevo/ga/range_runs.hpp"
#include "kinevo/core/householder_q.hpp"

#include <Eigen/QR>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "kinevo/ga/detail/checkpoint_file.hpp"
#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/option_error.hpp"

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
  if (rotate && carry != carry_mode::off) {
    throw io::option_error("carry", "and rotate exclude each other (rotated runs change axes)");
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
      : p_(p), c_(c), q_(q), lo_(lo), hi_(hi), integers_(p.integer_variables()) {}
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
    // Integer variables are rounded here, in x: a rotated gene is not one variable.
    for (const int j : integers_) {
      const double lo = std::ceil(p_.lower_bounds()[j]);
      const double hi = std::max(lo, std::floor(p_.upper_bounds()[j]));
      for (Eigen::Index i = 0; i < x.cols(); ++i)
        x(j, i) = std::clamp(std::nearbyint(x(j, i)), lo, hi);
    }
    return x;
  }
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& y,
                Eigen::Ref<Eigen::VectorXd> values) const override {
    p_.evaluate(to_x(y), values);
  }
  bool reports_violation() const override { return p_.reports_violation(); }
  void evaluate_with_violation(const Eigen::Ref<const Eigen::MatrixXd>& y,
                               Eigen::Ref<Eigen::VectorXd> values,
                               Eigen::Ref<Eigen::VectorXd> violations) const override {
    p_.evaluate_with_violation(to_x(y), values, violations);
  }

 private:
  const problem& p_;
  const Eigen::VectorXd& c_;
  const Eigen::MatrixXd& q_;
  const Eigen::VectorXd& lo_;
  const Eigen::VectorXd& hi_;
  std::vector<int> integers_;
};

// Everything a range-run sequence carries from one run to the next: enough to continue it
// after an interrupt (saved beside the island checkpoint, see range_state_path).
struct range_state {
  int next = 0;  // the run about to start (or in progress)
  Eigen::VectorXd centre, radii;
  search_box box;
  Eigen::VectorXd previous_best;  // empty before the first run
  Eigen::MatrixXd axes;           // n x n with rotate only
  bool rotated = false;           // the run searches along `axes`
  Eigen::MatrixXd moves;          // columns: the last moves of the best, newest first
  int move_count = 0;
  range_run_result out;
};

constexpr const char* range_magic = "kinevo-range-runs";
constexpr int range_version = 2;

void put(std::ostream& os, const char* key, const Eigen::Ref<const Eigen::MatrixXd>& m) {
  os << key << ' ' << m.rows() << ' ' << m.cols();
  for (Eigen::Index j = 0; j < m.cols(); ++j) {
    for (Eigen::Index i = 0; i < m.rows(); ++i) os << ' ' << hex_float(m(i, j));
  }
  os << '\n';
}

// What must not change between the interrupted sequence and its resume.
std::string range_fingerprint(const problem& p, const search_box& first,
                              const range_run_options& o) {
  std::ostringstream s;
  s << "problem=" << p.name() << " n=" << p.dimension() << " runs=" << o.runs
    << " shrink=" << hex_float(o.shrink) << " move_factor=" << hex_float(o.move_factor)
    << " move_floor=" << hex_float(o.move_floor) << " rotate=" << o.rotate
    << " first_run_budget=" << hex_float(o.first_run_budget) << " keep_best=" << o.keep_best
    << " first_run_index=" << o.first_run_index << " radii_per_run=";
  for (double r : o.radii_per_run) s << hex_float(r) << ',';
  // Only when on: the fingerprints of earlier state files stay valid.
  if (o.carry != carry_mode::off) s << " carry=" << static_cast<int>(o.carry);
  s << " clip=";
  for (Eigen::Index j = 0; j < o.clip_lower.size(); ++j) {
    s << hex_float(o.clip_lower[j]) << ':' << hex_float(o.clip_upper[j]) << ',';
  }
  s << " first=";
  for (Eigen::Index j = 0; j < first.lower.size(); ++j) {
    s << hex_float(first.lower[j]) << ':' << hex_float(first.upper[j]) << ',';
  }
  return s.str();
}

void save_range_state(const std::filesystem::path& path, const std::string& fingerprint,
                      const range_state& st) {
  std::ostringstream os;
  os << range_magic << ' ' << range_version << '\n';
  os << "fingerprint " << fingerprint << '\n';
  os << "next " << st.next << " rotated " << st.rotated << " move_count " << st.move_count
     << " runs " << st.out.runs.size() << '\n';
  put(os, "centre", st.centre);
  put(os, "radii", st.radii);
  put(os, "lower", st.box.lower);
  put(os, "upper", st.box.upper);
  put(os, "previous_best", st.previous_best);
  put(os, "axes", st.axes);
  put(os, "moves", st.moves.leftCols(st.move_count));
  os << "best " << hex_float(st.out.best_value) << ' ' << hex_float(st.out.best_violation) << ' '
     << st.out.evaluations << '\n';
  put(os, "best_x", st.out.best_x);
  for (const auto& r : st.out.runs) {
    os << "run " << r.run << ' ' << to_string(r.result.reason) << ' '
       << hex_float(r.result.best_value) << ' ' << hex_float(r.result.best_violation) << ' '
       << r.result.best_island << ' ' << r.result.evaluations << ' ' << r.result.generations
       << '\n';
    put(os, "run_centre", r.centre);
    put(os, "run_radii", r.radii);
    put(os, "run_axes", r.axes);
    put(os, "run_best_x", r.result.best_x);
  }
  os << "end\n";
  write_checksummed_text(path, os.str());
}

Eigen::VectorXd vector_of(const Eigen::MatrixXd& m) {
  return m.size() == 0 ? Eigen::VectorXd() : Eigen::VectorXd(m.reshaped());
}

range_state load_range_state(const std::filesystem::path& path, const std::string& fingerprint,
                             int n) {
  // The checksum is verified here: a failure below means another kinevo version or another
  // problem, named with the line.
  checkpoint_reader r(path, read_checksummed_text(path, range_magic));
  {
    auto s = r.keyed(range_magic);
    int v = 0;
    if (!(s >> v) || v != range_version)
      r.fail("range-run state version is not " + std::to_string(range_version));
  }
  {
    auto s = r.keyed("fingerprint");
    std::string fp;
    std::getline(s, fp);
    if (!fp.empty() && fp[0] == ' ') fp.erase(0, 1);
    if (fp != fingerprint) {
      r.fail(
          "the range runs were started with other settings, box or problem; resume with the "
          "same options.\n  file: " +
          fp + "\n  now:  " + fingerprint);
    }
  }
  range_state st;
  std::size_t runs = 0;
  {
    auto s = r.keyed("next");
    std::string k1, k2, k3;
    if (!(s >> st.next >> k1 >> st.rotated >> k2 >> st.move_count >> k3 >> runs) ||
        k1 != "rotated" || k2 != "move_count" || k3 != "runs" || st.next < 0 ||
        runs != static_cast<std::size_t>(st.next)) {
      r.fail("unreadable run counters");
    }
  }
  const auto sized = [&](Eigen::VectorXd v, const char* what) {
    if (v.size() != n) r.fail(std::string(what) + " does not have the problem's dimension");
    return v;
  };
  st.centre = sized(vector_of(r.matrix("centre")), "centre");
  st.radii = sized(vector_of(r.matrix("radii")), "radii");
  st.box.lower = sized(vector_of(r.matrix("lower")), "lower");
  st.box.upper = sized(vector_of(r.matrix("upper")), "upper");
  st.previous_best = vector_of(r.matrix("previous_best"));
  st.axes = r.matrix("axes");
  const Eigen::MatrixXd moves = r.matrix("moves");
  st.moves = moves;  // resized by the caller to its capacity
  {
    auto s = r.keyed("best");
    st.out.best_value = r.real(s);
    st.out.best_violation = r.real(s);
    if (!(s >> st.out.evaluations)) r.fail("unreadable evaluation count");
  }
  st.out.best_x = vector_of(r.matrix("best_x"));
  for (std::size_t k = 0; k < runs; ++k) {
    range_run_record rec;
    auto s = r.keyed("run");
    std::string reason;
    if (!(s >> rec.run >> reason)) r.fail("unreadable run");
    try {
      rec.result.reason = parse_stop_reason(reason);
    } catch (const std::invalid_argument& e) {
      r.fail(e.what());
    }
    rec.result.best_value = r.real(s);
    rec.result.best_violation = r.real(s);
    if (!(s >> rec.result.best_island >> rec.result.evaluations >> rec.result.generations)) {
      r.fail("unreadable run counters");
    }
    rec.centre = vector_of(r.matrix("run_centre"));
    rec.radii = vector_of(r.matrix("run_radii"));
    rec.axes = r.matrix("run_axes");
    rec.result.best_x = vector_of(r.matrix("run_best_x"));
    st.out.runs.push_back(std::move(rec));
  }
  r.keyed("end");
  return st;
}

// The stages of one range-run sequence; run_range_runs and resume_range_runs drive them.
class range_sequence {
 public:
  range_sequence(island_model& model, const problem& p, const search_box& first,
                 const termination& per_run, const range_run_options& options,
                 const range_run_hook& hook, run_settings settings, const run_minimiser& minimiser)
      : model_(model),
        p_(p),
        per_run_(per_run),
        o_(options),
        hook_(hook),
        minimiser_(minimiser),
        next_limits_(per_run),
        settings_(std::move(settings)),
        n_(p.dimension()),
        zero_(Eigen::VectorXd::Zero(p.dimension())) {
    o_.validate();
    first.validate(n_);
    if (minimiser_ && checkpointing()) {
      throw io::option_error("checkpoint_file",
                             "needs the island model as the minimiser of every run (range runs)");
    }
    if (settings_.start_point) first_start_ = *settings_.start_point;
    if (o_.clip_lower.size() > 0 && o_.clip_lower.size() != n_) {
      throw io::option_error("clip_lower", "must have the problem's dimension");
    }
    st_.out.best_value = std::numeric_limits<double>::infinity();
    st_.out.best_violation = std::numeric_limits<double>::infinity();
    st_.centre = first.centre();
    st_.radii = first.radii();
    st_.box = first;
    // Memory stays linear in n unless the boxes rotate: axes and moves are n x n only then.
    if (o_.rotate) st_.axes = Eigen::MatrixXd::Identity(n_, n_);
    st_.moves.resize(o_.rotate ? n_ : 0, o_.rotate ? std::min(n_, o_.runs) : 0);
    // Only checkpoints need it (a sequence per solve must not format its box every time).
    if (checkpointing()) fingerprint_ = range_fingerprint(p, first, o_);
  }

  // Continues from the state saved beside `checkpoint`: run `next` resumes from the island
  // checkpoint, the later ones start as usual.
  void load(const std::filesystem::path& checkpoint) {
    if (fingerprint_.empty()) fingerprint_ = range_fingerprint(p_, st_.box, o_);
    range_state st = load_range_state(range_state_path(checkpoint), fingerprint_, n_);
    const auto where = checkpoint_where(range_state_path(checkpoint), 1);
    if (st.next >= o_.runs) throw io::input_error(where + "every range run had finished");
    if (o_.rotate != (st.axes.size() > 0) || st.moves.cols() != st.move_count ||
        (st.move_count > 0 && st.moves.rows() != n_) || st.move_count > st_.moves.cols()) {
      throw io::input_error(where + "the rotation state does not fit the options");
    }
    Eigen::MatrixXd moves = st_.moves;
    moves.leftCols(st.move_count) = st.moves;
    st.moves = std::move(moves);
    st_ = std::move(st);
    resume_from_ = checkpoint;
    replay_finished_runs();
  }

  // A resumed sequence calls the hook again for every run that had finished, in order, so
  // that what it changes in the problem between runs (multipliers) is as it was.
  void replay_finished_runs() {
    if (!hook_) return;
    for (std::size_t k = 0; k < st_.out.runs.size(); ++k) {
      range_run_step step;
      step.next_run = static_cast<int>(k) + 1;
      step.last = &st_.out.runs[k].result;
      step.centre = st_.centre;
      step.radii = st_.radii;
      step.limits = next_limits_;
      step.replay = true;
      (void)hook_(step);
      next_limits_ = step.limits;
    }
  }

  range_run_result run() {
    for (int k = st_.next; k < o_.runs; ++k) {
      st_.next = k;
      save_state_if_checkpointing();
      range_run_record rec = run_one(k);
      take(rec);
      const bool stopped = rec.result.reason == stop_reason::interrupted ||
                           rec.result.reason == stop_reason::wall_time;
      const bool interrupted = rec.result.reason == stop_reason::interrupted;
      st_.out.runs.push_back(std::move(rec));
      if (interrupted) save_run_on_interrupt();
      if (k + 1 == o_.runs || stopped) break;
      if (!next_box(k)) break;
    }
    return st_.out;
  }

 private:
  termination limits_of(int k) const {
    if (k > 0) return next_limits_;
    termination limits = per_run_;
    if (k == 0 && o_.first_run_budget != 1.0) {
      const auto scale = [&](long long v) {
        return v > 0 ? std::max(1LL, std::llround(static_cast<double>(v) * o_.first_run_budget))
                     : v;
      };
      limits.max_generations = scale(per_run_.max_generations);
      limits.max_evaluations = scale(per_run_.max_evaluations);
    }
    return limits;
  }

  range_run_record run_one(int k) {
    run_settings settings = settings_;
    settings.run_index = o_.first_run_index + static_cast<std::uint64_t>(k);
    settings.start_point = nullptr;
    if (k == 0 && first_start_.size() > 0) settings.start_point = &first_start_;
    if (k > 0 && o_.keep_best) {
      settings.start_point = next_start_.size() > 0 ? &next_start_ : &st_.previous_best;
    }
    settings.carry = k > 0 && o_.carry != carry_mode::off ? &carry_of_previous_run() : nullptr;
    range_run_record rec;
    rec.run = k;
    rec.centre = st_.centre;  // as asked for (the box may be clipped)
    rec.radii = st_.radii;
    rec.axes = st_.axes;
    const termination limits = limits_of(k);
    const bool resuming = !resume_from_.empty();
    if (st_.rotated) {
      const rotated_problem rp(p_, st_.centre, st_.axes, o_.clip_lower, o_.clip_upper);
      settings.start_point = o_.keep_best ? &zero_ : nullptr;
      const search_box box = search_box::around(zero_, st_.radii);
      rec.result = resuming ? model_.resume(rp, box, resume_from_, limits, settings)
                            : minimise(rp, box, limits, settings);
      rec.result.best_x = rp.to_x(rec.result.best_x).col(0);
    } else {
      rec.result = resuming ? model_.resume(p_, st_.box, resume_from_, limits, settings)
                            : minimise(p_, st_.box, limits, settings);
    }
    resume_from_.clear();
    return rec;
  }

  // Run k - 1's population moves from its best onto run k's centre. From the run records, so a
  // resumed sequence carries the same.
  const population_carry& carry_of_previous_run() {
    const range_run_record& last = st_.out.runs.back();
    carry_.mode = o_.carry;
    carry_.from = last.result.best_x;
    carry_.to = st_.centre;
    return carry_;
  }

  run_result minimise(const problem& p, const search_box& box, const termination& limits,
                      const run_settings& settings) {
    return minimiser_ ? minimiser_(p, box, limits, settings) : model_.run(p, box, limits, settings);
  }

  void take(const range_run_record& rec) {
    st_.out.evaluations += rec.result.evaluations;
    // The problem may have changed between runs (penalty weights): the latest run's best is
    // the one that counts for the next centre; the overall best is by value as evaluated
    // (Deb's rules when the problem reports violations: feasible first).
    const double v = rec.result.best_violation;
    const double bv = st_.out.best_violation;
    if (v < bv || (v == bv && rec.result.best_value <= st_.out.best_value)) {
      st_.out.best_value = rec.result.best_value;
      st_.out.best_violation = v;
      st_.out.best_x = rec.result.best_x;
    }
    st_.previous_best = rec.result.best_x;
  }

  // Proposes the next centre and radii, lets the hook change them, and sets the next box.
  bool next_box(int k) {
    range_run_step step;
    step.next_run = k + 1;
    step.last = &st_.out.runs.back().result;
    step.centre = st_.previous_best;
    step.radii = proposed_radii(k);
    step.limits = next_limits_;
    if (hook_ && !hook_(step)) return false;
    if (step.centre.size() != n_ || step.radii.size() != n_ || !(step.radii.array() > 0.0).all() ||
        (step.start.size() != 0 && step.start.size() != n_)) {
      throw io::option_error("hook",
                             "left a centre, radii or start of the wrong size or a radius <= 0 "
                             "(range runs)");
    }
    st_.centre = step.centre;
    next_limits_ = step.limits;
    next_start_ = std::move(step.start);
    st_.radii = step.radii;
    // Keep the box resolvable in floating point: a few hundred ulps of the centre at least.
    if (o_.floor_radii) {
      st_.radii = st_.radii.cwiseMax((st_.centre.cwiseAbs().array() + 1.0).matrix() * 256.0 *
                                     std::numeric_limits<double>::epsilon());
    }
    st_.box = search_box::around(st_.centre, st_.radii);
    if (o_.clip_lower.size() > 0) {
      st_.box.lower = st_.box.lower.cwiseMax(o_.clip_lower);
      st_.box.upper = st_.box.upper.cwiseMin(o_.clip_upper);
    }
    st_.previous_best = st_.previous_best.cwiseMax(st_.box.lower).cwiseMin(st_.box.upper);
    return true;
  }

  Eigen::VectorXd proposed_radii(int k) {
    const Eigen::VectorXd& radii = st_.radii;
    if (o_.rotate) {
      const Eigen::VectorXd d = st_.previous_best - st_.centre;
      if (d.norm() > 0.0) {
        st_.move_count = std::min<int>(st_.move_count + 1, static_cast<int>(st_.moves.cols()));
        for (int i = st_.move_count - 1; i > 0; --i) st_.moves.col(i) = st_.moves.col(i - 1);
        st_.moves.col(0) = d;
      }
    }
    if (o_.rotate && st_.move_count > 0) {
      const Eigen::MatrixXd q =
          householder_q(Eigen::HouseholderQR<Eigen::MatrixXd>(st_.moves.leftCols(st_.move_count)));
      const Eigen::VectorXd along = (q.transpose() * st_.moves.col(0)).cwiseAbs() * o_.move_factor;
      const double largest = along.maxCoeff();
      st_.axes = q;
      st_.rotated = true;
      return along.cwiseMax(std::max(o_.move_floor, 1e-9) * largest)
          .cwiseMax(radii * o_.shrink)
          .cwiseMin(radii / o_.shrink);
    }
    if (!o_.radii_per_run.empty()) return Eigen::VectorXd::Constant(n_, o_.radii_per_run[k + 1]);
    if (o_.move_factor > 0.0) {
      const Eigen::VectorXd move = (st_.previous_best - st_.centre).cwiseAbs() * o_.move_factor;
      const double largest = move.maxCoeff();
      if (largest > 0.0) {
        return move.cwiseMax(std::max(o_.move_floor, 1e-9) * largest)
            .cwiseMax(radii * o_.shrink)
            .cwiseMin(radii / o_.shrink);
      }
    }
    return radii * o_.shrink;
  }

  bool checkpointing() const { return !settings_.checkpoint_file.empty(); }

  // Before each run: the state the run's island checkpoints belong to (rank 0 writes).
  void save_state_if_checkpointing() {
    if (!checkpointing() || !model_.is_root()) return;
    save_range_state(range_state_path(settings_.checkpoint_file), fingerprint_, st_);
  }

  // The island checkpoint of the interrupted run, when the model did not write it itself.
  void save_run_on_interrupt() {
    if (!checkpointing() || settings_.checkpoint_every > 0) return;
    model_.save_checkpoint(settings_.checkpoint_file);  // collective under MPI
  }

  island_model& model_;
  const problem& p_;
  termination per_run_;
  range_run_options o_;
  const range_run_hook& hook_;
  run_minimiser minimiser_;      // a copy: resume_range_runs passes a temporary
  termination next_limits_;      // the limits of the runs after the first
  Eigen::VectorXd first_start_;  // the caller's start point of the first run (a copy)
  Eigen::VectorXd next_start_;   // the hook's start point of the next run; empty: the best
  population_carry carry_;       // the next run's, with options.carry
  run_settings settings_;
  int n_;
  Eigen::VectorXd zero_;
  range_state st_;
  std::string fingerprint_;
  std::filesystem::path resume_from_;
};

}  // namespace

std::filesystem::path range_state_path(const std::filesystem::path& checkpoint) {
  std::filesystem::path p = checkpoint;
  p += ".ranges";
  return p;
}

range_run_result run_range_runs(island_model& model, const problem& p, const search_box& first,
                                const termination& per_run, const range_run_options& options,
                                const range_run_hook& hook, run_settings settings,
                                const run_minimiser& minimiser) {
  range_sequence sequence(model, p, first, per_run, options, hook, std::move(settings), minimiser);
  return sequence.run();
}

range_run_result resume_range_runs(island_model& model, const problem& p, const search_box& first,
                                   const termination& per_run, const range_run_options& options,
                                   const std::filesystem::path& checkpoint,
                                   const range_run_hook& hook, run_settings settings) {
  range_sequence sequence(model, p, first, per_run, options, hook, std::move(settings), {});
  sequence.load(checkpoint);
  return sequence.run();
}

}  // namespace kinevo::ga
