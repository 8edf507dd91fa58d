// Where the tests find the examples, their data and the kinevo executable, found at run time from
// the test executable's own place in the build folder. Force-included into every test module
// (tests/CMakeLists.txt) in place of compile definitions holding absolute paths: those paths
// entered every test object's compile command, so ccache could not share a test object between
// two clones or worktrees of the same commit (docs/build.md).
#pragma once

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace kinevo::test_paths {

// The build folder: the nearest folder above the running executable that holds CMakeCache.txt.
inline const std::filesystem::path& build_dir() {
  static const std::filesystem::path dir = [] {
    std::filesystem::path p = std::filesystem::canonical("/proc/self/exe").parent_path();
    for (; !p.empty() && p != p.root_path(); p = p.parent_path()) {
      if (std::filesystem::exists(p / "CMakeCache.txt")) return p;
    }
    throw std::runtime_error("test executable outside a kinevo build folder (no CMakeCache.txt)");
  }();
  return dir;
}

// The source tree the build folder was configured from (CMAKE_HOME_DIRECTORY of its cache).
inline const std::string& source_dir() {
  static const std::string dir = [] {
    std::ifstream cache(build_dir() / "CMakeCache.txt");
    const std::string key = "CMAKE_HOME_DIRECTORY:INTERNAL=";
    for (std::string line; std::getline(cache, line);) {
      if (line.rfind(key, 0) == 0) return line.substr(key.size());
    }
    throw std::runtime_error("no CMAKE_HOME_DIRECTORY in " +
                             (build_dir() / "CMakeCache.txt").string());
  }();
  return dir;
}

inline std::string examples() {
  return source_dir() + "/examples";
}
inline std::string test_data() {
  return source_dir() + "/tests/data";
}
inline std::string kinevo_binary() {
  return (build_dir() / "kinevo").string();
}

}  // namespace kinevo::test_paths

// The names the tests use (std::string values; `KINEVO_EXAMPLES + "/x.toml"` joins a path).
#define KINEVO_EXAMPLES ::kinevo::test_paths::examples()
#define KINEVO_TEST_DATA ::kinevo::test_paths::test_data()
#define KINEVO_BINARY ::kinevo::test_paths::kinevo_binary()
