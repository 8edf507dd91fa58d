#include "kinevo/cli/argument_checks.hpp"

#include <fmt/format.h>

#include <string_view>

namespace kinevo::cli {

std::optional<std::string> empty_argument(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.empty()) {
      const std::string_view before = i > 1 ? std::string_view(argv[i - 1]) : std::string_view();
      if (before.size() > 1 && before[0] == '-' && before.find('=') == std::string_view::npos) {
        return fmt::format("empty value for {}: give a value", before);
      }
      return fmt::format("empty argument {} on the command line", i);
    }
    if (arg.size() > 2 && arg.substr(0, 2) == "--" && arg.back() == '=' &&
        arg.find('=') == arg.size() - 1) {
      return fmt::format("empty value for {}: give a value", arg.substr(0, arg.size() - 1));
    }
  }
  return std::nullopt;
}

std::string plain_parse_error(const std::string& message) {
  // CLI11: "--function: At Most 1 required but received 2" (ArgumentMismatch).
  constexpr std::string_view at_most = "At Most 1 required but received ";
  if (const auto pos = message.find(at_most); pos != std::string::npos) {
    std::string option = message.substr(0, pos);
    while (!option.empty() && (option.back() == ' ' || option.back() == ':')) option.pop_back();
    const std::string count = message.substr(pos + at_most.size());
    return fmt::format("{} was given {} times; give it once",
                       option.empty() ? std::string("an option") : option, count);
  }
  return message;
}

}  // namespace kinevo::cli
