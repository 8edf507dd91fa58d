// The contract of the synthesis options and reports: every invalid field throws io::option_error
// naming it, every enum round-trips through to_string/parse, and each report's JSON keys are a
// golden list (scripts read them).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <functional>
#include <limits>
#include <set>
#include <string>

#include "kinevo/io/option_error.hpp"
#include "kinevo/synthesis/linkages/chebyshev_points.hpp"
#include "kinevo/synthesis/linkages/dyad_guidance.hpp"
#include "kinevo/synthesis/linkages/fourbar_synthesis.hpp"
#include "kinevo/synthesis/linkages/input_tables.hpp"
#include "kinevo/synthesis/linkages/rssr_synthesis.hpp"

namespace ks = kinevo::synthesis;

namespace {

constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();
constexpr double infinite = std::numeric_limits<double>::infinity();

std::string data(const std::string& name) {
  return std::string(KINEVO_TEST_DATA) + "/synthesis/" + name;
}

// Expects validate() to throw option_error whose field is `field`.
template <class Options>
void expect_refused(const Options& o, const std::string& field, const std::string& what) {
  try {
    o.validate();
    ADD_FAILURE() << what << ": accepted";
  } catch (const kinevo::io::option_error& e) {
    EXPECT_EQ(e.field(), field) << what << ": " << e.what();
  }
}

std::set<std::string> keys(const nlohmann::json& j) {
  std::set<std::string> k;
  for (const auto& [key, value] : j.items()) k.insert(key);
  return k;
}

}  // namespace

TEST(SynthesisContract, DefaultsValidate) {
  EXPECT_NO_THROW(ks::fourbar_synthesis_options{}.validate());
  EXPECT_NO_THROW(ks::rssr_synthesis_options{}.validate());
  EXPECT_NO_THROW(ks::dyad_guidance_options{}.validate());
  EXPECT_NO_THROW(ks::ga_synthesis_options{}.validate());
  EXPECT_NO_THROW(ks::crank_constrained_options{}.validate());
  EXPECT_NO_THROW(ks::dyad_options{}.validate());
  EXPECT_NO_THROW((ks::chebyshev_options{0.0, 1.0, 3}.validate()));
}

TEST(SynthesisContract, FourbarFieldsNamed) {
  const auto bad = [](const std::string& field, double v,
                      const std::function<void(ks::fourbar_synthesis_options&, double)>& set) {
    ks::fourbar_synthesis_options o;
    set(o, v);
    expect_refused(o, field, field + " = " + std::to_string(v));
  };
  for (const double v : {not_a_number, infinite, -1.0, 0.0, 1e101}) {
    bad("frame", v, [](auto& o, double x) { o.frame = x; });
  }
  for (const double v : {not_a_number, infinite, -1.0, 90.0, 1e308}) {
    bad("min_transmission_deg", v, [](auto& o, double x) { o.min_transmission_deg = x; });
  }
  for (const double v : {not_a_number, infinite, -infinite, 1.0, 0.5, -3.0, 1e7, 1e160}) {
    bad("max_ratio", v, [](auto& o, double x) { o.max_ratio = x; });
  }
  ks::fourbar_synthesis_options o;
  o.exact = true;
  o.crank = ks::crank_requirement::input;
  expect_refused(o, "exact", "exact with a crank");
  o.crank = ks::crank_requirement::none;
  o.method = ks::fourbar_method::ga;
  expect_refused(o, "exact", "exact with the GA");
  o.method = ks::fourbar_method::penalty;
  o.coupler = ks::coupler_requirement::crank;
  expect_refused(o, "exact", "exact with a coupler type");
  ks::fourbar_synthesis_options r;
  r.output_rocker = true;
  r.crank = ks::crank_requirement::both;
  expect_refused(r, "output", "an output both crank and rocker");
}

TEST(SynthesisContract, GaFieldsNamed) {
  const auto bad = [](const std::string& field,
                      const std::function<void(ks::ga_synthesis_options&)>& set) {
    ks::ga_synthesis_options o;
    set(o);
    expect_refused(o, field, field);
    // The GA settings are checked inside every synthesis option struct that holds them.
    ks::fourbar_synthesis_options f;
    set(f.ga);
    expect_refused(f, field, "fourbar " + field);
    ks::rssr_synthesis_options r;
    set(r.ga);
    expect_refused(r, field, "rssr " + field);
    ks::dyad_guidance_options d;
    set(d.ga);
    expect_refused(d, field, "dyad " + field);
  };
  bad("islands", [](auto& o) { o.islands.islands = 0; });
  bad("islands", [](auto& o) { o.islands.islands = -1; });
  bad("islands", [](auto& o) { o.islands.islands = 1'000'000; });
  bad("generations", [](auto& o) { o.generations = 0; });
  bad("generations", [](auto& o) { o.generations = -5; });
  bad("generations", [](auto& o) { o.generations = 100'000'000'000LL; });
  bad("range_runs", [](auto& o) { o.range_runs = 0; });
  bad("shrink", [](auto& o) { o.shrink = 1.0; });
  bad("shrink", [](auto& o) { o.shrink = not_a_number; });
  bad("penalty_weight", [](auto& o) { o.penalty_weight = infinite; });
  bad("weight_growth", [](auto& o) { o.weight_growth = not_a_number; });
  bad("weight_growth", [](auto& o) { o.weight_growth = 0.5; });
}

TEST(SynthesisContract, RssrDyadChebyshevCrankFieldsNamed) {
  for (const double v : {not_a_number, infinite, -720.0, 361.0}) {
    ks::rssr_synthesis_options o;
    o.alpha4_deg = v;
    expect_refused(o, "alpha4_deg", "alpha4");
  }
  for (const double v : {not_a_number, infinite, 0.0, -1.0, 1e300}) {
    ks::rssr_synthesis_options o;
    o.a4 = v;
    expect_refused(o, "a4", "a4");
  }
  for (const int v : {0, -1, ks::max_dyad_starts + 1}) {
    ks::dyad_guidance_options o;
    o.starts.starts = v;
    expect_refused(o, "starts", "starts");
    ks::dyad_guidance_options k;
    k.starts.keep = v;
    expect_refused(k, "keep", "keep");
  }
  expect_refused(ks::chebyshev_options{not_a_number, 1.0, 3}, "from", "from not_a_number");
  expect_refused(ks::chebyshev_options{0.0, infinite, 3}, "to", "to infinite");
  expect_refused(ks::chebyshev_options{1.0, 1.0, 3}, "to", "to = from");
  expect_refused(ks::chebyshev_options{-1e308, 1e308, 3}, "to", "to - from overflows");
  expect_refused(ks::chebyshev_options{0.0, 1.0, 0}, "n", "n = 0");
  expect_refused(ks::chebyshev_options{0.0, 1.0, 100'000'000}, "n", "n = 1e8");
  ks::crank_constrained_options c;
  c.random_starts = -1;
  expect_refused(c, "random_starts", "random_starts");
  c = {};
  c.weights = {1.0, -1.0};
  expect_refused(c, "weights", "weights");
  c = {};
  c.min_transmission = not_a_number;
  expect_refused(c, "min_transmission", "min_transmission");
  c = {};
  c.max_link_ratio = 1e160;
  expect_refused(c, "max_link_ratio", "max_link_ratio");
}

TEST(SynthesisContract, EnumsRoundTrip) {
  for (const auto m : {ks::fourbar_method::penalty, ks::fourbar_method::ga}) {
    EXPECT_EQ(ks::parse_fourbar_method(ks::to_string(m)), m);
  }
  for (const auto m : {ks::rssr_method::householder, ks::rssr_method::ga}) {
    EXPECT_EQ(ks::parse_rssr_method(ks::to_string(m)), m);
  }
  for (const auto m : {ks::dyad_method::gauss_newton, ks::dyad_method::ga}) {
    EXPECT_EQ(ks::parse_dyad_method(ks::to_string(m)), m);
  }
  for (const auto c : {ks::crank_requirement::none, ks::crank_requirement::input,
                       ks::crank_requirement::output, ks::crank_requirement::both}) {
    EXPECT_EQ(ks::parse_crank_requirement(ks::to_string(c)), c);
  }
  EXPECT_THROW(ks::parse_fourbar_method("lm"), kinevo::io::option_error);
  EXPECT_THROW(ks::parse_rssr_method("qr"), kinevo::io::option_error);
  EXPECT_THROW(ks::parse_dyad_method("newton"), kinevo::io::option_error);
  EXPECT_THROW(ks::parse_crank_requirement("left"), kinevo::io::option_error);
}

TEST(SynthesisContract, FourbarReportKeys) {
  const auto t = ks::read_function_table(data("grashof_table1.csv"), false, 3, "test");
  const auto r = ks::synthesize_fourbar(t, {});
  const std::set<std::string> golden = {"table",
                                        "points",
                                        "method",
                                        "k",
                                        "links",
                                        "grashof",
                                        "residual",
                                        "residual_norm",
                                        "errors_deg",
                                        "generated_deg",
                                        "branch",
                                        "max_error_deg",
                                        "input_crank",
                                        "output_crank",
                                        "f1",
                                        "f2",
                                        "g1",
                                        "g2",
                                        "input_dead_points_deg",
                                        "output_dead_points_deg",
                                        "input_rocker_limits_deg",
                                        "output_rocker_limits_deg",
                                        "transmission_angle_deg",
                                        "details",
                                        "seconds",
                                        "status",
                                        "conditions",
                                        "link_ratio",
                                        "warnings"};
  EXPECT_EQ(keys(r.to_json()), golden);
  EXPECT_EQ(keys(r.to_json()["transmission_angle_deg"]), (std::set<std::string>{"min", "max"}));
  EXPECT_NE(r.full_report().find("four-bar function generator"), std::string::npos);
  EXPECT_NE(r.brief_report().find("k = (0.745488"), std::string::npos) << r.brief_report();
  ks::fourbar_synthesis_options c;
  c.crank = ks::crank_requirement::input;
  const auto rc = ks::synthesize_fourbar(t, c);
  EXPECT_EQ(keys(rc.to_json()["details"]), (std::set<std::string>{"stages", "extrapolated"}));
  EXPECT_TRUE(rc.input_turns);
}

TEST(SynthesisContract, RssrReportKeys) {
  const auto t = ks::read_function_table(data("rssr_19.csv"), false, 6, "test");
  const auto r = ks::synthesize_rssr(t, {});
  const std::set<std::string> golden = {
      "table",         "points",     "alpha4_deg",    "method",     "k",
      "residual_norm", "errors_deg", "rms_error_deg", "dimensions", "transmission_deg",
      "link_ratio",    "warnings",   "seconds",       "status"};
  EXPECT_EQ(keys(r.to_json()), golden);
  EXPECT_EQ(r.summary.status(), "ok");
  EXPECT_EQ(keys(r.to_json()["dimensions"]),
            (std::set<std::string>{"a1_output", "a2_coupler", "a3_input", "a4_axis_distance",
                                   "output_offset", "input_offset", "phi0_deg"}));
  EXPECT_GT(r.rms_error_deg, 0.0);
  EXPECT_LT(r.rms_error_deg, 0.1);
  EXPECT_NE(r.brief_report().find("RSSR"), std::string::npos);
}

TEST(SynthesisContract, DyadAndChebyshevReportKeys) {
  const auto t = ks::read_pose_table(data("dyad_17.csv"), false);
  ks::dyad_guidance_options o;
  o.starts.starts = 20;
  const auto r = ks::synthesize_dyad(t, o);
  EXPECT_EQ(keys(r.to_json()), (std::set<std::string>{"poses", "method", "starts", "seed",
                                                      "solutions", "seconds", "warnings"}));
  EXPECT_EQ(keys(r.to_json()["solutions"][0]),
            (std::set<std::string>{"a0", "b", "length", "error_pct", "residual_norm", "found"}));
  EXPECT_NE(r.full_report().find("RR dyad"), std::string::npos);
  const auto c = ks::chebyshev_points({30.0, 120.0, 3});
  EXPECT_EQ(keys(c.to_json()), std::set<std::string>{"points"});
  EXPECT_EQ(c.points.size(), 3u);
}

// The documented buildability rules on the source's own problems: Table 1 with a crank input
// as posed (links 1 : 1.49 : 25 : 25.5, transmission angle 0.2-5.5 deg) is flagged twice, the
// same with --min-transmission 30 --max-ratio 10 is buildable; the 17-pose dyads (39 % and 61 %
// error) are flagged.
TEST(SynthesisContract, BuildabilityWarnings) {
  const auto t = ks::read_function_table(data("grashof_table1.csv"), false, 3, "test");
  ks::fourbar_synthesis_options c;
  c.crank = ks::crank_requirement::input;
  const auto posed = ks::synthesize_fourbar(t, c);
  ASSERT_TRUE(posed.links.has_value());
  const auto& l = *posed.links;
  const double lo = std::min({std::abs(l.a1), std::abs(l.a2), l.a3, std::abs(l.a4)});
  const double hi = std::max({std::abs(l.a1), std::abs(l.a2), l.a3, std::abs(l.a4)});
  EXPECT_DOUBLE_EQ(posed.link_ratio, hi / lo);
  EXPECT_GT(posed.link_ratio, 10.0);
  ASSERT_EQ(posed.warnings.size(), 2u);
  EXPECT_NE(posed.warnings[0].find("transmission angle"), std::string::npos);
  EXPECT_NE(posed.warnings[1].find("--max-ratio"), std::string::npos);
  EXPECT_EQ(posed.to_json()["warnings"].size(), 2u);
  c.min_transmission_deg = 30.0;
  c.max_ratio = 10.0;
  const auto buildable = ks::synthesize_fourbar(t, c);
  EXPECT_EQ(buildable.summary.status(), "ok");
  EXPECT_TRUE(buildable.warnings.empty());
  EXPECT_GE(std::min(buildable.transmission_min_deg, 180.0 - buildable.transmission_max_deg),
            30.0 - 1e-9);
  // Conditions in words, the equation number in brackets.
  const std::string report = posed.full_report();
  EXPECT_NE(report.find("input link: a crank (turns fully): crank conditions f1 = "),
            std::string::npos)
      << report;
  EXPECT_NE(report.find("(18a)"), std::string::npos);
  EXPECT_NE(report.find("coupler turns fully relative to the frame: coupler-crank conditions"),
            std::string::npos)
      << report;

  // The source's RSSR (19 points, alpha4 = 90 deg): its output nears a dead point at the end of
  // the table (psi = 90 deg), where the transmission angle falls to about 1.3 deg: flagged.
  const auto rt = ks::read_function_table(data("rssr_19.csv"), false, 6, "test");
  const auto rssr = ks::synthesize_rssr(rt, {});
  EXPECT_LT(rssr.transmission_min_deg, 5.0);
  EXPECT_GT(rssr.transmission_max_deg, 30.0);
  EXPECT_LT(rssr.link_ratio, 10.0);
  ASSERT_EQ(rssr.warnings.size(), 1u);
  EXPECT_NE(rssr.warnings[0].find("transmission angle"), std::string::npos);
  EXPECT_EQ(rssr.to_json()["warnings"].size(), 1u);

  const auto poses = ks::read_pose_table(data("dyad_17.csv"), false);
  ks::dyad_guidance_options o;
  o.starts.starts = 20;
  const auto d = ks::synthesize_dyad(poses, o);
  std::size_t large = 0;
  for (const auto& s : d.solutions) large += s.error > ks::dyad_large_error;
  EXPECT_GT(large, 0u);
  EXPECT_EQ(d.warnings.size(), large);
}
