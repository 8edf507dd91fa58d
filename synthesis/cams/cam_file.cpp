#include "kinevo/synthesis/cams/cam_file.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <cmath>
#include <numbers>
#include <set>
#include <vector>

#include "kinevo/io/errors.hpp"
#include "kinevo/io/input_file.hpp"
#include "kinevo/io/toml_syntax.hpp"

namespace kinevo::synthesis {

namespace {

constexpr double deg = std::numbers::pi / 180.0;

// Reads a table's keys, refusing unknown ones, with errors as file:line: field: message.
class toml_reader {
 public:
  toml_reader(const toml::table& t, std::string source, std::string prefix,
              std::set<std::string> known)
      : table_(t), source_(std::move(source)), prefix_(std::move(prefix)) {
    for (const auto& [k, v] : t) {
      if (known.count(std::string(k.str())) == 0) {
        fail(v, std::string(k.str()),
             fmt::format("is not a known key (known: {})", fmt::join(known, ", ")));
      }
    }
  }
  [[noreturn]] void fail(const toml::node& n, const std::string& key,
                         const std::string& what) const {
    throw io::input_error(source_, static_cast<int>(n.source().begin.line),
                          fmt::format("'{}{}'", prefix_, io::excerpt(key, 40)), what);
  }
  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    const toml::node* n = table_.get(key);
    if (n != nullptr) fail(*n, key, what);
    throw io::input_error(source_, static_cast<int>(table_.source().begin.line),
                          fmt::format("'{}{}'", prefix_, key), what);
  }
  bool has(const std::string& key) const { return table_.contains(key); }
  double number(const std::string& key, double fallback) const {
    const toml::node* n = table_.get(key);
    if (n == nullptr) return fallback;
    const auto v = n->value<double>();  // integers too
    if (!v || !std::isfinite(*v)) fail(*n, key, "must be a finite number");
    return *v;
  }
  double required_number(const std::string& key) const {
    if (!has(key)) fail(key, "is required");
    return number(key, 0.0);
  }
  std::string text(const std::string& key, const std::string& fallback) const {
    const toml::node* n = table_.get(key);
    if (n == nullptr) return fallback;
    const auto v = n->value_exact<std::string>();
    if (!v) fail(*n, key, "must be a string");
    return *v;
  }
  // [min, max] of two finite numbers with min < max.
  std::pair<double, double> range(const std::string& key,
                                  std::pair<double, double> fallback) const {
    const toml::node* n = table_.get(key);
    if (n == nullptr) return fallback;
    const toml::array* a = n->as_array();
    std::optional<double> lo, hi;
    if (a != nullptr && a->size() == 2) lo = (*a)[0].value<double>(), hi = (*a)[1].value<double>();
    if (!lo || !hi || !std::isfinite(*lo) || !std::isfinite(*hi) || !(*lo < *hi)) {
      fail(*n, key, "must be [min, max], finite numbers with min < max");
    }
    return {*lo, *hi};
  }
  const toml::table& table() const { return table_; }

 private:
  const toml::table& table_;
  std::string source_;
  std::string prefix_;
};

const toml::table& section(const toml::table& root, const toml_reader& top,
                           const std::string& key) {
  static const toml::table empty;
  const toml::node* n = root.get(key);
  if (n == nullptr) return empty;
  if (!n->is_table()) top.fail(key, "must be a table [" + key + "]");
  return *n->as_table();
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

cam_motion_programme read_phases(const toml::table& root, const toml_reader& top,
                                 const std::string& source, bool angular) {
  const toml::node* n = root.get("phase");
  if (n == nullptr) top.fail("phase", "is required: one [[phase]] table per dwell, rise or return");
  const toml::array* a = n->as_array();
  if (a == nullptr || a->empty()) top.fail("phase", "must be [[phase]] tables");
  const std::string disp = angular ? "displacement_deg" : "displacement";
  std::vector<cam_phase> phases;
  std::vector<int> lines;
  for (std::size_t i = 0; i < a->size(); ++i) {
    const toml::table* t = (*a)[i].as_table();
    if (t == nullptr) top.fail(*n, "phase", "must be [[phase]] tables");
    const toml_reader r(*t, source, fmt::format("phase {}: ", i + 1),
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
    lines.push_back(static_cast<int>(t->source().begin.line));
  }
  try {
    return cam_motion_programme(std::move(phases));
  } catch (const io::option_error& e) {
    // "phase N" names the table; point at its line.
    int line = lines.front();
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (e.field() == fmt::format("phase {}", i + 1)) line = lines[i];
    }
    throw io::input_error(source, line, e.field(), e.requirement());
  }
}

// validate() with its field traced to the key that set it ("max_pressure_angle" is set by
// bounds.max_pressure_angle_deg, "c" by box.c or box.c_deg), for the line in the message.
template <class Options>
void validate_read(const Options& o, const std::string& source,
                   std::initializer_list<std::pair<const char*, const toml::table*>> sections) {
  try {
    o.validate();
  } catch (const io::option_error& e) {
    for (const auto& [name, t] : sections) {
      for (const auto& [k, v] : *t) {
        const std::string key(k.str());
        if (key == e.field() || key.rfind(e.field() + "_", 0) == 0) {
          throw io::input_error(source, static_cast<int>(v.source().begin.line),
                                fmt::format("'{}.{}'", name, key), e.requirement());
        }
      }
    }
    throw io::input_error(source, 0, e.field(), e.requirement());
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
  toml::table root;
  try {
    root = toml::parse(io::strip_byte_order_mark(text), source);
  } catch (const toml::parse_error& e) {
    throw io::input_error(source, static_cast<int>(e.source().begin.line), "",
                          "cannot read the cam file: " + io::toml_syntax_reason(e.description()));
  }
  const toml_reader top(root, source, "",
                        {"follower", "unit", "sense", "samples", "phase", "bounds", "box"});
  cam_problem p;
  p.source = source;
  p.follower = choose<cam_follower>(top, "follower", "",
                                    {{"translating_roller", cam_follower::translating_roller},
                                     {"oscillating_roller", cam_follower::oscillating_roller},
                                     {"flat_face", cam_follower::flat_face}});
  const bool oscillating = p.follower == cam_follower::oscillating_roller;
  p.unit = top.text("unit", oscillating ? "a" : "mm");
  p.programme = read_phases(root, top, source, oscillating);
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
  const auto& bounds_t = section(root, top, "bounds");
  const auto& box_t = section(root, top, "box");
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
  const toml_reader b(bounds_t, source, "bounds.", bounds_keys);
  const toml_reader x(box_t, source, "box.", box_keys);
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
  validate_read(p.translating, source, sections);
  validate_read(p.oscillating, source, sections);
  validate_read(p.flat_face, source, sections);
  return p;
}

cam_problem read_cam_file(const std::filesystem::path& path) {
  return parse_cam_file(io::read_input_file(path, "cam file"), path.string());
}

}  // namespace kinevo::synthesis
