#include "kinevo/analysis/finite_screw.hpp"

#include <fmt/format.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <numbers>
#include <utility>

namespace kinevo::analysis {

namespace {

// Principal moments closer than this (relative to I3) are treated as repeated: the Householder
// null vector of A - I 1 is then ill-conditioned (its error grows as eps / gap) and any body-fixed
// frame serves as well, so the frame is built from the points as in Part I, eqs. (12)-(13).
constexpr double repeated_gap = 1e-6;

std::vector<Eigen::Vector3d> centred(const std::vector<Eigen::Vector3d>& p,
                                     const Eigen::Vector3d& c) {
  std::vector<Eigen::Vector3d> out;
  out.reserve(p.size());
  for (const auto& x : p) out.push_back(x - c);
  return out;
}

// A deterministic sign for a principal axis found from A alone: its first non-negligible
// component positive (the sign of the e_i is free; the f_i follow it).
Eigen::Vector3d signed_axis(Eigen::Vector3d v) {
  for (int i = 0; i < 3; ++i) {
    if (std::abs(v(i)) > 1e-9) return v(i) < 0.0 ? Eigen::Vector3d(-v) : v;
  }
  return v;
}

// sum_i ((p_i - c) . e)((p_i' - c') . f): +spread when f is the image of e, -spread when it is
// the image of -e. Used to give the f_i the signs of the e_i (body-fixed frames).
double agreement(const std::vector<Eigen::Vector3d>& p, const std::vector<Eigen::Vector3d>& q,
                 const Eigen::Vector3d& e, const Eigen::Vector3d& f) {
  double s = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) s += p[i].dot(e) * q[i].dot(f);
  return s;
}

// The index of the (centred) point farthest from the line through the centroid along the unit
// `axis` (from the centroid itself when `axis` is zero); ties go to the first point, so that an
// equilateral triangle uses p1 as eq. (12) does.
std::size_t farthest_point(const std::vector<Eigen::Vector3d>& p, const Eigen::Vector3d& axis) {
  auto off = [&](const Eigen::Vector3d& x) { return (x - x.dot(axis) * axis).norm(); };
  double best = 0.0;
  for (const auto& x : p) best = std::max(best, off(x));
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (off(p[i]) >= (1.0 - 1e-9) * best) return i;
  }
  return 0;
}

Eigen::Vector3d unit_off_axis(const Eigen::Vector3d& x, const Eigen::Vector3d& axis) {
  const Eigen::Vector3d v = x - x.dot(axis) * axis;
  return v / v.norm();
}

struct frames {
  Eigen::Matrix3d e, f;
  std::string method;
};

// A body-fixed frame from one known axis pair (e_a in C, f_a in C', f_a's sign still free) and a
// body point off that axis: e_b along the point, e_c = e_a x e_b; f likewise (Part I, eqs.
// (12)-(13), generalised to any distinct principal axis). Columns are returned in the order
// (a, b, c) and f_a's sign is fixed by the agreement of the c axis.
frames frame_from_axis_and_point(const std::vector<Eigen::Vector3d>& p,
                                 const std::vector<Eigen::Vector3d>& q, const Eigen::Vector3d& ea,
                                 Eigen::Vector3d fa) {
  const std::size_t k = farthest_point(p, ea);
  const Eigen::Vector3d eb = unit_off_axis(p[k], ea), fb = unit_off_axis(q[k], fa);
  const Eigen::Vector3d ec = ea.cross(eb);
  if (agreement(p, q, ec, fa.cross(fb)) < 0.0) fa = -fa;
  frames fr;
  fr.e.col(0) = ea;
  fr.e.col(1) = eb;
  fr.e.col(2) = ec;
  fr.f.col(0) = fa;
  fr.f.col(1) = fb;
  fr.f.col(2) = fa.cross(fb);
  return fr;
}

// Columns reordered so that e_1, e_2, e_3 belong to I1, I2, I3.
frames reordered(const frames& fr, int a, int b, int c) {
  frames out = fr;
  const int idx[3] = {a, b, c};
  for (int j = 0; j < 3; ++j) {
    out.e.col(idx[j]) = fr.e.col(j);
    out.f.col(idx[j]) = fr.f.col(j);
  }
  return out;
}

frames principal_frames(const std::vector<Eigen::Vector3d>& p,
                        const std::vector<Eigen::Vector3d>& q, const finite_screw_result& r) {
  const Eigen::Matrix3d one = Eigen::Matrix3d::Identity();
  const Eigen::Vector3d& i = r.moments;
  const Eigen::Vector3d& j = r.moments_prime;
  const bool low_pair = i(1) - i(0) <= repeated_gap * i(2);
  const bool high_pair = i(2) - i(1) <= repeated_gap * i(2);
  auto eigen_axis = [&](const Eigen::Matrix3d& m, double moment) {
    return signed_axis(null_vector_rank2(m - moment * one));
  };
  if (!low_pair && !high_pair) {
    // Part I, eqs. (11a-e): e3, e2 by Householder, e1 = e2 x e3; the f_i the same in C', their
    // signs from the body-fixed agreement along e2 and (through f1 = f2 x f3) along e1, the
    // directions in which the points spread (along e3 a planar set has none).
    frames fr;
    const Eigen::Vector3d e3 = eigen_axis(r.moment, i(2)), e2 = eigen_axis(r.moment, i(1));
    Eigen::Vector3d f3 = eigen_axis(r.moment_prime, j(2)), f2 = eigen_axis(r.moment_prime, j(1));
    const Eigen::Vector3d e1 = e2.cross(e3);
    if (agreement(p, q, e2, f2) < 0.0) f2 = -f2;
    if (agreement(p, q, e1, f2.cross(f3)) < 0.0) f3 = -f3;
    fr.e << e1, e2, e3;
    fr.f << f2.cross(f3), f2, f3;
    fr.method = "principal axes by Householder (11a-e)";
    return fr;
  }
  if (low_pair && !high_pair) {
    // I1 = I2 (an equilateral triangle): e3 by Householder, e1 along a body point (12)-(13).
    frames fr = reordered(frame_from_axis_and_point(p, q, eigen_axis(r.moment, i(2)),
                                                    eigen_axis(r.moment_prime, j(2))),
                          2, 0, 1);
    fr.method = "repeated moment I1 = I2: e1 along a body point (12)-(13)";
    return fr;
  }
  if (!low_pair) {
    // I2 = I3 (more than three points only): e1 by Householder, e2 along a body point.
    frames fr = frame_from_axis_and_point(p, q, eigen_axis(r.moment, i(0)),
                                          eigen_axis(r.moment_prime, j(0)));
    fr.method = "repeated moment I2 = I3: e2 along a body point";
    return fr;
  }
  // I1 = I2 = I3 (more than three points only): any two body points not on one line.
  const std::size_t k = farthest_point(p, Eigen::Vector3d::Zero());
  frames fr = frame_from_axis_and_point(p, q, p[k].normalized(), q[k].normalized());
  fr.method = "isotropic moments: frame from two body points";
  return fr;
}

double largest_distance_change(const std::vector<Eigen::Vector3d>& p,
                               const std::vector<Eigen::Vector3d>& q) {
  double change = 0.0, size = 0.0;
  for (std::size_t a = 0; a < p.size(); ++a) {
    for (std::size_t b = a + 1; b < p.size(); ++b) {
      const double d = (p[a] - p[b]).norm();
      size = std::max(size, d);
      change = std::max(change, std::abs(d - (q[a] - q[b]).norm()));
    }
  }
  return size > 0.0 ? change / size : change;
}

// Axis and angle of a rotation matrix (Part I, eq. (15a) with the fix cos theta = ½(tr Q - 1)),
// theta in [0, pi]. Near theta = pi, vect(Q) = e sin theta loses e, so e comes from the
// symmetric part ½(Q + Q^T) - cos theta 1 = (1 - cos theta) e e^T, signed by vect(Q).
std::pair<Eigen::Vector3d, double> axis_angle(const Eigen::Matrix3d& q) {
  const Eigen::Vector3d s = vect(q);
  const double c = std::clamp(0.5 * (q.trace() - 1.0), -1.0, 1.0);
  const double angle = std::atan2(s.norm(), c);
  if (c >= 0.0) return {s / s.norm(), angle};
  const Eigen::Matrix3d sym = 0.5 * (q + q.transpose()) - c * Eigen::Matrix3d::Identity();
  Eigen::Index k = 0;
  sym.diagonal().maxCoeff(&k);
  Eigen::Vector3d e = sym.col(k).normalized();
  if (s.norm() > 0.0 ? e.dot(s) < 0.0 : signed_axis(e) != e) e = -e;
  return {e, angle};
}

}  // namespace

Eigen::Vector3d screw_point_closed_form(const Eigen::Vector3d& axis, double angle,
                                        const Eigen::Vector3d& p, const Eigen::Vector3d& p_prime) {
  return 0.5 / std::tan(angle / 2.0) * axis.cross(p_prime - p) -
         0.5 * axis.cross(axis.cross(p_prime + p));
}

axis_point_equations axis_point_equations_of(const Eigen::Matrix3d& rotation,
                                             const Eigen::Vector3d& p,
                                             const Eigen::Vector3d& p_prime) {
  const Eigen::Matrix3d qm = rotation - Eigen::Matrix3d::Identity();
  return {qm.transpose() * qm, qm.transpose() * (rotation * p - p_prime)};
}

finite_screw_result finite_screw(const std::vector<Eigen::Vector3d>& p,
                                 const std::vector<Eigen::Vector3d>& p_prime,
                                 const screw_options& options, std::vector<double> labels) {
  options.validate();
  require_point_pairs(p.size(), p_prime.size(), "finite screw", "second position");
  finite_screw_result r;
  r.labels = point_labels(std::move(labels), p.size());
  r.axis = r.point = Eigen::Vector3d::Constant(not_a_number);
  r.angle = r.slide = not_a_number;
  r.e_frame = r.f_frame = r.rotation_e = r.rotation = Eigen::Matrix3d::Constant(not_a_number);

  const second_moment m = second_moment_of(p), mp = second_moment_of(p_prime);
  r.centroid = m.centroid;
  r.centroid_prime = mp.centroid;
  r.moment = m.tensor;
  r.moment_prime = mp.tensor;
  // Three points are always planar: the closed form (29) applies; more use the general cubic.
  const bool planar = p.size() == 3;
  r.moments = principal_moments(r.moment, planar);
  r.moments_prime = principal_moments(r.moment_prime, planar);
  r.rigidity_violation = largest_distance_change(p, p_prime);
  if (r.refuse_collinear(options)) return r;
  if (r.refuse_not_rigid(options, "a distance between two points changes (relative)")) return r;

  const auto pc = centred(p, r.centroid), qc = centred(p_prime, r.centroid_prime);
  const frames fr = principal_frames(pc, qc, r);
  r.frame_method = fr.method;
  r.e_frame = fr.e;
  r.f_frame = fr.f;
  r.rotation_e = fr.e.transpose() * fr.f;               // (14a)
  r.rotation = fr.e * r.rotation_e * fr.e.transpose();  // (14b)

  const Eigen::Vector3d d = r.centroid_prime - r.centroid;
  const double size = std::sqrt(r.moment.trace() / (2.0 * static_cast<double>(p.size())));
  const Eigen::Vector3d s = vect(r.rotation);
  if (std::atan2(s.norm(), 0.5 * (r.rotation.trace() - 1.0)) <= options.rotation_tolerance) {
    if (d.norm() <= options.rotation_tolerance * size) {
      r.status = screw_status::no_motion;
      r.message = "no displacement: the two positions coincide";
      return r;
    }
    r.status = screw_status::pure_translation;
    r.message = "pure translation: the axis has a direction (the translation's) but no position";
    r.axis = d.normalized();
    r.angle = 0.0;
    r.slide = d.norm();
  } else {
    std::tie(r.axis, r.angle) = axis_angle(r.rotation);
    // (17)-(27) for the centroids (a body point like any p_lambda, and the best-averaged one).
    const axis_point_equations eq =
        axis_point_equations_of(r.rotation, r.centroid, r.centroid_prime);
    r.point = minimum_norm_rank2(eq.matrix, eq.rhs).solution;
    r.slide = r.axis.dot(d);  // (28), fixed: u = e^T (p' - p)
  }
  for (std::size_t i = 0; i < p.size(); ++i)
    r.point_slides.push_back(r.axis.dot(p_prime[i] - p[i]));
  return r;
}

std::string finite_screw_result::full_report() const {
  std::string s = checks_report("finite screw");
  auto out = std::back_inserter(s);
  fmt::format_to(out, "  centroid c            {}\n", format_vector(centroid));
  fmt::format_to(out, "  centroid c'           {}\n", format_vector(centroid_prime));
  fmt::format_to(out, "  second moment A\n{}", format_matrix(moment, "    "));
  fmt::format_to(out, "  second moment B\n{}", format_matrix(moment_prime, "    "));
  if (!frame_method.empty()) {
    fmt::format_to(out, "  frames                {}\n", frame_method);
    for (int k = 0; k < 3; ++k) {
      fmt::format_to(out, "  e{} {}   f{} {}\n", k + 1, format_vector(e_frame.col(k)), k + 1,
                     format_vector(f_frame.col(k)));
    }
    fmt::format_to(out, "  Q (e-basis)\n{}", format_matrix(rotation_e, "    "));
    fmt::format_to(out, "  Q_R\n{}", format_matrix(rotation, "    "));
  }
  if (has_axis()) {
    fmt::format_to(out, "  axis e                {}\n", format_vector(axis));
    fmt::format_to(out, "  angle theta           {:.10g} rad ({:.10g} deg)\n", angle,
                   angle * 180.0 / std::numbers::pi);
    fmt::format_to(out, "  point r0              {}\n", format_vector(point));
    fmt::format_to(out, "  slide u               {:.10g}\n", slide);
  }
  return s;
}

nlohmann::json finite_screw_result::to_json() const {
  nlohmann::json j = checks_json();
  j.update({{"centroid", json_vector(centroid)},
            {"centroid_prime", json_vector(centroid_prime)},
            {"moment", json_matrix(moment)},
            {"moment_prime", json_matrix(moment_prime)},
            {"e", json_matrix(e_frame.transpose())},
            {"f", json_matrix(f_frame.transpose())},
            {"rotation_e", json_matrix(rotation_e)},
            {"rotation", json_matrix(rotation)},
            {"axis", json_vector(axis)},
            {"angle", json_number(angle)},
            {"point", json_vector(point)},
            {"slide", json_number(slide)},
            {"point_slides", point_slides}});
  if (!frame_method.empty()) j["frame_method"] = frame_method;
  return j;
}

io::csv_writer finite_screw_result::points_csv(const std::vector<Eigen::Vector3d>& first,
                                               const std::vector<Eigen::Vector3d>& second) const {
  io::csv_writer w({"point", "slide", "axis_distance", "axis_distance_prime"});
  auto distance = [&](const Eigen::Vector3d& x) {
    const Eigen::Vector3d v = x - point;
    return (v - v.dot(axis) * axis).norm();
  };
  for (std::size_t i = 0; i < point_slides.size() && i < first.size(); ++i) {
    w.add_row({labels[i], point_slides[i], distance(first[i]), distance(second[i])});
  }
  return w;
}

}  // namespace kinevo::analysis
