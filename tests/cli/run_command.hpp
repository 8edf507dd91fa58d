// Runs a shell command for end-to-end tests and captures stdout, stderr and the exit status.
#pragma once

#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace kinevo::test {

struct command_output {
  int status = -1;  // exit status, or -1 when the process did not exit normally
  std::string out;
  std::string err;
};

// Runs a shell command line; stdout and stderr are captured apart.
inline command_output run_command(const std::string& command) {
  static std::atomic<int> counter = 0;
  const auto dir = std::filesystem::temp_directory_path();
  const auto err_file =
      dir / ("kinevo_test_err_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
  const std::string cmd = "{ " + command + " ; } 2>" + err_file.string();
  command_output r;
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), n);
  const int raw = ::pclose(pipe);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  std::ifstream e(err_file);
  std::stringstream ss;
  ss << e.rdbuf();
  r.err = ss.str();
  std::filesystem::remove(err_file);
  return r;
}

// Runs `kinevo <args>` (args are passed through the shell, so quote paths with spaces).
inline command_output run_kinevo(const std::string& args) {
  return run_command(std::string(KINEVO_BINARY) + " " + args);
}

// Runs independent command lines on as many threads as the machine has cores and returns their
// outputs in order. The README's `ctest` runs one test at a time (CMake 3.25 has no project
// default for -j), so a test that starts several independent runs one after the other leaves the
// other core idle; the checks on the outputs stay in the test's own thread.
inline std::vector<command_output> run_commands(const std::vector<std::string>& commands) {
  std::vector<command_output> out(commands.size());
  std::atomic<std::size_t> next = 0;
  const auto work = [&] {
    for (std::size_t i = next++; i < commands.size(); i = next++) out[i] = run_command(commands[i]);
  };
  const std::size_t n = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1,
                                                std::max<std::size_t>(commands.size(), 1));
  std::vector<std::thread> threads;
  for (std::size_t k = 1; k < n; ++k) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  return out;
}

inline std::vector<command_output> run_kinevos(const std::vector<std::string>& args) {
  std::vector<std::string> commands;
  for (const auto& a : args) commands.push_back(std::string(KINEVO_BINARY) + " " + a);
  return run_commands(commands);
}

// The folders fresh_dir made, removed when the test process ends, so that runs of the suite do
// not fill the temp directory. KINEVO_KEEP_TEST_FILES=1 keeps them, to read a failing test's
// outputs.
struct fresh_dir_registry {
  std::vector<std::filesystem::path> dirs;
  fresh_dir_registry() = default;
  fresh_dir_registry(const fresh_dir_registry&) = delete;
  fresh_dir_registry& operator=(const fresh_dir_registry&) = delete;
  ~fresh_dir_registry() {
    if (std::getenv("KINEVO_KEEP_TEST_FILES") != nullptr) return;
    std::error_code ignored;
    for (const auto& d : dirs) std::filesystem::remove_all(d, ignored);
  }
};

inline fresh_dir_registry& fresh_dirs() {
  static fresh_dir_registry registry;
  return registry;
}

// A fresh empty folder under the system temp directory for a test's output files.
inline std::filesystem::path fresh_dir(const std::string& name) {
  auto d = std::filesystem::temp_directory_path() /
           ("kinevo_test_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  fresh_dirs().dirs.push_back(d);
  return d;
}

// Runs `kinevo <args>` in the background, waits until /proc/<pid>/status shows kinevo's own
// handler for `signal` ("INT" or "TERM"; no sleep-based timing: a signal sent to the forked
// shell before it became kinevo would be ignored and the run would go on), sends it, and returns
// the exit status and stderr. A watchdog kills the run after 120 s. Uses `dir` for its files.
inline command_output run_kinevo_signalled(const std::string& args, const std::string& signal,
                                           const std::filesystem::path& dir) {
  const std::string mask = signal == "INT" ? "0x2" : "0x4000";  // bit (signal number - 1)
  const std::string script = std::string(KINEVO_BINARY) + " " + args + " >" +
                             (dir / "signalled.out").string() +
                             " & pid=$!; "
                             "(sleep 120; kill -KILL $pid) >/dev/null 2>&1 & watchdog=$!; "
                             "while :; do [ \"$(cat /proc/$pid/comm 2>/dev/null)\" = kinevo ] || "
                             "{ [ -e /proc/$pid ] && continue || break; }; "
                             "m=$(awk '/^SigCgt/{print $2}' /proc/$pid/status 2>/dev/null); "
                             "[ -z \"$m\" ] && break; [ $(( 0x$m & " +
                             mask + " )) -ne 0 ] && break; done; kill -" + signal +
                             " $pid; wait $pid; rc=$?; kill $watchdog 2>/dev/null; echo $rc";
  std::ofstream(dir / "signalled.sh") << script << "\n";
  command_output r;
  FILE* p = ::popen(
      ("sh " + (dir / "signalled.sh").string() + " 2>" + (dir / "signalled.err").string()).c_str(),
      "r");
  if (p == nullptr) return r;
  std::array<char, 64> buf{};
  std::string status;
  while (std::fgets(buf.data(), buf.size(), p) != nullptr) status += buf.data();
  ::pclose(p);
  r.status = status.empty() ? -1 : std::stoi(status);
  std::ifstream o(dir / "signalled.out"), e(dir / "signalled.err");
  std::stringstream so, se;
  so << o.rdbuf();
  se << e.rdbuf();
  r.out = so.str();
  r.err = se.str();
  return r;
}

}  // namespace kinevo::test
