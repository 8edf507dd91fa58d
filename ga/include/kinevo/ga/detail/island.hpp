// One island: a generational GA on a fixed-size population, its random stream and its best
// point. island_model drives many of these; an island never talks to another one directly
// (migration goes through pack_emigrants / take_immigrants so the transport can be threads or
// MPI). All storage is sized by configure() and reused, so generations never allocate.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <iosfwd>
#include <span>
#include <vector>

#include "kinevo/ga/detail/binary_genome.hpp"
#include "kinevo/ga/detail/learned_metric.hpp"
#include "kinevo/ga/detail/parent_centric_crossover.hpp"
#include "kinevo/ga/detail/random_stream.hpp"
#include "kinevo/ga/detail/real_operators.hpp"
#include "kinevo/ga/detail/simplex_crossover.hpp"
#include "kinevo/ga/detail/unimodal_normal_crossover.hpp"
#include "kinevo/ga/island_model.hpp"
#include "kinevo/ga/options.hpp"
#include "kinevo/ga/problem.hpp"
#include "kinevo/ga/search_box.hpp"

namespace kinevo::ga {

class island {
 public:
  // Sizes the buffers for `dimension` variables; cheap when nothing changed.
  void configure(const ga_options& options, int dimension);

  // Draws the initial population in `box` (or in `initial`, inside it, if given; or moves the
  // previous run's population by `carry` when there is one; plus `start_point` in column 0 if
  // given) and evaluates it.
  void start(const problem& p, const search_box& box, std::uint64_t seed, int index,
             std::uint64_t run_index, const Eigen::VectorXd* start_point,
             const search_box* initial = nullptr, const population_carry* carry = nullptr);
  // Box of the run, without drawing a population (before load()).
  void set_box(const search_box& box);
  // What the island needs to know of the problem (reported violations, integer variables);
  // start() calls it, a resume calls it before load().
  void attach(const problem& p);
  // The epsilon level for a run that is `progress` (in [0, 1]) done (constraints = epsilon).
  void set_progress(double progress);

  // One generation: elites, selection, crossover, mutation, evaluation of the offspring (g3:
  // ga_options::family_steps() family steps of `offspring` children each).
  void step(const problem& p);

  // Bytes of one packed individual (value + genome).
  int individual_bytes() const;
  // Writes the best `m` individuals (best first) into out (m * individual_bytes()).
  void pack_emigrants(int m, std::span<std::byte> out);
  // Replaces the worst individuals by the packed ones (count of them).
  void take_immigrants(std::span<const std::byte> in, int count);

  double best_value() const { return best_f_; }
  // Total violation of the best point (0 when feasible or unconstrained).
  double best_violation() const { return best_v_; }
  const Eigen::VectorXd& best_x() const { return best_x_; }
  long long evaluations() const { return evaluations_; }
  generation_record statistics(int island_index, long long generation) const;

  // Whole state as text (hex floats, generator state), and back; load() throws
  // io::input_error with a short reason when the text does not fit this configuration.
  void save(std::ostream& os) const;
  void load(std::istream& is);

 private:
  bool binary() const { return options_.genes != encoding::real; }
  void decode(int column);
  void evaluate_columns(const problem& p, int first, int count);
  // Throws the message naming candidate i of x_next_ and its non-finite value (or violation).
  [[noreturn]] void refuse_candidate(const problem& p, int i, bool bad_v) const;
  // order_[0..count) becomes the best `count` members, best first (or the worst `count`, worst
  // first), in the island's order with ties by index; the rest of order_ is unspecified.
  void sort_order(int count, bool worst_first = false);
  void select_parents(int count);
  void select_by_tournament(int count);
  void select_proportional(int count);
  void step_generational(const problem& p);
  void step_differential(const problem& p);
  // One family step of the g3 model (Deb et al. 2002, sec. 4): parents, children, replacement.
  void step_g3(const problem& p);
  void choose_g3_parents();
  void make_g3_children();
  // pcx in the learned metric (learned_metric.hpp): the parents mapped to u, children drawn
  // there and mapped back; record_family_steps feeds the evaluated children's steps to it.
  void make_metric_children();
  void record_family_steps();
  // Member i's point in the metric's coordinates u (member_u_; mapped again when the slot's
  // point or the metric's root changed since it was last mapped).
  Eigen::MatrixXd::ConstColXpr member_u(int i);
  // Whether member i's kept u is that of its point under the current root.
  bool member_u_current(int i) const;
  // A family entry e (a member, or a child drawn in u and not clipped) moved to slot moved_[k]
  // takes its u along (keep_moved_u before the move, settle_moved_u after it), so that a new
  // member is not mapped again when it becomes a parent.
  void keep_moved_u(int k, int e);
  void settle_moved_u(int moved);
  void load_member_u(std::istream& is);
  bool learns_metric() const { return options_.metric == metric_model::learned; }
  void replace_from_family();
  // One family step of the mgg model (Satoh, Yamamura and Kobayashi 1996): random parents, the
  // same children, the family's best and a rank-roulette draw replace the first two parents.
  void step_mgg(const problem& p);
  void choose_mgg_parents();
  void replace_mgg_pair();
  // Writes the survivors copied to family_x_/f_/v_ into their slots moved_[0..moved-1] and
  // keeps best_index_ what a full scan would give.
  void move_in_survivors(int moved);
  int population_best();  // best_index_, rescanned when unknown
  // The first `count` entries of pick_ become distinct members drawn from the first `from`
  // entries (a partial Fisher-Yates shuffle); restore_picks(count) undoes the swaps, so that
  // pick_ is the identity between draws and a family step costs O(count), not O(population).
  void draw_distinct(int count, int from);
  void restore_picks(int count);
  // Whether candidate (fa, va) goes before (fb, vb) in the island's order.
  bool better(double fa, double va, double fb, double vb) const {
    return constrained_ ? precedes(fa, va, fb, vb, eps_) : fa < fb;
  }
  // The rotation frame turns with the population only when the n_ + 1 or more members span R^n
  // (rotation_frame.hpp); with population <= n its completing columns follow the axes, the
  // frame buys no invariance and its O(n^2) product per child would be pure cost (41 % of a
  // cold Gauss solve of the 50-link chain, n = 100): the noise is then drawn in the axes.
  bool uses_frame() const {
    return options_.steady_state() && options_.crossover != crossover_method::spx &&
           n_ < options_.population;
  }
  void round_integers(Eigen::MatrixXd& x, int first, int count) const;
  // The previous run's population moved into x_next_ (population_carry.hpp); false when there
  // is none to move (nothing run yet, binary genes), x_next_ then untouched.
  bool carry_population(const population_carry& carry);
  // The order of candidates i and j at the current epsilon level, ties by index.
  bool ahead(int i, int j) const {
    if (constrained_) {
      const double ri = v_[i] <= eps_ ? 0.0 : v_[i];
      const double rj = v_[j] <= eps_ ? 0.0 : v_[j];
      if (ri != rj) return ri < rj;
    }
    return f_[i] < f_[j] || (f_[i] == f_[j] && i < j);
  }
  void cross_real(int a, int b, int c1, int c2);
  void cross_bits(int a, int b, int c1, int c2);
  void mutate_offspring(int first, int count);
  std::span<std::uint64_t> genome(std::vector<std::uint64_t>& g, int i) {
    return {g.data() + static_cast<std::size_t>(i) * words_, static_cast<std::size_t>(words_)};
  }

  ga_options options_;
  int n_ = 0;
  int words_ = 0;
  binary_layout layout_;
  double gene_rate_ = 0.0;
  double log1m_bit_rate_ = 0.0;
  double inv_gene_skip_ = 0.0;  // -1 / log(1 - gene rate): geometric skips from Exp(1)
  sbx_sampler sbx_;
  polynomial_sampler polynomial_;
  parent_centric_crossover pcx_;
  unimodal_normal_crossover undx_;
  simplex_crossover spx_;
  // The rotation frame of the initial population (pcx, undx): where their isotropic noise is
  // drawn, so that the run turns with the problem (ga/detail/rotation_frame.hpp). Saved in
  // checkpoints.
  Eigen::MatrixXd frame_;
  // metric = learned: the metric, the parents in its coordinates, a child's step there and the
  // family's normalised steps (n x offspring). Saved in checkpoints.
  learned_metric metric_;
  Eigen::MatrixXd parent_u_;
  Eigen::MatrixXd member_u_;               // n x population: members in u
  Eigen::MatrixXd member_u_from_;          // ... the points they were mapped from
  std::vector<long long> member_u_epoch_;  // ... and the metric's epoch then, or -1
  Eigen::MatrixXd child_u_;                // n x offspring: the children drawn in u
  std::vector<char> child_u_kept_;     // ... and not clipped by the box (x = parent + C^{1/2} step)
  long long child_u_epoch_ = -1;       // the metric's epoch when they were drawn
  Eigen::VectorXd step_u_, y_;         // one child's step in u, and normalised (pcx)
  Eigen::MatrixXd family_root_steps_;  // n x offspring: C^{1/2} y of each child
  Eigen::VectorXd family_y_squared_;   // ... and |y|^2
  Eigen::MatrixXd family_u_;           // n x replaced: u's of the entries being moved
  std::vector<char> family_u_kept_;
  std::vector<int> metric_order_;
  Eigen::MatrixXd parent_x_;       // n x parents: the g3 family step's parents
  std::vector<int> parent_index_;  // ... and the members they are
  std::vector<int> pick_;          // draws of distinct members; the identity between draws
  std::vector<int> swapped_;       // the partner of each swap of draw_distinct (to undo it)
  std::vector<int> slots_;         // the g3 family step's replaced members
  std::vector<int> moved_;         // ... those whose occupant changes
  Eigen::MatrixXd family_x_;       // n x replaced: survivors before they move in
  Eigen::VectorXd family_f_, family_v_;
  std::vector<int> family_;  // family order: members, then children
  // The population's best in the island's order (g3's index parent), kept up to date across
  // generations where only the replaced members changed; -1: unknown (rescan).
  int best_index_ = -1;

  Eigen::VectorXd lower_, upper_, width_;
  std::vector<double> lower_tiled_, upper_tiled_;  // n x (population + 1), as x_next_
  std::vector<std::size_t> mutation_sites_;        // positions in x_next_ to mutate
  Eigen::MatrixXd x_, x_next_;  // n x (population + 1): decoded points / real genes
  Eigen::VectorXd f_, f_next_;
  Eigen::VectorXd v_, v_next_;  // total violations (constrained_ only)
  bool constrained_ = false;    // the problem reports violations: compare (violation, value)
  bool epsilon_ = false;        // ... at a shrinking epsilon level
  double eps0_ = 0.0;           // epsilon level at the start of the run
  double eps_ = 0.0;            // current epsilon level
  std::vector<int> integers_;   // integer variables (rounded before evaluation)
  std::vector<std::uint64_t> bits_, bits_next_;  // (population + 1) * words_
  std::vector<int> order_;
  std::vector<int> parents_;
  std::vector<double> weights_;
  std::vector<int> cuts_;
  std::vector<std::uint64_t> mask_;  // crossover mask scratch
  random_stream rng_;

  Eigen::VectorXd best_x_;
  double best_f_ = 0.0;
  double best_v_ = 0.0;
  long long evaluations_ = 0;
  bool has_population_ = false;  // x_ holds a run's population (start() or load() done)
};

}  // namespace kinevo::ga
