// Chain description files: the examples load and run, and bad input names file, line and field.
#include "kinevo/analysis/chain_file.hpp"

#include <gtest/gtest.h>

#include <string>

#include "kinevo/io/errors.hpp"

namespace kinevo::analysis {
namespace {

std::string example(const std::string& name) {
  return std::string(KINEVO_EXAMPLES) + "/" + name;
}

// The message of the input_error that parsing `text` throws ("" if none).
std::string error_of(const std::string& text) {
  try {
    parse_chain_description(text, "bad.toml");
  } catch (const kinevo::io::input_error& e) {
    return e.what();
  }
  return "";
}

const std::string links6 = R"(links = [
  { a = 1, b = 0, alpha = 90 }, { a = 1, b = 0, alpha = 90 }, { a = 1, b = 0, alpha = 90 },
  { a = 1, b = 0, alpha = 90 }, { a = 1, b = 0, alpha = 90 },
]
)";

TEST(ChainFile, ExamplesLoadAndRun) {
  const auto d7 = read_chain_description(example("chain_7r.toml"));
  EXPECT_EQ(d7.kind, chain_kind::closure);
  EXPECT_EQ(d7.closure.input, 6);
  EXPECT_EQ(d7.inputs.size(), 23u);
  const auto r7 = analyze_chain(d7);
  EXPECT_EQ(r7.count(point_status::singular), 1u);

  const auto rs = analyze_chain(read_chain_description(example("chain_rsrc.toml")));
  EXPECT_TRUE(rs.ok());
  EXPECT_NEAR(-rs.points[3].q[6], 1.0 + std::sqrt(5.0), 1e-12);  // s(90 deg) = 1 + sqrt 5

  const auto d6 = read_chain_description(example("chain_6r_hexflex.toml"));
  EXPECT_EQ(d6.targets.size(), 21u);
  EXPECT_NEAR(d6.targets[10].a_ddot.x(), std::cos(1.0),
              1e-15);  // second derivative of -(1 + cos t)
  const auto r6 = analyze_chain(d6);
  EXPECT_TRUE(r6.ok());
  EXPECT_NEAR(r6.points[10].qdot[0], -0.37873758, 1e-8);

  // The 5R arm of Table 1 from its reference configuration (A, B derived there).
  const auto d5 = read_chain_description(example("chain_5r.toml"));
  const auto r5 = analyze_chain(d5);
  EXPECT_TRUE(r5.ok());
  const guided_points ref = guided_points_at(d5.guidance, d5.start);
  EXPECT_LT((ref.a - Eigen::Vector3d(514.3, -1016, 0)).norm(), 1e-9);
  EXPECT_LT((ref.b - Eigen::Vector3d(660.3, -1016, 0)).norm(), 1e-9);
  for (std::size_t k = 0; k < r5.points.size(); ++k) {
    const guided_points p = guided_points_at(d5.guidance, r5.points[k].q);
    EXPECT_LT((p.a - d5.targets[k].a).norm(), 1e-8) << k;
    EXPECT_LT((p.b - d5.targets[k].b).norm(), 1e-8) << k;
  }
}

TEST(ChainFile, ErrorsNameFileLineAndField) {
  EXPECT_EQ(error_of("kind = \"guidance\"\n" + links6 +
                     "start = [0, 0, 0, 0, 0]\n[motion]\na = [\"t\", \"0\"]\nb = "
                     "[\"0\",\"0\",\"0\"]\nt_from = 0\nt_to = 1\nt_step = 0.1\n"),
            "bad.toml:8: [motion] field 'a': must hold three expressions (x, y, z)");
  EXPECT_EQ(error_of("kind = \"loop\"\n"),
            "bad.toml:1: field 'kind': must be \"closure\" or \"guidance\"");
  const std::string bad_pair =
      "kind = \"guidance\"\nlinks = [\n { a = 1, b = 0, alpha = 90, pair = \"S\" },\n]\n";
  EXPECT_EQ(error_of(bad_pair), "bad.toml:3: links[1] field 'pair': must be \"R\" or \"P\"");
  const std::string unknown =
      "kind = \"guidance\"\n" + links6 + "start = [0, 0, 0, 0, 0]\nspeed = 3\n";
  EXPECT_EQ(error_of(unknown),
            "bad.toml:7: chain file: unknown field 'speed' (expected one of: name, kind, "
            "links, input, start, motion, solver)");
  const std::string bad_expr =
      "kind = \"guidance\"\n" + links6 +
      "start = [0, 0, 0, 0, 0]\n[motion]\na = [\"t\", \"0\", \"q + 1\"]\nb = "
      "[\"0\",\"0\",\"0\"]\nt_from = 0\nt_to = 1\nt_step = 0.1\n";
  const std::string e = error_of(bad_expr);
  EXPECT_NE(e.find("bad.toml:8: [motion] field 'a' item 3"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown name 'q'"), std::string::npos) << e;
  const std::string short_start = "kind = \"guidance\"\n" + links6 + "start = [0, 0]\n";
  EXPECT_EQ(error_of(short_start),
            "bad.toml:6: field 'start': must hold 5 joint values (one per link)");
  EXPECT_EQ(error_of("kind = \n"),
            error_of("kind = \n"));  // TOML syntax errors are input errors too
  EXPECT_NE(error_of("kind = \n").find("bad.toml:1"), std::string::npos);
  const std::string bad_input = "kind = \"closure\"\n" + links6 + "input = 9\n";
  EXPECT_EQ(error_of(bad_input), "bad.toml:6: field 'input': must be a joint number in [1, 5]");
}

}  // namespace
}  // namespace kinevo::analysis
