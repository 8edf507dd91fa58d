// Rank and mobility (Haug, Computer-Aided Kinematics and Dynamics of Mechanical Systems,
// sections 4.4 and 4.6): the parallelogram of Example 4.6.1 at a regular configuration and at
// its isolated singular point, Haug's four-bar (Example 4.2.1) with and without its driver, the
// redundant five-bar, and pendulum chains.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <Eigen/LU>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "kinevo/io/errors.hpp"
#include "kinevo/mechanics/kinematics/detail/sparse_rank_qr.hpp"
#include "kinevo/mechanics/kinematics/rank_analysis.hpp"
#include "kinevo/mechanics/model/chain_model.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "mechanics_test_support.hpp"

namespace kinevo::mechanics {
namespace {

using kinevo::test::examples;
using kinevo::test::read_text;

rank_report at_start(const model& m, double t = 0.0) {
  return analyse_rank(m, m.initial_positions(), t);
}

using row_names = std::vector<std::string>;

TEST(RankAnalysis, ParallelogramRegularConfigurationHasConstraint5Redundant) {
  const model m = load_model(examples + "/parallelogram.toml");
  const rank_report r = at_start(m);
  EXPECT_EQ(r.rank, 4);
  EXPECT_EQ(r.kinematic_rank, 4);
  EXPECT_EQ(r.redundant, row_names{"c5"});  // Haug, Example 4.6.1
  EXPECT_EQ(r.dof, 1);
  EXPECT_EQ(r.independent.size(), 1u);
  EXPECT_EQ(r.dependent.size(), 4u);
  EXPECT_TRUE(r.drivers.empty());
  EXPECT_EQ(r.missing_drivers, 1);
  EXPECT_FALSE(r.determined);
  EXPECT_FALSE(r.singular);
  EXPECT_EQ(r.generic_rank, 4);
  EXPECT_GT(r.probes, 0);
  const nlohmann::json j = r.to_json();
  for (const char* key :
       {"rank", "dof", "redundant", "independent", "dependent", "drivers", "missing_drivers",
        "redundant_drivers", "determined", "singular", "generic_rank"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j["redundant"], nlohmann::json::array({"c5"}));
  EXPECT_NE(r.text().find("redundant constraints: c5"), std::string::npos) << r.text();
}

TEST(RankAnalysis, ParallelogramFlatIsAnIsolatedSingularPoint) {
  // Example 4.6.1 at phi1 = phi2 = phi3 = 0 (x2 = 2, y2 = 0).
  std::string text = read_text(examples + "/parallelogram.toml");
  auto set = [&](const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  };
  set("name = \"phi1\"\ninitial = \"pi/3\"", "name = \"phi1\"\ninitial = 0.0");
  set("name = \"x2\"\ninitial = 1.5", "name = \"x2\"\ninitial = 2.0");
  set("name = \"y2\"\ninitial = \"sqrt(3)/2\"", "name = \"y2\"\ninitial = 0.0");
  set("name = \"phi3\"\ninitial = \"pi/3\"", "name = \"phi3\"\ninitial = 0.0");
  const model m = load_model_from_string(text, "parallelogram_flat.toml");
  const rank_report r = at_start(m);
  EXPECT_EQ(r.rank, 3);
  EXPECT_EQ(r.dof, 2);
  EXPECT_TRUE(r.singular);
  EXPECT_EQ(r.generic_rank, 4);
  EXPECT_EQ(r.generic_kinematic_rank, 4);
  EXPECT_EQ(r.redundant.size(), 2u);
  EXPECT_EQ(r.to_json()["singular"], true);
  EXPECT_NE(r.text().find("isolated singular point"), std::string::npos) << r.text();

  // The verdict and the generic rank do not depend on the probes' seed.
  for (unsigned seed = 1; seed <= 30; ++seed) {
    rank_options o;
    o.seed = seed;
    const rank_report s = analyse_rank(m, m.initial_positions(), 0.0, o);
    EXPECT_TRUE(s.singular) << seed;
    EXPECT_EQ(s.generic_rank, 4) << seed;
    const model regular = load_model(examples + "/parallelogram.toml");
    EXPECT_FALSE(analyse_rank(regular, regular.initial_positions(), 0.0, o).singular) << seed;
  }

  // Without probes the test is not made.
  rank_options o;
  o.perturbation_trials = 0;
  const rank_report none = analyse_rank(m, m.initial_positions(), 0.0, o);
  EXPECT_FALSE(none.singular);
  EXPECT_EQ(none.generic_rank, 3);
  EXPECT_EQ(none.singular_test, "skipped");
  EXPECT_NE(none.text().find("singular: not tested"), std::string::npos) << none.text();
  EXPECT_EQ(r.singular_test, "made");
}

TEST(RankAnalysis, HaugFourBarIsDeterminedByItsDriver) {
  const model m = load_model(examples + "/haug_fourbar.toml");
  // Only the crank driver moves with t; the constant ground "drivers" are absolute constraints.
  EXPECT_EQ(m.driver_rows().size(), 12u);
  EXPECT_TRUE(m.is_driver(m.constraints() - 1));
  const rank_report r = at_start(m);
  EXPECT_EQ(r.rank, 12);
  EXPECT_EQ(r.kinematic_rank, 11);
  EXPECT_EQ(r.dof, 1);
  EXPECT_EQ(r.drivers, row_names{"crank_driver"});
  EXPECT_TRUE(r.redundant.empty());
  EXPECT_TRUE(r.redundant_drivers.empty());
  EXPECT_EQ(r.missing_drivers, 0);
  EXPECT_TRUE(r.determined);
  EXPECT_FALSE(r.singular);
}

TEST(RankAnalysis, FourBarWithoutItsDriverMissesOne) {
  std::string text = read_text(examples + "/haug_fourbar.toml");
  const auto at = text.find("name = \"crank_driver\"");
  ASSERT_NE(at, std::string::npos);
  const auto begin = text.rfind("[[joint]]", at);
  const auto end = text.find("\n\n", at);
  text.erase(begin, end == std::string::npos ? std::string::npos : end - begin);
  const model m = load_model_from_string(text, "fourbar_undriven.toml");
  const rank_report r = at_start(m);
  EXPECT_EQ(r.rank, 11);
  EXPECT_EQ(r.dof, 1);
  EXPECT_TRUE(r.drivers.empty());
  EXPECT_EQ(r.missing_drivers, 1);
  EXPECT_FALSE(r.determined);
  EXPECT_EQ(r.independent.size(), 1u);
  EXPECT_EQ(r.suggested_drivers, r.independent);
  EXPECT_EQ(r.to_json()["missing_drivers"], 1);
}

TEST(RankAnalysis, FourBarWithTwoDriversNamesTheRedundantOne) {
  std::string text = read_text(examples + "/haug_fourbar.toml");
  text +=
      "\n[[joint]]\ntype = \"driver\"\nname = \"second_driver\"\ncoordinate = \"b1_phi\"\n"
      "value = \"pi/2 + omega*t\"\n";
  const model m = load_model_from_string(text, "fourbar_two_drivers.toml");
  const rank_report r = at_start(m);
  EXPECT_EQ(r.rank, 12);
  EXPECT_EQ(r.redundant_drivers, row_names{"second_driver"});
  EXPECT_FALSE(r.determined);
  EXPECT_EQ(r.missing_drivers, 0);
}

TEST(RankAnalysis, SevenLinkLoopWithOneDriverMissesFour) {
  // Five degrees of freedom; a driver on th1 (moving with its initial velocity) leaves four.
  std::string text = read_text(examples + "/seven_link_loop.toml");
  text +=
      "\n[[constraint]]\nname = \"drive_th1\"\ndriver = true\n"
      "holonomic = \"th1 - 0.3490658503988659 + 41.732491683566515*t\"\n";
  const model m = load_model_from_string(text, "seven_link_driven.toml");
  const rank_report r = at_start(m);
  EXPECT_EQ(r.dof, 5);
  EXPECT_EQ(r.drivers, row_names{"drive_th1"});
  EXPECT_EQ(r.missing_drivers, 4);
  EXPECT_FALSE(r.determined);
  ASSERT_EQ(r.suggested_drivers.size(), 4u);
  for (const auto& c : r.suggested_drivers) EXPECT_NE(c, "th1");
  EXPECT_NE(r.text().find("4 driver(s) missing"), std::string::npos) << r.text();
  EXPECT_TRUE(at_start(load_model(examples + "/haug_fourbar.toml")).suggested_drivers.empty());
}

// Rank of Phi_q with a unit row added for each named coordinate: full (= n) when driving those
// coordinates determines q. Eigen's full-pivoting LU, not the elimination analyse_rank uses.
Eigen::Index rank_with_drivers(const model& m, const row_names& driven) {
  const Eigen::MatrixXd jac = m.position_jacobian(m.initial_positions(), 0.0);
  Eigen::MatrixXd rows =
      Eigen::MatrixXd::Zero(jac.rows() + static_cast<Eigen::Index>(driven.size()), jac.cols());
  rows.topRows(jac.rows()) = jac;
  const auto& names = m.coordinate_names();
  for (std::size_t k = 0; k < driven.size(); ++k) {
    const auto c = std::find(names.begin(), names.end(), driven[k]) - names.begin();
    rows(jac.rows() + static_cast<Eigen::Index>(k), c) = 1.0;
  }
  Eigen::FullPivLU<Eigen::MatrixXd> lu(rows);
  lu.setThreshold(1e-9);
  return lu.rank();
}

bool is_euler_parameter(const std::string& name) {
  return name.size() > 3 && name.compare(name.size() - 3, 2, "_e") == 0;
}

// A driver is not suggested on an Euler parameter when another coordinate can take its place:
// the spatial five-bar's missing driver was crank4_e3. The suggested coordinates still determine
// the mechanism; the spherical pendulum's spins about the rod and the wheel axle are Euler
// parameters only, so two of its four stay.
TEST(RankAnalysis, SuggestedDriversAreNotEulerParametersWhenOthersCanBeDriven) {
  const model five = load_model(examples + "/spatial_fivebar.toml");
  const rank_report r = at_start(five);
  ASSERT_EQ(r.suggested_drivers.size(), 1u);
  EXPECT_FALSE(is_euler_parameter(r.suggested_drivers[0])) << r.suggested_drivers[0];
  EXPECT_EQ(r.independent, r.suggested_drivers);
  EXPECT_EQ(rank_with_drivers(five, r.suggested_drivers), five.coordinates());
  const model flywheel = load_model(examples + "/spherical_pendulum_flywheel.toml");
  const rank_report p = at_start(flywheel);
  ASSERT_EQ(p.suggested_drivers.size(), 4u);
  EXPECT_EQ(
      std::count_if(p.suggested_drivers.begin(), p.suggested_drivers.end(), is_euler_parameter), 2);
  EXPECT_EQ(rank_with_drivers(flywheel, p.suggested_drivers), flywheel.coordinates());
}

TEST(RankAnalysis, FiveBarRedundantRowsAreNamed) {
  const model m = load_model(examples + "/fivebar_redundant.toml");
  ASSERT_TRUE(m.is_driver(4));  // `driver = true` on the input constraint
  const rank_report r = at_start(m);
  // At t = 0 (th2 = th4 = 0) the x rows vanish and link5_y is half of link3_y.
  EXPECT_EQ(r.kinematic_rank, 1);
  EXPECT_EQ(r.redundant, (row_names{"link3_x", "link5_x", "link5_y"}));
  EXPECT_EQ(r.dof, 1);
  EXPECT_EQ(r.drivers, row_names{"input"});
  EXPECT_TRUE(r.determined);
  EXPECT_FALSE(r.singular);
  // Elsewhere on the motion (th2 = th4 = 0.7) the later rows are the redundant ones.
  Eigen::VectorXd q(2);
  q << 0.7, 0.7;
  const rank_report g = analyse_rank(m, q, std::asin(0.7 / (2 * M_PI)));
  EXPECT_EQ(g.redundant, (row_names{"link3_y", "link5_x", "link5_y"}));
  EXPECT_TRUE(g.determined);
}

// A long list in the text report names its first 20 and counts the rest; the report's data and
// its JSON keep every name.
TEST(RankAnalysis, TextReportShortensLongListsOfNames) {
  chain_options o;
  o.links = 30;
  const rank_report r = at_start(load_model_from_string(chain_model_text(o), "chain.toml"));
  ASSERT_EQ(r.suggested_drivers.size(), 30u);
  const std::string text = r.text();
  EXPECT_NE(text.find("30 driver(s) missing (drive " + r.suggested_drivers[0]), std::string::npos)
      << text;
  EXPECT_NE(text.find(r.suggested_drivers[19] + " and 10 more (--json lists them all)"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find(r.suggested_drivers[20] + ","), std::string::npos) << text;
}

TEST(RankAnalysis, ChainsHaveOneDegreeOfFreedomPerLink) {
  for (int links : {1, 3, 10}) {
    chain_options o;
    o.links = links;
    const model m = load_model_from_string(chain_model_text(o), "chain.toml");
    const rank_report r = at_start(m);
    EXPECT_EQ(r.rank, links);
    EXPECT_EQ(r.dof, links);
    EXPECT_TRUE(r.redundant.empty());
    EXPECT_EQ(r.missing_drivers, links);
    EXPECT_FALSE(r.singular);
    EXPECT_EQ(r.independent.size(), static_cast<std::size_t>(links));
  }
}

TEST(RankAnalysis, StructureWithoutMobilityLeavesTheSingularTestUndecided) {
  // The GIGSP four-bar with its driver row not marked as a driver: 3 rows, 3 coordinates, a
  // structure; no nearby configuration exists for a probe to reach.
  std::string text = read_text(examples + "/fourbar_kinematics.toml");
  const auto at = text.find("driver = true");
  ASSERT_NE(at, std::string::npos);
  text.erase(at, text.find('\n', at) - at);
  const model m = load_model_from_string(text, "fourbar_structure.toml");
  const rank_report r = at_start(m);
  EXPECT_EQ(r.rank, 3);
  EXPECT_EQ(r.dof, 0);
  EXPECT_TRUE(r.determined);
  EXPECT_FALSE(r.singular);
  EXPECT_EQ(r.singular_test, "inconclusive");
  // The same file as written: one driver, one degree of freedom, determined.
  const rank_report d = at_start(load_model(examples + "/fourbar_kinematics.toml"));
  EXPECT_EQ(d.dof, 1);
  EXPECT_EQ(d.drivers, row_names{"driver"});
  EXPECT_TRUE(d.determined);
}

TEST(RankAnalysis, LargeModelsSkipTheProbes) {
  chain_options c;
  c.links = 5;
  const model m = load_model_from_string(chain_model_text(c), "chain.toml");
  rank_options o;
  o.probe_coordinates = 9;  // the chain has 10
  const rank_report r = analyse_rank(m, m.initial_positions(), 0.0, o);
  EXPECT_EQ(r.singular_test, "skipped");
  EXPECT_EQ(r.rank, 5);
}

TEST(RankAnalysis, CountsAgreeOnTheExampleModels) {
  for (const char* file :
       {"parallelogram.toml", "haug_fourbar.toml", "fivebar_redundant.toml",
        "fivebar_inconsistent.toml", "fourbar_kinematics.toml", "slider_crank.toml",
        "seven_link_loop.toml", "double_pendulum.toml", "pendulum.toml"}) {
    const model m = load_model(examples + "/" + file);
    const rank_report r = at_start(m);
    const int drivers = static_cast<int>(r.drivers.size());
    const int kinematic_rows = r.holonomic_rows - drivers;
    EXPECT_EQ(r.dof, r.coordinates - r.kinematic_rank) << file;
    EXPECT_EQ(static_cast<int>(r.independent.size()), r.dof) << file;
    EXPECT_EQ(static_cast<int>(r.dependent.size()), r.kinematic_rank) << file;
    EXPECT_EQ(static_cast<int>(r.redundant.size()), kinematic_rows - r.kinematic_rank) << file;
    EXPECT_EQ(r.rank, r.kinematic_rank + drivers - static_cast<int>(r.redundant_drivers.size()))
        << file;
    EXPECT_GE(r.missing_drivers, 0) << file;
    EXPECT_GE(r.generic_rank, r.rank) << file;
    // The rank agrees with Eigen's FullPivLU at the same relative threshold.
    const Eigen::MatrixXd jac = m.position_jacobian(m.initial_positions(), 0.0);
    Eigen::FullPivLU<Eigen::MatrixXd> lu(jac);
    lu.setThreshold(rank_options{}.relative_tolerance);
    EXPECT_EQ(r.rank, static_cast<int>(lu.rank())) << file;
  }
}

TEST(RankAnalysis, OptionsValidateThemselves) {
  const model m = load_model(examples + "/parallelogram.toml");
  auto field_of = [&](rank_options o) -> std::string {
    try {
      analyse_rank(m, m.initial_positions(), 0.0, o);
    } catch (const io::option_error& e) {
      return e.field();
    }
    return "";
  };
  rank_options o;
  o.relative_tolerance = 0;
  EXPECT_EQ(field_of(o), "relative_tolerance");
  o = {};
  o.perturbation = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(field_of(o), "perturbation");
  o = {};
  o.perturbation_trials = -1;
  EXPECT_EQ(field_of(o), "perturbation_trials");
  o = {};
  o.projection_iterations = 0;
  EXPECT_EQ(field_of(o), "projection_iterations");
  o = {};
  o.probe_coordinates = -1;
  EXPECT_EQ(field_of(o), "probe_coordinates");
  EXPECT_THROW(analyse_rank(m, Eigen::VectorXd::Zero(3), 0.0), std::invalid_argument);
  Eigen::VectorXd nan = m.initial_positions();
  nan[0] = std::numeric_limits<double>::quiet_NaN();  // phi1: rows c1 and c2
  try {
    analyse_rank(m, nan, 0.0);
    FAIL();
  } catch (const io::input_error& e) {
    EXPECT_NE(std::string(e.what()).find("'c1', 'c2'"), std::string::npos) << e.what();
  }
}

// The sparse analysis (SuiteSparseQR, rank_method::sparse) against the dense elimination: the same
// rank, dof, redundant rows, drivers and determinacy on every example model and on planar and
// spatial chains, with the same relative tolerance (1e-8, rank_options' default). The dependent
// coordinates it suggests may be another choice; they must be a valid one: the columns of the
// kinematic rows it calls dependent have full rank (checked by the dense elimination).
void expect_sparse_equals_dense(const model& m, const std::string& what) {
  rank_options dense, sparse;
  dense.method = rank_method::dense;
  sparse.method = rank_method::sparse;
  const rank_report d = analyse_rank(m, m.initial_positions(), 0.0, dense);
  const rank_report s = analyse_rank(m, m.initial_positions(), 0.0, sparse);
  EXPECT_EQ(d.method, "dense");
  EXPECT_EQ(s.method, "sparse");
  EXPECT_EQ(s.rank, d.rank) << what;
  EXPECT_EQ(s.kinematic_rank, d.kinematic_rank) << what;
  EXPECT_EQ(s.dof, d.dof) << what;
  EXPECT_EQ(s.redundant, d.redundant) << what;
  EXPECT_EQ(s.redundant_drivers, d.redundant_drivers) << what;
  EXPECT_EQ(s.missing_drivers, d.missing_drivers) << what;
  EXPECT_EQ(s.determined, d.determined) << what;
  EXPECT_EQ(s.suggested_drivers.size(), d.suggested_drivers.size()) << what;
  EXPECT_EQ(s.independent.size(), d.independent.size()) << what;
  EXPECT_DOUBLE_EQ(s.threshold, d.threshold) << what;
  // The suggested dependent coordinates are a basis of the kinematic rows' columns.
  const Eigen::MatrixXd jac = m.position_jacobian(m.initial_positions(), 0.0);
  std::vector<int> kin;
  for (int i = 0; i < m.holonomic_constraints(); ++i) {
    if (!m.is_driver(i)) kin.push_back(i);
  }
  Eigen::MatrixXd dep(static_cast<Eigen::Index>(kin.size()),
                      static_cast<Eigen::Index>(s.dependent.size()));
  const auto& names = m.coordinate_names();
  for (std::size_t c = 0; c < s.dependent.size(); ++c) {
    const auto col = std::find(names.begin(), names.end(), s.dependent[c]) - names.begin();
    for (std::size_t k = 0; k < kin.size(); ++k) {
      dep(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(c)) = jac(kin[k], col);
    }
  }
  if (dep.size() > 0) {
    EXPECT_EQ(Eigen::FullPivLU<Eigen::MatrixXd>(dep).rank(), s.kinematic_rank) << what;
  }
}

TEST(RankAnalysis, SparseEqualsDenseOnEveryExampleModel) {
  const auto paths = kinevo::test::example_model_paths();
  for (const auto& path : paths) {
    const model m = load_model(path);
    expect_sparse_equals_dense(m, path.filename().string());
  }
  EXPECT_GT(paths.size(), 20u);
}

TEST(RankAnalysis, SparseEqualsDenseOnChains) {
  for (const bool spatial : {false, true}) {
    for (int links : {1, 2, 10, 60}) {
      chain_options o;
      o.links = links;
      o.spatial = spatial;
      const model m = load_model_from_string(chain_model_text(o), "chain.toml");
      expect_sparse_equals_dense(
          m, fmt::format("{} chain of {} links", spatial ? "spatial" : "planar", links));
    }
  }
}

// A chain with every `every`-th joint written twice (the copy after all the chain's joints):
// the copies' rows are exactly the redundant ones (the later of two equal rows), so the rank is
// the chain's (N rows in the plane, 4 N in space: 3 per spherical joint and a normalisation row)
// and the redundant rows are the copies', in model order.
std::string chain_with_copied_joints(int links, bool spatial, int every) {
  chain_options o;
  o.links = links;
  o.spatial = spatial;
  std::string text = chain_model_text(o);
  for (int k = every; k <= links; k += every) {
    const std::string i = k == 1 ? "ground" : fmt::format("{}{}", spatial ? "b" : "p", k - 1);
    if (spatial) {
      text += fmt::format(
          "\n[[joint]]\ntype = \"spherical\"\nname = \"again{}\"\nbody_i = \"{}\"\nbody_j = "
          "\"b{}\"\npoint_i = [0.0, 0.0, {}]\npoint_j = [0.0, 0.0, \"-l/2\"]\n",
          k, i, k, k == 1 ? "0.0" : "\"l/2\"");
    } else {
      text += fmt::format(
          "\n[[joint]]\ntype = \"distance\"\nname = \"again{}\"\nbody_i = \"{}\"\nbody_j = "
          "\"p{}\"\nlength = \"l\"\n",
          k, i, k);
    }
  }
  return text;
}

row_names copied_rows(const model& m) {
  row_names copies;
  for (const auto& name : m.constraint_names()) {
    if (name.rfind("again", 0) == 0) copies.push_back(name);
  }
  return copies;
}

TEST(RankAnalysis, SparseEqualsDenseOnChainsWithCopiedJoints) {
  for (const bool spatial : {false, true}) {
    const model m = load_model_from_string(chain_with_copied_joints(40, spatial, 7), "copied.toml");
    const row_names copies = copied_rows(m);
    ASSERT_EQ(copies.size(), spatial ? 15u : 5u);
    expect_sparse_equals_dense(m, spatial ? "spatial chain with copies" : "chain with copies");
    rank_options dense;
    dense.method = rank_method::dense;
    const rank_report d = analyse_rank(m, m.initial_positions(), 0.0, dense);
    EXPECT_EQ(d.rank, spatial ? 160 : 40);
    EXPECT_EQ(d.redundant, copies);
  }
}

// Long chains, far above the dense limit (the analysis that took minutes with Eigen's SparseQR,
// whose column elimination tree is rebuilt at every column without a pivot): the rank, dof and
// redundant rows known from the construction.
TEST(RankAnalysis, SparseFindsTheCopiedJointsOfLongChains) {
  struct chain_case {
    bool spatial;
    int links;
  };
  for (const chain_case c : {chain_case{false, 2000}, chain_case{true, 300}}) {
    const model m =
        load_model_from_string(chain_with_copied_joints(c.links, c.spatial, 97), "copied.toml");
    const rank_report r = at_start(m);
    const std::string what = fmt::format("{} links{}", c.links, c.spatial ? ", spatial" : "");
    EXPECT_EQ(r.method, "sparse") << what;
    EXPECT_EQ(r.rank, c.spatial ? 4 * c.links : c.links) << what;
    EXPECT_EQ(r.kinematic_rank, r.rank) << what;
    EXPECT_EQ(r.dof, c.spatial ? 3 * c.links : c.links) << what;
    EXPECT_EQ(r.redundant, copied_rows(m)) << what;
    EXPECT_EQ(r.redundant.size(), static_cast<std::size_t>(c.links / 97 * (c.spatial ? 3 : 1)))
        << what;
    EXPECT_EQ(static_cast<int>(r.independent.size()), r.dof) << what;
    EXPECT_EQ(static_cast<int>(r.dependent.size()), r.rank) << what;
  }
}

// The sparse QR's columns on a matrix whose dependences are known: a zero column, a copy of an
// earlier column and two independent ones. In the columns' own order the zero column and the
// later copy are the dead ones (SuiteSparseQR leaves them in place there: the live ones are read
// from R); with COLAMD any two independent columns.
TEST(RankAnalysis, SparseRankQrNamesTheDependentColumns) {
  Eigen::SparseMatrix<double> a(3, 4);
  a.insert(0, 1) = 1.0;
  a.insert(0, 2) = 1.0;
  a.insert(1, 3) = 1.0;
  a.insert(2, 3) = 2.0;
  a.makeCompressed();
  const sparse_rank_columns fixed = sparse_rank_qr(a, 1e-12, false);
  EXPECT_EQ(fixed.rank, 2);
  EXPECT_EQ(fixed.pivots, (std::vector<int>{1, 3}));
  EXPECT_EQ(fixed.free, (std::vector<int>{0, 2}));
  const sparse_rank_columns colamd = sparse_rank_qr(a, 1e-12, true);
  EXPECT_EQ(colamd.rank, 2);
  ASSERT_EQ(colamd.pivots.size(), 2u);
  EXPECT_TRUE(std::find(colamd.pivots.begin(), colamd.pivots.end(), 3) != colamd.pivots.end());
  EXPECT_EQ(colamd.free.size(), 2u);
  // A threshold above a column's norm makes it dead: column 3 has norm sqrt(5).
  EXPECT_EQ(sparse_rank_qr(a, 2.0, false).pivots, (std::vector<int>{3}));
  EXPECT_EQ(sparse_rank_qr(a, 2.5, false).rank, 0);
}

TEST(RankAnalysis, AutomaticMethodIsSparseAboveTheDenseLimit) {
  chain_options o;
  o.links = 300;  // 600 coordinates > dense_coordinates = 400
  const model m = load_model_from_string(chain_model_text(o), "chain.toml");
  const rank_report r = at_start(m);
  EXPECT_EQ(r.method, "sparse");
  EXPECT_EQ(r.rank, 300);
  EXPECT_EQ(r.dof, 300);
  EXPECT_TRUE(r.redundant.empty());
}

}  // namespace
}  // namespace kinevo::mechanics
