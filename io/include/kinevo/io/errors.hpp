// The project's error types, in one place:
//   input_error  - an unusable input file or value (exit status 2); names the file, line and
//                  field when it knows them, and what() is the full user-facing message;
//   option_error - an options struct's field out of its allowed range (validate()), also a
//                  std::invalid_argument so that callers which knew it as such keep working.
// Below io, core/resource_error.hpp has the third: resource_error, a system resource the run
// cannot get (a thread that cannot be started; exit status 1).
// Anything else escaping a loader is a defect (the fuzz harness in tests/fuzz/ checks this).
#pragma once

#include <fmt/format.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace kinevo::io {

class input_error : public std::runtime_error {
 public:
  // A complete message ("table.csv:7: column 'phi_deg': 'abc' is not a number").
  explicit input_error(const std::string& message) : std::runtime_error(message) {}
  explicit input_error(const char* message) : std::runtime_error(message) {}
  // "file:line: field: message" (line 0 or an empty field are left out).
  input_error(std::string file, int line, std::string field, const std::string& message)
      : std::runtime_error(compose(file, line, field, message)),
        file_(std::move(file)),
        field_(std::move(field)),
        line_(line) {}

  // Empty / 0 when the error was built from a complete message.
  const std::string& file() const noexcept { return file_; }
  int line() const noexcept { return line_; }
  const std::string& field() const noexcept { return field_; }

 private:
  static std::string compose(const std::string& file, int line, const std::string& field,
                             const std::string& message) {
    std::string s = file;
    if (line > 0) s += fmt::format(":{}", line);
    if (!field.empty()) s += (s.empty() ? "" : ": ") + field;
    return s + (s.empty() ? "" : ": ") + message;
  }
  std::string file_;
  std::string field_;
  int line_ = 0;
};

class option_error : public std::invalid_argument {
 public:
  // what() is "<field> <requirement>", e.g. "dt must be finite and > 0 (got inf)".
  option_error(std::string field, std::string requirement)
      : std::invalid_argument(field + " " + requirement),
        field_(std::move(field)),
        requirement_(std::move(requirement)) {}
  const std::string& field() const noexcept { return field_; }
  const std::string& requirement() const noexcept { return requirement_; }

 private:
  std::string field_;
  std::string requirement_;
};

// At most `limit` characters of user input for a message: a 10 MB cell must not become a
// 10 MB message. Longer text keeps its start and says how long it was; control bytes are shown
// as '?', so a message stays one readable line.
inline std::string excerpt(std::string_view text, std::size_t limit = 80) {
  std::string s;
  const std::size_t n = text.size() <= limit ? text.size() : limit;
  s.reserve(n + 40);
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    s.push_back(c < 0x20 || c == 0x7f ? '?' : static_cast<char>(c));
  }
  if (text.size() > limit) s += fmt::format("... ({} characters)", text.size());
  return s;
}

}  // namespace kinevo::io
