// kinevo analyze loop: the single-loop planar analysers RESC11 (rrrr), RESC12 (rprr), RESC13
// (rrrp) over an input motion, and chains of them from a TOML file (chain). Parses options into
// the library's structs, calls analysis/, prints the result's report and writes its CSV and SVG.
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <numbers>
#include <string>
#include <type_traits>
#include <vector>

#include "kinevo/analysis/loop_chain.hpp"
#include "kinevo/analysis/loop_chain_file.hpp"
#include "kinevo/analysis/loop_motion.hpp"
#include "kinevo/analysis/rprr_loop.hpp"
#include "kinevo/analysis/rrrp_loop.hpp"
#include "kinevo/analysis/rrrr_loop.hpp"
#include "kinevo/cli/command.hpp"
#include "kinevo/cli/report_output.hpp"
#include "kinevo/synthesis/common/output_folder.hpp"

namespace kinevo::cli {

namespace {

namespace an = kinevo::analysis;

void add_loop_output(CLI::App& app, output_args& a) {
  add_output(app, a);
  app.add_option("-o,--output-dir", a.output_dir,
                 "Write loop.csv and loop.svg into this folder (its parent must exist; other "
                 "files in it are kept)");
}

// The input motion: an expression in t on a time grid, or a sweep at a constant rate.
struct motion_args {
  an::expression_motion expression;
  an::sweep_motion sweep;
  CLI::Option* from = nullptr;
};

void add_motion(CLI::App& app, motion_args& m) {
  auto* e = app.add_option("-e,--expression", m.expression.expression,
                           "Input value as an expression in t (exact rate and acceleration)");
  app.add_option("--t-start", m.expression.grid.t_start, "First time of the grid")
      ->capture_default_str();
  app.add_option("--t-end", m.expression.grid.t_end, "Last time of the grid")
      ->capture_default_str();
  app.add_option("--dt", m.expression.grid.dt, "Time step of the grid")->capture_default_str();
  m.from = app.add_option("--from", m.sweep.from, "Sweep: first input value");
  auto* to = app.add_option("--to", m.sweep.to, "Sweep: last input value");
  auto* step = app.add_option("--step", m.sweep.step, "Sweep: input step (> 0)");
  app.add_option("--rate", m.sweep.rate, "Sweep: constant input rate")->capture_default_str();
  m.from->needs(to, step)->excludes(e);
  to->needs(m.from);
  step->needs(m.from);
}

std::vector<an::motion_sample> sample(const motion_args& m) {
  if (m.from->count() > 0) {
    validate_options(m.sweep);
    return an::sample_motion(m.sweep);
  }
  if (m.expression.expression.empty()) {
    throw io::input_error("give the input motion: --expression EXPR or --from/--to/--step");
  }
  validate_options(m.expression.grid);
  return an::sample_motion(m.expression, "--expression");
}

std::vector<std::string> save_files(const an::loop_analysis& r, const output_args& a) {
  if (a.output_dir.empty()) return {};
  synthesis::output_folder folder(a.output_dir);
  io::write_text_atomically(folder.file("loop.csv"), r.csv());
  io::write_text_atomically(folder.file("loop.svg"), r.svg());
  folder.commit();
  return folder.written();
}

// Prints the report; exit 1 (naming the points) when some point could not be assembled.
int report(const an::loop_analysis& r, const output_args& a) {
  print(r, a, save_files(r, a));
  const core::summary s = r.summary();
  if (!s.usable()) fmt::print(stderr, "kinevo analyze loop: {}\n", s.message);
  return core::exit_status(s);
}

template <class Dimensions, class Loop>
struct loop_args : output_args {
  Dimensions dims;
  motion_args motion;
  double alpha_deg = 0.0;  // rrrr only: coupler point angle in degrees
  int run() {
    if constexpr (std::is_same_v<Dimensions, an::rrrr_dimensions>) {
      dims.coupler_alpha = alpha_deg * std::numbers::pi / 180.0;
      validate_options(dims, {{"coupler_alpha", "--coupler-alpha"}});
    } else {
      validate_options(dims);
    }
    check_output_dir(*this);
    const auto samples = sample(motion);
    return report(an::analyse_loop(std::make_unique<Loop>(dims), samples), *this);
  }
};

using rrrr_args = loop_args<an::rrrr_dimensions, an::rrrr_loop>;
using rprr_args = loop_args<an::rprr_dimensions, an::rprr_loop>;
using rrrp_args = loop_args<an::rrrp_dimensions, an::rrrp_loop>;

template <class Args>
CLI::App* add_loop(CLI::App& sub, const char* name, const char* description, Args& a) {
  CLI::App* app = sub.add_subcommand(name, description);
  app->add_option("--branch", a.dims.branch, "Assembly branch: 1 or -1")->capture_default_str();
  add_motion(*app, a.motion);
  add_loop_output(*app, a);
  return app;
}

struct loop_chain_args : output_args {
  std::string file;
  int run() const {
    const an::chain_file f = an::read_chain_file(file);
    check_output_dir(*this);
    return report(an::analyse_chain(f.chain, an::sample_motion(f.motion, f.motion_where)), *this);
  }
};

const command_registration loop_registration(
    10, "loop", "Single-loop planar analysers (RESC11-13) and chains of them",
    [](CLI::App& sub) -> std::function<int()> {
      sub.require_subcommand(1);
      auto r4 = std::make_shared<rrrr_args>();
      CLI::App* c4 = add_loop(sub, "rrrr", "Four-bar driven by its crank angle psi (RESC11)", *r4);
      c4->add_option("--a1", r4->dims.a1, "Frame length")->required();
      c4->add_option("--a2", r4->dims.a2, "Input crank length")->required();
      c4->add_option("--a3", r4->dims.a3, "Coupler length")->required();
      c4->add_option("--a4", r4->dims.a4, "Output link length")->required();
      c4->add_option("--coupler-r", r4->dims.coupler_r, "Coupler point: distance from crank pin");
      c4->add_option("--coupler-alpha", r4->alpha_deg,
                     "Coupler point: angle from the coupler line, degrees");

      auto rp = std::make_shared<rprr_args>();
      CLI::App* cp = add_loop(sub, "rprr", "RPRR driven by the length a (RESC12)", *rp);
      cp->add_option("--a1", rp->dims.a1, "Frame length (cylinder base to link pivot)")->required();
      cp->add_option("--a2", rp->dims.a2, "Driven link length")->required();

      auto r3 = std::make_shared<rrrp_args>();
      CLI::App* c3 = add_loop(sub, "rrrp", "Offset slider-crank driven by psi (RESC13)", *r3);
      c3->add_option("--a1", r3->dims.a1, "Offset of the slide line")->required();
      c3->add_option("--a2", r3->dims.a2, "Crank length")->required();
      c3->add_option("--a3", r3->dims.a3, "Coupler length")->required();

      auto ch = std::make_shared<loop_chain_args>();
      CLI::App* cc = sub.add_subcommand("chain", "Coupled loops described in a TOML file");
      cc->add_option("file", ch->file, "Chain file ([motion] and [[loop]] tables)")->required();
      add_loop_output(*cc, *ch);

      return [=]() {
        if (c4->parsed()) return r4->run();
        if (cp->parsed()) return rp->run();
        if (c3->parsed()) return r3->run();
        if (cc->parsed()) return ch->run();
        return exit_bad_input;
      };
    },
    "analyze");

}  // namespace

}  // namespace kinevo::cli
