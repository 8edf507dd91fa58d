#include "kinevo/mechanics/model/model_drawing.hpp"

#include <fmt/format.h>

#include <toml++/toml.h>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "kinevo/io/input_file.hpp"
#include "kinevo/mechanics/model/detail/inertia_shape.hpp"
#include "kinevo/mechanics/model/detail/toml_fields.hpp"
#include "kinevo/symbolic/detail/expression_context.hpp"

namespace kinevo::mechanics {

class model_drawing_reader {
 public:
  model_drawing_reader(const toml::table& root, const std::string& source,
                       const std::vector<parameter_override>& overrides)
      : root_(root), fields_(source), overrides_(overrides) {}

  model_drawing read() {
    read_space();
    read_parameters();
    read_up();
    for (const toml::table* p : fields_.tables(root_, "particle")) add_particle(*p);
    for (const toml::table* b : fields_.tables(root_, "body")) add_body(*b);
    for (const char* section : {"joint", "force"}) {
      int k = 0;
      for (const toml::table* j : fields_.tables(root_, section)) connect(*j, section, ++k);
    }
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

  void read_space() {
    const toml::table* m = root_["model"].as_table();
    out_.spatial_ =
        m != nullptr && fields_.string_or(*m, "[model]", "space", "planar") == "spatial";
    out_.scene_.planar = !out_.spatial_;
    out_.scene_.up =
        out_.spatial_ ? std::array<double, 3>{0, 0, 1} : std::array<double, 3>{0, 1, 0};
  }

  // Up is against gravity ([model] gravity or a [[force]] of type gravity), when there is one.
  void read_up() {
    const std::size_t dimension = out_.spatial_ ? 3 : 2;
    const toml::table* g_table = nullptr;
    // C strings, not string assignments: GCC 12's -Wrestrict misfires on those here at -O3
    // (seen once this file shared a unity batch with the other model readers).
    const char* key = "";
    const char* section = "";
    if (const toml::table* m = root_["model"].as_table(); m != nullptr && m->contains("gravity")) {
      g_table = m, key = "gravity", section = "[model]";
    }
    for (const toml::table* f : fields_.tables(root_, "force")) {
      if (g_table == nullptr && fields_.string_or(*f, "[[force]]", "type", "") == "gravity" &&
          f->contains("g")) {
        g_table = f, key = "g", section = "[[force]]";
      }
    }
    if (g_table == nullptr) return;
    const auto v = fields_.vector(*g_table, section, key, ctx_, dimension);
    const std::string at = fields_.field_where(*g_table, section, key);
    Eigen::Vector3d g = Eigen::Vector3d::Zero();
    for (std::size_t k = 0; k < dimension; ++k)
      g[static_cast<int>(k)] = fields_.constant_value(v[k], at);
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

  // A spatial body's centroidal inertia: principal moments [Ixx, Iyy, Izz] or a 3x3 matrix.
  Eigen::Matrix3d spatial_inertia(const toml::table& t) const {
    Eigen::Matrix3d I = Eigen::Matrix3d::Zero();
    const toml::array* rows = t["inertia"].as_array();
    if (rows == nullptr) return I;
    const std::string at = fields_.field_where(t, "[[body]]", "inertia");
    const auto value = [&](const toml::node& n) {
      return fields_.constant_value(fields_.expression_of(n, at, ctx_), at);
    };
    for (std::size_t r = 0; r < rows->size() && r < 3; ++r) {
      const toml::node& row = *rows->get(r);
      if (const toml::array* cols = row.as_array()) {
        for (std::size_t c = 0; c < cols->size() && c < 3; ++c) {
          I(static_cast<int>(r), static_cast<int>(c)) = value(*cols->get(c));
        }
      } else {
        I(static_cast<int>(r), static_cast<int>(r)) = value(row);
      }
    }
    return I;
  }

  // Parameters may use each other in any order: repeated passes until none is left.
  void read_parameters() {
    const toml::table* t = root_["parameters"].as_table();
    if (t == nullptr) return;
    std::vector<std::pair<std::string, const toml::node*>> left;
    for (const auto& [key, node] : *t) left.emplace_back(std::string(key.str()), &node);
    while (!left.empty()) {
      std::vector<std::pair<std::string, const toml::node*>> still;
      for (const auto& [name, node] : left) {
        try {
          const std::string at = fields_.where(node);
          ctx_.add_constant(name, value_of(name, *node, at), at);
        } catch (const io::input_error&) {
          still.emplace_back(name, node);
        }
      }
      if (still.size() == left.size()) {
        fields_.expression_of(*still.front().second, fields_.where(still.front().second), ctx_);
        fields_.fail(fields_.where(still.front().second), "parameter is not a constant");
      }
      left = std::move(still);
    }
  }

  double value_of(const std::string& name, const toml::node& node, const std::string& at) const {
    for (const auto& o : overrides_) {
      if (o.name == name) return o.value;
    }
    return fields_.constant_value(fields_.expression_of(node, at, ctx_), at);
  }

  int coordinate(const std::string& name) {
    out_.coordinates_.push_back(name);
    return static_cast<int>(out_.coordinates_.size()) - 1;
  }

  void add_particle(const toml::table& p) {
    const std::string name = fields_.string(p, "[[particle]]", "name");
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

  void add_body(const toml::table& t) {
    const std::string name = fields_.string(t, "[[body]]", "name");
    const int x = coordinate(name + "_x"), y = coordinate(name + "_y");
    const double mass = fields_.constant_or(t, "[[body]]", "mass", ctx_, 0.0);
    if (!out_.spatial_) {
      const int phi = coordinate(name + "_phi");
      io::scene_solid solid =
          planar_inertia_solid(mass, fields_.constant_or(t, "[[body]]", "inertia", ctx_, 0.0));
      solid.name = name;
      bodies_[name] = body{x, y, phi, -1, add_solid(std::move(solid), {x, y, -1, phi}), {}};
      return;
    }
    const int z = coordinate(name + "_z");
    const int e0 = coordinate(name + "_e0");
    for (int k = 1; k <= 3; ++k) coordinate(fmt::format("{}_e{}", name, k));
    io::scene_solid solid = inertia_solid(mass, spatial_inertia(t));
    solid.name = name;
    bodies_[name] = body{x, y, e0, z, add_solid(std::move(solid), {x, y, z, e0}), {}};
  }

  int add_point(model_drawing::point p) {
    out_.points_.push_back(std::move(p));
    return static_cast<int>(out_.points_.size()) - 1;
  }

  // The drawn point of side `side` ("i" or "j") of a joint or force; -1 when it names no body.
  int side_point(const toml::table& t, const std::string& section, const std::string& name,
                 const char* side, io::scene_point& where) {
    const std::string key = fmt::format("body_{}", side);
    if (!t.contains(key)) return -1;
    const std::string on = fields_.string(t, section, key);
    const std::size_t dimension = out_.spatial_ ? 3 : 2;
    std::vector<double> s{0.0, 0.0, 0.0};
    const std::string point_key = fmt::format("point_{}", side);
    if (t.contains(point_key)) {
      const auto v = fields_.vector(t, section, point_key, ctx_, dimension);
      const std::string at = fields_.field_where(t, section, point_key);
      for (std::size_t k = 0; k < dimension; ++k) s[k] = fields_.constant_value(v[k], at);
    }
    const std::string point_name = fmt::format("{}_{}", name, side);
    where.at = {s[0], s[1], s[2]};
    if (on == "ground") {
      return add_point({point_name, io::point_style::ground, -1, -1, -1, s[0], s[1], -1, s[2]});
    }
    const auto it = bodies_.find(on);
    if (it == bodies_.end()) {
      fields_.fail(fields_.field_where(t, section, key),
                   fmt::format("unknown body '{}'", io::excerpt(on, 40)));
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

  void connect(const toml::table& t, const char* kind, int k) {
    const std::string section = fmt::format("[[{}]]", kind);
    const std::string name = fields_.string_or(t, section, "name", fmt::format("{}{}", kind, k));
    io::scene_point pi, pj;
    const int i = side_point(t, section, name, "i", pi);
    const int j = side_point(t, section, name, "j", pj);
    const std::string type = fields_.string_or(t, section, "type", "");
    if (i < 0 || j < 0) return;
    // Rods and springs are drawn as lines between their two points.
    if (type == "distance" || type == "spring_damper") {
      out_.links_.push_back({name, {i, j}, false});
      out_.scene_.links.push_back({name, type == "spring_damper", pi, pj});
      return;
    }
    if (std::string(kind) != "joint") return;
    out_.scene_.joints.push_back({name, type, pi, pj, joint_axis(t, section, type)});
  }

  // The axis a joint turns about or slides along, on body i: a planar revolute joint's is z,
  // a planar slider's its axis_i in the plane; a spatial revolute, cylindrical or translational
  // joint's its axis_i (default z, as the model reads it). None for the others.
  std::array<double, 3> joint_axis(const toml::table& t, const std::string& section,
                                   const std::string& type) const {
    const bool spatial_axis =
        type == "revolute" || type == "cylindrical" || type == "translational";
    if (!out_.spatial_) {
      if (type == "revolute") return {0.0, 0.0, 1.0};
      if ((type == "translational" || type == "point_on_line") && t.contains("axis_i")) {
        const auto v = fields_.vector(t, section, "axis_i", ctx_, 2);
        const std::string at = fields_.field_where(t, section, "axis_i");
        return {fields_.constant_value(v[0], at), fields_.constant_value(v[1], at), 0.0};
      }
      return {0.0, 0.0, 0.0};
    }
    if (!spatial_axis) return {0.0, 0.0, 0.0};
    if (!t.contains("axis_i")) return {0.0, 0.0, 1.0};
    const auto v = fields_.vector(t, section, "axis_i", ctx_, 3);
    const std::string at = fields_.field_where(t, section, "axis_i");
    return {fields_.constant_value(v[0], at), fields_.constant_value(v[1], at),
            fields_.constant_value(v[2], at)};
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

  const toml::table& root_;
  toml_fields fields_;
  const std::vector<parameter_override>& overrides_;
  symbolic::expression_context ctx_;
  std::map<std::string, body> bodies_;
  model_drawing out_;
};

model_drawing model_drawing::from_string(const std::string& text, const std::string& source,
                                         const std::vector<parameter_override>& overrides) {
  const toml::table root = io::parse_toml(text, source);
  return model_drawing_reader(root, source, overrides).read();
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

io::animation_panel model_drawing::panel(const io::csv_table& run, const std::string& title) const {
  std::vector<std::size_t> column;
  for (const auto& c : coordinates_) column.push_back(run.column(c));
  io::animation_panel p;
  p.title = title;
  p.links = links_;
  for (const auto& pt : points_) {
    p.point_names.push_back(pt.name);
    p.point_styles.push_back(pt.style);
  }
  for (const auto& row : run.rows) {
    const auto q = [&](int i) { return row[column[static_cast<std::size_t>(i)]]; };
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

io::motion_scene model_drawing::scene(const io::csv_table& run, const std::string& title) const {
  std::vector<std::size_t> column;
  for (const auto& c : coordinates_) column.push_back(run.column(c));
  io::motion_scene s = scene_;
  s.title = title;
  s.times = run.column_values("t");
  for (const auto& row : run.rows) {
    const auto q = [&](int i) { return row[column[static_cast<std::size_t>(i)]]; };
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

namespace {

// A run that restarted at a time (an intermittent row switching) repeats it: the page's clock
// must increase, so a row at or before the previous time is left out.
io::csv_table increasing_rows(const io::csv_table& run) {
  io::csv_table kept = run;
  kept.rows.clear();
  kept.line_numbers.clear();
  const std::size_t t = run.column("t");
  for (std::size_t i = 0; i < run.rows.size(); ++i) {
    if (!kept.rows.empty() && !(run.rows[i][t] > kept.rows.back()[t])) continue;
    kept.rows.push_back(run.rows[i]);
    if (i < run.line_numbers.size()) kept.line_numbers.push_back(run.line_numbers[i]);
  }
  return kept;
}

}  // namespace

io::motion_scene animate_scene(const model_drawing& drawing, const io::csv_table& run,
                               const std::string& title) {
  return drawing.scene(increasing_rows(run), title);
}

io::animation animate_run(const model_drawing& drawing, const io::csv_table& run,
                          const std::string& title) {
  const io::csv_table kept = increasing_rows(run);
  io::animation a;
  a.title = title;
  a.times = kept.column_values("t");
  a.panels.push_back(drawing.panel(kept, title));
  return a;
}

}  // namespace kinevo::mechanics
