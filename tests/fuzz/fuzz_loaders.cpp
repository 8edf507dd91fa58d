// Deterministic mutation fuzzing of the input loaders, in process: the model loader, the problem
// loader, the table readers (CSV, then the synthesis function and pose tables), the config
// file reader of `optimize --config` and the cam file reader of `synth cam`. Every input
// must either load or be refused with one of the project's error types (io::input_error,
// io::option_error); any other exception is a failure, and a crash or a hang ends the test
// (ctest's timeout, ASan/UBSan in .ci/run). Failing inputs are written to --failures DIR.
// Three modes: bytes (mutator.hpp: byte flips, extreme numbers, lines), grammar (every probe of
// grammar_mutator.hpp in each target, then --count random expressions in expression fields)
// and fields (every field of every section of every target's files removed, duplicated and
// given each wrong type; --count is not used).
// --replay DIR runs the corpus of inputs that once failed instead (run_replay below).
//   fuzz_loaders --corpus examples [--corpus DIR2] --seed 1 --count 3000 [--mode bytes]
//                [--targets model,problem,table,config,cam,chain] [--failures DIR] [--verbose]
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "grammar_mutator.hpp"
#include "kinevo/analysis/chain_file.hpp"
#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/optimization/config_file.hpp"
#include "kinevo/symbolic/optimization_problem.hpp"
#include "kinevo/synthesis/cams/cam_file.hpp"
#include "kinevo/synthesis/linkages/input_tables.hpp"
#include "mutator.hpp"

namespace fs = std::filesystem;
using namespace kinevo;

namespace {

struct target {
  std::string name;
  std::vector<std::pair<std::string, std::string>> corpus;  // (file name, text)
  std::function<void(const std::string& text, const std::string& source)> load;
};

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool is_model(const std::string& text) {
  return text.find("[[coordinate]]") != std::string::npos ||
         text.find("[[particle]]") != std::string::npos ||
         text.find("[[body]]") != std::string::npos;
}

bool is_problem(const std::string& text) {
  return text.find("[[variable]]") != std::string::npos;
}

bool is_cam(const std::string& text) {
  return text.find("[[phase]]") != std::string::npos;
}

// Chain files (analysis/chain_file.hpp) say what kind of chain they describe.
bool is_chain(const std::string& text) {
  return text.find("kind = \"closure\"") != std::string::npos ||
         text.find("kind = \"guidance\"") != std::string::npos;
}

std::vector<target> make_targets(const std::vector<fs::path>& corpus_dirs) {
  target model{"model", {}, [](const std::string& text, const std::string& source) {
                 (void)mechanics::load_model_from_string(text, source);
               }};
  target problem{"problem", {}, [](const std::string& text, const std::string& source) {
                   (void)symbolic::load_optimization_problem_from_string(text, source);
                 }};
  target table{"table", {}, [](const std::string& text, const std::string& source) {
                 const io::csv_table t = io::parse_csv_table(text, source);
                 // Both readers on every table: a table of the other kind must be refused
                 // cleanly too. It loads when one of them takes it.
                 bool function_table = true;
                 try {
                   (void)synthesis::function_table_from(t, false, 3, "fuzz");
                 } catch (const io::input_error&) {
                   function_table = false;
                 }
                 try {
                   (void)synthesis::pose_table_from(t, false);
                 } catch (const io::input_error&) {
                   if (!function_table) throw;
                 }
               }};
  target config{"config", {}, [](const std::string& text, const std::string& source) {
                  (void)optimization::parse_config(text, source);
                }};
  target cam{"cam", {}, [](const std::string& text, const std::string& source) {
               (void)synthesis::parse_cam_file(text, source);
             }};
  target chain{"chain", {}, [](const std::string& text, const std::string& source) {
                 (void)analysis::parse_chain_description(text, source);
               }};
  std::vector<fs::path> files;
  for (const auto& dir : corpus_dirs) {
    std::vector<fs::path> here;
    for (const auto& e : fs::directory_iterator(dir)) here.push_back(e.path());
    std::sort(here.begin(), here.end());  // directory order differs between file systems
    files.insert(files.end(), here.begin(), here.end());
  }
  for (const auto& p : files) {
    const std::string text = read(p);
    const std::string name = p.filename().string();
    if (p.extension() == ".csv") {
      table.corpus.emplace_back(name, text);
    } else if (p.extension() == ".toml" && is_model(text)) {
      model.corpus.emplace_back(name, text);
    } else if (p.extension() == ".toml" && is_chain(text)) {
      chain.corpus.emplace_back(name, text);
    } else if (p.extension() == ".toml" && is_problem(text)) {
      problem.corpus.emplace_back(name, text);
    } else if (p.extension() == ".toml" && is_cam(text)) {
      cam.corpus.emplace_back(name, text);
    } else if (p.extension() == ".toml") {
      config.corpus.emplace_back(name, text);  // optimize_*.toml
    }
  }
  return {model, problem, table, config, cam, chain};
}

enum class outcome { loaded, refused, failed };

// A refusal must be readable: one message of bounded size, whatever the input (a 10 MB cell was
// echoed whole).
constexpr std::size_t max_message_bytes = 1000;
// and in plain words: no internal function names or positions of the libraries (GiNaC's strict
// parser said `find_or_insert_symbol: symbol "l3" not found`, issue 10). None of these appears
// in the corpus or the mutator's tokens, so an echo of the input cannot match.
constexpr std::array<std::string_view, 6> library_internals = {
    "find_or_insert_symbol", "make_binop_expr", "parser.cpp", "line 0, column", "::eval(", "GiNaC"};
outcome bounded(const std::exception& e, std::string& message) {
  const std::string what = e.what();
  for (const std::string_view internal : library_internals) {
    if (what.find(internal) != std::string::npos) {
      message = "message with library internals ('" + std::string(internal) +
                "'): " + what.substr(0, 300);
      return outcome::failed;
    }
  }
  const std::size_t size = what.size();
  if (size <= max_message_bytes) return outcome::refused;
  message = "message of " + std::to_string(size) + " bytes: " + what.substr(0, 200);
  return outcome::failed;
}

outcome run_one(const target& t, const std::string& text, const std::string& source,
                std::string& message) {
  try {
    t.load(text, source);
    return outcome::loaded;
  } catch (const io::input_error& e) {
    return bounded(e, message);
  } catch (const io::option_error& e) {
    return bounded(e, message);
  } catch (const std::exception& e) {
    message = std::string("unexpected exception: ") + e.what();
  } catch (...) {
    message = "unexpected non-standard exception";
  }
  return outcome::failed;
}

// One input through its loader, with the tally, the slowest input and the failure file.
struct campaign {
  fs::path failures_dir;
  bool verbose = false;
  long inputs = 0;
  long failures = 0;
  double slowest = 0.0;
  std::string slowest_input;
  std::map<std::string, std::map<outcome, long>> tally;

  void run(const target& t, const std::string& text, const std::string& source,
           const std::string& how) {
    std::string message;
    const auto start = std::chrono::steady_clock::now();
    const outcome o = run_one(t, text, source, message);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ++inputs;
    if (seconds > slowest) {
      slowest = seconds;
      slowest_input = source + " (" + how + ")";
    }
    ++tally[t.name][o];
    if (verbose) std::printf("%s %s %.3f s\n", source.c_str(), how.c_str(), seconds);
    if (o != outcome::failed) return;
    ++failures;
    std::printf("FAIL %s (%s): %s\n", source.c_str(), how.c_str(), message.c_str());
    if (!failures_dir.empty()) {
      fs::create_directories(failures_dir);
      std::ofstream(failures_dir / (source + (t.name == "table" ? ".csv" : ".toml")),
                    std::ios::binary)
          << text;
    }
  }

  int report() const {
    for (const auto& [name, counts] : tally) {
      const auto& by = counts;  // clang 14 cannot capture a structured binding
      auto get = [&](outcome o) { return by.count(o) != 0 ? by.at(o) : 0L; };
      std::printf("%-8s loaded %ld, refused %ld, failed %ld\n", name.c_str(), get(outcome::loaded),
                  get(outcome::refused), get(outcome::failed));
    }
    std::printf("slowest input: %s, %.3f s\n", slowest_input.c_str(), slowest);
    std::printf("%ld inputs: %ld passed, %ld failed\n", inputs, inputs - failures, failures);
    return failures == 0 ? 0 : 1;
  }
};

// Byte and number mutations (mutator.hpp). Returns false when input `write_index` was written.
bool run_bytes(const std::vector<target>& targets, std::uint64_t seed, long count, long write_index,
               const fs::path& write_file, campaign& c) {
  fuzz::random_source rng(seed);
  std::vector<fuzz::mutation> applied;
  for (long k = 0; k < count; ++k) {
    // Models are the richest inputs: they get twice the share of the other targets.
    const std::size_t pick = rng.below(targets.size() + 1);
    const target& t = targets[pick == targets.size() ? 0 : pick];
    const auto& [name, original] = t.corpus[rng.below(t.corpus.size())];
    const std::string text = fuzz::mutate(original, rng, applied);
    std::string how;
    for (const auto m : applied) how += std::string(how.empty() ? "" : "+") + fuzz::to_string(m);
    const std::string source = "fuzz-" + std::to_string(k) + "-" + name;
    if (k == write_index) {
      std::ofstream(write_file, std::ios::binary) << text;
      return false;
    }
    c.run(t, text, source, how);
  }
  return true;
}

// Expressions of the grammar in expression fields: first every probe in every target (the
// probe k goes into file k mod files of the target), then `count` random expressions of up to
// 5 levels, 1 to 3 per input.
bool run_grammar(const std::vector<target>& targets, std::uint64_t seed, long count,
                 long write_index, const fs::path& write_file, campaign& c) {
  const fuzz::grammar_vocabulary vocabulary = fuzz::vocabulary_from_reader();
  const std::vector<std::string> probes = fuzz::probe_expressions(vocabulary);
  fuzz::random_source rng(seed);
  long k = 0;
  auto one = [&](const target& t, std::size_t file, const std::vector<std::string>& expressions) {
    const auto& [name, original] = t.corpus[file];
    std::string text = original, how;
    for (const auto& e : expressions) {
      if (fuzz::put_expression(text, e, t.name == "table", rng))
        how += (how.empty() ? "" : " ; ") + e;
    }
    const std::string source = "grammar-" + std::to_string(k) + "-" + name;
    if (k++ == write_index) {
      std::ofstream(write_file, std::ios::binary) << text;
      return false;
    }
    c.run(t, text, source, how);
    return true;
  };
  for (const target& t : targets) {
    for (std::size_t p = 0; p < probes.size(); ++p) {
      if (!one(t, p % t.corpus.size(), {probes[p]})) return false;
    }
  }
  for (long r = 0; r < count; ++r) {
    const target& t = targets[rng.below(targets.size())];
    const std::size_t file = rng.below(t.corpus.size());
    const std::vector<std::string> names = fuzz::identifiers_in(t.corpus[file].second);
    std::vector<std::string> expressions(1 + rng.below(3));
    for (auto& e : expressions) e = fuzz::random_expression(vocabulary, names, rng, 5);
    if (!one(t, file, expressions)) return false;
  }
  return true;
}

// Every field of every section (TOML) or column (CSV) of every file, changed one at a time.
void run_fields(const std::vector<target>& targets, campaign& c) {
  for (const target& t : targets) {
    std::vector<std::string> seen;  // section.key already changed in an earlier file
    for (const auto& [name, original] : t.corpus) {
      const auto variants = t.name == "table" ? fuzz::csv_field_variants(original)
                                              : fuzz::toml_field_variants(original, seen);
      for (std::size_t v = 0; v < variants.size(); ++v) {
        c.run(t, variants[v].text, "field-" + std::to_string(v) + "-" + name, variants[v].what);
      }
    }
  }
}

// The corpus of inputs that once failed (tests/data/fuzz_corpus/<target>/): each file is run
// through its target's loader and must give what its name says: "loads-*" loads, "refused-*"
// is refused with one of the project's error types (any other outcome is a failure).
int run_replay(const std::vector<target>& all, const fs::path& dir, campaign& c) {
  long wrong = 0, files = 0;
  for (const target& t : all) {
    const fs::path sub = dir / t.name;
    if (!fs::is_directory(sub)) continue;
    std::vector<fs::path> paths;
    for (const auto& e : fs::directory_iterator(sub)) paths.push_back(e.path());
    std::sort(paths.begin(), paths.end());
    for (const auto& p : paths) {
      const std::string name = p.filename().string();
      const bool should_load = name.rfind("loads-", 0) == 0;
      if (!should_load && name.rfind("refused-", 0) != 0) {
        std::printf("WRONG %s: the name must begin with loads- or refused-\n", p.c_str());
        ++wrong;
        continue;
      }
      ++files;
      std::string message;
      const outcome o = run_one(t, read(p), p.string(), message);
      ++c.tally[t.name][o];
      if (o == outcome::failed || (o == outcome::loaded) != should_load) {
        ++wrong;
        std::printf("WRONG %s: %s\n", p.c_str(),
                    o == outcome::failed   ? message.c_str()
                    : o == outcome::loaded ? "loaded, should be refused"
                                           : "refused, should load");
      } else if (c.verbose) {
        std::printf("ok %s\n", p.c_str());
      }
    }
  }
  std::printf("%ld corpus files, %ld as expected, %ld not\n", files, files - wrong, wrong);
  return wrong == 0 && files > 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<fs::path> corpus_dirs;
  std::uint64_t seed = 1;
  long count = 3000;
  std::string wanted = "model,problem,table";
  std::string mode = "bytes";
  long write_index = -1;
  fs::path write_file, replay_dir;
  campaign c;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "fuzz_loaders: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--corpus") {
      corpus_dirs.emplace_back(value());
    } else if (a == "--seed") {
      seed = std::stoull(value());
    } else if (a == "--count") {
      count = std::stol(value());
    } else if (a == "--replay") {  // --replay DIR: the corpus of inputs that once failed
      mode = "replay";
      replay_dir = value();
    } else if (a == "--mode") {
      mode = value();
    } else if (a == "--failures") {
      c.failures_dir = value();
    } else if (a == "--write") {  // --write K FILE: save input K (to reproduce a crash)
      write_index = std::stol(value());
      write_file = value();
    } else if (a == "--targets") {
      wanted = value();
    } else if (a == "--verbose") {
      c.verbose = true;
    } else {
      std::fprintf(stderr, "fuzz_loaders: unknown argument '%s'\n", a.c_str());
      return 2;
    }
  }
  if (corpus_dirs.empty()) corpus_dirs.emplace_back("examples");
  if (mode == "replay") return run_replay(make_targets(corpus_dirs), replay_dir, c);
  if (mode != "bytes" && mode != "grammar" && mode != "fields") {
    std::fprintf(stderr, "fuzz_loaders: --mode is bytes, grammar or fields, not '%s'\n",
                 mode.c_str());
    return 2;
  }
  std::vector<target> targets;
  for (auto& t : make_targets(corpus_dirs)) {
    if (("," + wanted + ",").find("," + t.name + ",") != std::string::npos) {
      targets.push_back(std::move(t));
    }
  }
  if (targets.empty()) {
    std::fprintf(stderr,
                 "fuzz_loaders: no target in '%s' (model, problem, table, config, cam, chain)\n",
                 wanted.c_str());
    return 2;
  }
  for (const auto& t : targets) {
    if (t.corpus.empty()) {
      std::fprintf(stderr, "fuzz_loaders: no %s files in the corpus\n", t.name.c_str());
      return 2;
    }
  }
  const auto start = std::chrono::steady_clock::now();
  if (mode == "bytes" && !run_bytes(targets, seed, count, write_index, write_file, c)) return 0;
  if (mode == "grammar" && !run_grammar(targets, seed, count, write_index, write_file, c)) return 0;
  if (mode == "fields") run_fields(targets, c);
  std::printf("%s mode: %.1f s\n", mode.c_str(),
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return c.report();
}
