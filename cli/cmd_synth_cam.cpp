// kinevo synth cam: optimal cam synthesis (translating roller, oscillating roller, flat-face
// followers) from a TOML cam file. Parses options, calls synthesis/ and prints its report.
#include <fmt/format.h>

#include <memory>
#include <optional>
#include <string>

#include "kinevo/cli/command.hpp"
#include "kinevo/cli/report_output.hpp"
#include "kinevo/synthesis/cams/cam_file.hpp"
#include "kinevo/synthesis/cams/cam_synthesis.hpp"
#include "kinevo/synthesis/common/output_folder.hpp"

namespace kinevo::cli {

namespace {

namespace syn = kinevo::synthesis;

struct cam_args : output_args {
  std::string file;
};

int run_cam(const cam_args& a) {
  const auto problem = syn::read_cam_file(a.file);
  // Checked and prepared before the run, so that an unusable folder costs no run (exit 2).
  check_output_dir(a);
  std::optional<syn::output_folder> folder;
  if (!a.output_dir.empty()) folder.emplace(a.output_dir);
  const auto r = syn::synthesize_cam(problem);
  std::vector<std::string> written;
  if (folder && r.found) {
    r.save_files(*folder);
    folder->commit();
    written = folder->written();
  }
  print(r, a, written);
  if (!r.summary.usable()) fmt::print(stderr, "synth cam: {}: {}\n", a.file, r.summary.message);
  return core::exit_status(r.summary);
}

const command_registration synth_cam_registration(
    56, "cam",
    "Optimal cam synthesis: translating roller, oscillating roller and flat-face followers",
    [](CLI::App& sub) -> std::function<int()> {
      auto a = std::make_shared<cam_args>();
      sub.add_option("file", a->file, "Cam file (TOML): follower, [[phase]], [bounds], [box]")
          ->required();
      sub.add_option("-o,--output-dir", a->output_dir,
                     "Write cam_profile.csv, cam_programme.csv and cam.svg into this folder "
                     "(its parent must exist; other files in it are kept)");
      add_output(sub, *a);
      return [a]() { return run_cam(*a); };
    },
    "synth");

}  // namespace

}  // namespace kinevo::cli
