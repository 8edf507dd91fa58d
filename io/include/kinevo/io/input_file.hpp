// Reading an input file (model, problem, table) whole, refusing what cannot be one with a named
// input_error instead of a crash or a bare std::bad_alloc (`model info /dev/zero` read until
// memory ran out): a missing or unreadable file, a directory, device, FIFO or socket, a file
// larger than max_input_file_bytes. A UTF-8 byte-order mark at the start is dropped.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace kinevo::io {

// 64 MiB: far above any model, problem or table (a 10,000-link chain is 1.6 MB).
inline constexpr std::uintmax_t max_input_file_bytes = 64ULL << 20;

// The file's text. `what` names the kind of file in messages ("model file", "table"); a file
// larger than `max_bytes` is refused (a checkpoint of a large run may pass a larger bound).
std::string read_input_file(const std::filesystem::path& path, std::string_view what,
                            std::uintmax_t max_bytes = max_input_file_bytes);

// `text` without a leading UTF-8 byte-order mark (EF BB BF), which editors on Windows write.
std::string_view strip_byte_order_mark(std::string_view text);

}  // namespace kinevo::io
