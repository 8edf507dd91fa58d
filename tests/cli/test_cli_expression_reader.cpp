// Issue 31's crash class, end to end: a function called with the wrong number of arguments, or
// a character outside the expression language, in every file and option an expression is read
// from. Each subcommand must exit 2 naming the file, line, field and function (it crashed with
// SIGSEGV for a call without arguments; '#' silently dropped the rest of an expression).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/cli/cli_test_support.hpp"

namespace kinevo::test {
namespace {

// `text` with the first occurrence of `from` replaced by `to` (the test fails when absent).
std::string with_replaced(std::string text, const std::string& from, const std::string& to) {
  const auto pos = text.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  if (pos != std::string::npos) text.replace(pos, from.size(), to);
  return text;
}

std::string write_file(const std::filesystem::path& dir, const std::string& name,
                       const std::string& text) {
  std::ofstream(dir / name) << text;
  return (dir / name).string();
}

struct reader_case {
  std::string args;
  std::string where;   // file:line and field, as the message must name them
  std::string reason;  // the refused call or character
};

TEST(CliExpressionReader, WrongArgumentCountsAndUnknownCharactersExitTwo) {
  const auto dir = fresh_dir("expression_reader");
  const std::string pendulum = read_text(example("pendulum.toml"));
  const std::string sqrt0 = write_file(
      dir, "sqrt0.toml", with_replaced(pendulum, "\"l*sin(theta0)\"", "\"sqrt()sqrt(3)/2\""));
  const std::string hash =
      write_file(dir, "hash.toml", with_replaced(pendulum, "mass = \"m\"", "mass = \"1 # + 100\""));
  const std::string atan1 = write_file(
      dir, "atan1.toml", with_replaced(pendulum, "\"x^2 + y^2 - l^2\"", "\"atan2(x) - l\""));
  const std::string problem =
      write_file(dir, "p.toml",
                 with_replaced(read_text(example("sanlsu_ellipse.toml")),
                               "objective = \"(x1^2 + x2^2)/2\"", "objective = \"sin()\""));
  const std::string shovel =
      write_file(dir, "shovel.toml",
                 with_replaced(read_text(example("shovel_actuator.toml")),
                               "expression = \"3 + 0.5*sin(pi*t)^2\"", "expression = \"sin()\""));
  const std::string chain =
      write_file(dir, "chain.toml",
                 with_replaced(read_text(example("chain_5r.toml")),
                               "\"100 * (1 - cos(pi * t / 5))\"", "\"cos(pi, t)\""));
  const std::string sqrt0_where = "sqrt0.toml:19: [[coordinate]] 'x' field 'initial'";
  const std::string sqrt0_reason =
      "function 'sqrt' takes 1 argument, as in sqrt(x); 'sqrt()' has none";
  const std::vector<reader_case> cases = {
      {"model info " + sqrt0, sqrt0_where, sqrt0_reason},
      {"accel " + sqrt0, sqrt0_where, sqrt0_reason},
      {"simulate " + sqrt0 + " --t-end 0.1 --quiet", sqrt0_where, sqrt0_reason},
      {"kinematics " + sqrt0, sqrt0_where, sqrt0_reason},
      {"model assemble " + sqrt0, sqrt0_where, sqrt0_reason},
      {"model info " + hash, "hash.toml:20: [[coordinate]] 'x' field 'mass'",
       "'#' at column 3 is not part of the expression language"},
      {"simulate " + atan1 + " --t-end 0.1 --quiet",
       "atan1.toml:30: [[constraint]] 'rod' field 'holonomic'",
       "function 'atan2' takes 2 arguments, as in atan2(y, x); 'atan2(x)' has 1"},
      {"optimize --problem " + problem + " --quiet", "p.toml:", "function 'sin' takes 1 argument"},
      {"optimize --problem " + problem + " --method sanlsu --quiet",
       "p.toml:", "function 'sin' takes 1 argument"},
      {"analyze loop rrrr --a1 4 --a2 1 --a3 3.5 --a4 3 -e 'sin()'", "--expression",
       "function 'sin' takes 1 argument"},
      {"analyze loop rprr --a1 2.5 --a2 1.2 -e 'atan2(t)'", "--expression",
       "function 'atan2' takes 2 arguments"},
      {"analyze loop rrrp --a1 0 --a2 1 --a3 2 -e 'exp(t, t, t)'", "--expression",
       "function 'exp' takes 1 argument"},
      {"analyze loop chain " + shovel, "shovel.toml:", "function 'sin' takes 1 argument"},
      {"analyze chain " + chain, "chain.toml:20", "function 'cos' takes 1 argument"},
  };
  for (const auto& c : cases) {
    const auto r = run_kinevo(c.args);
    EXPECT_EQ(r.status, 2) << "kinevo " << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.where), std::string::npos) << "kinevo " << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.reason), std::string::npos) << "kinevo " << c.args << "\n" << r.err;
  }
  // The loop chain's motion names its line and field, not only the file.
  const auto loop = run_kinevo("analyze loop chain " + shovel);
  EXPECT_NE(loop.err.find("[motion] field 'expression'"), std::string::npos) << loop.err;
}

}  // namespace
}  // namespace kinevo::test
