// Checks of the command line that CLI11 does not make, and its errors in kinevo's words.
#pragma once

#include <optional>
#include <string>

namespace kinevo::cli {

// "empty value for --gravity" when an argument is the empty string (`--gravity ''`, which
// CLI11 took as 0) or an option written `--name=` with nothing after '='; "empty argument 3"
// for an empty positional one. std::nullopt when every argument has text.
std::optional<std::string> empty_argument(int argc, char** argv);

// CLI11's error message rewritten where its phrasing is its own: "At Most 1 required but
// received 2" for a repeated option becomes "--function was given 2 times; give it once".
// Other messages are returned as they are.
std::string plain_parse_error(const std::string& message);

}  // namespace kinevo::cli
