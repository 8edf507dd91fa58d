#include "kinevo/synthesis/cams/cam_synthesis.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <limits>

#include "kinevo/io/csv_table.hpp"
#include "kinevo/synthesis/common/report_format.hpp"

namespace kinevo::synthesis {

namespace {

using vec = Eigen::Vector2d;

std::vector<vec> pitch_points(const cam_analysis& a) {
  std::vector<vec> v;
  for (const auto& s : a.samples) v.push_back(s.pitch);
  return v;
}
std::vector<vec> profile_points(const cam_analysis& a) {
  std::vector<vec> v;
  for (const auto& s : a.samples) v.push_back(s.profile);
  return v;
}

// The checks every design reports: pressure angle, curvature, roller, profile section.
void add_checks(std::vector<cam_figure>& f, const cam_analysis& a, const std::string& unit,
                bool pressure = true) {
  const std::string u2 = unit + "^2", u4 = unit + "^4";
  if (pressure) {  // a flat face's is 0 throughout
    f.push_back({"max_pressure_angle", a.max_pressure_angle / degree, "deg"});
    f.push_back({"psi_at_max_pressure_angle", a.psi_at_max / degree, "deg"});
    f.push_back({"min_pressure_angle", a.min_pressure_angle / degree, "deg"});
    f.push_back({"psi_at_min_pressure_angle", a.psi_at_min / degree, "deg"});
  }
  f.push_back({"min_convex_radius", a.min_convex_radius, unit});
  f.push_back({"psi_at_min_convex_radius", a.psi_at_min_radius / degree, "deg"});
  if (a.roller_radius > 0.0) f.push_back({"roller_radius", a.roller_radius, unit});
  f.push_back({"area", a.section.area, u2});
  f.push_back({"centroid_x", a.section.centroid.x(), unit});
  f.push_back({"centroid_y", a.section.centroid.y(), unit});
  f.push_back({"ixx", a.section.ixx, u4});
  f.push_back({"iyy", a.section.iyy, u4});
  f.push_back({"ixy", a.section.ixy, u4});
  f.push_back({"i1", a.section.i1, u4});
  f.push_back({"i2", a.section.i2, u4});
}

std::string figures_text(const std::vector<cam_figure>& f) {
  std::string s;
  for (const auto& x : f) {
    s += fmt::format("  {:<28} {:.10g}{}\n", x.name, x.value, x.unit.empty() ? "" : " " + x.unit);
  }
  return s;
}

nlohmann::json figures_json(const std::vector<cam_figure>& f) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& x : f) j[x.name] = json_number(x.value);
  return j;
}

std::string pressure_note(const std::string& who, const cam_analysis& a, double bound) {
  const double worst = a.max_abs_pressure_angle();
  const bool at_max = std::abs(a.max_pressure_angle) >= std::abs(a.min_pressure_angle);
  return fmt::format(
      "{}: largest |pressure angle| {:.4f} deg at psi = {:.3f} deg ({} the {:.4g} deg bound)", who,
      worst / degree, (at_max ? a.psi_at_max : a.psi_at_min) / degree,
      worst <= bound * (1.0 + 1e-9) ? "within" : "BREAKS", bound / degree);
}

// ------------------------------------------------------------------------- the three followers

void translating(const cam_motion_programme& p, const translating_roller_options& o,
                 const cam_problem& pb, cam_result& r) {
  const auto src = translating_roller_source_design(p, o);
  const auto sa = analyse_translating_roller(p, src.design, o);
  r.source = {{"psi0", src.psi0 / degree, "deg"},
              {"sigma0", src.sigma0.s, pb.unit},
              {"sigma_prime0", src.sigma0.ds, pb.unit + "/rad"},
              {"c", src.design.c, pb.unit},
              {"e", src.design.e, pb.unit},
              {"base_radius", src.design.base_radius(), pb.unit}};
  add_checks(r.source, sa, pb.unit);
  r.notes.push_back(
      pressure_note("source design ((17), (18a-c): the rise only)", sa, o.max_pressure_angle));
  const auto opt = optimise_translating_roller(p, o);
  r.found = opt.found;
  if (!opt.found) return;
  r.analysis = analyse_translating_roller(p, opt.design, o);
  r.design = {{"c", opt.design.c, pb.unit},
              {"e", opt.design.e, pb.unit},
              {"base_radius", opt.design.base_radius(), pb.unit},
              {"wedge_a", opt.wedge_a, pb.unit},
              {"wedge_b", opt.wedge_b, pb.unit}};
  add_checks(r.design, r.analysis, pb.unit);
  r.notes.push_back(pressure_note("design found", r.analysis, o.max_pressure_angle));
  r.notes.push_back(
      opt.curvature_active
          ? "the roller-radius bound is active: the cam is larger than the "
            "pressure-angle bound alone needs"
          : "the pressure-angle bound alone sets the size (curvature bound inactive)");
  const auto& d = opt.design;
  const double lift = p.max_displacement();
  r.drawing.base_radius = d.base_radius();
  r.position_offset = d.c;
  r.drawing.roller_centre = vec(d.e, d.c);
  r.drawing.roller_radius = r.analysis.roller_radius;
  r.drawing.follower = {
      {vec(d.e, d.c + r.analysis.roller_radius), vec(d.e, d.c + lift + 0.6 * d.c)}};
}

void oscillating(const cam_motion_programme& p, const oscillating_roller_options& o,
                 const cam_problem& pb, cam_result& r) {
  const auto src = oscillating_roller_source_best(p, o);
  const auto sa = analyse_oscillating_roller(p, src.design, o);
  r.source = {{"b_ratio", src.design.b_ratio, ""},
              {"c", src.design.c / degree, "deg"},
              {"base_radius", oscillating_base_radius(p, src.design, o.samples), pb.unit}};
  add_checks(r.source, sa, pb.unit);
  r.notes.push_back(pressure_note("source condition cos c = B ((9)-(10)), best B in the box", sa,
                                  o.max_pressure_angle));
  const auto opt = optimise_oscillating_roller(p, o);
  r.found = opt.found;
  if (!opt.found) return;
  r.analysis = analyse_oscillating_roller(p, opt.design, o);
  const auto& d = opt.design;
  const double base = oscillating_base_radius(p, d, o.samples);
  r.design = {
      {"b_ratio", d.b_ratio, ""},
      {"c", d.c / degree, "deg"},
      {"base_radius", base, pb.unit},
      {"dwell_pressure_angle", oscillating_pressure_angle(p.at(0.0), d, o.sense) / degree, "deg"}};
  add_checks(r.design, r.analysis, pb.unit);
  r.notes.push_back(
      pressure_note("design found (cos c = B relaxed)", r.analysis, o.max_pressure_angle));
  r.notes.push_back(
      r.analysis.roller_radius < o.roller_fraction * r.analysis.min_convex_radius
          ? "the roller is limited by the arm (max_roller_arm_ratio B), not by q (rho_p)min"
          : "the roller is q (rho_p)min (14)");
  const vec pivot(1.0, 0.0);
  const vec roller(1.0 - d.b_ratio * std::cos(d.c), d.b_ratio * std::sin(d.c));
  r.drawing.base_radius = base;
  r.position_offset = d.c;
  r.drawing.roller_centre = roller;
  r.drawing.roller_radius = r.analysis.roller_radius;
  r.drawing.has_pivot = true;
  r.drawing.pivot = pivot;
  r.drawing.follower = {{pivot, roller}};
}

void flat_face(const cam_motion_programme& p, const flat_face_options& o, const cam_problem& pb,
               cam_result& r) {
  const auto d = design_flat_face(p, o);
  const auto sa = analyse_flat_face(p, d.eccentricity_radius, o);
  r.source = {{"max_abs_s_prime", d.max_abs_ds, pb.unit},
              {"base_radius", d.eccentricity_radius, pb.unit}};
  add_checks(r.source, sa, pb.unit, false);
  r.notes.push_back(fmt::format(
      "source design ((11): r_b = max|s'| / r_max): smallest radius of curvature {:.6g} {} at psi "
      "= {:.3f} deg (the paper checks no curvature)",
      sa.min_convex_radius, pb.unit, sa.psi_at_min_radius / degree));
  r.found = d.base_radius <= o.base_radius_max;
  if (!r.found) return;
  r.analysis = analyse_flat_face(p, d.base_radius, o);
  double lo = 0.0, hi = 0.0;
  for (const auto& s : r.analysis.samples)
    lo = std::min(lo, s.sigma.ds), hi = std::max(hi, s.sigma.ds);
  r.design = {{"base_radius", d.base_radius, pb.unit},
              {"eccentricity_radius", d.eccentricity_radius, pb.unit},
              {"curvature_radius", d.curvature_radius, pb.unit},
              {"face_from", lo, pb.unit},
              {"face_to", hi, pb.unit}};
  add_checks(r.design, r.analysis, pb.unit, false);
  r.notes.push_back(d.curvature_radius > d.eccentricity_radius
                        ? "the curvature margin sets the base radius"
                        : "the eccentricity bound sets the base radius (curvature margin met)");
  const double rb = d.base_radius, w = 0.25 * rb;
  r.drawing.base_radius = rb;
  r.position_offset = rb;
  r.drawing.follower = {{vec(lo - w, rb), vec(hi + w, rb)},
                        {vec(0.0, rb), vec(0.0, rb + p.max_displacement() + 0.6 * rb)}};
}

// The design found is reported as meeting its bounds only when its own figures say so: a box
// of +-1e20 gave NaN areas and a 90 deg pressure angle under "bounds met".
void check_design(const cam_problem& pb, cam_result& r) {
  for (const auto& f : r.design) {
    if (!std::isfinite(f.value)) {
      r.found = false;
      r.status = fmt::format(
          "no usable design: its {} is not finite (NaN or infinite; the box is beyond what "
          "doubles resolve)",
          f.name);
      return;
    }
  }
  const double bound =
      pb.follower == cam_follower::translating_roller   ? pb.translating.max_pressure_angle
      : pb.follower == cam_follower::oscillating_roller ? pb.oscillating.max_pressure_angle
                                                        : std::numeric_limits<double>::infinity();
  const double worst = r.analysis.max_abs_pressure_angle();
  if (!(worst <= bound * (1.0 + 1e-9))) {
    r.found = false;
    r.status = fmt::format(
        "no usable design: the design found has a pressure angle of {:.4f} deg, beyond the "
        "{:.4g} deg bound",
        worst / degree, bound / degree);
  }
}

}  // namespace

cam_result synthesize_cam(const cam_problem& pb) {
  const auto t0 = std::chrono::steady_clock::now();
  cam_result r;
  r.sense = "counterclockwise";
  const auto& p = *pb.programme;
  switch (pb.follower) {
    case cam_follower::translating_roller:
      r.follower = "translating_roller";
      translating(p, pb.translating, pb, r);
      break;
    case cam_follower::oscillating_roller:
      r.follower = "oscillating_roller";
      if (pb.oscillating.sense < 0) r.sense = "clockwise";
      oscillating(p, pb.oscillating, pb, r);
      break;
    case cam_follower::flat_face:
      r.follower = "flat_face";
      flat_face(p, pb.flat_face, pb, r);
      break;
  }
  r.status = r.found ? "bounds met" : "no design in the given box";
  if (r.found) check_design(pb, r);
  if (r.found) {
    r.drawing.title = fmt::format("{} cam ({}), {}", r.follower, r.sense, pb.source);
    r.drawing.unit = pb.unit;
    r.drawing.profile = profile_points(r.analysis);
    if (pb.follower != cam_follower::flat_face) r.drawing.pitch = pitch_points(r.analysis);
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!r.found) r.summary = core::summary::ended(core::termination::infeasible, "", r.status);
  return r;
}

std::string cam_result::full_report() const {
  std::string s =
      fmt::format("cam synthesis, {} follower, cam turning {}: {}\n", follower, sense, status);
  if (found) s += "design found:\n" + figures_text(design);
  s += "source's method:\n" + figures_text(source);
  for (const auto& n : notes) s += "- " + n + "\n";
  s += fmt::format("time {:.3f} s\n", seconds);
  return s;
}

nlohmann::json cam_result::to_json() const {
  return {{"follower", follower},
          {"sense", sense},
          {"status", status},
          {"found", found},
          {"design", found ? figures_json(design) : nlohmann::json()},
          {"source", figures_json(source)},
          {"notes", notes},
          {"seconds", seconds}};
}

void cam_result::save_files(output_folder& folder) const {
  if (!found) return;
  io::csv_writer prof({"psi_deg", "x", "y", "pitch_x", "pitch_y"});
  io::csv_writer prog(
      {"psi_deg", "s", "s_prime", "s_second", "pressure_angle_deg", "radius_of_curvature"});
  // s: the follower's position (translating: c + sigma; flat face: r_b + sigma; oscillating: the
  // arm angle c + sigma, radians).
  for (const auto& x : analysis.samples) {
    prof.add_row({x.psi / degree, x.profile.x(), x.profile.y(), x.pitch.x(), x.pitch.y()});
    prog.add_row({x.psi / degree, position_offset + x.sigma.s, x.sigma.ds, x.sigma.dds,
                  x.pressure_angle / degree, x.radius});
  }
  prof.save(folder.file("cam_profile.csv"));
  prog.save(folder.file("cam_programme.csv"));
  save_cam_drawing(folder.file("cam.svg"), drawing);
}

}  // namespace kinevo::synthesis
