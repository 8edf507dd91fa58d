// Reads one or more CEC 2006 benchmark CSVs (compare_pagmo_cec2006 --csv, bench/cec2006_kinevo.sh)
// and prints the side-by-side markdown table of docs/benchmarks.md: rows g01..g24 and "met",
// one column per solver and budget, each "median error among feasible finals (feasible/runs)",
// met problems in bold (median error <= 1e-4 and at least 3 of 5 finals feasible).
// Run by hand:
//   build/bench/compare_cec2006_summary bench/results/cec2006_pagmo.csv cec2006_kinevo.csv
#include <cstdio>
#include <exception>
#include <fstream>
#include <string>
#include <vector>

#include "cec2006_table.hpp"

int main(int argc, char** argv) {
  namespace cec = kinevo::bench::cec2006;
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
    std::fputs("usage: compare_cec2006_summary FILE.csv [FILE.csv ...]\n",
               argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  std::vector<cec::run_row> rows;
  try {
    for (int k = 1; k < argc; ++k) {
      std::ifstream in(argv[k]);
      if (!in) throw std::runtime_error(std::string("cannot read ") + argv[k]);
      const auto part = cec::read_csv(in, argv[k]);
      rows.insert(rows.end(), part.begin(), part.end());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "compare_cec2006_summary: %s\n", e.what());
    return 1;
  }
  std::fputs(cec::markdown_table(rows).c_str(), stdout);
  return 0;
}
