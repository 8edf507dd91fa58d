#include "kinevo/ga/detail/island.hpp"
#include "kinevo/ga/population_carry.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <istream>
#include <limits>
#include <numeric>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "kinevo/ga/detail/hex_text.hpp"
#include "kinevo/ga/detail/minimal_generation_gap.hpp"
#include "kinevo/ga/detail/rotation_frame.hpp"
#include "kinevo/ga/evaluation_error.hpp"
#include "kinevo/io/errors.hpp"

namespace kinevo::ga {

namespace {

void expect(std::istream& is, const char* word) {
  std::string s;
  if (!(is >> s) || s != word) {
    throw io::input_error(std::string("expected '") + word + "', found '" + s + "'");
  }
}

// Sets bits [from, to) of a genome.
void set_range(std::span<std::uint64_t> m, int from, int to) {
  while (from < to) {
    const int w = from >> 6;
    const int s = from & 63;
    const int e = std::min(to, (w + 1) << 6);
    const int len = e - from;
    const std::uint64_t bits = len == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << len) - 1);
    m[w] |= bits << s;
    from = e;
  }
}

}  // namespace

void island::configure(const ga_options& options, int dimension) {
  options_ = options;
  has_population_ = false;
  n_ = dimension;
  layout_ = binary_layout{dimension, options.bits_per_variable};
  words_ = binary() ? layout_.words() : 0;
  const int cols = options.population + 1;  // +1: scratch child of an odd offspring count
  if (x_.rows() != n_ || x_.cols() != cols) {
    x_.resize(n_, cols);
    x_next_.resize(n_, cols);
    f_.resize(cols);
    f_next_.resize(cols);
  }
  v_.setZero(cols);
  v_next_.setZero(cols);
  bits_.assign(static_cast<std::size_t>(cols) * words_, 0);
  bits_next_.assign(static_cast<std::size_t>(cols) * words_, 0);
  order_.resize(cols);
  parents_.resize(cols + 1);
  weights_.resize(cols);
  cuts_.reserve(64);
  mask_.assign(std::max(words_, 1), 0);
  mutation_sites_.resize(static_cast<std::size_t>(cols) * n_);
  best_x_.resize(n_);
  gene_rate_ = options.gene_mutation_rate < 0.0 ? 1.0 / n_ : options.gene_mutation_rate;
  log1m_bit_rate_ = std::log1p(-std::min(options.bit_mutation_rate, 0.999999));
  inv_gene_skip_ = -1.0 / std::log1p(-std::min(gene_rate_, 0.999999));
  sbx_ = sbx_sampler(options.sbx_eta);
  polynomial_ = polynomial_sampler(options.polynomial_eta);
  pcx_ = parent_centric_crossover(options.pcx_sigma_zeta, options.pcx_sigma_eta);
  undx_ = unimodal_normal_crossover(options.undx_sigma_xi, options.undx_sigma_eta);
  spx_ = simplex_crossover(options.spx_epsilon);
  if (options.steady_state()) {
    // mgg replaces 2 members whatever `replaced` says.
    const int r = options.model == generation_model::mgg ? 2 : options.replaced;
    parent_x_.resize(n_, options.parents);
    parent_index_.resize(options.parents);
    pick_.resize(options.population);
    std::iota(pick_.begin(), pick_.end(), 0);
    swapped_.resize(std::max(options.parents, r));
    slots_.resize(r);
    moved_.resize(r);
    family_x_.resize(n_, r);
    family_f_.resize(r);
    family_v_.resize(r);
    family_.resize(r + options.offspring);
  }
  if (!uses_frame()) frame_.resize(0, 0);
  if (learns_metric()) {
    // CMA-ES's population size 4 + floor(3 ln n) as the default number of children per update.
    const int interval = options.metric_interval > 0
                             ? options.metric_interval
                             : 4 + static_cast<int>(std::floor(3.0 * std::log(n_)));
    metric_.configure(n_, interval, options.metric_rate, options.metric_lazy,
                      options.metric_root_kind);
    parent_u_.resize(n_, options.parents);
    member_u_.resize(n_, options.population);
    member_u_from_.resize(n_, options.population);
    member_u_epoch_.assign(static_cast<std::size_t>(options.population), -1);
    child_u_.resize(n_, options.offspring);
    child_u_kept_.assign(static_cast<std::size_t>(options.offspring), 0);
    step_u_.resize(n_);
    y_.resize(n_);
    family_root_steps_.resize(n_, options.offspring);
    family_y_squared_.resize(options.offspring);
    family_u_.resize(n_, options.replaced);
    family_u_kept_.assign(static_cast<std::size_t>(options.replaced), 0);
    metric_order_.resize(static_cast<std::size_t>(interval));
  }
}

void island::set_box(const search_box& box) {
  lower_ = box.lower;
  upper_ = box.upper;
  width_ = upper_ - lower_;
  // The bounds repeated for every column, indexed like x_next_'s storage (mutation).
  const int cols = options_.population + 1;
  lower_tiled_.resize(static_cast<std::size_t>(cols) * n_);
  upper_tiled_.resize(static_cast<std::size_t>(cols) * n_);
  for (int i = 0; i < cols; ++i) {
    for (int j = 0; j < n_; ++j) {
      lower_tiled_[static_cast<std::size_t>(i) * n_ + j] = lower_[j];
      upper_tiled_[static_cast<std::size_t>(i) * n_ + j] = upper_[j];
    }
  }
}

void island::attach(const problem& p) {
  constrained_ = p.reports_violation();
  epsilon_ = constrained_ && options_.constraints == constraint_handling::epsilon;
  integers_ = p.integer_variables();
  for (const int j : integers_) {
    if (j < 0 || j >= n_) {
      throw io::option_error("integer_variables", "of problem '" + p.name() + "' name variable " +
                                                      std::to_string(j) + " of " +
                                                      std::to_string(n_));
    }
  }
  if (!constrained_) {
    v_.setZero();
    v_next_.setZero();
  }
}

void island::set_progress(double progress) {
  const double eps = epsilon_ ? epsilon_level(options_.epsilon, eps0_, progress) : 0.0;
  if (eps != eps_) best_index_ = -1;  // another level, another order
  eps_ = eps;
}

void island::round_integers(Eigen::MatrixXd& x, int first, int count) const {
  for (const int j : integers_) {
    // Bounds that are not integers: the nearest integers inside them.
    const double lo = std::ceil(lower_[j]);
    const double hi = std::floor(upper_[j]);
    for (int i = first; i < first + count; ++i) {
      x(j, i) = std::clamp(std::nearbyint(x(j, i)), lo, std::max(lo, hi));
    }
  }
}

void island::decode(int column) {
  auto g = genome(bits_next_, column);
  for (int j = 0; j < n_; ++j) {
    std::uint32_t k = read_field(g, j * layout_.bits, layout_.bits);
    if (options_.genes == encoding::gray) k = gray_to_binary(k);
    x_next_(j, column) = decode_value(k, layout_.bits, lower_[j], upper_[j]);
  }
}

void island::evaluate_columns(const problem& p, int first, int count) {
  if (count <= 0) return;
  if (!integers_.empty()) round_integers(x_next_, first, count);
  if (!constrained_) {
    // The unconstrained path as it was: small populations (the Gauss solver's 20) feel every
    // branch per candidate.
    p.evaluate(x_next_.middleCols(first, count), f_next_.segment(first, count));
    evaluations_ += count;
    for (int i = first; i < first + count; ++i) {
      if (!std::isfinite(f_next_[i])) refuse_candidate(p, i, false);
      if (f_next_[i] < best_f_) {
        best_f_ = f_next_[i];
        best_x_ = x_next_.col(i);
      }
    }
    return;
  }
  p.evaluate_with_violation(x_next_.middleCols(first, count), f_next_.segment(first, count),
                            v_next_.segment(first, count));
  evaluations_ += count;
  for (int i = first; i < first + count; ++i) {
    const bool bad_v = !(std::isfinite(v_next_[i]) && v_next_[i] >= 0.0);
    if (!std::isfinite(f_next_[i]) || bad_v) refuse_candidate(p, i, bad_v);
    // The best point by Deb's rules (eps = 0), whatever the level the population compares at.
    if (precedes(f_next_[i], v_next_[i], best_f_, best_v_, 0.0)) {
      best_f_ = f_next_[i];
      best_v_ = v_next_[i];
      best_x_ = x_next_.col(i);
    }
  }
}

void island::refuse_candidate(const problem& p, int i, bool bad_v) const {
  std::ostringstream msg;
  msg.precision(17);
  msg << (bad_v ? "constraint violation of '" : "objective '") << p.name() << "' returned "
      << (bad_v ? v_next_[i] : f_next_[i]) << " at x = (";
  for (int j = 0; j < n_; ++j) msg << (j ? ", " : "") << x_next_(j, i);
  msg << (bad_v ? "); a violation must be finite and >= 0 everywhere in the search box"
                : "); the objective must be finite everywhere in the search box");
  throw evaluation_error(msg.str());
}

bool island::carry_population(const population_carry& carry) {
  if (!has_population_ || binary() || carry.mode == carry_mode::off) return false;
  const int pop = options_.population;
  const Eigen::VectorXd radii = 0.5 * width_;
  double factor = 1.0;
  if (carry.mode == carry_mode::fill) {
    // Mean squared deviation from `from` in units of the new radii; a uniform draw's is 1/3.
    double msd = 0.0;
    for (int i = 0; i < pop; ++i) {
      msd += (x_.col(i) - carry.from).cwiseQuotient(radii).squaredNorm();
    }
    msd /= static_cast<double>(pop) * n_;
    if (msd > 0.0 && std::isfinite(msd)) factor = std::sqrt(1.0 / (3.0 * msd));
  }
  for (int i = 0; i < pop; ++i) {
    Eigen::VectorXd d = (x_.col(i) - carry.from) * factor;
    x_next_.col(i) = (carry.to + d).cwiseMax(lower_).cwiseMin(upper_);
  }
  round_integers(x_next_, 0, pop);
  return true;
}

void island::start(const problem& p, const search_box& box, std::uint64_t seed, int index,
                   std::uint64_t run_index, const Eigen::VectorXd* start_point,
                   const search_box* initial, const population_carry* carry) {
  set_box(box);
  attach(p);
  rng_.reseed(seed, static_cast<std::uint64_t>(index), run_index);
  if (learns_metric()) {
    // A carried metric is the last run's (configure() set C = I when the dimension changed).
    if (options_.metric_carry) {
      metric_.restart();
    } else {
      metric_.reset();
    }
  }
  evaluations_ = 0;
  best_f_ = std::numeric_limits<double>::infinity();
  best_v_ = constrained_ ? std::numeric_limits<double>::infinity() : 0.0;
  best_x_ = box.centre();
  const int pop = options_.population;
  const bool carried = carry != nullptr && carry_population(*carry);
  for (int i = 0; i < pop && !carried; ++i) {
    if (binary()) {
      auto g = genome(bits_next_, i);
      for (auto& w : g) w = rng_.bits();
      if (layout_.total_bits() % 64 != 0) {
        g[words_ - 1] &= (std::uint64_t{1} << (layout_.total_bits() % 64)) - 1;
      }
    } else {
      const search_box& from = initial != nullptr ? *initial : box;
      for (int j = 0; j < n_; ++j) {
        x_next_(j, i) = from.lower[j] + (from.upper[j] - from.lower[j]) * rng_.uniform();
      }
    }
  }
  if (start_point != nullptr) {
    const Eigen::VectorXd s = start_point->cwiseMax(lower_).cwiseMin(upper_);
    if (binary()) {
      auto g = genome(bits_next_, 0);
      for (int j = 0; j < n_; ++j) {
        std::uint32_t k = encode_value(s[j], layout_.bits, lower_[j], upper_[j]);
        if (options_.genes == encoding::gray) k = binary_to_gray(k);
        write_field(g, j * layout_.bits, layout_.bits, k);
      }
    } else {
      x_next_.col(0) = s;
    }
  }
  if (binary()) {
    for (int i = 0; i < pop; ++i) decode(i);
  }
  evaluate_columns(p, 0, pop);
  x_.swap(x_next_);
  f_.swap(f_next_);
  v_.swap(v_next_);
  bits_.swap(bits_next_);
  // Epsilon level: the violation at quantile theta of the initial population (Takahama and
  // Sakai, eq. 8).
  eps0_ = 0.0;
  if (epsilon_) {
    std::vector<double> sorted(v_.data(), v_.data() + pop);
    const auto k = static_cast<std::ptrdiff_t>(options_.epsilon.quantile * (pop - 1));
    std::nth_element(sorted.begin(), sorted.begin() + k, sorted.end());
    eps0_ = sorted[static_cast<std::size_t>(k)];
  }
  eps_ = eps0_;
  best_index_ = -1;
  if (uses_frame()) frame_ = rotation_frame(x_.leftCols(pop));
  has_population_ = true;
}

void island::sort_order(int count, bool worst_first) {
  const int pop = options_.population;
  std::iota(order_.begin(), order_.begin() + pop, 0);
  // Ties broken by index so that the order is a function of the values alone. The order is a
  // strict total one, so its reverse picks out exactly the members a full sort puts last.
  const auto by = [&](auto less) {
    const auto sort_by = [&](auto cmp) {
      if (count >= pop) {
        std::sort(order_.begin(), order_.begin() + pop, cmp);
      } else if (count > 0) {
        std::partial_sort(order_.begin(), order_.begin() + count, order_.begin() + pop, cmp);
      }
    };
    if (worst_first) {
      sort_by([&](int a, int b) { return less(b, a); });
    } else {
      sort_by(less);
    }
  };
  if (constrained_) {
    by([this](int a, int b) { return ahead(a, b); });
  } else {
    by([this](int a, int b) { return f_[a] < f_[b] || (f_[a] == f_[b] && a < b); });
  }
}

void island::select_parents(int count) {
  if (options_.selection == selection_method::tournament) {
    select_by_tournament(count);
  } else {
    select_proportional(count);
  }
}

void island::select_by_tournament(int count) {
  const int pop = options_.population;
  if (constrained_) {
    // (violation, value) order: fewer contestants than the branch-free loop below is worth.
    const int t = options_.tournament_size;
    for (int i = 0; i < count; ++i) {
      int best = rng_.below(pop);
      for (int k = 1; k < t; ++k) {
        const int c = rng_.below(pop);
        if (ahead(c, best)) best = c;
      }
      parents_[i] = best;
    }
    return;
  }
  {
    // Best of t by (value, index), written without branches: the comparisons are coin flips
    // to the branch predictor.
    const int t = options_.tournament_size;
    const double* f = f_.data();
    // Contestants from 32 random bits each (multiply-shift, bias below 2^-32): half the
    // generator calls. The spare half lives in a local, i.e. in a register.
    std::uint64_t spare = 0;
    bool have_spare = false;
    const auto pick = [&] {
      std::uint64_t w = spare;
      if (!have_spare) {
        const std::uint64_t b = rng_.bits();
        w = b >> 32;
        spare = b & 0xffffffffu;
      }
      have_spare = !have_spare;
      return static_cast<int>((w * static_cast<std::uint64_t>(pop)) >> 32);
    };
    for (int i = 0; i < count; ++i) {
      int best = pick();
      double fb = f[best];
      for (int k = 1; k < t; ++k) {
        const int c = pick();
        const double fc = f[c];
        const bool better = (fc < fb) | ((fc == fb) & (c < best));
        best += (c - best) & -static_cast<int>(better);
        fb = detail::select(better, fc, fb);
      }
      parents_[i] = best;
    }
  }
}

void island::select_proportional(int count) {
  const int pop = options_.population;
  // Proportional (SUS) on window-scaled fitness F_worst - F, or on linear rank weights.
  double total = 0.0;
  if (options_.selection == selection_method::sus) {
    // F = f without constraints; with them Deb's fitness (Deb 2000, eq. 4): f for a feasible
    // candidate (violation within eps), f_max + violation otherwise, f_max the worst feasible
    // value (0 when none is feasible).
    double f_max = -std::numeric_limits<double>::infinity();
    for (int i = 0; constrained_ && i < pop; ++i) {
      if (v_[i] <= eps_) f_max = std::max(f_max, f_[i]);
    }
    if (!std::isfinite(f_max)) f_max = 0.0;
    for (int i = 0; i < pop; ++i) {
      weights_[i] = constrained_ && v_[i] > eps_ ? f_max + v_[i] : f_[i];
    }
    double worst = weights_[0];
    for (int i = 1; i < pop; ++i) worst = std::max(worst, weights_[i]);
    for (int i = 0; i < pop; ++i) total += (weights_[i] = worst - weights_[i]);
    if (!(total > 0.0)) {  // all equal: every individual equally likely
      for (int i = 0; i < pop; ++i) weights_[i] = 1.0;
      total = pop;
    }
  } else {
    // Linear ranking: expected copies s for the best down to 2 - s for the worst.
    sort_order(pop);
    const double s = options_.rank_pressure;
    for (int r = 0; r < pop; ++r) {
      const double w = pop > 1 ? s - (2.0 * s - 2.0) * r / (pop - 1) : 1.0;
      weights_[order_[r]] = w;
      total += w;
    }
  }
  // Stochastic universal sampling: one random offset, `count` equally spaced pointers.
  const double step = total / count;
  double pointer = rng_.uniform() * step;
  double cumulative = weights_[0];
  int i = 0;
  for (int k = 0; k < count; ++k) {
    while (cumulative <= pointer && i < pop - 1) cumulative += weights_[++i];
    parents_[k] = i;
    pointer += step;
  }
  // SUS returns parents in population order: shuffle so mates are random.
  for (int k = count - 1; k > 0; --k) std::swap(parents_[k], parents_[rng_.below(k + 1)]);
}

void island::cross_bits(int a, int b, int c1, int c2) {
  auto ga = genome(bits_, a);
  auto gb = genome(bits_, b);
  auto d1 = genome(bits_next_, c1);
  auto d2 = genome(bits_next_, c2);
  std::copy(ga.begin(), ga.end(), d1.begin());
  std::copy(gb.begin(), gb.end(), d2.begin());
  const int total = layout_.total_bits();
  if (total < 2 || !rng_.chance(options_.crossover_rate)) return;
  // Mask of the positions taken from the other parent.
  std::span<std::uint64_t> mask(mask_.data(), static_cast<std::size_t>(words_));
  std::fill(mask.begin(), mask.end(), std::uint64_t{0});
  if (options_.crossover == crossover_method::n_point) {
    const int points = std::min(options_.crossover_points, total - 1);
    cuts_.clear();
    while (static_cast<int>(cuts_.size()) < points) {  // distinct cut points in [1, total-1]
      const int c = 1 + rng_.below(total - 1);
      if (std::find(cuts_.begin(), cuts_.end(), c) == cuts_.end()) cuts_.push_back(c);
    }
    std::sort(cuts_.begin(), cuts_.end());
    cuts_.push_back(total);
    for (std::size_t k = 0; k + 1 < cuts_.size(); k += 2) set_range(mask, cuts_[k], cuts_[k + 1]);
  } else {  // uniform
    const double p = options_.uniform_swap;
    if (p == 0.5) {
      for (auto& w : mask) w = rng_.bits();
    } else if (p > 0.0) {
      const double l1mp = std::log1p(-std::min(p, 0.999999));
      for (std::uint64_t pos = rng_.geometric_skip(l1mp); pos < static_cast<std::uint64_t>(total);
           pos += 1 + rng_.geometric_skip(l1mp)) {
        mask[pos >> 6] |= std::uint64_t{1} << (pos & 63);
      }
    }
    if (total % 64 != 0) mask[words_ - 1] &= (std::uint64_t{1} << (total % 64)) - 1;
  }
  for (int w = 0; w < words_; ++w) {
    const std::uint64_t diff = (ga[w] ^ gb[w]) & mask[w];
    d1[w] ^= diff;
    d2[w] ^= diff;
  }
}

void island::cross_real(int a, int b, int c1, int c2) {
  // Raw columns: Eigen's dynamic-size column blocks cost more than the copies themselves here.
  const std::size_t n = static_cast<std::size_t>(n_);
  const double* pa = x_.data() + static_cast<std::size_t>(a) * n;
  const double* pb = x_.data() + static_cast<std::size_t>(b) * n;
  double* d1 = x_next_.data() + static_cast<std::size_t>(c1) * n;
  double* d2 = x_next_.data() + static_cast<std::size_t>(c2) * n;
  const double* lo = lower_.data();
  const double* hi = upper_.data();
  const bool crossed = rng_.chance(options_.crossover_rate);
  if (!crossed || options_.crossover != crossover_method::blx) {  // BLX writes every gene
    std::copy_n(pa, n, d1);
    std::copy_n(pb, n, d2);
  }
  if (!crossed) return;
  switch (options_.crossover) {
    case crossover_method::n_point: {
      if (n_ < 2) return;
      const int points = std::min(options_.crossover_points, n_ - 1);
      cuts_.clear();
      while (static_cast<int>(cuts_.size()) < points) {
        const int c = 1 + rng_.below(n_ - 1);
        if (std::find(cuts_.begin(), cuts_.end(), c) == cuts_.end()) cuts_.push_back(c);
      }
      std::sort(cuts_.begin(), cuts_.end());
      cuts_.push_back(n_);
      for (std::size_t k = 0; k + 1 < cuts_.size(); k += 2) {
        for (int j = cuts_[k]; j < cuts_[k + 1]; ++j) std::swap(d1[j], d2[j]);
      }
      return;
    }
    case crossover_method::uniform:
      for (std::size_t j = 0; j < n; ++j) {
        if (rng_.chance(options_.uniform_swap)) std::swap(d1[j], d2[j]);
      }
      return;
    case crossover_method::blx: {
      const double al = options_.blx_alpha;
      for (std::size_t j = 0; j < n; ++j) {
        const double lo_p = std::min(pa[j], pb[j]);
        const double d = std::abs(pa[j] - pb[j]);
        const double from = lo_p - al * d;
        const double span = (1.0 + 2.0 * al) * d;
        d1[j] = std::clamp(from + span * rng_.uniform(), lo[j], hi[j]);
        d2[j] = std::clamp(from + span * rng_.uniform(), lo[j], hi[j]);
      }
      return;
    }
    case crossover_method::de:   // step_differential makes its own trials
    case crossover_method::pcx:  // the multi-parent crossovers run in step_g3
    case crossover_method::undx:
    case crossover_method::spx:
      return;
    case crossover_method::sbx: {
      // Bounded SBX (see real_operators.hpp). Each gene is crossed with probability 1/2: the
      // loop visits the set bits of n coins rather than branching on every coin.
      for (int j0 = 0; j0 < n_; j0 += 64) {
        for (std::uint64_t m = rng_.coins(std::min(64, n_ - j0)); m != 0; m &= m - 1) {
          const int j = j0 + std::countr_zero(m);
          const double xa = pa[j];
          const double xb = pb[j];
          if (std::abs(xa - xb) <= 1e-14) continue;
          const double y1 = std::min(xa, xb);
          const double y2 = std::max(xa, xb);
          const double yl = lo[j];
          const double yu = hi[j];
          const sbx_spread bq = sbx_.draw(rng_, y1, y2, yl, yu);
          const double ch1 = std::clamp(0.5 * ((y1 + y2) - bq.lower * (y2 - y1)), yl, yu);
          const double ch2 = std::clamp(0.5 * ((y1 + y2) + bq.upper * (y2 - y1)), yl, yu);
          // Which child gets which value is a coin: selected, not branched.
          const bool swap = rng_.coin();
          d1[j] = detail::select(swap, ch2, ch1);
          d2[j] = detail::select(swap, ch1, ch2);
        }
      }
      return;
    }
  }
}

void island::mutate_offspring(int first, int count) {
  if (binary()) {
    // One long bit string over the offspring; skip geometrically between flipped bits.
    if (options_.bit_mutation_rate <= 0.0) return;
    const int total = layout_.total_bits();
    const std::uint64_t end = static_cast<std::uint64_t>(count) * total;
    for (std::uint64_t pos = rng_.geometric_skip(log1m_bit_rate_); pos < end;
         pos += 1 + rng_.geometric_skip(log1m_bit_rate_)) {
      const int i = first + static_cast<int>(pos / total);
      const int bit = static_cast<int>(pos % total);
      genome(bits_next_, i)[bit >> 6] ^= std::uint64_t{1} << (bit & 63);
    }
    return;
  }
  if (gene_rate_ <= 0.0) return;
  // Positions in the offspring's genes (column-major, so the linear index is the address) by
  // geometric skips from Exp(1) variates: no log, no division, no branch on the gene index.
  const std::uint64_t end = static_cast<std::uint64_t>(count) * n_;
  const std::size_t base = static_cast<std::size_t>(first) * n_;
  double* x = x_next_.data() + base;
  const double* lo = lower_tiled_.data() + base;
  const double* hi = upper_tiled_.data() + base;
  // First every position (a tight loop of skips), then every mutation: two short dependency
  // chains instead of one long one.
  std::size_t m = 0;
  for (std::uint64_t pos = rng_.geometric_skip_exp(inv_gene_skip_); pos < end;) {
    mutation_sites_[m++] = static_cast<std::size_t>(pos);
    const std::uint64_t skip = rng_.geometric_skip_exp(inv_gene_skip_);
    if (skip >= end - pos - 1) break;  // (pos += 1 + skip could wrap for a huge skip)
    pos += 1 + skip;
  }
  if (options_.mutation == mutation_method::gaussian) {
    for (std::size_t k = 0; k < m; ++k) {
      const std::size_t pos = mutation_sites_[k];
      const double step = options_.gaussian_sigma * (hi[pos] - lo[pos]) * rng_.normal();
      x[pos] = std::clamp(x[pos] + step, lo[pos], hi[pos]);
    }
    return;
  }
  for (std::size_t k = 0; k < m; ++k) {
    const std::size_t pos = mutation_sites_[k];
    x[pos] = polynomial_.mutate(rng_, x[pos], lo[pos], hi[pos]);
  }
}

void island::step(const problem& p) {
  rng_.drop_pieces();  // a generation never uses coins left by the previous one (checkpoints)
  if (options_.model == generation_model::g3) {
    // A g3 generation is a population's worth of family steps (ga_options::family_steps): the
    // island model synchronises, migrates and counts per generation, and that per-generation
    // work would cost more than two evaluations of a cheap objective.
    for (int s = options_.family_steps(); s > 0; --s) step_g3(p);
  } else if (options_.model == generation_model::mgg) {
    for (int s = options_.family_steps(); s > 0; --s) step_mgg(p);
  } else if (options_.crossover == crossover_method::de) {
    step_differential(p);
  } else {
    step_generational(p);
  }
}

void island::step_differential(const problem& p) {
  const int pop = options_.population;
  const double weight = options_.de_weight;
  const double cr = options_.crossover_rate;
  for (int i = 0; i < pop; ++i) {
    // DE/rand/1/bin (Storn and Price 1997, eqs. 2-4): r1, r2, r3 distinct and not i.
    int r1 = 0, r2 = 0, r3 = 0;
    do r1 = rng_.below(pop);
    while (r1 == i);
    do r2 = rng_.below(pop);
    while (r2 == i || r2 == r1);
    do r3 = rng_.below(pop);
    while (r3 == i || r3 == r1 || r3 == r2);
    const int forced = rng_.below(n_);  // at least one gene from the mutant
    for (int j = 0; j < n_; ++j) {
      const double target = x_(j, i);
      if (j != forced && !rng_.chance(cr)) {
        x_next_(j, i) = target;
        continue;
      }
      double u = x_(j, r1) + weight * (x_(j, r2) - x_(j, r3));
      // A gene outside the box goes halfway from the target to the bound it passed.
      if (u < lower_[j]) u = 0.5 * (lower_[j] + target);
      if (u > upper_[j]) u = 0.5 * (upper_[j] + target);
      x_next_(j, i) = u;
    }
  }
  // The GA's mutation on the trials too (gene_mutation_rate 0 turns it off): a population that
  // has converged still moves, where DE's differences alone would be zero.
  mutate_offspring(0, pop);
  evaluate_columns(p, 0, pop);
  // One-to-one survivors: the trial replaces its target unless the target is strictly ahead.
  for (int i = 0; i < pop; ++i) {
    const bool keep_target =
        constrained_ ? precedes(f_[i], v_[i], f_next_[i], v_next_[i], eps_) : f_[i] < f_next_[i];
    if (keep_target) {
      x_next_.col(i) = x_.col(i);
      f_next_[i] = f_[i];
      v_next_[i] = v_[i];
    }
  }
  x_.swap(x_next_);
  f_.swap(f_next_);
  v_.swap(v_next_);
}

void island::step_generational(const problem& p) {
  const int pop = options_.population;
  const int k = options_.elites;
  const int offspring = pop - k;
  const int pairs = (offspring + 1) / 2;
  sort_order(k);
  select_parents(2 * pairs);
  for (int q = 0; q < pairs; ++q) {
    const int c1 = k + 2 * q;
    const int c2 = c1 + 1;  // == pop for the last pair of an odd count: the scratch column
    if (binary()) {
      cross_bits(parents_[2 * q], parents_[2 * q + 1], c1, c2);
    } else {
      cross_real(parents_[2 * q], parents_[2 * q + 1], c1, c2);
    }
  }
  mutate_offspring(k, offspring);
  for (int e = 0; e < k; ++e) {  // elites survive unchanged, values included
    const int src = order_[e];
    x_next_.col(e) = x_.col(src);
    f_next_[e] = f_[src];
    v_next_[e] = v_[src];
    if (binary()) {
      auto s = genome(bits_, src);
      std::copy(s.begin(), s.end(), genome(bits_next_, e).begin());
    }
  }
  if (binary()) {
    for (int i = k; i < pop; ++i) decode(i);
  }
  evaluate_columns(p, k, offspring);
  x_.swap(x_next_);
  f_.swap(f_next_);
  v_.swap(v_next_);
  bits_.swap(bits_next_);
}

void island::draw_distinct(int count, int from) {
  for (int k = 0; k < count; ++k) {
    swapped_[k] = k + rng_.below(from - k);
    std::swap(pick_[k], pick_[swapped_[k]]);
  }
}

void island::restore_picks(int count) {
  for (int k = count - 1; k >= 0; --k) std::swap(pick_[k], pick_[swapped_[k]]);
}

void island::step_g3(const problem& p) {
  choose_g3_parents();
  if (learns_metric()) {
    make_metric_children();
  } else {
    make_g3_children();
  }
  evaluate_columns(p, 0, options_.offspring);
  if (learns_metric()) record_family_steps();
  replace_from_family();
}

void island::make_metric_children() {
  for (int k = 0; k < options_.parents; ++k) parent_u_.col(k) = member_u(parent_index_[k]);
  pcx_.prepare(parent_u_);
  child_u_epoch_ = metric_.epoch();
  for (int c = 0; c < options_.offspring; ++c) {
    auto child_u = child_u_.col(c);
    pcx_.draw(rng_, frame_, child_u);
    pcx_.normalised_step(y_);
    family_y_squared_[c] = y_.squaredNorm();
    step_u_ = child_u - parent_u_.col(0);
    auto root_y = family_root_steps_.col(c);
    metric_.to_x(step_u_, root_y);
    auto child = x_next_.col(c);
    child = parent_x_.col(0) + root_y;
    const bool inside =
        (child.array() >= lower_.array()).all() && (child.array() <= upper_.array()).all();
    child_u_kept_[static_cast<std::size_t>(c)] = inside ? 1 : 0;
    if (!inside) child = child.cwiseMax(lower_).cwiseMin(upper_);
    // The metric learns from C^{1/2} y, which is the child's step in x over PCX's spread across
    // d: one n x n product per child serves both (mapped apart only when the draw along d was
    // capped, which y does not follow).
    const double scale = pcx_.step_scale();
    if (scale > 0.0) {
      root_y /= scale;
    } else {
      metric_.to_x(y_, root_y);
    }
  }
}

// A member's u = C^{-1/2} x, kept while the slot holds the same point (compared bit for bit,
// O(n)) and the metric the same root: most parents were mapped before (members survive many
// family steps, the root changes every few hundred children), and mapping costs n^2. The
// check is on the point itself, so no path that writes x_ can leave a stale u behind, and a
// resumed run (nothing mapped yet) maps to the same bits.
Eigen::MatrixXd::ConstColXpr island::member_u(int i) {
  if (!member_u_current(i)) {
    metric_.to_u(x_.col(i), member_u_.col(i));
    member_u_from_.col(i) = x_.col(i);
    member_u_epoch_[static_cast<std::size_t>(i)] = metric_.epoch();
  }
  return std::as_const(member_u_).col(i);
}

bool island::member_u_current(int i) const {
  const auto bytes = static_cast<std::size_t>(n_) * sizeof(double);
  return member_u_epoch_[static_cast<std::size_t>(i)] == metric_.epoch() &&
         std::memcmp(member_u_from_.col(i).data(), x_.col(i).data(), bytes) == 0;
}

void island::keep_moved_u(int k, int e) {
  const int r = options_.replaced;
  const auto kk = static_cast<std::size_t>(k);
  if (e < r) {
    family_u_kept_[kk] = member_u_current(slots_[e]) ? 1 : 0;
    if (family_u_kept_[kk]) family_u_.col(k) = member_u_.col(slots_[e]);
  } else {
    family_u_kept_[kk] =
        child_u_kept_[static_cast<std::size_t>(e - r)] && child_u_epoch_ == metric_.epoch() ? 1 : 0;
    if (family_u_kept_[kk]) family_u_.col(k) = child_u_.col(e - r);
  }
}

void island::settle_moved_u(int moved) {
  for (int k = 0; k < moved; ++k) {
    const int i = moved_[k];
    if (family_u_kept_[static_cast<std::size_t>(k)]) {
      member_u_.col(i) = family_u_.col(k);
      member_u_from_.col(i) = x_.col(i);
      member_u_epoch_[static_cast<std::size_t>(i)] = metric_.epoch();
    } else {
      member_u_epoch_[static_cast<std::size_t>(i)] = -1;
    }
  }
}

void island::record_family_steps() {
  for (int c = 0; c < options_.offspring; ++c) {
    metric_.record(family_y_squared_[c], family_root_steps_.col(c), f_next_[c], v_next_[c]);
    if (!metric_.full()) continue;
    // The recorded children best first in the island's order, ties by recording order.
    std::iota(metric_order_.begin(), metric_order_.end(), 0);
    std::stable_sort(metric_order_.begin(), metric_order_.end(), [&](int a, int b) {
      return better(metric_.value(a), metric_.violation(a), metric_.value(b), metric_.violation(b));
    });
    metric_.update(metric_order_);
  }
}

void island::choose_g3_parents() {
  const int pop = options_.population;
  const int mu = options_.parents;
  // The index parent is the best (Deb et al. 2002, sec. 4, step 1), the others are drawn.
  const int best = population_best();
  std::swap(pick_[best], pick_[pop - 1]);
  draw_distinct(mu - 1, pop - 1);
  parent_x_.col(0) = x_.col(best);
  parent_index_[0] = best;
  for (int k = 1; k < mu; ++k) {
    parent_x_.col(k) = x_.col(pick_[k - 1]);
    parent_index_[k] = pick_[k - 1];
  }
  restore_picks(mu - 1);
  std::swap(pick_[best], pick_[pop - 1]);
}

int island::population_best() {
  if (best_index_ < 0) {
    best_index_ = 0;
    for (int i = 1; i < options_.population; ++i) {
      if (ahead(i, best_index_)) best_index_ = i;
    }
  }
  return best_index_;
}

void island::make_g3_children() {
  switch (options_.crossover) {
    case crossover_method::pcx:
      pcx_.prepare(parent_x_);
      break;
    case crossover_method::undx:
      undx_.prepare(parent_x_);
      break;
    default:
      spx_.prepare(parent_x_);
      break;
  }
  for (int c = 0; c < options_.offspring; ++c) {
    auto child = x_next_.col(c);
    switch (options_.crossover) {
      case crossover_method::pcx:
        pcx_.draw(rng_, frame_, child);
        break;
      case crossover_method::undx:
        undx_.draw(rng_, frame_, child);
        break;
      default:
        spx_.draw(rng_, child);
        break;
    }
    // A child outside the box is put on it (the operators know no bounds).
    child = child.cwiseMax(lower_).cwiseMin(upper_);
  }
}

void island::replace_from_family() {
  const int pop = options_.population;
  const int r = options_.replaced;
  const int lambda = options_.offspring;
  // r members at random (step 3); the best r of them and the children take their places
  // (step 4). Family entry e < r is member slots_[e], e >= r child e - r; ties keep members.
  draw_distinct(r, pop);
  std::copy_n(pick_.begin(), r, slots_.begin());
  restore_picks(r);
  const auto f_of = [&](int e) { return e < r ? f_[slots_[e]] : f_next_[e - r]; };
  const auto v_of = [&](int e) { return e < r ? v_[slots_[e]] : v_next_[e - r]; };
  const auto before = [&](int a, int b) {
    if (better(f_of(a), v_of(a), f_of(b), v_of(b))) return true;
    if (better(f_of(b), v_of(b), f_of(a), v_of(a))) return false;
    return a < b;
  };
  // The order is strict (ties by family entry), so any sort puts the same r first. G3-PCX's
  // family is 4: an insertion sort, where a heap's set-up cost more than the comparisons.
  const int size = r + lambda;
  if (size <= 16) {
    for (int e = 0; e < size; ++e) {
      int k = e;
      for (; k > 0 && before(e, family_[k - 1]); --k) family_[k] = family_[k - 1];
      family_[k] = e;
    }
  } else {
    std::iota(family_.begin(), family_.end(), 0);
    std::partial_sort(family_.begin(), family_.begin() + r, family_.end(), before);
  }
  // Slot k gets family entry family_[k]; entry k is the member already there, so only the
  // other slots are written (late in a run the children mostly lose and nothing moves). Copied
  // out first: a surviving member may be moving to another member's slot.
  int moved = 0;
  for (int k = 0; k < r; ++k) {
    const int e = family_[k];
    if (e == k) continue;
    family_x_.col(moved) = e < r ? x_.col(slots_[e]) : x_next_.col(e - r);
    family_f_[moved] = f_of(e);
    family_v_[moved] = v_of(e);
    if (learns_metric()) keep_moved_u(moved, e);
    moved_[moved++] = slots_[k];
  }
  move_in_survivors(moved);
  if (learns_metric()) settle_moved_u(moved);
}

void island::move_in_survivors(int moved) {
  for (int k = 0; k < moved; ++k) {
    x_.col(moved_[k]) = family_x_.col(k);
    f_[moved_[k]] = family_f_[k];
    v_[moved_[k]] = family_v_[k];
  }
  // The unchanged members were all behind the best: the new best is the best of it and the
  // changed slots, unless its own slot changed (then rescan). Either way the result is what a
  // full scan gives, ties by index included, so resumed runs choose alike.
  const auto changed = moved_.begin() + moved;
  if (best_index_ < 0 || std::find(moved_.begin(), changed, best_index_) != changed) {
    best_index_ = -1;
    return;
  }
  for (auto it = moved_.begin(); it != changed; ++it) {
    if (ahead(*it, best_index_)) best_index_ = *it;
  }
}

void island::step_mgg(const problem& p) {
  choose_mgg_parents();
  make_g3_children();
  evaluate_columns(p, 0, options_.offspring);
  replace_mgg_pair();
}

void island::choose_mgg_parents() {
  // All parents at random (Satoh et al. 1996, step 1); the first two are the pair the family
  // step may replace (UNDX's primary parents; pcx centres its children on the first).
  const int mu = options_.parents;
  draw_distinct(mu, options_.population);
  for (int k = 0; k < mu; ++k) parent_x_.col(k) = x_.col(pick_[k]);
  slots_[0] = pick_[0];
  slots_[1] = pick_[1];
  restore_picks(mu);
}

void island::replace_mgg_pair() {
  const int lambda = options_.offspring;
  const int size = 2 + lambda;
  // Family entry e < 2 is parent slots_[e], e >= 2 child e - 2; ties keep the parents.
  const auto f_of = [&](int e) { return e < 2 ? f_[slots_[e]] : f_next_[e - 2]; };
  const auto v_of = [&](int e) { return e < 2 ? v_[slots_[e]] : v_next_[e - 2]; };
  const auto before = [&](int a, int b) {
    if (better(f_of(a), v_of(a), f_of(b), v_of(b))) return true;
    if (better(f_of(b), v_of(b), f_of(a), v_of(a))) return false;
    return a < b;
  };
  std::iota(family_.begin(), family_.begin() + size, 0);
  std::sort(family_.begin(), family_.begin() + size, before);
  // The elite of the family and one more by rank-based roulette (minimal_generation_gap.hpp).
  const auto positions = mgg_survivor_positions(size, rng_);
  const int chosen[2] = {family_[positions[0]], family_[positions[1]]};
  int moved = 0;
  for (int k = 0; k < 2; ++k) {
    const int e = chosen[k];
    if (e == k) continue;
    family_x_.col(moved) = e < 2 ? x_.col(slots_[e]) : x_next_.col(e - 2);
    family_f_[moved] = f_of(e);
    family_v_[moved] = v_of(e);
    moved_[moved++] = slots_[k];
  }
  move_in_survivors(moved);
}

int island::individual_bytes() const {
  return static_cast<int>(sizeof(double)) * (1 + (constrained_ ? 1 : 0) + (binary() ? 0 : n_)) +
         static_cast<int>(sizeof(std::uint64_t)) * words_;
}

void island::pack_emigrants(int m, std::span<std::byte> out) {
  sort_order(m);
  const int size = individual_bytes();
  for (int e = 0; e < m; ++e) {
    std::byte* dst = out.data() + static_cast<std::size_t>(e) * size;
    const int i = order_[e];
    std::memcpy(dst, &f_[i], sizeof(double));
    if (constrained_) {
      std::memcpy(dst + sizeof(double), &v_[i], sizeof(double));
      dst += sizeof(double);  // the genes follow the violation
    }
    if (binary()) {
      std::memcpy(dst + sizeof(double), genome(bits_, i).data(), words_ * sizeof(std::uint64_t));
    } else {
      std::memcpy(dst + sizeof(double), x_.col(i).data(), n_ * sizeof(double));
    }
  }
}

void island::take_immigrants(std::span<const std::byte> in, int count) {
  best_index_ = -1;
  sort_order(count, true);  // only the worst `count`: a migration needs no full sort
  const int size = individual_bytes();
  for (int e = 0; e < count; ++e) {
    const std::byte* src = in.data() + static_cast<std::size_t>(e) * size;
    const int i = order_[e];  // worst first
    std::memcpy(&f_[i], src, sizeof(double));
    if (constrained_) {
      std::memcpy(&v_[i], src + sizeof(double), sizeof(double));
      src += sizeof(double);
    }
    if (binary()) {
      std::memcpy(genome(bits_, i).data(), src + sizeof(double), words_ * sizeof(std::uint64_t));
      // decode() works on the "next" buffers; decode this column in place.
      auto g = genome(bits_, i);
      for (int j = 0; j < n_; ++j) {
        std::uint32_t kk = read_field(g, j * layout_.bits, layout_.bits);
        if (options_.genes == encoding::gray) kk = gray_to_binary(kk);
        x_(j, i) = decode_value(kk, layout_.bits, lower_[j], upper_[j]);
      }
      round_integers(x_, i, 1);
    } else {
      std::memcpy(x_.col(i).data(), src + sizeof(double), n_ * sizeof(double));
    }
    if (constrained_ ? precedes(f_[i], v_[i], best_f_, best_v_, 0.0) : f_[i] < best_f_) {
      best_f_ = f_[i];
      best_v_ = v_[i];
      best_x_ = x_.col(i);
    }
  }
}

generation_record island::statistics(int island_index, long long generation) const {
  const int pop = options_.population;
  generation_record r;
  r.island = island_index;
  r.generation = generation;
  r.evaluations = evaluations_;
  const auto f = f_.head(pop);
  r.best = f.minCoeff();
  if (constrained_) {  // the value of the best by Deb's rules, as best_value() is chosen
    int b = 0;
    for (int i = 1; i < pop; ++i) {
      if (precedes(f_[i], v_[i], f_[b], v_[b], 0.0)) b = i;
    }
    r.best = f_[b];
  }
  r.mean = f.mean();
  r.spread = pop > 1 ? std::sqrt((f.array() - r.mean).square().sum() / (pop - 1)) : 0.0;
  double diversity = 0.0;
  for (int j = 0; j < n_; ++j) {
    const auto row = x_.row(j).head(pop).array();
    const double m = row.mean();
    const double sd = pop > 1 ? std::sqrt((row - m).square().sum() / (pop - 1)) : 0.0;
    diversity += width_[j] > 0.0 ? sd / width_[j] : 0.0;
  }
  r.diversity = n_ > 0 ? diversity / n_ : 0.0;
  return r;
}

void island::save(std::ostream& os) const {
  const int pop = options_.population;
  os << "rng " << rng_ << '\n';
  os << "evaluations " << evaluations_ << '\n';
  if (constrained_) {
    os << "epsilon ";
    put_hex(os, eps0_);
    os << ' ';
    put_hex(os, eps_);
    os << '\n';
  }
  os << "best ";
  put_hex(os, best_f_);
  if (constrained_) os << ' ', put_hex(os, best_v_);
  for (int j = 0; j < n_; ++j) os << ' ', put_hex(os, best_x_[j]);
  os << '\n';
  for (int i = 0; i < pop; ++i) {
    os << "individual ";
    put_hex(os, f_[i]);
    if (constrained_) os << ' ', put_hex(os, v_[i]);
    if (binary()) {
      for (int w = 0; w < words_; ++w) os << ' ' << bits_[static_cast<std::size_t>(i) * words_ + w];
    } else {
      for (int j = 0; j < n_; ++j) os << ' ', put_hex(os, x_(j, i));
    }
    os << '\n';
  }
  if (uses_frame()) {
    os << "frame";
    for (Eigen::Index k = 0; k < frame_.size(); ++k) os << ' ', put_hex(os, frame_.data()[k]);
    os << '\n';
  }
  if (learns_metric()) {
    metric_.save(os);
    // The members' kept u's: those that came with a child differ from C^{-1/2} x by rounding,
    // so a resumed run needs them to reach the uninterrupted run's bits.
    os << "member_u";
    for (int i = 0; i < pop; ++i) {
      const bool kept = member_u_current(i);
      os << ' ' << (kept ? 1 : 0);
      if (kept) {
        for (int j = 0; j < n_; ++j) os << ' ', put_hex(os, member_u_(j, i));
      }
    }
    os << '\n';
  }
}

void island::load(std::istream& is) {
  const int pop = options_.population;
  best_index_ = -1;
  expect(is, "rng");
  if (!(is >> rng_)) throw io::input_error("unreadable random generator state");
  expect(is, "evaluations");
  if (!(is >> evaluations_)) throw io::input_error("unreadable evaluation count");
  if (constrained_) {
    expect(is, "epsilon");
    eps0_ = get_hex(is);
    eps_ = get_hex(is);
  }
  expect(is, "best");
  best_f_ = get_hex(is);
  best_v_ = constrained_ ? get_hex(is) : 0.0;
  for (int j = 0; j < n_; ++j) best_x_[j] = get_hex(is);
  for (int i = 0; i < pop; ++i) {
    expect(is, "individual");
    f_[i] = get_hex(is);
    v_[i] = constrained_ ? get_hex(is) : 0.0;
    if (binary()) {
      for (int w = 0; w < words_; ++w) {
        if (!(is >> bits_[static_cast<std::size_t>(i) * words_ + w])) {
          throw io::input_error("unreadable genome word");
        }
      }
      auto g = genome(bits_, i);
      for (int j = 0; j < n_; ++j) {
        std::uint32_t kk = read_field(g, j * layout_.bits, layout_.bits);
        if (options_.genes == encoding::gray) kk = gray_to_binary(kk);
        x_(j, i) = decode_value(kk, layout_.bits, lower_[j], upper_[j]);
      }
      round_integers(x_, i, 1);
    } else {
      for (int j = 0; j < n_; ++j) x_(j, i) = get_hex(is);
    }
  }
  if (uses_frame()) {
    expect(is, "frame");
    frame_.resize(n_, n_);
    for (Eigen::Index k = 0; k < frame_.size(); ++k) frame_.data()[k] = get_hex(is);
  }
  if (learns_metric()) {
    metric_.load(is);
    load_member_u(is);
  }
  has_population_ = true;
}

// Checkpoints written before the members' u's were saved end after the metric: every u is then
// mapped again when needed.
void island::load_member_u(std::istream& is) {
  std::fill(member_u_epoch_.begin(), member_u_epoch_.end(), -1);
  std::string word;
  if (!(is >> word)) return;
  if (word != "member_u") throw io::input_error("expected 'member_u', found '" + word + "'");
  for (int i = 0; i < options_.population; ++i) {
    int kept = 0;
    if (!(is >> kept) || (kept != 0 && kept != 1)) {
      throw io::input_error("unreadable kept u of member " + std::to_string(i));
    }
    if (kept == 0) continue;
    try {
      for (int j = 0; j < n_; ++j) member_u_(j, i) = get_hex(is);
    } catch (const io::input_error& e) {
      throw io::input_error("kept u of member " + std::to_string(i) + ": " + e.what());
    }
    member_u_from_.col(i) = x_.col(i);
    member_u_epoch_[static_cast<std::size_t>(i)] = metric_.epoch();
  }
}

}  // namespace kinevo::ga
