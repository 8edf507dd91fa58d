// A flat instruction tape compiled from GiNaC expressions: every distinct subexpression is
// computed once (common subexpressions shared across all outputs), then the loop is a switch
// over plain double registers. This is what makes (M, f, A, b) cost well under a microsecond
// for small models where GiNaC substitution costs tens of microseconds.
#pragma once

#include <ginac/ginac.h>

#include <cstdint>
#include <limits>
#include <map>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace kinevo::symbolic {

class evaluation_tape {
 public:
  int inputs() const { return inputs_; }
  int outputs() const { return outputs_; }
  // Registers needed by evaluate (inputs + constants + instructions).
  int registers() const { return registers_; }
  int instructions() const { return static_cast<int>(code_.size()); }

  // in: inputs() values; out: outputs() values; scratch: at least registers() doubles.
  void evaluate(const double* in, double* out, double* scratch) const;

  enum class op : std::uint8_t {
    add,
    sub,
    mul,
    div,
    neg,
    inv,
    sq,
    pow,
    sqrt,
    sin,
    cos,
    tan,
    exp,
    log,
    abs,
    asin,
    acos,
    atan,
    atan2,
    sinh,
    cosh,
    tanh,
    step,
    sign
  };

  struct instruction {
    op code;
    int a, b;  // register operands
  };

  // Read-only view of the program, for translating it to native code
  // (symbolic/detail/native_code.hpp). Register layout: [0, inputs()) inputs, then constants(),
  // then one register per instruction from first_result() on; outputs are copied from registers by
  // output_map().
  const std::vector<double>& constants() const { return constants_; }
  const std::vector<instruction>& code() const { return code_; }
  int first_result() const { return first_result_; }
  const std::vector<std::pair<int, int>>& output_map() const { return output_map_; }

 private:
  friend class tape_builder;
  int inputs_ = 0;
  int outputs_ = 0;
  int registers_ = 0;
  std::vector<double> constants_;  // registers [inputs_, inputs_ + constants_.size())
  std::vector<instruction> code_;  // instruction i writes register first_result_ + i
  int first_result_ = 0;
  std::vector<std::pair<int, int>> output_map_;  // (register, output index)
};

// Builds a tape: declare inputs in order, add outputs, build once.
class tape_builder {
 public:
  explicit tape_builder(std::vector<GiNaC::symbol> inputs);
  // Sets output `index` (outputs are numbered 0..) to the value of `e`. Throws
  // std::invalid_argument for symbols that are not inputs or functions it cannot compile.
  void set_output(int index, const GiNaC::ex& e);
  evaluation_tape build() const;

 private:
  int compile(const GiNaC::ex& e);           // the value of e
  int compile_oriented(const GiNaC::ex& e);  // the value of key_of(e).sign * e
  // compile_oriented's stages by the expression's kind (each returns the id of the oriented
  // value, see compile_oriented).
  int compile_number(const GiNaC::ex& e);
  int compile_sum(const GiNaC::ex& e);
  int compile_product(const GiNaC::ex& e);
  int compile_power(const GiNaC::ex& e);
  int compile_function(const GiNaC::ex& e);
  int constant(double v);
  static constexpr int no_operand = std::numeric_limits<int>::min();
  int emit(evaluation_tape::op code, int a, int b = no_operand);
  // Operands of `e` in a deterministic order. GiNaC orders the operands of sums and products by
  // hash values that depend on object addresses (type-name pointers), so its own order differs
  // between processes; emitting in that order would change the round-off from run to run.
  struct canonical_key {
    std::uint64_t key;  // structural hash, independent of GiNaC's order and of the sign
    int sign;           // orientation: key_of(-x).sign == -key_of(x).sign
  };
  canonical_key key_of(const GiNaC::ex& e);  // memoised
  std::vector<std::pair<GiNaC::ex, canonical_key>> ordered_terms(const GiNaC::ex& e);

  std::vector<GiNaC::symbol> inputs_;
  // Hash tables, lookups only (never iterated, so their order cannot reach the tape): ordered
  // maps compared expressions structurally at every step of every lookup, the largest cost of
  // loading a large model. GiNaC's equality compares numbers by value (2 equals 2.0, x^3 equals
  // x^3.0), so an entry serves whichever form was met first: keys and code are derived from
  // numbers' values only (exact_value), never from their form.
  template <class Value>
  using expression_table =
      std::unordered_map<GiNaC::ex, Value, std::hash<GiNaC::ex>, GiNaC::ex_is_equal>;
  expression_table<int> memo_;  // oriented value ids
  expression_table<canonical_key> keys_;
  std::map<double, int> constant_ids_;
  std::vector<double> constants_;
  struct pending {
    evaluation_tape::op code;
    int a, b;  // operand ids: >= 0 value ids (see compile)
  };
  std::vector<pending> code_;
  struct instruction_hash {
    std::size_t operator()(const std::tuple<int, int, int>& k) const noexcept {
      const auto [c, a, b] = k;
      std::uint64_t h = static_cast<std::uint32_t>(a);
      h = h * 0x9e3779b97f4a7c15ULL ^ static_cast<std::uint32_t>(b);
      return static_cast<std::size_t>(h * 0x9e3779b97f4a7c15ULL ^ static_cast<std::uint64_t>(c));
    }
  };
  std::unordered_map<std::tuple<int, int, int>, int, instruction_hash>
      instruction_ids_;                       // structural CSE
  std::vector<std::pair<int, int>> outputs_;  // (value id, output index)
};

}  // namespace kinevo::symbolic
