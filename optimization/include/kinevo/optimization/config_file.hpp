// The config file of `kinevo optimize --config FILE`: TOML whose keys are the long option names
// without "--" ('-' or '_'), at the top level or under an [optimize] section. Reading it is
// library code (so the loader fuzz harness covers it); applying the entries to the command-line
// options is the CLI's (the command line wins over the file).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace kinevo::optimization {

struct config_entry {
  std::string key;                  // long option name with '-' ("max-evals")
  std::vector<std::string> values;  // the value as option text; an array gives one per element
  std::string at;                   // "FILE:LINE: field 'max_evals'" for messages
};

// Parses `text` (a leading UTF-8 byte-order mark is accepted). Throws io::input_error naming
// `source`, the line and the key for TOML errors, unknown sections, nested tables and values
// that are not strings, numbers, booleans or arrays of them.
std::vector<config_entry> parse_config(const std::string& text, const std::string& source);

// Reads and parses the file (io::read_input_file: a directory, device or missing file is
// refused by name).
std::vector<config_entry> read_config_file(const std::filesystem::path& path);

}  // namespace kinevo::optimization
