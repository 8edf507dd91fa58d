// kinevo analyze chain FILE.toml: a spatial closed chain driven at one joint, or an open chain
// guiding two points, by damped Newton with invariants (analysis/closed_chain.hpp,
// analysis/guidance_chain.hpp). Reads the chain file, runs the analyser, prints its report
// and writes its CSV and SVG; exit 1 naming the singular or unconverged points.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "kinevo/analysis/chain_file.hpp"
#include "kinevo/cli/command.hpp"
#include "kinevo/cli/report_output.hpp"
#include "kinevo/io/atomic_file.hpp"
#include "kinevo/synthesis/common/output_folder.hpp"

namespace kinevo::cli {

namespace {

struct chain_args : output_args {
  std::string file;
  std::string residual;
  bool skip_singular = false;
};

int run_chain(const chain_args& a) {
  auto d = analysis::read_chain_description(a.file);
  check_output_dir(a);
  if (!a.residual.empty()) {
    try {
      d.options.residual = analysis::parse_rotation_residual(a.residual);
    } catch (const io::option_error& e) {
      throw io::input_error(fmt::format("--residual {}", e.requirement()));
    }
  }
  d.options.skip_singular = d.options.skip_singular || a.skip_singular;
  const auto r = analysis::analyze_chain(d);

  std::vector<std::string> written;
  if (!a.output_dir.empty()) {
    synthesis::output_folder folder(a.output_dir);
    io::write_text_atomically(folder.file("chain.csv"), r.csv());
    io::write_text_atomically(folder.file("chain.svg"), r.svg());
    folder.commit();
    written = folder.written();
  }
  print(r, a, written);
  const core::summary s = r.summary();
  if (!s.usable()) {
    for (const auto& p : r.problems()) fmt::print(stderr, "kinevo analyze chain: {}\n", p);
  }
  return core::exit_status(s);
}

const command_registration chain_registration(
    2, "chain",
    "Spatial closed chain (7R, RSRC, ...) or 5-DOF guidance by damped Newton with invariants",
    [](CLI::App& sub) -> std::function<int()> {
      auto a = std::make_shared<chain_args>();
      sub.add_option("file", a->file, "Chain description (TOML)")->required();
      add_output(sub, *a);
      sub.add_option("-o,--output-dir", a->output_dir,
                     "Write chain.csv and chain.svg into this folder (its parent must exist; "
                     "other files in it are kept)");
      sub.add_option("--residual", a->residual,
                     "Rotation residual: automatic (default), invariant or relative");
      sub.add_flag("--skip-singular", a->skip_singular,
                   "Report singular configurations without failing (exit 0)");
      return [a]() { return run_chain(*a); };
    },
    "analyze");

}  // namespace

}  // namespace kinevo::cli
