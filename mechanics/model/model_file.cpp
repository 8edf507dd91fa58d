#include "kinevo/mechanics/model/detail/model_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/mechanics/model/detail/spatial_components.hpp"
#include "kinevo/symbolic/detail/real_functions.hpp"

namespace kinevo::mechanics {

namespace {

void read_parameters(const toml::table& root, const toml_fields& fields,
                     const model_options& options, model_description& out) {
  std::set<std::string> used;
  const toml::node* node = root.get("parameters");
  std::vector<std::pair<std::string, const toml::node*>> params;
  if (node != nullptr) {
    const toml::table* t = node->as_table();
    if (t == nullptr) fields.fail(fields.where(node), "[parameters] must be a table");
    for (const auto& [k, v] : *t) params.emplace_back(std::string(k.str()), &v);
    // toml++ tables are sorted by key: restore file order so that a parameter may use the
    // ones defined above it.
    std::stable_sort(params.begin(), params.end(), [](const auto& a, const auto& b) {
      return a.second->source().begin.line < b.second->source().begin.line;
    });
  }
  for (const auto& entry : params) {
    // Named, not a structured binding: clang 14 cannot capture a binding in a lambda.
    const auto& name = entry.first;
    const auto& value = entry.second;
    const std::string at =
        fmt::format("{}: [parameters] '{}'", fields.where(value), io::excerpt(name, 40));
    double v = 0.0;
    auto o = std::find_if(options.overrides.begin(), options.overrides.end(),
                          [&](const parameter_override& p) { return p.name == name; });
    if (o != options.overrides.end()) {
      v = o->value;
      used.insert(name);
    } else {
      v = symbolic::to_double(fields.expression_of(*value, at, out.context), at);
    }
    out.context.add_constant(name, v, at);
    out.parameters[name] = v;
  }
  for (const auto& o : options.overrides) {
    if (used.count(o.name) == 0) {
      std::string names;
      for (const auto& [n, v] : params) names += (names.empty() ? "" : ", ") + n;
      throw io::input_error(fmt::format("--set {}: {} has no parameter '{}' (parameters: {})",
                                        o.name, out.source, o.name,
                                        names.empty() ? "none" : names));
    }
  }
}

// [definitions]: named intermediate expressions, L = "sqrt((xd-xc)^2 + (yd-yc)^2)", which may
// use parameters, t, coordinates, velocities and other definitions in any order (a cycle is an
// error naming it). Each name is declared as a symbol right after [parameters], so that every
// later field may use it; the texts are parsed once all coordinates exist (after the bodies),
// and from then on every parsed expression has them substituted (expression_context::
// substitute) before anything differentiates it, so derivatives stay exact.
struct definition {
  std::string name;
  const toml::node* node = nullptr;
  std::string at;  // "file:line: [definitions] 'name'"
  GiNaC::symbol symbol;
  GiNaC::ex expression;  // as parsed, may name other definitions
  GiNaC::ex value;       // free of definitions
};

std::vector<definition> declare_definitions(const toml::table& root, const toml_fields& fields,
                                            model_description& out) {
  std::vector<definition> defs;
  const toml::node* node = root.get("definitions");
  if (node == nullptr) return defs;
  const toml::table* t = node->as_table();
  if (t == nullptr) fields.fail(fields.where(node), "[definitions] must be a table");
  for (const auto& [k, v] : *t) {
    definition d;
    d.name = std::string(k.str());
    d.node = &v;
    d.at = fmt::format("{}: [definitions] '{}'", fields.where(v), io::excerpt(d.name, 40));
    defs.push_back(std::move(d));
  }
  // toml++ sorts keys: file order, for messages and a deterministic cycle report.
  std::stable_sort(defs.begin(), defs.end(), [](const definition& a, const definition& b) {
    return a.node->source().begin.line < b.node->source().begin.line;
  });
  for (definition& d : defs) d.symbol = out.context.add_symbol(d.name, d.at);
  return defs;
}

// Where the masses of particles and bodies come from, for a message about them after the
// definitions were substituted into them.
std::string bodies_where(const toml_fields& fields) {
  return fields.source() + ": the masses of [[particle]] and [[body]] with [definitions]";
}

void resolve_definitions(std::vector<definition>& defs, const toml_fields& fields,
                         model_description& out) {
  if (defs.empty()) return;
  for (definition& d : defs) d.expression = fields.expression_of(*d.node, d.at, out.context);
  // The definitions each one names, from the symbols its expression holds.
  std::map<GiNaC::ex, std::size_t, GiNaC::ex_is_less> index;
  for (std::size_t i = 0; i < defs.size(); ++i) index.emplace(defs[i].symbol, i);
  std::vector<std::vector<std::size_t>> uses(defs.size());
  for (std::size_t i = 0; i < defs.size(); ++i) {
    std::set<std::size_t> named;
    for (auto it = defs[i].expression.preorder_begin(); it != defs[i].expression.preorder_end();
         ++it) {
      if (!GiNaC::is_a<GiNaC::symbol>(*it)) continue;
      if (const auto found = index.find(*it); found != index.end()) named.insert(found->second);
    }
    uses[i].assign(named.begin(), named.end());
  }
  // Depth-first in file order, with an explicit stack (a file may hold many definitions); a
  // definition met again while it is being resolved closes a cycle, reported "a -> b -> a".
  enum class state { open, active, done };
  std::vector<state> states(defs.size(), state::open);
  GiNaC::exmap resolved;
  for (std::size_t root_index = 0; root_index < defs.size(); ++root_index) {
    if (states[root_index] != state::open) continue;
    std::vector<std::pair<std::size_t, std::size_t>> path{
        {root_index, 0}};  // (definition, next use)
    states[root_index] = state::active;
    while (!path.empty()) {
      const std::size_t i = path.back().first;
      if (path.back().second < uses[i].size()) {
        const std::size_t j = uses[i][path.back().second++];
        if (states[j] == state::done) continue;
        if (states[j] == state::active) {
          auto start = path.begin();
          while (start->first != j) ++start;
          std::string cycle;
          for (auto it = start; it != path.end(); ++it) {
            cycle += io::excerpt(defs[it->first].name, 40) + " -> ";
          }
          cycle += io::excerpt(defs[j].name, 40);
          fields.fail(defs[j].at, fmt::format("the definitions form a cycle: {}", cycle));
        }
        states[j] = state::active;
        path.emplace_back(j, 0);
        continue;
      }
      defs[i].value = symbolic::substitute_symbols(defs[i].expression, resolved, defs[i].at);
      resolved[defs[i].symbol] = defs[i].value;
      states[i] = state::done;
      path.pop_back();
    }
  }
  out.context.set_substitutions(resolved);
  // What was parsed before (masses and forces of bodies and particles) gets them too.
  const symbolic::expression_context& ctx = out.context;
  const std::string at = bodies_where(fields);
  for (auto& m : out.mass_diagonal) m = ctx.substitute(m, at);
  for (auto& [ij, m] : out.mass_off_diagonal) m = ctx.substitute(m, at);
  for (auto& f : out.force) f = ctx.substitute(f, at);
  for (auto& v : out.potential_terms) v = ctx.substitute(v, at);
  for (auto& c : out.constraints) c.expression = ctx.substitute(c.expression, at);
}

void read_coordinates(const toml::table& root, const toml_fields& fields, model_description& out,
                      std::vector<std::pair<int, const toml::table*>>& equation_coordinates) {
  for (const toml::table* c : fields.tables(root, "coordinate")) {
    fields.only_keys(*c, "[[coordinate]]",
                     {"name", "initial", "velocity", "mass", "force", "gravity"});
    const std::string name = fields.string(*c, "[[coordinate]]", "name");
    if (!c->contains("initial")) {
      fields.fail(fields.field_where(*c, "[[coordinate]]", "initial"),
                  "missing initial value (initial = <number or expression>)");
    }
    const double q0 = fields.constant(*c, "[[coordinate]]", "initial", out.context);
    const double v0 = fields.constant_or(*c, "[[coordinate]]", "velocity", out.context, 0.0);
    const int i = out.add_coordinate(name, q0, v0, fields.where(*c));
    equation_coordinates.emplace_back(i, c);
  }
}

// The keys of an intermittent constraint (docs/intermittent.md): `active` (initial state),
// `friction` (Coulomb friction magnitude while off), `on` / `on_tolerance` (switch on when <= 0,
// by default |C| - on_tolerance with friction), `off` (switch off when <= 0; may use `force`,
// the row's multiplier; by default F - |force| with friction).
void read_intermittent_keys(const toml::table& c, const toml_fields& fields, model_description& out,
                            model_description::constraint& k) {
  static constexpr const char* section = "[[constraint]]";
  const bool any = c.contains("active") || c.contains("friction") || c.contains("on") ||
                   c.contains("off") || c.contains("on_tolerance");
  if (!any && c.contains("unit")) {
    fields.fail(fields.field_where(c, section, "unit"),
                fmt::format("constraint '{}': `unit` is the unit of an intermittent row's slip "
                            "(its <name>_slip column); this row is not intermittent",
                            k.name));
  }
  if (!any) return;
  if (k.holonomic) {
    const char* key = c.contains("friction") ? "friction"
                      : c.contains("on")     ? "on"
                      : c.contains("off")    ? "off"
                      : c.contains("active") ? "active"
                                             : "on_tolerance";
    fields.fail(fields.field_where(c, section, key),
                fmt::format("constraint '{}': only a nonholonomic constraint may be intermittent "
                            "(switched on and off)",
                            k.name));
  }
  k.intermittent = true;
  k.initially_active = fields.boolean_or(c, section, "active", true);
  k.on_tolerance = fields.constant_or(c, section, "on_tolerance", out.context, 1e-6);
  if (!(k.on_tolerance > 0.0)) {
    fields.fail(fields.field_where(c, section, "on_tolerance"),
                fmt::format("must be > 0 (not {:g})", k.on_tolerance));
  }
  // The slip's unit, for its column's plots: the file knows it (R*th_dot - x_dot is in m/s when
  // x is in m and R th_dot too), the coordinates' names do not.
  k.slip_unit = fields.string_or(c, section, "unit", "");
  const bool printable = std::all_of(k.slip_unit.begin(), k.slip_unit.end(), [](char ch) {
    return static_cast<unsigned char>(ch) >= 0x20 && ch != '[' && ch != ']' && ch != 0x7f;
  });
  if (c.contains("unit") && (k.slip_unit.empty() || k.slip_unit.size() > 24 || !printable)) {
    fields.fail(fields.field_where(c, section, "unit"),
                fmt::format("must be a unit such as \"m/s\" or \"rad/s\" (1 to 24 characters, "
                            "no brackets), not '{}'",
                            io::excerpt(k.slip_unit, 40)));
  }
  k.has_friction = c.contains("friction");
  if (k.has_friction) k.friction = fields.expression(c, section, "friction", out.context);
  if (c.contains("on")) {
    k.on_condition = fields.expression(c, section, "on", out.context);
  } else if (k.has_friction) {
    k.on_condition = symbolic::real_abs(k.expression) - k.on_tolerance;
    k.slip_condition = true;
  }
  if (c.contains("off")) {
    symbolic::expression_context with_force = out.context;
    const std::string at = fields.field_where(c, section, "off");
    const GiNaC::symbol force = with_force.add_symbol("force", at);
    k.off_condition = fields.expression(c, section, "off", with_force);
    k.off_condition = k.off_condition.subs(GiNaC::ex(force) == GiNaC::ex(k.force));
  } else if (k.has_friction) {
    k.off_condition = k.friction - symbolic::real_abs(k.force);
  }
  if (!c.contains("on") && !k.has_friction && !k.initially_active) {
    fields.fail(fields.where(c), fmt::format("constraint '{}': starts inactive but gives neither "
                                             "`on` nor `friction`: it would never switch on",
                                             k.name));
  }
}

// [mass]: the full matrix or its lower triangle, one row per coordinate (symmetric).
void read_mass_matrix(const toml::node* mass_node, const toml_fields& fields,
                      model_description& out) {
  const int n = static_cast<int>(out.coordinates.size());
  const toml::table* mt = mass_node->as_table();
  if (mt == nullptr) fields.fail(fields.where(mass_node), "[mass] must be a table");
  fields.only_keys(*mt, "[mass]", {"matrix", "lower"});
  if (mt->contains("matrix") == mt->contains("lower")) {
    fields.fail(fields.where(mass_node),
                "[mass]: give exactly one of matrix = [[...], ...] (the full M) or lower = "
                "[[M11], [M21, M22], ...] (its lower triangle)");
  }
  const bool lower = mt->contains("lower");
  const char* key = lower ? "lower" : "matrix";
  const toml::node* mat = mt->get(key);
  const toml::array* rows = mat != nullptr ? mat->as_array() : nullptr;
  const std::string at = fields.field_where(*mt, "[mass]", key);
  if (rows == nullptr || static_cast<int>(rows->size()) != n) {
    fields.fail(at, fmt::format("must be an array of {} rows (one per coordinate)", n));
  }
  for (int i = 0; i < n; ++i) {
    const toml::node* row_node = rows->get(static_cast<std::size_t>(i));
    const toml::array* row = row_node != nullptr ? row_node->as_array() : nullptr;
    // The lower triangle: row i holds M(i, 1..i).
    const int columns = lower ? i + 1 : n;
    if (row == nullptr || static_cast<int>(row->size()) != columns) {
      fields.fail(
          row_node != nullptr ? fields.where(row_node) + ": [mass] field '" + key + "'" : at,
          lower ? fmt::format("row {} must have {} entries (M({},1) to M({},{}): the "
                              "lower triangle, diagonal included)",
                              i + 1, columns, i + 1, i + 1, i + 1)
                : fmt::format("row {} must have {} entries", i + 1, n));
    }
    for (int j = 0; j < columns; ++j) {
      const toml::node* entry = row->get(static_cast<std::size_t>(j));
      if (entry == nullptr) fields.fail(at, "missing entry");
      const GiNaC::ex e = fields.expression_of(
          *entry, fmt::format("{} row {} column {}", at, i + 1, j + 1), out.context);
      out.mass_at(i, j) = e;
      if (lower && j < i) out.mass_at(j, i) = e;
    }
  }
  for (int i = 0; i < n && !lower; ++i) {
    for (int j = 0; j < i; ++j) {
      if (!(out.mass_entry(i, j) - out.mass_entry(j, i)).expand().is_zero()) {
        fields.fail(at, fmt::format("is not symmetric: entry ({},{}) differs from ({},{})", i + 1,
                                    j + 1, j + 1, i + 1));
      }
    }
  }
  out.mass_where = at;
}

// Per-coordinate mass, force and gravity ([[coordinate]] keys).
void read_coordinate_terms(const toml::node* mass_node, const toml_fields& fields,
                           model_description& out,
                           const std::vector<std::pair<int, const toml::table*>>& coords) {
  for (const auto& [i, c] : coords) {
    const std::string section = "[[coordinate]]";
    if (c->contains("mass")) {
      if (mass_node != nullptr) {
        fields.fail(fields.field_where(*c, section, "mass"),
                    "give masses either per coordinate or as a [mass] matrix, not both");
      }
      out.mass_at(i, i) = fields.expression(*c, section, "mass", out.context);
    }
    if (c->contains("force")) {
      out.force[static_cast<std::size_t>(i)] +=
          fields.expression(*c, section, "force", out.context);
      out.conservative = false;  // free-form force: no potential known unless [energy] gives one
    }
    if (c->contains("gravity")) {
      // Shorthand: a uniform field of acceleration g along this coordinate, f_i += m_ii g.
      const GiNaC::ex g = fields.expression(*c, section, "gravity", out.context);
      const GiNaC::ex m = out.mass_at(i, i);
      out.force[static_cast<std::size_t>(i)] += m * g;
      out.add_potential(-(m * g * out.coordinates[static_cast<std::size_t>(i)].q));
    }
  }
}

void read_equation_terms(const toml::table& root, const toml_fields& fields, model_description& out,
                         const std::vector<std::pair<int, const toml::table*>>& coords) {
  const toml::node* mass_node = root.get("mass");
  if (mass_node != nullptr) read_mass_matrix(mass_node, fields, out);
  read_coordinate_terms(mass_node, fields, out, coords);
  if (const toml::node* e = root.get("energy"); e != nullptr) {
    const toml::table* et = e->as_table();
    if (et == nullptr) fields.fail(fields.where(e), "[energy] must be a table");
    fields.only_keys(*et, "[energy]", {"potential"});
    // The user vouches that f = -dV/dq for the free-form forces.
    out.add_potential(fields.expression(*et, "[energy]", "potential", out.context));
    out.conservative = true;
  }
  for (const toml::table* c : fields.tables(root, "constraint")) {
    fields.only_keys(*c, "[[constraint]]",
                     {"name", "holonomic", "nonholonomic", "driver", "active", "friction", "on",
                      "off", "on_tolerance", "unit"});
    const std::string name = fields.string(*c, "[[constraint]]", "name");
    const bool h = c->contains("holonomic"), nh = c->contains("nonholonomic");
    if (h == nh) {
      fields.fail(fields.where(*c), fmt::format("[[constraint]] '{}': give exactly one of "
                                                "holonomic = \"Phi(q,t)\" or nonholonomic = "
                                                "\"A(q,t) q_dot + a(q,t)\"",
                                                name));
    }
    const char* key = h ? "holonomic" : "nonholonomic";
    out.add_constraint(name, fields.field_where(*c, "[[constraint]]", key), h,
                       fields.expression(*c, "[[constraint]]", key, out.context));
    out.constraints.back().driver = fields.boolean_or(*c, "[[constraint]]", "driver", false);
    read_intermittent_keys(*c, fields, out, out.constraints.back());
  }
}

}  // namespace

void read_model_file(const toml::table& root, const std::string& source,
                     const model_options& options, model_description& out) {
  toml_fields fields(source);
  out.source = source;
  fields.only_keys(root, "model file",
                   {"model", "parameters", "definitions", "coordinate", "mass", "energy",
                    "constraint", "particle", "body", "joint", "force"});
  std::vector<GiNaC::ex> gravity;
  out.context.add_symbol("t", source);
  out.set_time(GiNaC::ex_to<GiNaC::symbol>(out.context.parse("t", source)));
  read_parameters(root, fields, options, out);
  // Parameters may use only parameters above them; everything after may use all of these.
  out.context.set_name_kinds("a coordinate, velocity, parameter or definition");
  std::vector<definition> definitions = declare_definitions(root, fields, out);
  bool spatial = false;
  if (const toml::node* m = root.get("model"); m != nullptr) {
    const toml::table* mt = m->as_table();
    if (mt == nullptr) fields.fail(fields.where(m), "[model] must be a table");
    fields.only_keys(*mt, "[model]", {"name", "kinematic", "gravity", "description", "space"});
    out.name = fields.string_or(*mt, "[model]", "name", "");
    out.kinematic = fields.boolean_or(*mt, "[model]", "kinematic", false);
    const std::string space = fields.string_or(*mt, "[model]", "space", "planar");
    if (space != "planar" && space != "spatial") {
      fields.fail(
          fields.field_where(*mt, "[model]", "space"),
          fmt::format("must be \"planar\" or \"spatial\" (not '{}')", io::excerpt(space, 20)));
    }
    spatial = space == "spatial";
    const std::size_t dimension = spatial ? 3 : 2;
    gravity = fields.vector_or(*mt, "[model]", "gravity", out.context, dimension,
                               std::vector<GiNaC::ex>(dimension, 0));
  }
  if (gravity.empty()) gravity.assign(2, 0);
  out.kinematic = out.kinematic || options.kinematic;
  std::vector<std::pair<int, const toml::table*>> coords;
  read_coordinates(root, fields, out, coords);
  component_reader planar;
  spatial_component_reader space;
  if (spatial) {
    space.read_bodies(root, fields, {gravity[0], gravity[1], gravity[2]}, out);
  } else {
    planar.read_bodies(root, fields, gravity, out);
  }
  if (out.coordinates.empty()) {
    fields.fail(source,
                "the model has no coordinates (add [[coordinate]], [[particle]] or [[body]])");
  }
  resolve_definitions(definitions, fields, out);
  planar.substitute_definitions(out.context, bodies_where(fields));
  space.substitute_definitions(out.context, bodies_where(fields));
  read_equation_terms(root, fields, out, coords);
  if (spatial) {
    space.read_joints_and_forces(root, fields, out);
  } else {
    planar.read_joints_and_forces(root, fields, out);
  }
  out.geometry = read_model_geometry(root, fields, out.context, spatial);
}

}  // namespace kinevo::mechanics
