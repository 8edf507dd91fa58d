// Models compiled to native code (model_options::native_code, symbolic/detail/native_code.hpp)
// against the tape interpreter: every example model, the planar and spatial chains, at random
// states; and the fallback to the tape, with a note on stderr, when the compiler is missing or
// fails. The compiled path needs the system C compiler (Debian's build-essential, which builds
// kinevo): a test that finds none says so and skips rather than fail.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "kinevo/mechanics/model/chain_model.hpp"
#include "kinevo/mechanics/model/model.hpp"

namespace kinevo::mechanics {
namespace {

namespace fs = std::filesystem;

// Sets an environment variable for one scope, restoring the previous value (or its absence).
class native_env {
 public:
  native_env(const char* name, const std::string& value) : name_(name) {
    const char* old = std::getenv(name);
    had_ = old != nullptr;
    if (had_) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  native_env(const native_env&) = delete;
  native_env& operator=(const native_env&) = delete;
  ~native_env() {
    if (had_) {
      ::setenv(name_, old_.c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }

 private:
  const char* name_;
  bool had_ = false;
  std::string old_;
};

// A private cache folder per test program run, removed at the end.
class NativeCode : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("kinevo_native_test_" + std::to_string(static_cast<long>(::getpid())));
    fs::create_directories(dir_);
    fs::permissions(dir_, fs::perms::owner_all, fs::perm_options::replace);
    cache_ = std::make_unique<native_env>("KINEVO_CACHE_DIR", dir_.string());
  }
  void TearDown() override {
    cache_.reset();
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }
  fs::path dir_;
  std::unique_ptr<native_env> cache_;
};

model_options native_options(bool on) {
  model_options o;
  o.native_code = on;
  return o;
}

double native_difference(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  if (a.size() == 0) return 0.0;
  return (a - b).cwiseAbs().maxCoeff();
}

// Every quantity the model evaluates, tape against native code, at the initial state and at
// random states around it. The translation is one C statement per tape instruction, so the
// answers agree to the last bit; the test allows 1e-14.
void expect_native_same(const model& tape, const model& native, unsigned seed) {
  ASSERT_FALSE(tape.native_code());
  ASSERT_TRUE(native.native_code()) << native.name();
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int k = 0; k < 5; ++k) {
    Eigen::VectorXd q = tape.initial_positions(), qd = tape.initial_velocities();
    const double t = 0.1 * k;
    if (k > 0) {
      for (int i = 0; i < q.size(); ++i) {
        q[i] += 0.05 * u(rng);
        qd[i] += 0.5 * u(rng);
      }
    }
    const constrained_system a = tape.evaluate(q, qd, t);
    const constrained_system b = native.evaluate(q, qd, t);
    EXPECT_LE(native_difference(a.mass, b.mass), 1e-14) << tape.name();
    EXPECT_LE(native_difference(a.force, b.force), 1e-14) << tape.name();
    EXPECT_LE(native_difference(a.jacobian, b.jacobian), 1e-14) << tape.name();
    EXPECT_LE(native_difference(a.rhs, b.rhs), 1e-14) << tape.name();
    EXPECT_LE(native_difference(tape.position_violation(q, t), native.position_violation(q, t)),
              1e-14);
    EXPECT_LE(
        native_difference(tape.velocity_violation(q, qd, t), native.velocity_violation(q, qd, t)),
        1e-14);
    EXPECT_LE(native_difference(tape.position_jacobian(q, t), native.position_jacobian(q, t)),
              1e-14);
    // One model's dense and sparse Phi_q are the same numbers (the same code evaluates both).
    for (const model* m : {&tape, &native}) {
      EXPECT_EQ(Eigen::MatrixXd(m->position_jacobian_sparse(q, t)), m->position_jacobian(q, t))
          << tape.name();
    }
    const auto e1 = tape.energy(q, qd, t), e2 = native.energy(q, qd, t);
    ASSERT_EQ(e1.has_value(), e2.has_value());
    if (e1) {
      EXPECT_LE(std::abs(*e1 - *e2), 1e-14 * std::max(1.0, std::abs(*e1)));
    }
  }
}

bool native_compiler_present() {
  return std::system("cc --version > /dev/null 2>&1") == 0;
}

TEST_F(NativeCode, EveryExampleModelAgreesWithTheTape) {
  if (!native_compiler_present())
    GTEST_SKIP() << "no C compiler 'cc': the compiled path is not tested";
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(KINEVO_EXAMPLES)) {
    if (entry.path().extension() != ".toml") continue;
    std::ifstream in(entry.path());
    bool is_model = false;
    for (std::string line; std::getline(in, line);) is_model = is_model || line == "[model]";
    if (!is_model) continue;
    model_options off = native_options(false), on = native_options(true);
    off.require_assembled = on.require_assembled = false;
    const model tape = load_model(entry.path(), off);
    const model native = load_model(entry.path(), on);
    expect_native_same(tape, native, 11);
    ++checked;
  }
  EXPECT_GE(checked, 15);
}

TEST_F(NativeCode, ChainsAgreeWithTheTapeAndTheCacheHoldsWholeObjectsOnly) {
  if (!native_compiler_present())
    GTEST_SKIP() << "no C compiler 'cc': the compiled path is not tested";
  chain_options c;
  c.links = 10;
  const std::string text = chain_model_text(c);
  const model tape = load_model_from_string(text, "chain", native_options(false));
  const model native = load_model_from_string(text, "chain", native_options(true));
  expect_native_same(tape, native, 7);
  int objects = 0;
  for (const auto& entry : fs::directory_iterator(dir_)) {
    EXPECT_EQ(entry.path().extension(), ".so") << entry.path();  // no partial files left
    ++objects;
  }
  EXPECT_EQ(objects, 1);
  // A second load is native too. (It may compile a second object: within one process the
  // tape's instruction order can differ between two loads of the same text, and the cache key
  // is the C source. Separate processes find the first one.)
  const model again = load_model_from_string(text, "chain", native_options(true));
  EXPECT_TRUE(again.native_code());
  expect_native_same(tape, again, 8);
  objects = 0;
  for (const auto& entry : fs::directory_iterator(dir_)) {
    EXPECT_EQ(entry.path().extension(), ".so") << entry.path();
    ++objects;
  }
  EXPECT_LE(objects, 2);
}

TEST_F(NativeCode, MissingCompilerFallsBackToTheTapeWithANote) {
  const native_env cc("KINEVO_CC", "/nonexistent/kinevo-no-such-compiler");
  chain_options c;
  c.links = 3;
  ::testing::internal::CaptureStderr();
  const model m = load_model_from_string(chain_model_text(c), "chain", native_options(true));
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_FALSE(m.native_code());
  EXPECT_NE(err.find("native code not used"), std::string::npos) << err;
  EXPECT_NE(err.find("kinevo-no-such-compiler"), std::string::npos) << err;
  // The tape still evaluates the model.
  const model tape = load_model_from_string(chain_model_text(c), "chain", native_options(false));
  const auto a = m.evaluate(m.initial_positions(), m.initial_velocities(), 0.0);
  const auto b = tape.evaluate(m.initial_positions(), m.initial_velocities(), 0.0);
  EXPECT_EQ(a.rhs, b.rhs);
}

TEST_F(NativeCode, FailingCompilerFallsBackToTheTapeWithANote) {
  // `false` runs and fails, as a compiler that rejects the source would.
  const native_env cc("KINEVO_CC", "false");
  chain_options c;
  c.links = 2;
  ::testing::internal::CaptureStderr();
  const model m = load_model_from_string(chain_model_text(c), "chain", native_options(true));
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_FALSE(m.native_code());
  EXPECT_NE(err.find("failed"), std::string::npos) << err;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir_)) {
    ADD_FAILURE() << "left in the cache: " << entry.path();
  }
}

TEST_F(NativeCode, OffByDefaultAndSwitchedOnByTheEnvironment) {
  chain_options c;
  c.links = 2;
  {
    const native_env off("KINEVO_NATIVE_CODE", "0");
    EXPECT_FALSE(load_model_from_string(chain_model_text(c), "chain").native_code());
  }
  if (!native_compiler_present()) GTEST_SKIP() << "no C compiler 'cc'";
  const native_env on("KINEVO_NATIVE_CODE", "1");
  EXPECT_TRUE(load_model_from_string(chain_model_text(c), "chain").native_code());
}

}  // namespace
}  // namespace kinevo::mechanics
