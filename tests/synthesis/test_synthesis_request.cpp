// synthesis/linkages/synthesis_request.hpp: the settings named by words are parsed into the options
// and checked before any file is read (io::option_error naming the field), the path request lets
// the user's settings beat the table's header, and the results' files and animation are written
// through the library.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "kinevo/io/errors.hpp"
#include "kinevo/synthesis/linkages/synthesis_request.hpp"

namespace ks = kinevo::synthesis;

namespace {

// The field of the option_error `f` throws, or "" when it throws none.
template <class F>
std::string refused_field(F f) {
  try {
    f();
  } catch (const kinevo::io::option_error& e) {
    return e.field();
  }
  return "";
}

TEST(SynthesisRequest, NamesAreParsedAndCheckedBeforeAnyFileIsRead) {
  ks::fourbar_request fb;
  fb.table = "/nonexistent/table.csv";  // never read: the names fail first
  fb.crank = "input";
  fb.method = "ga";
  const auto o = fb.resolved();
  EXPECT_EQ(o.crank, ks::crank_requirement::input);
  EXPECT_EQ(o.method, ks::fourbar_method::ga);
  fb.coupler = "sideways";
  EXPECT_EQ(refused_field([&] { fb.validate(); }), "coupler");
  fb.coupler = "none";
  fb.options.min_transmission_deg = 95.0;
  EXPECT_EQ(refused_field([&] { fb.validate(); }), "min_transmission_deg");

  ks::rssr_request rs;
  rs.method = "newton";
  EXPECT_EQ(refused_field([&] { rs.validate(); }), "method");

  ks::dyad_request dy;
  dy.options.ga.islands.seed = 42;
  EXPECT_EQ(dy.resolved().starts.seed, 42u);  // one seed for both methods
  dy.method = "simplex";
  EXPECT_EQ(refused_field([&] { dy.validate(); }), "method");

  ks::path_request pa;
  struct named_setting {
    const char* field;
    std::string ks::path_request::*setting;
  };
  const named_setting settings[] = {{"path", &ks::path_request::path},
                                    {"frame", &ks::path_request::frame},
                                    {"timing", &ks::path_request::timing},
                                    {"link_type", &ks::path_request::link_type},
                                    {"ga", &ks::path_request::ga_preset}};
  for (const auto& s : settings) {
    ks::path_request bad;
    bad.*s.setting = "sideways";
    EXPECT_EQ(refused_field([&] { bad.validate(); }), s.field);
  }
  pa.path = "closed";
  pa.frame = "fixed";
  pa.link_bounds = ks::path_interval{2.0, 1.0};
  EXPECT_EQ(refused_field([&] { pa.validate(); }), "link_bounds.hi");
  pa.link_bounds.reset();
  const auto p = pa.resolved();
  EXPECT_TRUE(p.problem.closed);
  EXPECT_TRUE(p.problem.fixed_frame);
}

TEST(SynthesisRequest, TheHeadersEvaluationsAreCheckedAndNamedAsTheHeaderLine) {
  const auto dir = std::filesystem::temp_directory_path() / "kinevo_test_synthesis_request";
  std::filesystem::create_directories(dir);
  const auto table = dir / "points.csv";
  std::ofstream(table) << "# evaluations = 5\nx,y\n0,0\n1,0\n1,1\n";
  ks::path_request pa;
  pa.table = table.string();
  try {
    (void)pa.run();
    FAIL() << "5 evaluations must be refused";
  } catch (const kinevo::io::input_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("# evaluations must be an integer in [100, ", 0), 0u)
        << e.what();
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
