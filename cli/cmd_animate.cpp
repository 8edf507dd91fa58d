// kinevo animate: one self-contained HTML page that plays a run's CSV on its model in 3D
// (three.js inlined; the 2D SVG page with --view 2d or when three.js is not installed):
// docs/animation.md. Parses options, calls write_motion_page, prints the report.
#include <fmt/format.h>

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "kinevo/cli/command.hpp"
#include "kinevo/cli/motion_page.hpp"
#include "kinevo/io/csv_table.hpp"
#include "kinevo/mechanics/model/model_drawing.hpp"

namespace kinevo::cli {

namespace {

struct animate_args {
  std::string run;
  std::string model;
  std::string output = "motion.html";
  std::string title;
  std::vector<std::string> trails;
  motion_view view = motion_view::three_d;
  bool json = false;
  bool quiet = false;
};

int run_animate(const animate_args& a) {
  check_output_path(a.output, "--out");
  const mechanics::model_drawing drawing = mechanics::model_drawing::load(a.model);
  const io::csv_table run = io::read_csv_table(a.run);
  const motion_page_report page = write_motion_page(
      drawing, run, a.run, a.title.empty() ? a.run : a.title, a.trails, a.view, a.output);
  if (a.json) {
    nlohmann::json j = page.json;
    j["run"] = a.run;
    j["model"] = a.model;
    j["output"] = a.output;
    fmt::print("{}\n", j.dump());
  } else if (!a.quiet) {
    fmt::print("{}\n  wrote {}\n", page.text, a.output);
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
      sub.add_option("--trail", a->trails,
                     "Draw the path of this body, particle or joint from the start (repeatable; "
                     "the page can add others)");
      sub.add_option("--view", a->view, "3d: three.js viewer; 2d: the SVG page (XY projection)")
          ->transform(CLI::CheckedTransformer(std::map<std::string, motion_view>{
              {"3d", motion_view::three_d}, {"2d", motion_view::two_d}}))
          ->default_str("3d");
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
