#include "kinevo/symbolic/detail/native_code.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>

extern char** environ;

namespace kinevo::symbolic {

namespace {

using op = evaluation_tape::op;

// A constant as an exact C literal (hexadecimal floating point), or empty for NaN and infinity.
std::string c_literal(double v) {
  if (!std::isfinite(v)) return {};
  return fmt::format("({:a})", v);
}

const char* c_function(op code) {
  switch (code) {
    case op::pow:
      return "pow";
    case op::sqrt:
      return "sqrt";
    case op::sin:
      return "sin";
    case op::cos:
      return "cos";
    case op::tan:
      return "tan";
    case op::exp:
      return "exp";
    case op::log:
      return "log";
    case op::abs:
      return "fabs";
    case op::asin:
      return "asin";
    case op::acos:
      return "acos";
    case op::atan:
      return "atan";
    case op::atan2:
      return "atan2";
    case op::sinh:
      return "sinh";
    case op::cosh:
      return "cosh";
    case op::tanh:
      return "tanh";
    default:
      return nullptr;
  }
}

// One tape instruction as a C expression of its operands, the same operation as
// evaluation_tape::evaluate performs.
std::string c_expression(op code, const std::string& a, const std::string& b) {
  switch (code) {
    case op::add:
      return a + " + " + b;
    case op::sub:
      return a + " - " + b;
    case op::mul:
      return a + " * " + b;
    case op::div:
      return a + " / " + b;
    case op::neg:
      return "-" + a;
    case op::inv:
      return "1.0 / " + a;
    case op::sq:
      return a + " * " + a;
    case op::step:
      return fmt::format("({0} > 0.0 ? 1.0 : ({0} < 0.0 ? 0.0 : 0.5))", a);
    case op::sign:
      return fmt::format("({0} > 0.0 ? 1.0 : ({0} < 0.0 ? -1.0 : 0.0))", a);
    case op::pow:
    case op::atan2:
      return fmt::format("{}({}, {})", c_function(code), a, b);
    default:
      return fmt::format("{}({})", c_function(code), a);
  }
}

bool binary(op code) {
  return code == op::add || code == op::sub || code == op::mul || code == op::div ||
         code == op::pow || code == op::atan2;
}

void append_function(std::string& out, const evaluation_tape& tape, const std::string& name) {
  const int inputs = tape.inputs();
  const int first = tape.first_result();
  const auto& constants = tape.constants();
  auto operand = [&](int reg) -> std::string {
    if (reg < inputs) return fmt::format("in[{}]", reg);
    if (reg < first) return c_literal(constants[static_cast<std::size_t>(reg - inputs)]);
    return fmt::format("v{}", reg - first);
  };
  out += fmt::format("void {}(const double* restrict in, double* restrict out) {{\n", name);
  const auto& code = tape.code();
  for (std::size_t i = 0; i < code.size(); ++i) {
    const auto& c = code[i];
    const std::string a = operand(c.a);
    const std::string b = binary(c.code) ? operand(c.b) : std::string();
    out += fmt::format("  const double v{} = {};\n", i, c_expression(c.code, a, b));
  }
  for (const auto& [reg, index] : tape.output_map()) {
    out += fmt::format("  out[{}] = {};\n", index, operand(reg));
  }
  out += "}\n";
}

// FNV-1a, 64 bits: a stable name for the cached object (the same on every run and machine).
std::uint64_t fnv1a(const std::string& text, std::uint64_t h = 0xcbf29ce484222325ULL) {
  for (const unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::string environment(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::string(v) : std::string();
}

// The compiler flags. -ffp-contract=off: no fused multiply-adds (each operation rounded as the
// tape rounds it); -fno-builtin: calls stay calls to the same libm functions the tape calls
// (no constant folding of pow(x, 2.0) or the like).
const std::vector<std::string>& compiler_flags() {
  static const std::vector<std::string> flags{
      "-std=c99", "-O1", "-fPIC", "-shared", "-ffp-contract=off", "-fno-builtin", "-w"};
  return flags;
}

// Runs `argv` without a shell, its output into `log`. The exit status, or a reason.
bool run_program(const std::vector<std::string>& argv, const std::filesystem::path& log,
                 std::string& reason) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = 0;
  const bool has_path = argv[0].find('/') != std::string::npos;
  const int rc = has_path ? posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ)
                          : posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    reason = fmt::format("the C compiler '{}' could not be run ({})", argv[0], std::strerror(rc));
    return false;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      reason =
          fmt::format("waiting for the C compiler '{}' failed ({})", argv[0], std::strerror(errno));
      return false;
    }
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
  std::string first_line;
  std::ifstream in(log);
  std::getline(in, first_line);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
    reason = fmt::format("the C compiler '{}' was not found", argv[0]);
  } else {
    reason = fmt::format("the C compiler '{}' failed{}", argv[0],
                         first_line.empty() ? std::string() : ": " + first_line);
  }
  return false;
}

// Compiles `source` into `target` atomically: the object is written under a name of this
// process's own and renamed into place, so a reader (another process sharing the cache) never
// sees a partial file.
bool compile(const std::string& source, const std::filesystem::path& target,
             const std::string& compiler, std::string& reason) {
  static std::atomic<unsigned> counter{0};
  const std::string unique = fmt::format(".{}.{}", static_cast<long>(getpid()), counter++);
  std::filesystem::path c_file = target;
  c_file += unique + ".c";
  std::filesystem::path tmp = target;
  tmp += unique + ".tmp";
  std::filesystem::path log = target;
  log += unique + ".log";
  {
    std::ofstream f(c_file, std::ios::binary);
    f << source;
    if (!f.flush()) {
      reason = fmt::format("cannot write '{}'", c_file.string());
      std::error_code ignored;
      std::filesystem::remove(c_file, ignored);
      return false;
    }
  }
  std::vector<std::string> argv{compiler};
  for (const auto& f : compiler_flags()) argv.push_back(f);
  argv.insert(argv.end(), {"-o", tmp.string(), c_file.string(), "-lm"});
  const bool ok = run_program(argv, log, reason);
  std::error_code ignored;
  std::filesystem::remove(c_file, ignored);
  std::filesystem::remove(log, ignored);
  if (!ok) {
    std::filesystem::remove(tmp, ignored);
    return false;
  }
  std::error_code ec;
  std::filesystem::rename(tmp, target, ec);
  if (ec) {
    std::filesystem::remove(tmp, ignored);
    reason =
        fmt::format("cannot move the compiled model into '{}' ({})", target.string(), ec.message());
    return false;
  }
  return true;
}

// Bitwise equality, NaN equal to NaN (a model may give NaN where its expressions have no value).
bool same_bits(double a, double b) {
  if (std::isnan(a) && std::isnan(b)) return true;
  return std::memcmp(&a, &b, sizeof a) == 0;
}

}  // namespace

class native_library {
 public:
  // Loads `path` and looks up `names`; empty functions and a reason on failure.
  static std::vector<native_function> load(const std::filesystem::path& path,
                                           const std::vector<std::string>& names,
                                           std::string& reason) {
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      const char* e = dlerror();
      reason = fmt::format("cannot load '{}' ({})", path.string(), e != nullptr ? e : "dlopen");
      return {};
    }
    std::shared_ptr<void> library(handle, [](void* h) { dlclose(h); });
    std::vector<native_function> functions;
    for (const auto& name : names) {
      void* symbol = dlsym(handle, name.c_str());
      if (symbol == nullptr) {
        reason = fmt::format("'{}' has no function '{}'", path.string(), name);
        return {};
      }
      native_function f;
      f.library_ = library;
      f.function_ = reinterpret_cast<native_function::signature>(symbol);
      functions.push_back(f);
    }
    return functions;
  }
};

std::string tapes_c_source(const std::vector<const evaluation_tape*>& tapes,
                           const std::vector<std::string>& names) {
  std::string out =
      "/* kinevo: a model's evaluation tapes as C (symbolic/native_code.hpp) */\n"
      "#include <math.h>\n";
  for (std::size_t i = 0; i < tapes.size(); ++i) append_function(out, *tapes[i], names[i]);
  return out;
}

std::filesystem::path native_cache_directory() {
  const std::string own = environment("KINEVO_CACHE_DIR");
  if (!own.empty()) return own;
  const std::string xdg = environment("XDG_CACHE_HOME");
  if (!xdg.empty()) return std::filesystem::path(xdg) / "kinevo";
  const std::string home = environment("HOME");
  if (!home.empty()) return std::filesystem::path(home) / ".cache" / "kinevo";
  return std::filesystem::temp_directory_path() /
         fmt::format("kinevo-cache-{}", static_cast<unsigned long>(getuid()));
}

native_build build_native(const std::vector<const evaluation_tape*>& tapes,
                          const std::vector<std::vector<double>>& check_inputs) {
  native_build b;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < tapes.size(); ++i) names.push_back(fmt::format("kinevo_tape_{}", i));
  for (const auto* t : tapes) {
    for (const double c : t->constants()) {
      if (!std::isfinite(c)) {
        b.reason = "the model has a non-finite constant";
        return b;
      }
    }
  }
  const std::string source = tapes_c_source(tapes, names);
  std::string compiler = environment("KINEVO_CC");
  if (compiler.empty()) compiler = "cc";
  std::string key = compiler;
  for (const auto& f : compiler_flags()) key += " " + f;
  const std::uint64_t hash = fnv1a(source, fnv1a(key));
  const std::filesystem::path dir = native_cache_directory();
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) {
    std::filesystem::create_directories(dir, ec);
    if (!ec) {
      std::filesystem::permissions(dir, std::filesystem::perms::owner_all,
                                   std::filesystem::perm_options::replace, ec);
    }
  }
  if (ec || !std::filesystem::is_directory(dir)) {
    b.reason = fmt::format("cannot create the cache folder '{}'{}", dir.string(),
                           ec ? " (" + ec.message() + ")" : std::string());
    return b;
  }
  // A shared object found there is loaded into this process: the folder must be this user's
  // and not writable by others (a shared temp folder could hold anyone's file).
  struct stat info {};
  if (::stat(dir.c_str(), &info) != 0 || info.st_uid != getuid() ||
      (info.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    b.reason = fmt::format(
        "the cache folder '{}' is not this user's own or is writable by others; set "
        "KINEVO_CACHE_DIR to a private folder",
        dir.string());
    return b;
  }
  b.library = dir / fmt::format("model-{:016x}.so", hash);
  b.from_cache = std::filesystem::exists(b.library, ec);
  if (!b.from_cache && !compile(source, b.library, compiler, b.reason)) return b;
  std::vector<native_function> functions = native_library::load(b.library, names, b.reason);
  if (functions.empty() && b.from_cache) {
    // A damaged cache entry (a disk full when another process wrote it, say): build it anew.
    b.from_cache = false;
    b.reason.clear();
    if (!compile(source, b.library, compiler, b.reason)) return b;
    functions = native_library::load(b.library, names, b.reason);
  }
  if (functions.empty()) return b;
  for (std::size_t i = 0; i < tapes.size() && i < check_inputs.size(); ++i) {
    const evaluation_tape& t = *tapes[i];
    std::vector<double> scratch(static_cast<std::size_t>(t.registers()));
    std::vector<double> expected(static_cast<std::size_t>(t.outputs()));
    std::vector<double> got(expected.size());
    t.evaluate(check_inputs[i].data(), expected.data(), scratch.data());
    functions[i](check_inputs[i].data(), got.data());
    for (std::size_t k = 0; k < got.size(); ++k) {
      if (!same_bits(got[k], expected[k])) {
        b.reason = fmt::format(
            "the compiled code of '{}' gives {} where the tape gives {} (output {}); the "
            "compiler must not contract or reorder floating-point operations",
            b.library.string(), got[k], expected[k], k);
        return b;
      }
    }
  }
  b.functions = std::move(functions);
  return b;
}

}  // namespace kinevo::symbolic
