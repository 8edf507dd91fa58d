// kinevo animate: one self-contained HTML page (inline SVG and JavaScript) that plays a run's
// CSV on its model (spatial ones projected onto XY): play/pause, a time slider and a speed control
// (docs/animation.md). Parses options, calls mechanics::model_drawing and io::save_animation_html,
// prints the report.
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "kinevo/cli/command.hpp"
#include "kinevo/io/animation_html.hpp"
#include "kinevo/io/csv_table.hpp"
#include "kinevo/mechanics/model_drawing.hpp"

namespace kinevo::cli {

namespace {

struct animate_args {
  std::string run;
  std::string model;
  std::string output = "motion.html";
  std::string title;
  bool json = false;
  bool quiet = false;
};

int run_animate(const animate_args& a) {
  check_output_path(a.output, "--out");
  const mechanics::model_drawing drawing = mechanics::model_drawing::load(a.model);
  const io::csv_table run = io::read_csv_table(a.run);
  io::animation anim;
  try {
    anim = mechanics::animate_run(drawing, run, a.title.empty() ? a.run : a.title);
    anim.validate();
  } catch (const std::invalid_argument& e) {
    throw io::input_error(fmt::format("{}: {}", a.run, e.what()));
  }
  io::save_animation_html(anim, a.output);
  if (a.json) {
    nlohmann::json j = anim.to_json();
    j["run"] = a.run;
    j["model"] = a.model;
    j["output"] = a.output;
    fmt::print("{}\n", j.dump());
  } else if (!a.quiet) {
    fmt::print("{}\n  wrote {}\n", anim.report(), a.output);
  }
  return exit_ok;
}

const command_registration animate_registration(
    15, "animate", "Self-contained HTML animation of a run's CSV on its model",
    [](CLI::App& sub) -> std::function<int()> {
      auto a = std::make_shared<animate_args>();
      sub.add_option("run", a->run,
                     "CSV of a run (t and the model's coordinates, e.g. "
                     "simulate --out)")
          ->required();
      sub.add_option("--model", a->model, "Model file (TOML) the run is of")->required();
      sub.add_option("--out,-o,--output", a->output,
                     "HTML file to write (-o and --output: older names, kept)")
          ->capture_default_str();
      sub.add_option("--title", a->title, "Page title (default: the CSV's name)");
      sub.add_flag("--json", a->json, "Print one JSON object on stdout");
      sub.add_flag("-q,--quiet", a->quiet, "No text output");
      sub.footer(
          "The page shows the frame nearest to a time given in its address: motion.html#t=0.5.\n"
          "Exit status:\n"
          "  0  written\n"
          "  2  bad input (the message names the file, line and field) or an unusable output\n"
          "     path");
      return [a]() { return run_animate(*a); };
    });

}  // namespace

}  // namespace kinevo::cli
