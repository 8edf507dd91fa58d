#include "kinevo/cli/json_contract.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string_view>
#include <thread>

namespace kinevo::cli {

namespace {

// At most this much of stderr is kept for the message (its end: the error comes last).
constexpr std::size_t kept_stderr_bytes = 64 * 1024;
constexpr std::size_t message_characters = 2000;

std::string read_all(int fd) {
  std::string text;
  if (::lseek(fd, 0, SEEK_SET) < 0) return text;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n <= 0) break;
    text.append(buf, static_cast<std::size_t>(n));
  }
  return text;
}

void write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
}

// The lines of stderr as one message: "kinevo: " prefixes dropped, joined with "; ".
std::string message_from_stderr(const std::string& err) {
  std::string out;
  std::size_t start = 0;
  while (start < err.size()) {
    std::size_t end = err.find('\n', start);
    if (end == std::string::npos) end = err.size();
    std::string line = err.substr(start, end - start);
    start = end + 1;
    // A progress line redraws with carriage returns: keep its last state only.
    if (const auto cr = line.rfind('\r'); cr != std::string::npos) line = line.substr(cr + 1);
    if (line.rfind("kinevo: ", 0) == 0) line = line.substr(8);
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    if (line.rfind("Run with --help", 0) == 0) continue;
    out += (out.empty() ? "" : "; ") + line;
  }
  if (out.size() > message_characters) out = out.substr(0, message_characters) + " ...";
  return out;
}

}  // namespace

struct json_exit_contract::capture {
  int saved_out = -1;
  int saved_err = -1;
  int out_file = -1;
  int err_read = -1;
  std::thread forwarder;
  std::mutex mutex;
  std::string err_text;

  // Forwards what stderr receives to the real stderr and keeps its end.
  void forward() {
    char buf[4096];
    for (;;) {
      const ssize_t n = ::read(err_read, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      write_all(saved_err, buf, static_cast<std::size_t>(n));
      std::lock_guard lock(mutex);
      err_text.append(buf, static_cast<std::size_t>(n));
      if (err_text.size() > 2 * kept_stderr_bytes) {
        err_text.erase(0, err_text.size() - kept_stderr_bytes);
      }
    }
  }
};

json_exit_contract::json_exit_contract(int argc, char** argv, bool printing) {
  const bool wanted = std::any_of(argv + 1, argv + argc,
                                  [](const char* a) { return std::string_view(a) == "--json"; });
  if (!wanted || !printing) return;
  auto c = std::make_unique<capture>();
  int pipe_fds[2] = {-1, -1};
  c->out_file = ::memfd_create("kinevo-json-stdout", MFD_CLOEXEC);
  if (c->out_file < 0 || ::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    // Without a capture the run goes on as before (its own JSON, if any, still printed).
    if (c->out_file >= 0) ::close(c->out_file);
    return;
  }
  std::fflush(stdout);
  std::fflush(stderr);
  c->saved_out = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
  c->saved_err = ::fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
  ::dup2(c->out_file, STDOUT_FILENO);
  ::dup2(pipe_fds[1], STDERR_FILENO);
  ::close(pipe_fds[1]);
  c->err_read = pipe_fds[0];
  c->forwarder = std::thread([raw = c.get()] { raw->forward(); });
  state_ = std::move(c);
}

json_exit_contract::~json_exit_contract() {
  if (state_) (void)finish(0);
}

const char* json_exit_contract::status_of(int code) {
  switch (code) {
    case 0:
      return "ok";
    case 1:
      return "failed";
    case 2:
      return "bad_input";
    case 130:
      return "interrupted";
    default:
      return "failed";
  }
}

std::string json_exit_contract::object_for(int code, const std::string& out, const std::string& err,
                                           const std::string& message) {
  nlohmann::json j = nlohmann::json::object();
  const auto first = out.find_first_not_of(" \t\r\n");
  if (first != std::string::npos) {
    nlohmann::json printed = nlohmann::json::parse(out, nullptr, false);
    if (!printed.is_discarded() && printed.is_object()) {
      j = std::move(printed);
    } else {
      j["output"] = out;  // text, or more than one object: kept whole, never lost
    }
  }
  if (!j.contains("status")) j["status"] = status_of(code);
  if (!j.contains("message")) {
    std::string m = message.empty() ? message_from_stderr(err) : message;
    if (m.empty()) m = code == 0 ? "done" : status_of(code);
    j["message"] = m;
  }
  j["exit_status"] = code;
  return j.dump();
}

int json_exit_contract::finish(int code) {
  if (!state_) return code;
  std::unique_ptr<capture> c = std::move(state_);
  std::cout.flush();
  std::cerr.flush();
  std::fflush(stdout);
  std::fflush(stderr);
  // Restoring fd 2 closes the pipe's last write end: the forwarder reads EOF and ends.
  ::dup2(c->saved_err, STDERR_FILENO);
  c->forwarder.join();
  ::close(c->err_read);
  const std::string out = read_all(c->out_file);
  ::dup2(c->saved_out, STDOUT_FILENO);
  ::close(c->out_file);
  ::close(c->saved_out);
  ::close(c->saved_err);
  const std::string text = object_for(code, out, c->err_text, message_) + "\n";
  write_all(STDOUT_FILENO, text.data(), text.size());
  return code;
}

}  // namespace kinevo::cli
