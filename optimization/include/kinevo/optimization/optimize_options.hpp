// Everything `kinevo optimize` can be told, as one options struct that the command line and the
// config file bind to directly (Ceres-style: a plain struct with documented defaults and a
// validate() that says what to change). Fields are named in messages by their option key, the
// long option name with '_' (the config-file key): "max_evals", "range_runs", ...
#pragma once

#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "kinevo/ga/island_model.hpp"
#include "kinevo/ga/options.hpp"
#include "kinevo/ga/termination.hpp"
#include "kinevo/optimization/gradient_projection.hpp"

namespace kinevo::optimization {

// plain: one GA run. tuned: the configuration measured against pagmo2 (docs/ga.md, "Quality"):
// population 30, 80 rotated trust-region range runs, the first with 20 times the budget; the
// generation and evaluation limits are then totals shared out over the runs. constrained: the
// configuration measured on the CEC 2006 suite (docs/constrained.md): de crossover with
// population 100, gene mutation rate 0.02 and the epsilon level; the default for a problem
// file with constraints. g3_pcx (name "g3-pcx"): Deb, Anand and Joshi's G3-PCX (2002):
// population 100, the g3 generation model with parent-centric recombination (mu = 3 parents,
// lambda = 2 children, r = 2 replaced, sigma_zeta = sigma_eta = 0.1), a default budget of 1e5
// evaluations; rotation invariant, for smooth non-separable or ill-conditioned problems
// (docs/ga.md, "Rotation-invariant recombination"). g3_pcx_metric (name "g3-pcx-metric"):
// the same with the learned metric (ga::g3_pcx_metric_options: sigma_eta = 0.14), for
// ill-conditioned valleys (docs/ga.md, "A learned metric").
enum class preset { plain, tuned, constrained, g3_pcx, g3_pcx_metric };
std::string to_string(preset p);
preset parse_preset(const std::string& name);  // throws std::invalid_argument listing the names

// Size limits checked before anything is allocated (docs/ga.md, "Limits"): a built-in test
// function's dimension (its bounds alone are 16 bytes a variable: --dim 1e9 allocated 15 GB
// before failing) and the number of range runs (each runs at least one generation whatever
// --max-evals says: 10^6 runs did not finish).
inline constexpr int max_dimension = 100'000;
inline constexpr int max_range_runs = 10'000;

// Range runs (generalized-inverse dissertation (GIGSP), sec. 5.4); see ga/range_runs.hpp.
struct range_settings {
  int runs = 1;                   // key range_runs, in [1, max_range_runs] (1: a single run)
  double shrink = 0.2;            // (0, 1]
  double move_factor = 0.0;       // trust region, finite >= 0 (0: off)
  double move_floor = 0.1;        // [0, 1]
  double first_run_budget = 1.0;  // finite > 0
  bool rotate = false;

  // Throws io::option_error naming the key (range_runs, shrink, ...) and its allowed range.
  void validate() const;
};

// ga: the island-model GA (the default). sanlsu: SANLSU gradient projection from one start
// (optimization/gradient_projection.hpp), for problem files with equality constraints only.
enum class method { ga, sanlsu };
std::string to_string(method m);
method parse_method(const std::string& name);  // throws std::invalid_argument listing the names
// Key refine: "sanlsu" (true: SANLSU from the GA's best) or "none" (false); throws
// std::invalid_argument listing the names.
bool parse_refine(const std::string& name);

struct optimize_options {
  // What to minimise: a built-in test function of `dim` variables, or a TOML problem file.
  std::string function = "rastrigin";
  std::string problem_file;  // key problem; empty: the test function
  int dim = 10;              // in [1, max_dimension]
  // Search box overrides: empty (the problem's box), one value for all variables, or one per
  // variable; finite, lower < upper and upper - lower finite.
  std::vector<double> lower, upper;
  std::uint64_t seed = 1;

  // The GA of each island, bound field by field; `gaucsd` starts from ga::gaucsd_options()
  // instead, and binary/Gray genes change the crossover and mutation defaults (see
  // run_policy.hpp). Fields the user did not set (`given`) follow these policies.
  ga::ga_options ga;
  bool gaucsd = false;
  ga::island_options islands;
  // max_generations (key generations, >= 0, 0: none), max_evaluations (key max_evals, >= 0),
  // target_value (key target, finite or -inf), stall_generations (>= 0), stall_tolerance
  // (finite >= 0), max_seconds (finite >= 0). interrupt is set by the caller of the driver.
  ga::termination limits;
  range_settings range;
  preset which = preset::plain;  // key preset

  // Key method; sanlsu needs a problem file. refine_sanlsu (key refine, the memetic option):
  // after the GA, SANLSU from the GA's best (method ga only). sanlsu: the gradient projection's
  // settings (keys sanlsu_case, sanlsu_tolx, ...). start (key start): SANLSU's start point, one
  // value per variable, overriding the file's `initial` values (method sanlsu only).
  method solver = method::ga;
  bool refine_sanlsu = false;
  gradient_projection_options sanlsu;
  std::vector<double> start;

  // Constraints of a problem file: ga.constraints (key constraints; when not given, the run
  // plan's default_constraints: feasibility, or epsilon with equalities), the tolerance delta of
  // equalities (key equality_tolerance, finite >= 0; |h| <= delta is satisfied, as in CEC 2006) and
  // whether an infeasible answer is acceptable (key allow_infeasible; otherwise it is a failure:
  // exit 1).
  double equality_tolerance = 1e-4;
  double inequality_tolerance = 0.0;  // key inequality_tolerance: g <= sigma is satisfied
  bool allow_infeasible = false;

  // Whole-state checkpoints of a single run: written every checkpoint_every (>= 0) generations
  // and on interrupt; resume continues one.
  std::string checkpoint, resume;
  long long checkpoint_every = 0;
  // Keep the per-generation history (for a log or a chart).
  bool record_history = false;
  // Busy wait per evaluated candidate in microseconds, to measure parallel scaling on an
  // objective of known cost; finite, in [0, 1e6].
  double cost_us = 0.0;

  // Keys of the options the user set explicitly (command line or config file); the policies
  // (gaucsd, binary defaults, tuned preset) change only the others.
  std::set<std::string> given;
  bool is_given(const std::string& key) const { return given.count(key) > 0; }

  // Throws io::option_error naming the key and its allowed range for the first field out of
  // range; contradictions between fields (e.g. checkpoint_every without checkpoint) are
  // reported the same way, naming the field that needs changing.
  void validate() const;
};

}  // namespace kinevo::optimization
