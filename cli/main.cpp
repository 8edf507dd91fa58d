// kinevo: one executable, subcommands registered by the cmd_*.cpp files.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <exception>
#include <map>
#include <memory>
#include <new>
#include <vector>

#include "kinevo/cli/argument_checks.hpp"
#include "kinevo/cli/command.hpp"
#include "kinevo/cli/did_you_mean.hpp"
#include "kinevo/cli/json_contract.hpp"
#include "kinevo/cli/subcommand_error.hpp"
#include "kinevo/cli/version.hpp"
#include "kinevo/core/resource_error.hpp"
#include "kinevo/ga/evaluation_error.hpp"
#include "kinevo/ga/mpi_environment.hpp"
#include "kinevo/gauss/register_ga_solver.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/studies/mpi_row_collective.hpp"

namespace kinevo::cli {

namespace {
struct registered {
  int order;
  std::string name;
  std::string description;
  command_setup setup;
  std::string parent;
};
std::vector<registered>& registry() {
  static std::vector<registered> r;
  return r;
}
}  // namespace

command_registration::command_registration(int order, std::string name, std::string description,
                                           command_setup setup, std::string parent) {
  registry().push_back(
      {order, std::move(name), std::move(description), std::move(setup), std::move(parent)});
}

}  // namespace kinevo::cli

int main(int argc, char** argv) {
  using namespace kinevo;
  ga::mpi_environment mpi(argc, argv);
  gauss::register_ga_solver();
  // Under mpiexec, "gigsp" spreads its rows over the ranks (every rank solves; rank 0 reports).
  studies::register_distributed_gigsp();
  CLI::App app{
      "kinevo: genetic algorithms and classical optimisers for mechanism dynamics and synthesis"};
  app.set_version_flag("--version", std::string("kinevo ") + cli::version);
  app.require_subcommand(1);
  app.fallthrough(false);

  auto commands = cli::registry();
  // Registration order between files is unspecified: order by number, then by name, so that
  // the help lists the subcommands the same way in every build.
  std::sort(commands.begin(), commands.end(), [](const auto& a, const auto& b) {
    return a.order != b.order ? a.order < b.order : a.name < b.name;
  });
  // Parents first (their setup adds their own subcommands), then the children registered from
  // other files; a parsed child runs instead of its parent, so children are tried first.
  std::map<std::string, CLI::App*> parents;
  std::map<CLI::App*, std::function<int()>> runners;
  std::map<CLI::App*, std::function<int()>> child_runners;
  for (auto& c : commands) {
    if (!c.parent.empty()) continue;
    CLI::App* sub = app.add_subcommand(c.name, c.description);
    parents[c.name] = sub;
    runners[sub] = c.setup(*sub);
  }
  for (auto& c : commands) {
    if (c.parent.empty()) continue;
    CLI::App* sub = parents.at(c.parent)->add_subcommand(c.name, c.description);
    child_runners[sub] = c.setup(*sub);
  }

  // Under mpiexec every rank parses and runs alike; rank 0 alone prints help and errors.
  const bool root = ga::mpi_environment::rank() == 0;
  // With --json every exit prints one object on stdout (cli/json_contract.hpp).
  cli::json_exit_contract json(argc, argv, root);
  auto fail = [&](int code, const std::string& message) {
    if (root) fmt::print(stderr, "kinevo: {}\n", message);
    json.set_message(message);
    return json.finish(code);
  };
  if (const auto empty = cli::empty_argument(argc, argv)) return fail(cli::exit_bad_input, *empty);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return json.finish(root ? app.exit(e) : 0);  // --help, --version
    // A missing or unknown subcommand in kinevo's words (CLI11 says "A subcommand is required"
    // even for a misspelt one).
    if (const auto wrong = cli::subcommand_error(app, argc, argv)) {
      if (root) fmt::print(stderr, "{}\n", *wrong);
      json.set_message(*wrong);
      return json.finish(cli::exit_bad_input);
    }
    const std::string message = cli::plain_parse_error(e.what());
    if (root) {
      fmt::print(stderr, "{}\nRun with --help for more information.\n", message);
      fmt::print(stderr, "{}", cli::did_you_mean(app, argc, argv));
    }
    json.set_message(message);
    return json.finish(cli::exit_bad_input);
  }

  try {
    for (auto& [sub, run] : child_runners) {
      if (sub->parsed()) return json.finish(run());
    }
    for (auto& [sub, run] : runners) {
      if (sub->parsed()) return json.finish(run());
    }
    return json.finish(cli::exit_bad_input);
  } catch (const io::input_error& e) {
    return fail(cli::exit_bad_input, e.what());
  } catch (const io::option_error& e) {
    return fail(cli::exit_bad_input, e.what());
  } catch (const ga::evaluation_error& e) {
    // The problem returned NaN or infinity (or failed on another rank): the run failed.
    return fail(cli::exit_failure, fmt::format("error: {}", e.what()));
  } catch (const core::resource_error& e) {
    // A thread (or another system resource) the run cannot get: the run failed, the input is
    // fine.
    return fail(cli::exit_failure, fmt::format("error: {}", e.what()));
  } catch (const std::bad_alloc&) {
    // In kinevo's words, not "std::bad_alloc": the run asked for more memory than there is.
    return fail(cli::exit_failure,
                "error: out of memory: the run needs more memory than the system gives (make "
                "the problem, the population or the run smaller)");
  } catch (const std::exception& e) {
    return fail(cli::exit_failure, fmt::format("error: {}", e.what()));
  }
}
