// The drawing's part of the model file (detail/model_geometry.hpp), read as the last stage of
// read_model_file with the description's context: the parameters as it resolved them, the
// definitions substituted.
#include "kinevo/mechanics/model/detail/model_geometry.hpp"

#include <fmt/format.h>

#include <exception>
#include <string>
#include <unordered_map>

#include "kinevo/io/errors.hpp"
#include "kinevo/mechanics/model/detail/model_file.hpp"

namespace kinevo::mechanics {

namespace {

class geometry_reader {
 public:
  geometry_reader(const toml::table& root, const toml_fields& fields,
                  const symbolic::expression_context& ctx, bool spatial)
      : root_(root),
        fields_(fields),
        ctx_(ctx),
        dimension_(spatial ? 3 : 2),
        source_(fields.source()) {
    out_.spatial = spatial;
  }

  model_geometry read() {
    guarded(out_.gravity_error, [&] { read_gravity(); });
    for (const toml::table* p : fields_.tables(root_, "particle")) {
      model_geometry::solid s;
      s.particle = true;
      guarded(s.error, [&] { s.name = fields_.string(*p, "[[particle]]", "name"); });
      out_.solids.push_back(std::move(s));
    }
    for (const toml::table* b : fields_.tables(root_, "body")) {
      model_geometry::solid s;
      guarded(s.error, [&] { read_body(*b, s); });
      out_.solids.push_back(std::move(s));
    }
    for (const char* section : {"joint", "force"}) {
      int k = 0;
      for (const toml::table* t : fields_.tables(root_, section)) {
        model_geometry::connection c;
        c.section = section;
        c.where = fields_.where(*t);
        guarded(c.error, [&] { read_connection(*t, ++k, c); });
        out_.connections.push_back(std::move(c));
      }
    }
    return std::move(out_);
  }

 private:
  // A part the model reads differently (or not at all) keeps its message for the drawing.
  template <class F>
  void guarded(std::string& error, F&& read) const {
    try {
      read();
    } catch (const io::input_error& e) {
      error = e.what();
    } catch (const std::exception& e) {
      // GiNaC's and CLN's own (a division by zero while evaluating): the drawing names the file.
      error = fmt::format("{}: {}", source_, e.what());
    }
  }

  // A number or an expression string; a text met before is not parsed again (a chain's links
  // repeat the same masses, inertias and points, and parsing is most of this pass's time).
  GiNaC::ex value(const toml::node& n, const std::string& at) {
    const std::string* text = n.is_string() ? &n.as_string()->get() : nullptr;
    if (text == nullptr) return fields_.expression_of(n, at, ctx_);
    if (const auto it = parsed_.find(*text); it != parsed_.end()) return it->second;
    GiNaC::ex e = fields_.expression_of(n, at, ctx_);
    parsed_.emplace(*text, e);
    return e;
  }

  GiNaC::ex value_or(const toml::table& t, std::string_view section, std::string_view key) {
    const toml::node* n = t.get(key);
    return n == nullptr ? GiNaC::ex(0) : value(*n, fields_.field_where(t, section, key));
  }

  // toml_fields::vector's checks and messages.
  model_geometry::field vector_field(const toml::table& t, std::string_view section,
                                     std::string_view key, std::size_t length) {
    model_geometry::field f;
    f.where = fields_.field_where(t, section, key);
    const toml::node* n = t.get(key);
    if (n == nullptr) fields_.fail(f.where, "missing");
    const toml::array* a = n->as_array();
    if (a == nullptr || a->size() != length) {
      fields_.fail(f.where, fmt::format("must be an array of {} values", length));
    }
    for (const auto& e : *a) f.values.push_back(value(e, f.where));
    return f;
  }

  // Up is against gravity: [model] gravity, else the g of a [[force]] of type gravity.
  void read_gravity() {
    if (const toml::table* m = root_["model"].as_table(); m != nullptr && m->contains("gravity")) {
      out_.gravity = vector_field(*m, "[model]", "gravity", dimension_);
      return;
    }
    for (const toml::table* f : fields_.tables(root_, "force")) {
      if (fields_.string_or(*f, "[[force]]", "type", "") == "gravity" && f->contains("g")) {
        out_.gravity = vector_field(*f, "[[force]]", "g", dimension_);
        return;
      }
    }
  }

  void read_body(const toml::table& t, model_geometry::solid& s) {
    static constexpr const char* section = "[[body]]";
    s.name = fields_.string(t, section, "name");
    s.mass = {{value_or(t, section, "mass")}, fields_.field_where(t, section, "mass")};
    s.inertia.where = fields_.field_where(t, section, "inertia");
    if (dimension_ == 2) {
      s.inertia.values = {value_or(t, section, "inertia")};
      return;
    }
    // Principal moments [Ixx, Iyy, Izz] or a 3x3 matrix.
    s.inertia.values.assign(9, 0);
    const toml::array* rows = t["inertia"].as_array();
    if (rows == nullptr) return;
    for (std::size_t r = 0; r < rows->size() && r < 3; ++r) {
      const toml::node& row = *rows->get(r);
      if (const toml::array* cols = row.as_array()) {
        for (std::size_t c = 0; c < cols->size() && c < 3; ++c) {
          s.inertia.values[3 * r + c] = value(*cols->get(c), s.inertia.where);
        }
      } else {
        s.inertia.values[4 * r] = value(row, s.inertia.where);
      }
    }
  }

  std::optional<model_geometry::side> read_side(const toml::table& t, const std::string& section,
                                                const char* side) {
    const std::string key = fmt::format("body_{}", side);
    if (!t.contains(key)) return std::nullopt;
    model_geometry::side s;
    s.body = fields_.string(t, section, key);
    s.body_where = fields_.field_where(t, section, key);
    const std::string point_key = fmt::format("point_{}", side);
    if (t.contains(point_key)) {
      s.point = vector_field(t, section, point_key, dimension_);
    } else {
      s.point.where = fields_.field_where(t, section, point_key);
      s.point.values.assign(dimension_, 0);
    }
    return s;
  }

  void read_connection(const toml::table& t, int k, model_geometry::connection& c) {
    const std::string section = fmt::format("[[{}]]", c.section);
    c.name = fields_.string_or(t, section, "name", fmt::format("{}{}", c.section, k));
    c.i = read_side(t, section, "i");
    c.j = read_side(t, section, "j");
    c.type = fields_.string_or(t, section, "type", "");
    if (c.section != "joint" || !c.i || !c.j || !t.contains("axis_i")) return;
    // The axis a joint turns about or slides along, where the drawing shows one.
    const bool axis = dimension_ == 2 ? c.type == "translational" || c.type == "point_on_line"
                                      : c.type == "revolute" || c.type == "cylindrical" ||
                                            c.type == "translational";
    if (axis) c.axis = vector_field(t, section, "axis_i", dimension_);
  }

  const toml::table& root_;
  const toml_fields& fields_;
  const symbolic::expression_context& ctx_;
  std::size_t dimension_;
  std::string source_;
  std::unordered_map<std::string, GiNaC::ex> parsed_;
  model_geometry out_;
};

}  // namespace

model_geometry read_model_geometry(const toml::table& root, const toml_fields& fields,
                                   const symbolic::expression_context& context, bool spatial) {
  return geometry_reader(root, fields, context, spatial).read();
}

}  // namespace kinevo::mechanics
