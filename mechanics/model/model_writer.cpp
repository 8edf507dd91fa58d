#include "kinevo/mechanics/model/model_writer.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/detail/toml_fields.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/io/input_file.hpp"
#include "kinevo/mechanics/model/detail/euler_parameters.hpp"

namespace kinevo::mechanics {

std::string toml_number(double v) {
  std::string s = fmt::format("{}", v);  // shortest text that reads back to v
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";  // a float, not an integer
  return s;
}

namespace {

struct text_edit {
  std::size_t begin = 0, end = 0;  // byte range replaced (begin == end: an insertion)
  std::string text;
  int order = 0;  // keeps insertions at one place in the order they were made
};

class file_editor {
 public:
  file_editor(std::string_view text, std::string source) : text_(text), source_(std::move(source)) {
    line_starts_.push_back(0);
    for (std::size_t i = 0; i < text_.size(); ++i) {
      if (text_[i] == '\n') line_starts_.push_back(i + 1);
    }
  }

  // Byte offset of a toml++ (line, column) position: both 1-based, the column in code points.
  std::size_t offset(const toml::source_position& p) const {
    const auto line = static_cast<std::size_t>(p.line);
    if (line == 0 || line > line_starts_.size()) return text_.size();
    std::size_t i = line_starts_[line - 1];
    for (toml::source_index c = 1; c < p.column && i < text_.size(); ++c) {
      ++i;
      while (i < text_.size() && (static_cast<unsigned char>(text_[i]) & 0xC0) == 0x80) ++i;
    }
    return i;
  }

  // Replaces `key = value` as a whole (key and value text), e.g. by another key.
  // The key is the last occurrence of its name before the value (a bare key on the same line).
  void replace_entry(std::string_view key, const toml::node& value, std::string text) {
    std::size_t end = offset(value.source().end);
    // toml++ ends an array's region before its closing bracket.
    if (value.is_array() && end < text_.size() && text_[end] == ']') ++end;
    const std::size_t begin = text_.rfind(key, offset(value.source().begin));
    if (begin == std::string_view::npos) return;
    edits_.push_back({begin, end, std::move(text), static_cast<int>(edits_.size())});
  }

  void replace(const toml::node& node, std::string text) {
    edits_.push_back({offset(node.source().begin), offset(node.source().end), std::move(text),
                      static_cast<int>(edits_.size())});
  }

  // Adds `key = value` as a new line after the last key of `table`.
  void add_key(const toml::table& table, const std::string& label, const std::string& key,
               const std::string& value) {
    if (table.is_inline()) {
      throw io::input_error(fmt::format(
          "{}:{}: {}: cannot add '{}' to an inline table; write the section as a [[...]] table "
          "or give '{}' in the file",
          source_, table.source().begin.line, label, key, key));
    }
    toml::source_index last = table.source().begin.line;
    for (const auto& [k, v] : table)
      last = std::max({last, k.source().end.line, v.source().end.line});
    std::size_t at = last < line_starts_.size() ? line_starts_[last] : text_.size();
    std::string line = fmt::format("{} = {}\n", key, value);
    if (at == text_.size() && !text_.empty() && text_.back() != '\n') line = "\n" + line;
    edits_.push_back({at, at, std::move(line), static_cast<int>(edits_.size())});
  }

  std::string apply() const {
    std::vector<text_edit> sorted = edits_;
    std::sort(sorted.begin(), sorted.end(), [](const text_edit& a, const text_edit& b) {
      return a.begin != b.begin ? a.begin > b.begin : a.order > b.order;
    });
    std::string out(text_);
    for (const auto& e : sorted) out.replace(e.begin, e.end - e.begin, e.text);
    return out;
  }

 private:
  std::string_view text_;
  std::string source_;
  std::vector<std::size_t> line_starts_;
  std::vector<text_edit> edits_;
};

class initial_value_writer {
 public:
  initial_value_writer(file_editor& editor, std::string source, const model& m,
                       const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                       rewritten_model_file& out)
      : editor_(editor),
        source_(std::move(source)),
        m_(m),
        q_(q),
        qd_(qd),
        out_(out),
        covered_(static_cast<std::size_t>(m.coordinates()), false) {
    for (int i = 0; i < m.coordinates(); ++i)
      index_[m.coordinate_names()[static_cast<std::size_t>(i)]] = i;
  }

  // Every [[section]] table: `table_name` with its coordinates' suffixes.
  void section(const toml::table& root, const char* section_name, bool body) {
    const toml::array* tables = root[section_name].as_array();
    if (tables == nullptr) return;
    for (const toml::node& node : *tables) {
      const toml::table* t = node.as_table();
      if (t == nullptr) continue;
      const std::string name = t->get("name") != nullptr
                                   ? t->get("name")->value<std::string>().value_or("")
                                   : std::string();
      const std::string label = fmt::format("[[{}]] '{}'", section_name, io::excerpt(name, 40));
      if (std::string_view(section_name) == "coordinate") {
        const int i = find(name);
        if (i < 0) continue;
        scalar(*t, label, "initial", q_[i], m_.initial_positions()[i]);
        scalar(*t, label, "velocity", qd_[i], m_.initial_velocities()[i]);
        continue;
      }
      const int ix = find(name + "_x"), iy = find(name + "_y");
      if (ix < 0 || iy < 0) continue;
      std::vector<int> r{ix, iy};
      if (const int iz = find(name + "_z"); iz >= 0) r.push_back(iz);  // spatial
      numbers(*t, label, "position", gather(q_, r), gather(m_.initial_positions(), r));
      numbers(*t, label, "velocity", gather(qd_, r), gather(m_.initial_velocities(), r));
      if (!body) continue;
      if (r.size() == 3) {
        euler_parameters(*t, label, name);
        continue;
      }
      const int ip = find(name + "_phi");
      if (ip < 0) continue;
      scalar(*t, label, "angle", q_[ip], m_.initial_positions()[ip]);
      scalar(*t, label, "angular_velocity", qd_[ip], m_.initial_velocities()[ip]);
    }
  }

  // A coordinate of the model that no section gave (cannot happen for a file the model was
  // loaded from, but a wrong pairing must not write a file silently missing a value).
  void check_covered() const {
    for (int i = 0; i < m_.coordinates(); ++i) {
      const bool changed =
          q_[i] != m_.initial_positions()[i] || qd_[i] != m_.initial_velocities()[i];
      if (!covered_[static_cast<std::size_t>(i)] && changed) {
        throw io::input_error(fmt::format(
            "{}: coordinate '{}' was not found among the [[coordinate]], [[particle]] and "
            "[[body]] sections: its new initial value cannot be written",
            source_, m_.coordinate_names()[static_cast<std::size_t>(i)]));
      }
    }
  }

 private:
  int find(const std::string& name) {
    const auto it = index_.find(name);
    if (it == index_.end()) return -1;
    covered_[static_cast<std::size_t>(it->second)] = true;
    return it->second;
  }

  void scalar(const toml::table& t, const std::string& label, const char* key, double now,
              double was) {
    if (now == was) return;
    if (const toml::node* n = t.get(key)) {
      editor_.replace(*n, toml_number(now));
      ++out_.replaced;
    } else {
      editor_.add_key(t, label, key, toml_number(now));
      ++out_.added;
    }
  }

  static std::vector<double> gather(const Eigen::VectorXd& v, const std::vector<int>& idx) {
    std::vector<double> out;
    for (const int i : idx) out.push_back(v[i]);
    return out;
  }

  // An array of numbers: the entries that changed are replaced in place, or the key is added.
  void numbers(const toml::table& t, const std::string& label, const char* key,
               const std::vector<double>& now, const std::vector<double>& was) {
    if (now == was) return;
    const toml::node* n = t.get(key);
    if (n == nullptr) {
      std::string list;
      for (const double v : now) list += (list.empty() ? "" : ", ") + toml_number(v);
      editor_.add_key(t, label, key, "[" + list + "]");
      ++out_.added;
      return;
    }
    const toml::array* a = n->as_array();
    if (a == nullptr || a->size() != now.size()) {
      throw io::input_error(fmt::format("{}:{}: {} field '{}': expected an array of {} values",
                                        source_, n->source().begin.line, label, key, now.size()));
    }
    for (std::size_t k = 0; k < now.size(); ++k) {
      const toml::node* entry = a->get(k);
      if (now[k] == was[k] || entry == nullptr) continue;
      editor_.replace(*entry, toml_number(now[k]));
      ++out_.replaced;
    }
  }

  // A spatial body's orientation, in the form the file gives it (orientation, or rotation_axis
  // and rotation_angle), and its angular velocity in the file's angular_velocity_frame.
  void euler_parameters(const toml::table& t, const std::string& label, const std::string& name) {
    std::vector<int> e;
    for (int k = 0; k < 4; ++k) e.push_back(find(fmt::format("{}_e{}", name, k)));
    if (std::find(e.begin(), e.end(), -1) != e.end()) return;
    const auto vec4_of = [&](const Eigen::VectorXd& v) {
      return Eigen::Vector4d(v[e[0]], v[e[1]], v[e[2]], v[e[3]]);
    };
    const Eigen::Vector4d p = vec4_of(q_), p_was = vec4_of(m_.initial_positions());
    if (p != p_was) {
      if (t.contains("rotation_axis") && t.contains("rotation_angle")) {
        // Written back as Euler parameters: an axis and angle would not read back bit for bit.
        for (const auto& [k, v] : t) {
          if (k.str() == "rotation_axis") {
            editor_.replace_entry(
                "rotation_axis", v,
                fmt::format("orientation = [{}, {}, {}, {}]", toml_number(p[0]), toml_number(p[1]),
                            toml_number(p[2]), toml_number(p[3])));
            ++out_.replaced;
          } else if (k.str() == "rotation_angle") {
            editor_.replace_entry("rotation_angle", v, "");
          }
        }
      } else {
        numbers(t, label, "orientation", {p[0], p[1], p[2], p[3]},
                {p_was[0], p_was[1], p_was[2], p_was[3]});
      }
    }
    const auto frame = t.get("angular_velocity_frame");
    const bool body_frame = frame != nullptr && frame->value<std::string>() == "body";
    const Eigen::Vector3d w = euler::angular_velocity(p, vec4_of(qd_), body_frame);
    const Eigen::Vector3d w_was =
        euler::angular_velocity(p_was, vec4_of(m_.initial_velocities()), body_frame);
    numbers(t, label, "angular_velocity", {w[0], w[1], w[2]}, {w_was[0], w_was[1], w_was[2]});
  }

  file_editor& editor_;
  std::string source_;
  const model& m_;
  const Eigen::VectorXd& q_;
  const Eigen::VectorXd& qd_;
  rewritten_model_file& out_;
  std::vector<bool> covered_;
  std::map<std::string, int> index_;
};

}  // namespace

rewritten_model_file rewrite_initial_values(const std::string& text, const std::string& source,
                                            const model& m, const Eigen::VectorXd& q,
                                            const Eigen::VectorXd& qd) {
  if (q.size() != m.coordinates() || qd.size() != m.coordinates()) {
    throw io::option_error(
        "q",
        fmt::format("and qd must have {2} entries each (got {0} and {1}; rewrite_initial_values)",
                    q.size(), qd.size(), m.coordinates()));
  }
  const std::string_view body = io::strip_byte_order_mark(text);
  const std::string_view bom(text.data(), text.size() - body.size());
  const toml::table root = io::parse_toml(body, source);
  rewritten_model_file out;
  file_editor editor(body, source);
  initial_value_writer writer(editor, source, m, q, qd, out);
  writer.section(root, "coordinate", false);
  writer.section(root, "particle", false);
  writer.section(root, "body", true);
  writer.check_covered();
  out.text = std::string(bom) + editor.apply();
  return out;
}

}  // namespace kinevo::mechanics
