// "Did you mean ...?" after a parse error: a misspelt subcommand or long option is compared with
// the names the command line could have meant (edit distance at most 2).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace kinevo::cli {

// Levenshtein distance (insertions, deletions and substitutions each count 1).
int edit_distance(const std::string& a, const std::string& b);

// The known names within `max_distance` edits of `word` (and not equal to it), closest first.
std::vector<std::string> close_names(const std::string& word, const std::vector<std::string>& known,
                                     int max_distance = 2);

// One "did you mean" line per unknown word of argv (after the program name), or "" when none
// is close to a known name. The subcommand path is followed through argv; long options
// ("--name" or "--name=value") are compared with the long options of the innermost subcommand,
// other words with its subcommands' names.
std::string did_you_mean(const CLI::App& app, int argc, const char* const* argv);

}  // namespace kinevo::cli
