#include "kinevo/cli/simulate_options.hpp"

#include <fmt/format.h>

#include <stdlib.h>
#include <unistd.h>

#include <exception>
#include <sstream>
#include <system_error>

#include "kinevo/cli/command.hpp"
#include "kinevo/cli/motion_page.hpp"
#include "kinevo/io/csv_table.hpp"

namespace kinevo::cli {

void add_divergence_options(CLI::App& sub, mechanics::simulation_options& sim,
                            bool& no_divergence_check) {
  sub.add_option("--divergence-growth", sim.divergence_growth,
                 "Diverged when max |q| or |q'| exceeds this factor of the run's scale "
                 "(docs/mechanics.md)")
      ->capture_default_str();
  sub.add_option("--divergence-violation", sim.divergence_violation,
                 "Diverged when max |Phi| exceeds this times (1 + max |q0|)^2")
      ->capture_default_str();
  sub.add_option("--divergence-energy", sim.divergence_energy,
                 "Diverged when |E - E0| exceeds this times max(1, |E0|)")
      ->capture_default_str();
  sub.add_flag("--no-divergence-check", no_divergence_check,
               "Let a diverging motion run on (the exit status is then 0 if it stays finite)");
}

void add_animation_option(CLI::App& sub, std::string& animate) {
  sub.add_option("--animate", animate,
                 "Self-contained HTML page playing the run on the model in 3D "
                 "(docs/animation.md)");
}

std::optional<mechanics::model_drawing> prepare_animation(
    const std::string& animate, const std::string& model_file,
    const std::vector<mechanics::parameter_override>& overrides) {
  if (animate.empty()) return std::nullopt;
  check_output_path(animate, "--animate");
  return mechanics::model_drawing::load(model_file, overrides);
}

run_row_files::run_row_files(const std::string& out, bool animate) : out_path_(out) {
  if (!out.empty()) out_.emplace(out);
  if (!animate || (out_ && !out_->written_through())) return;
  std::error_code ec;
  std::string name = (std::filesystem::temp_directory_path(ec) / "kinevo-rows-XXXXXX").string();
  const int fd = ::mkstemp(name.data());
  if (fd < 0) {
    throw io::output_error(
        "--animate: cannot create a scratch file for the run's rows in the temporary folder");
  }
  ::close(fd);
  scratch_path_ = name;
  scratch_.open(scratch_path_, std::ios::binary | std::ios::trunc);
}

run_row_files::~run_row_files() {
  if (scratch_path_.empty()) return;
  scratch_.close();
  std::error_code ignored;
  std::filesystem::remove(scratch_path_, ignored);
}

std::vector<std::ostream*> run_row_files::sinks() {
  std::vector<std::ostream*> out;
  if (out_) out.push_back(&out_->stream());
  if (!scratch_path_.empty()) out.push_back(&scratch_);
  return out;
}

void run_row_files::commit() {
  if (out_) out_->commit();
}

io::csv_table run_row_files::read_rows(const std::string& source) {
  if (!scratch_path_.empty()) scratch_.flush();
  if (scratch_path_.empty() && !out_) return {};
  const std::filesystem::path from =
      scratch_path_.empty() ? std::filesystem::path(out_path_) : scratch_path_;
  std::ifstream in(from, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) throw io::input_error("cannot read back the run's rows");
  return io::parse_csv_table(text.str(), source);
}

void save_animation(const std::string& animate, const mechanics::model_drawing& drawing,
                    run_row_files& row_files, const std::string& title) {
  try {
    const io::csv_table rows = row_files.read_rows(animate);
    if (rows.rows.empty()) return;  // nothing was recorded: no page
    write_motion_page(drawing, rows, animate, title, {}, motion_view::three_d, animate);
  } catch (const std::exception& e) {
    // A diverged run's non-finite rows: the CSV and the report still stand.
    fmt::print(stderr, "kinevo simulate: --animate {}: not written: {}\n", animate, e.what());
  }
}

}  // namespace kinevo::cli
