#include "kinevo/mechanics/model/model_drawing.hpp"

#include <fmt/format.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "kinevo/io/input_file.hpp"
#include "kinevo/mechanics/model/detail/inertia_shape.hpp"
#include "kinevo/mechanics/model/detail/model_file.hpp"

namespace kinevo::mechanics {

// The drawing made from the geometry that read_model_file read (detail/model_geometry.hpp): the
// one reader resolved the parameters and checked the --set names; here the values are made
// constants and placed.
class model_drawing_reader {
 public:
  model_drawing_reader(const model_geometry& geometry, const std::string& source)
      : geometry_(geometry), fields_(source) {}

  model_drawing read() {
    out_.spatial_ = geometry_.spatial;
    out_.scene_.planar = !out_.spatial_;
    out_.scene_.up =
        out_.spatial_ ? std::array<double, 3>{0, 0, 1} : std::array<double, 3>{0, 1, 0};
    read_up();
    for (const auto& s : geometry_.solids) {
      raise(s.error);
      if (s.particle) {
        add_particle(s);
      } else {
        add_body(s);
      }
    }
    for (const auto& c : geometry_.connections) connect(c);
    link_bodies();
    if (out_.points_.empty()) {
      fields_.fail(fields_.source(), "nothing to draw: no [[particle]] or [[body]]");
    }
    return std::move(out_);
  }

 private:
  struct body {
    int x = -1, y = -1, phi = -1, z = -1;  // phi: e0 of a spatial body (e1..e3 follow)
    int solid = -1;                        // its index in the 3D scene
    std::vector<int> points;               // drawn points on it, in the order the file names them
  };

  // What reading a part of the file gave instead of its value.
  static void raise(const std::string& error) {
    if (!error.empty()) throw io::input_error(error);
  }

  std::vector<double> constants(const model_geometry::field& f) const {
    std::vector<double> v;
    for (const auto& e : f.values) v.push_back(fields_.constant_value(e, f.where));
    return v;
  }

  // Up is against gravity ([model] gravity or a [[force]] of type gravity), when there is one.
  void read_up() {
    raise(geometry_.gravity_error);
    if (!geometry_.gravity) return;
    const std::vector<double> v = constants(*geometry_.gravity);
    Eigen::Vector3d g = Eigen::Vector3d::Zero();
    for (std::size_t k = 0; k < v.size() && k < 3; ++k) g[static_cast<int>(k)] = v[k];
    if (g.norm() > 0.0) {
      const Eigen::Vector3d u = -g.normalized();
      out_.scene_.up = {u.x(), u.y(), u.z()};
    }
  }

  int add_solid(io::scene_solid solid, std::array<int, 4> columns) {
    out_.scene_.solids.push_back(std::move(solid));
    out_.pose_columns_.push_back(columns);
    return static_cast<int>(out_.scene_.solids.size()) - 1;
  }

  int coordinate(const std::string& name) {
    out_.coordinates_.push_back(name);
    return static_cast<int>(out_.coordinates_.size()) - 1;
  }

  void add_particle(const model_geometry::solid& p) {
    const std::string& name = p.name;
    const int x = coordinate(name + "_x"), y = coordinate(name + "_y");
    body b{x, y, -1, out_.spatial_ ? coordinate(name + "_z") : -1, -1, {}};
    io::scene_solid solid;
    solid.name = name;
    solid.particle = true;
    solid.shape = io::solid_shape::sphere;
    solid.sized_by = "a particle: sized from the scene";
    b.solid = add_solid(std::move(solid), {b.x, b.y, b.z, -1});
    b.points.push_back(
        add_point({name, io::point_style::particle, b.x, b.y, -1, 0.0, 0.0, b.z, 0.0}));
    bodies_[name] = b;
  }

  void add_body(const model_geometry::solid& t) {
    const std::string& name = t.name;
    const int x = coordinate(name + "_x"), y = coordinate(name + "_y");
    const double mass = constants(t.mass).front();
    if (!out_.spatial_) {
      const int phi = coordinate(name + "_phi");
      io::scene_solid solid = planar_inertia_solid(mass, constants(t.inertia).front());
      solid.name = name;
      bodies_[name] = body{x, y, phi, -1, add_solid(std::move(solid), {x, y, -1, phi}), {}};
      return;
    }
    const int z = coordinate(name + "_z");
    const int e0 = coordinate(name + "_e0");
    for (int k = 1; k <= 3; ++k) coordinate(fmt::format("{}_e{}", name, k));
    const std::vector<double> inertia = constants(t.inertia);
    Eigen::Matrix3d I;
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) I(r, c) = inertia[static_cast<std::size_t>(3 * r + c)];
    }
    io::scene_solid solid = inertia_solid(mass, I);
    solid.name = name;
    bodies_[name] = body{x, y, e0, z, add_solid(std::move(solid), {x, y, z, e0}), {}};
  }

  int add_point(model_drawing::point p) {
    out_.points_.push_back(std::move(p));
    return static_cast<int>(out_.points_.size()) - 1;
  }

  // The drawn point of side `side` ("i" or "j") of a joint or force; -1 when it names no body.
  int side_point(const std::optional<model_geometry::side>& at, const std::string& name,
                 const char* side, io::scene_point& where) {
    if (!at) return -1;
    std::vector<double> s = constants(at->point);
    s.resize(3, 0.0);
    const std::string point_name = fmt::format("{}_{}", name, side);
    where.at = {s[0], s[1], s[2]};
    if (at->body == "ground") {
      return add_point({point_name, io::point_style::ground, -1, -1, -1, s[0], s[1], -1, s[2]});
    }
    const auto it = bodies_.find(at->body);
    if (it == bodies_.end()) {
      fields_.fail(at->body_where, fmt::format("unknown body '{}'", io::excerpt(at->body, 40)));
    }
    body& b = it->second;
    where.solid = b.solid;
    if (b.phi < 0) {
      where.at = {0.0, 0.0, 0.0};
      return b.points.front();
    }  // a particle is its own point
    const int i =
        add_point({point_name, io::point_style::joint, b.x, b.y, b.phi, s[0], s[1], b.z, s[2]});
    b.points.push_back(i);
    return i;
  }

  void connect(const model_geometry::connection& c) {
    raise(c.error);
    io::scene_point pi, pj;
    const int i = side_point(c.i, c.name, "i", pi);
    const int j = side_point(c.j, c.name, "j", pj);
    const std::string& type = c.type;
    if (i < 0 || j < 0) return;
    // Rods and springs are drawn as lines between their two points.
    if (type == "distance" || type == "spring_damper") {
      out_.links_.push_back({c.name, {i, j}, false});
      out_.scene_.links.push_back({c.name, type == "spring_damper", pi, pj});
      return;
    }
    if (c.section != "joint") return;
    out_.scene_.joints.push_back({c.name, type, pi, pj, joint_axis(c)});
  }

  // The axis a joint turns about or slides along, on body i: a planar revolute joint's is z,
  // a planar slider's its axis_i in the plane; a spatial revolute, cylindrical or translational
  // joint's its axis_i (default z, as the model reads it). None for the others.
  std::array<double, 3> joint_axis(const model_geometry::connection& c) const {
    const std::string& type = c.type;
    if (c.axis) {
      std::vector<double> v = constants(*c.axis);
      v.resize(3, 0.0);
      return {v[0], v[1], v[2]};
    }
    if (!out_.spatial_)
      return type == "revolute" ? std::array<double, 3>{0.0, 0.0, 1.0}
                                : std::array<double, 3>{0.0, 0.0, 0.0};
    const bool spatial_axis =
        type == "revolute" || type == "cylindrical" || type == "translational";
    return spatial_axis ? std::array<double, 3>{0.0, 0.0, 1.0}
                        : std::array<double, 3>{0.0, 0.0, 0.0};
  }
  // Each body as a line through its joints (a polygon with three or more); a body with a single
  // joint is drawn from that joint to its centre; a body whose joints all sit at one point of it
  // (a slider) as a box around that point, sized from the model's joint offsets.
  void link_bodies() {
    double reach = 0.0;
    for (const auto& p : out_.points_) {
      if (p.style == io::point_style::joint) reach = std::max(reach, std::hypot(p.sx, p.sy));
    }
    const double half = reach > 0.0 ? 0.25 * reach : 0.1;
    for (const auto& [name, b] : bodies_) {
      if (b.phi < 0) continue;
      std::vector<int> pts = b.points;
      if (pts.size() >= 2 && one_place(pts)) {
        const auto& at = out_.points_[static_cast<std::size_t>(pts.front())];
        pts.clear();
        for (const auto& [cx, cy] : {std::pair{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}) {
          pts.push_back(
              add_point({fmt::format("{}_corner{}", name, pts.size() + 1), io::point_style::hidden,
                         b.x, b.y, b.phi, at.sx + cx * half, at.sy + cy * half, b.z, at.sz}));
        }
      } else if (pts.size() < 2) {
        pts.push_back(add_point(
            {name + "_centre", io::point_style::centre, b.x, b.y, b.phi, 0.0, 0.0, b.z, 0.0}));
      }
      out_.links_.push_back({name, pts, pts.size() >= 3});
    }
  }

  bool one_place(const std::vector<int>& pts) const {
    const auto& first = out_.points_[static_cast<std::size_t>(pts.front())];
    return std::all_of(pts.begin(), pts.end(), [&](int i) {
      const auto& p = out_.points_[static_cast<std::size_t>(i)];
      return p.sx == first.sx && p.sy == first.sy && p.sz == first.sz;
    });
  }

  const model_geometry& geometry_;
  toml_fields fields_;
  std::map<std::string, body> bodies_;
  model_drawing out_;
};

model_drawing model_drawing::from_string(const std::string& text, const std::string& source,
                                         const std::vector<parameter_override>& overrides) {
  // The one reader of model files: parameters in file order, --set names checked.
  model_options options;
  options.overrides = overrides;
  const auto d = describe_model_file(text, source, options);
  return model_drawing_reader(d->geometry, source).read();
}

model_drawing model_drawing::load(const std::filesystem::path& model_file,
                                  const std::vector<parameter_override>& overrides) {
  return from_string(io::read_input_file(model_file, "model file"), model_file.string(), overrides);
}

namespace {

// A spatial body-fixed point in the global frame, r + A(p) s' with the Euler parameters'
// A(p) = (e0^2 - e.e) I + 2 e e^T + 2 e0 e~ (Haug, Computer-Aided Kinematics and Dynamics of
// Mechanical Systems, section 6.3; mechanics/model/detail/euler_parameters.hpp).
Eigen::Vector3d spatial_point(const Eigen::Vector3d& r, const Eigen::Vector4d& p,
                              const Eigen::Vector3d& s) {
  const double e0 = p[0];
  const Eigen::Vector3d e = p.tail<3>();
  return r + (e0 * e0 - e.dot(e)) * s + 2.0 * e * e.dot(s) + 2.0 * e0 * e.cross(s);
}

}  // namespace

void drawing_motion::add(double t, std::vector<double> q) {
  if (!times.empty() && !(t > times.back())) return;
  times.push_back(t);
  coordinates.push_back(std::move(q));
}

drawing_motion model_drawing::motion(const io::csv_table& run) const {
  const std::size_t t = run.column("t");
  std::vector<std::size_t> column;
  for (const auto& c : coordinates_) column.push_back(run.column(c));
  drawing_motion m;
  for (const auto& row : run.rows) {
    std::vector<double> q;
    q.reserve(column.size());
    for (const std::size_t c : column) q.push_back(row[c]);
    m.add(row[t], std::move(q));
  }
  return m;
}

io::animation_panel model_drawing::panel(const drawing_motion& run,
                                         const std::string& title) const {
  io::animation_panel p;
  p.title = title;
  p.links = links_;
  for (const auto& pt : points_) {
    p.point_names.push_back(pt.name);
    p.point_styles.push_back(pt.style);
  }
  for (const auto& row : run.coordinates) {
    const auto q = [&](int i) { return row[static_cast<std::size_t>(i)]; };
    std::vector<double> f;
    f.reserve(2 * points_.size());
    for (const auto& pt : points_) {
      if (pt.x < 0) {
        f.insert(f.end(), {pt.sx, pt.sy});  // ground; spatial: projected onto XY
      } else if (spatial_) {
        const Eigen::Vector3d r(q(pt.x), q(pt.y), q(pt.z));
        const Eigen::Vector3d g =
            pt.phi < 0
                ? r
                : spatial_point(
                      r, Eigen::Vector4d(q(pt.phi), q(pt.phi + 1), q(pt.phi + 2), q(pt.phi + 3)),
                      Eigen::Vector3d(pt.sx, pt.sy, pt.sz));
        f.insert(f.end(), {g.x(), g.y()});
      } else {
        const double phi = pt.phi < 0 ? 0.0 : q(pt.phi);
        const double c = std::cos(phi), s = std::sin(phi);
        // A body-fixed point in the plane: r + A(phi) s', A the rotation by phi.
        f.push_back(q(pt.x) + c * pt.sx - s * pt.sy);
        f.push_back(q(pt.y) + s * pt.sx + c * pt.sy);
      }
    }
    p.frames.push_back(std::move(f));
  }
  return p;
}

io::motion_scene model_drawing::scene(const drawing_motion& run, const std::string& title) const {
  io::motion_scene s = scene_;
  s.title = title;
  s.times = run.times;
  for (const auto& row : run.coordinates) {
    const auto q = [&](int i) { return row[static_cast<std::size_t>(i)]; };
    std::vector<double> f;
    f.reserve(s.solids.size() * s.pose_size());
    for (const auto& [x, y, z, angle] : pose_columns_) {
      if (s.planar) {
        f.insert(f.end(), {q(x), q(y), angle < 0 ? 0.0 : q(angle)});
      } else if (angle < 0) {
        f.insert(f.end(), {q(x), q(y), q(z), 1.0, 0.0, 0.0, 0.0});
      } else {
        f.insert(f.end(), {q(x), q(y), q(z), q(angle), q(angle + 1), q(angle + 2), q(angle + 3)});
      }
    }
    s.poses.push_back(std::move(f));
  }
  return s;
}

io::motion_scene animate_scene(const model_drawing& drawing, const drawing_motion& run,
                               const std::string& title) {
  return drawing.scene(run, title);
}

io::animation animate_run(const model_drawing& drawing, const drawing_motion& run,
                          const std::string& title) {
  io::animation a;
  a.title = title;
  a.times = run.times;
  a.panels.push_back(drawing.panel(run, title));
  return a;
}

}  // namespace kinevo::mechanics
