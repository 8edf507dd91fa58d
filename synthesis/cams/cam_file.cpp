#include "kinevo/synthesis/cams/cam_file.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <cmath>
#include <numbers>
#include <set>
#include <vector>

#include "kinevo/io/detail/toml_fields.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/io/input_file.hpp"

namespace kinevo::synthesis {

namespace {

constexpr double deg = std::numbers::pi / 180.0;

// The fields of one table of the cam file (the top level, a [[phase]], [bounds] or [box]),
// refusing unknown keys, with errors as "file:line: [section] field 'key': message".
class toml_reader {
 public:
  toml_reader(const io::toml_fields& fields, const toml::table& t, std::string section,
              const std::set<std::string>& known)
      : fields_(fields), table_(t), section_(std::move(section)) {
    fields_.only_keys(t, section_, std::vector<std::string_view>(known.begin(), known.end()));
  }
  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    fields_.fail_field(table_, section_, key, what);
  }
  bool has(const std::string& key) const { return table_.contains(key); }
  double number(const std::string& key, double fallback) const {
    return fields_.number_or(table_, section_, key, fallback);
  }
  double required_number(const std::string& key) const {
    return fields_.number(table_, section_, key);
  }
  std::string text(const std::string& key, const std::string& fallback) const {
    return fields_.string_or(table_, section_, key, fallback);
  }
  // [min, max] of two finite numbers with min < max.
  std::pair<double, double> range(const std::string& key,
                                  std::pair<double, double> fallback) const {
    if (!has(key)) return fallback;
    const std::vector<double> v = fields_.numbers(table_, section_, key, 2);
    if (!(v[0] < v[1])) fail(key, "must be [min, max], finite numbers with min < max");
    return {v[0], v[1]};
  }

 private:
  const io::toml_fields& fields_;
  const toml::table& table_;
  std::string section_;
};

const toml::table& section(const io::toml_fields& fields, const toml::table& root,
                           const std::string& key) {
  static const toml::table empty;
  const toml::table* t = fields.table(root, "", key);
  return t != nullptr ? *t : empty;
}

// A string key that names one of `choices`; refused with the list otherwise.
template <class E>
E choose(const toml_reader& r, const std::string& key, const std::string& fallback,
         std::initializer_list<std::pair<const char*, E>> choices) {
  const std::string v = r.text(key, fallback);
  std::vector<std::string> names;
  for (const auto& [name, e] : choices) {
    if (v == name) return e;
    names.emplace_back(name);
  }
  r.fail(key, fmt::format("'{}': use {}", io::excerpt(v, 40), fmt::join(names, ", ")));
}

cam_motion_programme read_phases(const io::toml_fields& fields, const toml::table& root,
                                 bool angular) {
  if (!fields.has(root, "phase")) {
    fields.fail_field(root, "", "phase", "missing: one [[phase]] table per dwell, rise or return");
  }
  const auto tables = fields.tables(root, "phase");
  if (tables.empty()) fields.fail_field(root, "", "phase", "must be [[phase]] tables");
  const std::string disp = angular ? "displacement_deg" : "displacement";
  std::vector<cam_phase> phases;
  for (std::size_t i = 0; i < tables.size(); ++i) {
    const toml_reader r(fields, *tables[i], fmt::format("[[phase]] {}", i + 1),
                        {"kind", "interval_deg", disp});
    cam_phase p;
    p.kind = choose<cam_phase_kind>(r, "kind", "",
                                    {{"dwell", cam_phase_kind::dwell},
                                     {"rise", cam_phase_kind::rise},
                                     {"return", cam_phase_kind::fall}});
    p.interval = r.required_number("interval_deg") * deg;
    if (p.kind != cam_phase_kind::dwell) {
      p.displacement = r.required_number(disp) * (angular ? deg : 1.0);
    } else if (r.has(disp)) {
      r.fail(disp, "a dwell has no displacement");
    }
    phases.push_back(p);
  }
  try {
    return cam_motion_programme(std::move(phases));
  } catch (const io::option_error& e) {
    // "phase N" names the table; point at its line.
    const toml::table* at = tables.front();
    for (std::size_t i = 0; i < tables.size(); ++i) {
      if (e.field() == fmt::format("phase {}", i + 1)) at = tables[i];
    }
    fields.fail(fields.where(at), fmt::format("{}: {}", e.field(), e.requirement()));
  }
}

// validate() with its field traced to the key that set it ("max_pressure_angle" is set by
// bounds.max_pressure_angle_deg, "c" by box.c or box.c_deg), for the line in the message.
template <class Options>
void validate_read(const Options& o, const io::toml_fields& fields,
                   std::initializer_list<std::pair<const char*, const toml::table*>> sections) {
  try {
    o.validate();
  } catch (const io::option_error& e) {
    for (const auto& [name, t] : sections) {
      for (const auto& [k, v] : *t) {
        const std::string key(k.str());
        if (key == e.field() || key.rfind(e.field() + "_", 0) == 0) {
          fields.fail_field(*t, fmt::format("[{}]", name), key, e.requirement());
        }
      }
    }
    fields.fail(fmt::format("{}: field '{}'", fields.source(), e.field()), e.requirement());
  }
}

// The bounds both roller followers take: mu_M or alpha_m in degrees, and the roller fraction.
template <class Options>
void read_roller_bounds(const toml_reader& bounds, Options& o) {
  o.max_pressure_angle = bounds.number("max_pressure_angle_deg", 30.0) * deg;
  o.roller_fraction = bounds.number("roller_fraction", o.roller_fraction);
}

}  // namespace

cam_problem parse_cam_file(const std::string& text, const std::string& source) {
  const toml::table root = io::parse_toml(text, source);
  const io::toml_fields fields(source);
  const toml_reader top(fields, root, "",
                        {"follower", "unit", "sense", "samples", "phase", "bounds", "box"});
  cam_problem p;
  p.source = source;
  p.follower = choose<cam_follower>(top, "follower", "",
                                    {{"translating_roller", cam_follower::translating_roller},
                                     {"oscillating_roller", cam_follower::oscillating_roller},
                                     {"flat_face", cam_follower::flat_face}});
  const bool oscillating = p.follower == cam_follower::oscillating_roller;
  p.unit = top.text("unit", oscillating ? "a" : "mm");
  p.programme = read_phases(fields, root, oscillating);
  const double samples = top.number("samples", 3600);
  if (samples != std::floor(samples) || samples < 36 || samples > max_cam_samples) {
    top.fail("samples",
             "must be an integer in [36, 1e6] (the analysis' cost grows with it: "
             "10^6 samples take about 1.5 s and 240 MB)");
  }
  const int n = static_cast<int>(samples);
  if (top.has("sense") && !oscillating) {
    top.fail("sense", "only the oscillating follower takes a sense");
  }
  const auto& bounds_t = section(fields, root, "bounds");
  const auto& box_t = section(fields, root, "box");
  const auto sections = {std::pair<const char*, const toml::table*>{"bounds", &bounds_t},
                         std::pair<const char*, const toml::table*>{"box", &box_t}};
  // The keys each follower's [bounds] and [box] take.
  const auto [bounds_keys, box_keys] =
      p.follower == cam_follower::translating_roller
          ? std::pair<std::set<std::string>, std::set<std::string>>{{"max_pressure_angle_deg",
                                                                     "roller_fraction",
                                                                     "min_roller_radius"},
                                                                    {"c", "e"}}
      : oscillating
          ? std::pair<std::set<std::string>, std::set<std::string>>{{"max_pressure_angle_deg",
                                                                     "roller_fraction",
                                                                     "max_roller_arm_ratio"},
                                                                    {"b_ratio", "c_deg"}}
          : std::pair<std::set<std::string>, std::set<std::string>>{
                {"max_eccentricity", "min_radius_of_curvature"}, {"base_radius_max"}};
  const toml_reader b(fields, bounds_t, "[bounds]", bounds_keys);
  const toml_reader x(fields, box_t, "[box]", box_keys);
  if (p.follower == cam_follower::translating_roller) {
    auto& o = p.translating;
    read_roller_bounds(b, o);
    o.min_roller_radius = b.number("min_roller_radius", o.min_roller_radius);
    std::tie(o.c_min, o.c_max) = x.range("c", {o.c_min, o.c_max});
    std::tie(o.e_min, o.e_max) = x.range("e", {o.e_min, o.e_max});
  } else if (oscillating) {
    auto& o = p.oscillating;
    read_roller_bounds(b, o);
    o.max_roller_arm_ratio = b.number("max_roller_arm_ratio", o.max_roller_arm_ratio);
    std::tie(o.b_min, o.b_max) = x.range("b_ratio", {o.b_min, o.b_max});
    const auto c = x.range("c_deg", {o.c_min / deg, o.c_max / deg});
    o.c_min = c.first * deg, o.c_max = c.second * deg;
    o.sense =
        choose<int>(top, "sense", "counterclockwise", {{"counterclockwise", 1}, {"clockwise", -1}});
  } else {
    auto& o = p.flat_face;
    o.max_eccentricity = b.number("max_eccentricity", o.max_eccentricity);
    o.min_radius_of_curvature = b.number("min_radius_of_curvature", o.min_radius_of_curvature);
    o.base_radius_max = x.number("base_radius_max", o.base_radius_max);
  }
  p.translating.samples = p.oscillating.samples = p.flat_face.samples = n;
  // The other followers' options keep their valid defaults.
  validate_read(p.translating, fields, sections);
  validate_read(p.oscillating, fields, sections);
  validate_read(p.flat_face, fields, sections);
  return p;
}

cam_problem read_cam_file(const std::filesystem::path& path) {
  return parse_cam_file(io::read_input_file(path, "cam file"), path.string());
}

}  // namespace kinevo::synthesis
