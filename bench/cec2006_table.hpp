// The CEC 2006 benchmark's shared pieces: the best-known optima, the rows of its CSV
// (solver,budget,problem,seed,evaluations,f,feasible,max_violation,error) and the side-by-side
// markdown table of docs/benchmarks.md. Used by compare_pagmo_cec2006 (which writes rows) and
// compare_cec2006_summary (which reads them, also from bench/cec2006_kinevo.sh), so that both
// judge "met" alike.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <istream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace kinevo::bench::cec2006 {

// Best-known objective values f* of g01..g24 as published in J. J. Liang, T. P. Runarsson,
// E. Mezura-Montes, M. Clerc, P. N. Suganthan, C. A. Coello Coello, K. Deb, "Problem Definitions
// and Evaluation Criteria for the CEC 2006 Special Session on Constrained Real-Parameter
// Optimization" (2006), Table 1 (data, not code). g20's best-known point is slightly infeasible
// (no feasible point of g20 is known), so no run can meet g20.
inline constexpr std::array<double, 24> best_known_f = {
    -15.0,                // g01
    -0.80361910412559,    // g02
    -1.00050010001000,    // g03
    -30665.5386717834,    // g04
    5126.4967140071,      // g05
    -6961.81387558015,    // g06
    24.3062090681,        // g07
    -0.0958250414180359,  // g08
    680.630057374402,     // g09
    7049.24802052867,     // g10
    0.7499,               // g11
    -1.0,                 // g12
    0.053941514041898,    // g13
    -47.7648884594915,    // g14
    961.715022289961,     // g15
    -1.90515525853479,    // g16
    8853.53967480648,     // g17
    -0.866025403784439,   // g18
    32.6555929502463,     // g19
    0.204979400000000,    // g20 (infeasible)
    193.724510070035,     // g21
    236.430975504001,     // g22
    -400.055099999999,    // g23
    -5.50801327159536,    // g24
};

// CEC 2006 feasibility: every g <= 0 and every |h| <= 1e-4 (the report, section 2).
inline constexpr double equality_tolerance = 1e-4;
// A problem is met when the median error of the feasible finals is at most this ...
inline constexpr double met_error = 1e-4;
// ... and at least 3 of 5 (here 6 of 10) finals are feasible.
inline constexpr int met_feasible_numerator = 3;
inline constexpr int met_feasible_denominator = 5;

// |f - f*| / max(1, |f*|): relative for large optima, absolute near zero.
inline double relative_error(double f, double f_star) {
  return std::abs(f - f_star) / std::max(1.0, std::abs(f_star));
}

// "g01".."g24" for ids 1..24.
inline std::string problem_name(unsigned id) {
  return fmt::format("g{:02}", id);
}

struct run_row {
  std::string solver;
  long long budget = 0;
  std::string problem;
  long long seed = 0;
  long long evaluations = 0;
  double f = std::numeric_limits<double>::quiet_NaN();
  bool feasible = false;
  double max_violation = std::numeric_limits<double>::quiet_NaN();
  // NaN when the problem has no best-known value (e.g. a problem file without the header line).
  double error = std::numeric_limits<double>::quiet_NaN();
};

inline constexpr const char* csv_header =
    "solver,budget,problem,seed,evaluations,f,feasible,max_violation,error";

inline std::string to_csv(const run_row& r) {
  return fmt::format("{},{},{},{},{},{:.17g},{},{:.17g},{:.17g}", r.solver, r.budget, r.problem,
                     r.seed, r.evaluations, r.f, r.feasible ? 1 : 0, r.max_violation, r.error);
}

namespace detail {

inline std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, ',')) fields.push_back(field);
  if (!line.empty() && line.back() == ',') fields.emplace_back();
  for (auto& f : fields) {
    while (!f.empty() && (f.back() == '\r' || f.back() == ' ')) f.pop_back();
    while (!f.empty() && f.front() == ' ') f.erase(f.begin());
  }
  return fields;
}

// strtod reads "nan", "inf" and the 17-digit values that jq and fmt print; empty is NaN.
inline double to_double(const std::string& s) {
  if (s.empty()) return std::numeric_limits<double>::quiet_NaN();
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0') throw std::runtime_error("not a number: '" + s + "'");
  return v;
}

inline bool to_bool(const std::string& s) {
  if (s == "1" || s == "true") return true;
  if (s == "0" || s == "false" || s.empty()) return false;
  throw std::runtime_error("not a boolean: '" + s + "'");
}

}  // namespace detail

// Reads the rows of one CSV, finding the columns by the header's names (their order is free).
inline std::vector<run_row> read_csv(std::istream& in, const std::string& source) {
  std::string line;
  if (!std::getline(in, line)) throw std::runtime_error(source + ": empty file");
  const auto names = detail::split_csv_line(line);
  std::map<std::string, std::size_t> column;
  for (std::size_t k = 0; k < names.size(); ++k) column[names[k]] = k;
  for (const char* name : {"solver", "budget", "problem", "seed", "evaluations", "f", "feasible",
                           "max_violation", "error"}) {
    if (!column.contains(name)) {
      throw std::runtime_error(fmt::format("{}: no column '{}' in the header", source, name));
    }
  }
  std::vector<run_row> rows;
  for (int line_no = 2; std::getline(in, line); ++line_no) {
    if (line.empty() || line == "\r") continue;
    const auto fields = detail::split_csv_line(line);
    const auto at = [&](const char* name) -> const std::string& {
      const std::size_t k = column.at(name);
      if (k >= fields.size()) {
        throw std::runtime_error(fmt::format("{}:{}: too few fields", source, line_no));
      }
      return fields[k];
    };
    try {
      run_row r;
      r.solver = at("solver");
      r.budget = std::stoll(at("budget"));
      r.problem = at("problem");
      r.seed = std::stoll(at("seed"));
      r.evaluations = std::stoll(at("evaluations"));
      r.f = detail::to_double(at("f"));
      r.feasible = detail::to_bool(at("feasible"));
      r.max_violation = detail::to_double(at("max_violation"));
      r.error = detail::to_double(at("error"));
      rows.push_back(std::move(r));
    } catch (const std::runtime_error& e) {
      throw std::runtime_error(fmt::format("{}:{}: {}", source, line_no, e.what()));
    } catch (const std::logic_error& e) {  // std::stoll
      throw std::runtime_error(fmt::format("{}:{}: bad integer ({})", source, line_no, e.what()));
    }
  }
  return rows;
}

// One problem under one solver and budget.
struct cell {
  int runs = 0;
  int feasible = 0;
  // Median error among the feasible finals (mean of the middle two for an even count); NaN when
  // none is feasible or the problem has no best-known value.
  double median_error = std::numeric_limits<double>::quiet_NaN();
  bool met = false;
};

inline cell summarise(const std::vector<run_row>& runs) {
  cell c;
  c.runs = static_cast<int>(runs.size());
  std::vector<double> errors;
  for (const auto& r : runs) {
    if (!r.feasible) continue;
    ++c.feasible;
    if (!std::isnan(r.error)) errors.push_back(r.error);
  }
  // A feasible run without a best-known value leaves the median undefined, not smaller.
  if (!errors.empty() && static_cast<int>(errors.size()) == c.feasible) {
    std::sort(errors.begin(), errors.end());
    const std::size_t n = errors.size();
    c.median_error = n % 2 == 1 ? errors[n / 2] : 0.5 * (errors[n / 2 - 1] + errors[n / 2]);
  }
  c.met = !std::isnan(c.median_error) && c.median_error <= met_error &&
          c.feasible * met_feasible_denominator >= c.runs * met_feasible_numerator;
  return c;
}

// 100000 -> "1e5", 500000 -> "5e5", anything else as it is.
inline std::string budget_label(long long budget) {
  if (budget <= 0) return std::to_string(budget);
  long long m = budget;
  int e = 0;
  while (m % 10 == 0) {
    m /= 10;
    ++e;
  }
  return (m < 10 && e > 0) ? fmt::format("{}e{}", m, e) : std::to_string(budget);
}

inline std::string cell_text(const cell& c) {
  std::string error;
  if (c.feasible == 0) {
    error = "-";
  } else if (std::isnan(c.median_error)) {
    error = "n/a";
  } else if (c.median_error == 0.0) {
    error = "0";
  } else {
    error = fmt::format("{:.2e}", c.median_error);
  }
  const std::string text = fmt::format("{} ({}/{})", error, c.feasible, c.runs);
  return c.met ? fmt::format("**{}**", text) : text;
}

// Rows: the problems in name order (g01..g24), then "met". Columns: one per solver (in the order
// they first appear) and budget (ascending), each "median error (feasible/runs)", met in bold.
inline std::string markdown_table(const std::vector<run_row>& rows) {
  std::vector<std::string> solvers;
  std::map<std::string, std::vector<long long>> budgets;
  std::vector<std::string> problems;
  std::map<std::pair<std::string, long long>, std::map<std::string, std::vector<run_row>>> groups;
  for (const auto& r : rows) {
    if (std::find(solvers.begin(), solvers.end(), r.solver) == solvers.end()) {
      solvers.push_back(r.solver);
    }
    auto& b = budgets[r.solver];
    if (std::find(b.begin(), b.end(), r.budget) == b.end()) b.push_back(r.budget);
    if (std::find(problems.begin(), problems.end(), r.problem) == problems.end()) {
      problems.push_back(r.problem);
    }
    groups[{r.solver, r.budget}][r.problem].push_back(r);
  }
  std::sort(problems.begin(), problems.end());
  std::vector<std::pair<std::string, long long>> columns;
  for (const auto& s : solvers) {
    auto b = budgets[s];
    std::sort(b.begin(), b.end());
    for (long long budget : b) columns.emplace_back(s, budget);
  }

  std::string out = "| problem |";
  std::string rule = "|---|";
  for (const auto& [solver, budget] : columns) {
    out += fmt::format(" {} {} |", solver, budget_label(budget));
    rule += "---|";
  }
  out += fmt::format("\n{}\n", rule);
  std::vector<int> met(columns.size(), 0);
  for (const auto& p : problems) {
    out += fmt::format("| {} |", p);
    for (std::size_t k = 0; k < columns.size(); ++k) {
      const auto& by_problem = groups[columns[k]];
      const auto it = by_problem.find(p);
      if (it == by_problem.end()) {
        out += " |";
        continue;
      }
      const cell c = summarise(it->second);
      met[k] += c.met ? 1 : 0;
      out += fmt::format(" {} |", cell_text(c));
    }
    out += "\n";
  }
  out += "| met |";
  for (int m : met) out += fmt::format(" {}/{} |", m, problems.size());
  return out + "\n";
}

}  // namespace kinevo::bench::cec2006
