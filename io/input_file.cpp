#include "kinevo/io/input_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <system_error>

#include "kinevo/io/errors.hpp"

namespace kinevo::io {

std::string_view strip_byte_order_mark(std::string_view text) {
  constexpr std::string_view bom = "\xEF\xBB\xBF";
  return text.substr(0, bom.size()) == bom ? text.substr(bom.size()) : text;
}

std::string read_input_file(const std::filesystem::path& path, std::string_view what,
                            std::uintmax_t max_bytes) {
  const std::string name = path.string();
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);  // follows symlinks
  if (ec || !std::filesystem::exists(status)) {
    throw input_error(fmt::format("{}: cannot open the {} (no such file)", name, what));
  }
  if (!std::filesystem::is_regular_file(status)) {
    throw input_error(fmt::format(
        "{}: is not a regular file (a directory, device, pipe or socket); give a {} on disk", name,
        what));
  }
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > max_bytes) {
    throw input_error(fmt::format("{}: the {} is {} bytes, more than the limit of {} MiB", name,
                                  what, size, max_bytes >> 20));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw input_error(fmt::format("{}: cannot open the {}", name, what));
  // Read at most one byte past the limit: a file that grows while it is read is refused too.
  std::string text(static_cast<std::size_t>(ec ? max_bytes + 1 : std::min(size, max_bytes) + 1),
                   '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) throw input_error(fmt::format("{}: cannot read the {}", name, what));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > max_bytes) {
    throw input_error(
        fmt::format("{}: the {} is larger than the limit of {} MiB", name, what, max_bytes >> 20));
  }
  const std::string_view body = strip_byte_order_mark(text);
  return body.size() == text.size() ? text : std::string(body);
}

}  // namespace kinevo::io
