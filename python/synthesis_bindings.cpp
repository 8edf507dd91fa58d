// kinevo.synth_fourbar, synth_rssr, synth_dyad and chebyshev_points: the library's synthesis
// functions on CSV tables, as `kinevo synth` runs them, returning the library's result objects
// (report text, JSON, and the CSV/SVG files written on request into an output folder).
#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "kinevo/synthesis/common/output_folder.hpp"
#include "kinevo/synthesis/linkages/chebyshev_points.hpp"
#include "kinevo/synthesis/linkages/path_table.hpp"
#include "kinevo/synthesis/linkages/synthesis_request.hpp"
#include "python/bindings.hpp"

namespace kinevo::python {

namespace {

namespace syn = kinevo::synthesis;

// The methods every synthesis result has (and its buildability warnings, which every result
// type carries: the same list as to_dict()["warnings"]).
template <class Result>
py::class_<Result> bind_result(py::module_& m, const char* name, const char* doc) {
  return py::class_<Result>(m, name, doc)
      .def_readonly("summary", &Result::summary, "How the synthesis ended (kinevo.Summary)")
      .def_readonly("warnings", &Result::warnings,
                    "Buildability warnings (transmission angle, link ratio, large errors), as the "
                    "CLI prints them (list of str)")
      .def("report", &Result::full_report, "The text `kinevo synth` prints")
      .def("brief_report", &Result::brief_report, "One line: the linkage found and its error (str)")
      .def(
          "to_json", [](const Result& r) { return r.to_json().dump(); },
          "The JSON object of `kinevo synth ... --json` (str)")
      .def(
          "to_dict", [](const Result& r) { return to_python(r.to_json()); }, "to_json() as a dict")
      .def(
          "save",
          [](const Result& r, const std::filesystem::path& output_dir) {
            syn::output_folder folder(output_dir);
            r.save_files(folder);
            folder.commit();
            return folder.written();
          },
          py::arg("output_dir"),
          "Write the CSV tables and SVG pictures into this folder (str or pathlib.Path; its "
          "parent must exist; "
          "other files in it are kept); "
          "returns the paths written")
      .def("__repr__", [name](const Result& r) {
        return std::string("<kinevo.") + name + " " + r.brief_report() + ">";
      });
}

syn::ga_synthesis_options ga_of(unsigned long long seed, int islands, long long generations,
                                bool refine) {
  syn::ga_synthesis_options g;
  g.islands.seed = seed;
  g.islands.islands = islands;
  g.islands.via = ga::transport::threads;  // MPI is never initialised inside Python
  g.generations = generations;
  g.refine = refine;
  return g;
}

// Rows of numbers as the text of a CSV table under `header`, so that the table reader's checks
// (finite numbers, enough points, none repeated) apply to numpy input as to a file.
std::string csv_text(const std::string& header,
                     const py::array_t<double, py::array::c_style | py::array::forcecast>& a) {
  const auto v = a.unchecked<2>();
  std::string text = header + "\n";
  for (py::ssize_t i = 0; i < a.shape(0); ++i) {
    for (py::ssize_t j = 0; j < a.shape(1); ++j) {
      text += fmt::format("{}{:.17g}", j == 0 ? "" : ",", v(i, j));
    }
    text += "\n";
  }
  return text;
}

// A table argument: a file (str or os.PathLike), or rows of numbers (a numpy array or a sequence
// of sequences) whose columns are those of one of `headers` (by their count). Rows are read as
// lines 2, 3, ... of a table named `name`, so that a bad row is named as a file's would be.
struct table_argument {
  std::string path;                   // a file, or
  std::optional<io::csv_table> rows;  // the rows given
};

table_argument table_of(const py::object& table, const char* name,
                        const std::vector<std::string>& headers) {
  if (py::isinstance<py::str>(table) || py::hasattr(table, "__fspath__")) {
    return {py::str(py::module_::import("os").attr("fspath")(table)).cast<std::string>(), {}};
  }
  using array = py::array_t<double, py::array::c_style | py::array::forcecast>;
  const array a = array::ensure(table);
  std::string wanted;
  for (const auto& h : headers) {
    const auto columns = static_cast<py::ssize_t>(std::count(h.begin(), h.end(), ',') + 1);
    wanted += fmt::format("{}(n, {}) ({})", wanted.empty() ? "" : " or ", columns, h);
    if (a && a.ndim() == 2 && a.shape(1) == columns) {
      return {{}, io::parse_csv_table(csv_text(h, a), name)};
    }
  }
  throw py::type_error(
      fmt::format("{}: a file path (str or pathlib.Path) or rows of numbers of shape {} is needed",
                  name, wanted));
}

// Checks the request (names and values), then reads the table and synthesises without the GIL.
template <class Request>
auto synthesize(const Request& request, const table_argument& table) {
  request.validate();
  py::gil_scoped_release release;
  return table.rows ? request.run(*table.rows) : request.run();
}

syn::fourbar_synthesis_result fourbar(const py::object& table, const std::string& method,
                                      bool exact, const std::string& crank,
                                      const std::string& output, const std::string& coupler,
                                      double min_transmission, double max_ratio, double frame,
                                      bool radians, unsigned long long seed, int islands,
                                      long long generations, bool refine) {
  syn::fourbar_request q;
  const table_argument t = table_of(table, "table", {"psi,phi", "psi,phi,weight"});
  q.table = t.path;
  q.radians = radians;
  q.method = method;
  q.crank = crank;
  q.output = output;
  q.coupler = coupler;
  q.options.exact = exact;
  q.options.min_transmission_deg = min_transmission;
  q.options.max_ratio = max_ratio;
  q.options.frame = frame;
  q.options.ga = ga_of(seed, islands, generations, refine);
  return synthesize(q, t);
}

syn::rssr_synthesis_result rssr(const py::object& table, const std::string& method, double alpha4,
                                double a4, bool radians, unsigned long long seed, int islands,
                                long long generations, bool refine) {
  syn::rssr_request q;
  const table_argument t = table_of(table, "table", {"psi,phi"});
  q.table = t.path;
  q.radians = radians;
  q.method = method;
  q.options.alpha4_deg = alpha4;
  q.options.a4 = a4;
  q.options.ga = ga_of(seed, islands, generations, refine);
  return synthesize(q, t);
}

syn::dyad_guidance_result dyad(const py::object& poses, const std::string& method, int starts,
                               int keep, bool radians, unsigned long long seed, int islands,
                               long long generations, bool refine) {
  syn::dyad_request q;  // one seed for both methods, as `kinevo synth dyad --seed`
  const table_argument t = table_of(poses, "poses", {"x,y,theta"});
  q.poses = t.path;
  q.radians = radians;
  q.method = method;
  q.options.starts.starts = starts;
  q.options.starts.keep = keep;
  q.options.ga = ga_of(seed, islands, generations, refine);
  return synthesize(q, t);
}

// The points as the text of a path table, so that the table reader's checks (finite numbers,
// at least 3 points, none repeated) apply to numpy input as to a file.
std::string path_points_text(
    const py::array_t<double, py::array::c_style | py::array::forcecast>& a, bool radians) {
  if (a.ndim() != 2 || (a.shape(1) != 2 && a.shape(1) != 3)) {
    throw io::input_error(
        "points: an array of shape (n, 2) (x, y) or (n, 3) (x, y, input angle) is needed");
  }
  return csv_text(a.shape(1) == 3 ? (radians ? "x,y,input_rad" : "x,y,input_deg") : "x,y", a);
}

std::optional<syn::path_interval> path_bounds_of(
    const std::optional<std::pair<double, double>>& b) {
  if (!b) return std::nullopt;
  return syn::path_interval{b->first, b->second};
}

syn::path_synthesis_result path(
    const py::array_t<double, py::array::c_style | py::array::forcecast>& points,
    const std::optional<std::string>& timing, bool closed, const std::string& link_type,
    double min_transmission, const std::optional<std::pair<double, double>>& link_bounds,
    const std::optional<std::pair<double, double>>& coupler_bounds,
    const std::optional<std::pair<double, double>>& frame_bounds, bool fixed_frame,
    long long evaluations, const std::string& ga, bool radians, unsigned long long seed,
    int islands, bool refine) {
  syn::path_synthesis_options o;
  if (timing) o.problem.timing = syn::parse_path_timing(*timing);
  o.problem.closed = closed;
  o.problem.link_type = syn::parse_path_link_type(link_type);
  o.problem.min_transmission_deg = min_transmission;
  o.problem.link_bounds = path_bounds_of(link_bounds);
  o.problem.coupler_bounds = path_bounds_of(coupler_bounds);
  o.problem.frame_bounds = path_bounds_of(frame_bounds);
  o.problem.fixed_frame = fixed_frame;
  o.evaluations = evaluations;
  const int population = o.ga.ga.population;
  o.ga.ga = syn::path_synthesis_options::path_ga_preset(ga);
  o.ga.ga.population = population;
  o.ga.islands.seed = seed;
  o.ga.islands.islands = islands;
  o.ga.islands.via = ga::transport::threads;  // MPI is never initialised inside Python
  o.ga.refine = refine;
  const std::string text = path_points_text(points, radians);
  o.validate();
  py::gil_scoped_release release;
  return syn::synthesize_path(syn::path_table_from_text(text, "points", radians), o);
}

}  // namespace

void add_synthesis(py::module_& m) {
  bind_result<syn::fourbar_synthesis_result>(m, "FourbarResult",
                                             "A four-bar function generator (Freudenstein)")
      .def_property_readonly(
          "status", [](const syn::fourbar_synthesis_result& r) { return r.summary.status(); },
          "ok, infeasible, not_assembled, or singular / rank_deficient (no answer)")
      .def_property_readonly(
          "status_message",
          [](const syn::fourbar_synthesis_result& r) { return r.summary.message; },
          "Why the status is not ok ('' when ok)");
  bind_result<syn::rssr_synthesis_result>(m, "RssrResult", "An RSSR function generator");
  bind_result<syn::dyad_guidance_result>(m, "DyadResult", "RR dyads guiding a body");
  bind_result<syn::path_synthesis_result>(m, "PathResult", "A four-bar path generator")
      .def_property_readonly(
          "status", [](const syn::path_synthesis_result& r) { return r.summary.status(); },
          "ok, or why the linkage misses a requirement")
      .def_property_readonly(
          "objective", [](const syn::path_synthesis_result& r) { return r.evaluation.objective; },
          "The objective at the linkage found (sum of squared distances, with penalties)")
      .def_property_readonly(
          "feasible", &syn::path_synthesis_result::feasible,
          "True when the linkage meets every requirement (link type, bounds, transmission angle)");
  m.def("synth_path", &path, py::arg("points"), py::kw_only(), py::arg("timing") = py::none(),
        py::arg("closed") = false, py::arg("link_type") = "crank-rocker",
        py::arg("min_transmission") = 0.0, py::arg("link_bounds") = py::none(),
        py::arg("coupler_bounds") = py::none(), py::arg("frame_bounds") = py::none(),
        py::arg("fixed_frame") = false, py::arg("evaluations") = 20000, py::arg("ga") = "sbx",
        py::arg("radians") = false, py::arg("seed") = 1, py::arg("islands") = 1,
        py::arg("refine") = true,
        "Four-bar path generator through points (numpy (n, 2): x, y; (n, 3): x, y, input "
        "angle), as `kinevo synth path`; timing 'free', 'prescribed' or 'relative' (default: "
        "prescribed with an input column)");

  m.def("synth_fourbar", &fourbar, py::arg("table"), py::kw_only(), py::arg("method") = "penalty",
        py::arg("exact") = false, py::arg("crank") = "none", py::arg("output") = "any",
        py::arg("coupler") = "none", py::arg("min_transmission") = 0.0, py::arg("max_ratio") = 0.0,
        py::arg("frame") = 1.0, py::arg("radians") = false, py::arg("seed") = 1,
        py::arg("islands") = 1, py::arg("generations") = 150, py::arg("refine") = true,
        "Four-bar function generator from a table psi, phi [, weight] (a CSV file as str or "
        "pathlib.Path, or rows: a numpy array or sequence of shape (n, 2) or (n, 3)), as "
        "`kinevo synth fourbar`; status 'ok', 'infeasible' or 'not_assembled'");
  m.def("synth_rssr", &rssr, py::arg("table"), py::kw_only(), py::arg("method") = "householder",
        py::arg("alpha4") = 90.0, py::arg("a4") = 1.0, py::arg("radians") = false,
        py::arg("seed") = 1, py::arg("islands") = 1, py::arg("generations") = 150,
        py::arg("refine") = true,
        "RSSR function generator from a table psi, phi (a CSV file as str or pathlib.Path, or "
        "rows of shape (n, 2)), as `kinevo synth rssr`");
  m.def("synth_dyad", &dyad, py::arg("poses"), py::kw_only(), py::arg("method") = "gauss-newton",
        py::arg("starts") = 100, py::arg("keep") = 5, py::arg("radians") = false,
        py::arg("seed") = 1, py::arg("islands") = 1, py::arg("generations") = 150,
        py::arg("refine") = true,
        "RR dyads through a pose table x, y, theta (a CSV file as str or pathlib.Path, or rows "
        "of shape (n, 3)), as `kinevo synth dyad`");
  m.def(
      "chebyshev_points",
      [](double from, double to, int n) {
        syn::chebyshev_options o;
        o.from = from;
        o.to = to;
        o.n = n;
        o.validate();
        return to_python(syn::chebyshev_points(o).to_json());
      },
      py::arg("from_"), py::arg("to"), py::arg("n") = 3,
      "Chebyshev spacing of n precision points over [from_, to], as a dict");
}

}  // namespace kinevo::python
