#include "kinevo/symbolic/detail/evaluation_tape.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "kinevo/io/errors.hpp"
#include "kinevo/symbolic/detail/exact_numbers.hpp"
#include "kinevo/symbolic/detail/expression_text.hpp"

namespace kinevo::symbolic {

using op = evaluation_tape::op;

void evaluation_tape::evaluate(const double* in, double* out, double* r) const {
  for (int i = 0; i < inputs_; ++i) r[i] = in[i];
  const int nc = static_cast<int>(constants_.size());
  for (int i = 0; i < nc; ++i) r[inputs_ + i] = constants_[static_cast<std::size_t>(i)];
  double* res = r + first_result_;
  const int n = static_cast<int>(code_.size());
  for (int i = 0; i < n; ++i) {
    const instruction& c = code_[static_cast<std::size_t>(i)];
    const double a = r[c.a];
    double v = 0.0;
    switch (c.code) {
      case op::add:
        v = a + r[c.b];
        break;
      case op::sub:
        v = a - r[c.b];
        break;
      case op::mul:
        v = a * r[c.b];
        break;
      case op::div:
        v = a / r[c.b];
        break;
      case op::neg:
        v = -a;
        break;
      case op::inv:
        v = 1.0 / a;
        break;
      case op::sq:
        v = a * a;
        break;
      case op::pow:
        v = std::pow(a, r[c.b]);
        break;
      case op::sqrt:
        v = std::sqrt(a);
        break;
      case op::sin:
        v = std::sin(a);
        break;
      case op::cos:
        v = std::cos(a);
        break;
      case op::tan:
        v = std::tan(a);
        break;
      case op::exp:
        v = std::exp(a);
        break;
      case op::log:
        v = std::log(a);
        break;
      case op::abs:
        v = std::abs(a);
        break;
      case op::asin:
        v = std::asin(a);
        break;
      case op::acos:
        v = std::acos(a);
        break;
      case op::atan:
        v = std::atan(a);
        break;
      case op::atan2:
        v = std::atan2(a, r[c.b]);
        break;
      case op::sinh:
        v = std::sinh(a);
        break;
      case op::cosh:
        v = std::cosh(a);
        break;
      case op::tanh:
        v = std::tanh(a);
        break;
      case op::step:
        v = a > 0.0 ? 1.0 : (a < 0.0 ? 0.0 : 0.5);
        break;
      case op::sign:
        v = a > 0.0 ? 1.0 : (a < 0.0 ? -1.0 : 0.0);
        break;
    }
    res[i] = v;
  }
  for (const auto& [reg, index] : output_map_) out[index] = r[reg];
}

tape_builder::tape_builder(std::vector<GiNaC::symbol> inputs) : inputs_(std::move(inputs)) {
  for (std::size_t i = 0; i < inputs_.size(); ++i) memo_[inputs_[i]] = static_cast<int>(i);
}

int tape_builder::constant(double v) {
  auto it = constant_ids_.find(v);
  if (it != constant_ids_.end()) return it->second;
  constants_.push_back(v);
  const int id = -static_cast<int>(constants_.size());  // constants are negative ids
  constant_ids_[v] = id;
  return id;
}

int tape_builder::emit(op code, int a, int b) {
  // Commutative operations share one entry whatever the operand order.
  if ((code == op::add || code == op::mul) && b < a) std::swap(a, b);
  const auto key = std::make_tuple(static_cast<int>(code), a, b);
  auto it = instruction_ids_.find(key);
  if (it != instruction_ids_.end()) return it->second;
  code_.push_back({code, a, b});
  const int id = static_cast<int>(inputs_.size() + code_.size() - 1);
  instruction_ids_[key] = id;
  return id;
}

namespace {
constexpr int empty = std::numeric_limits<int>::min() + 1;  // no value accumulated yet
// The numeric coefficient c (|c| != 1) shared in absolute value by every term of a sum, or 0.
double common_coefficient(const GiNaC::ex& sum) {
  double common = 0.0;
  for (std::size_t i = 0; i < sum.nops(); ++i) {
    const GiNaC::ex term = sum.op(i);
    if (!GiNaC::is_a<GiNaC::mul>(term)) return 0.0;
    const GiNaC::ex c = term.op(term.nops() - 1);
    if (!GiNaC::is_a<GiNaC::numeric>(c) || !GiNaC::ex_to<GiNaC::numeric>(c).is_real()) return 0.0;
    const double v = std::abs(nearest_double(GiNaC::ex_to<GiNaC::numeric>(c)));
    if (i == 0) {
      common = v;
    } else if (v != common) {
      return 0.0;
    }
  }
  // A subnormal common factor is left in place: dividing by it could leave the double range.
  return common == 1.0 || common < std::numeric_limits<double>::min() ? 0.0 : common;
}

// 64-bit FNV-1a, folded in one word at a time: fixed across processes and platforms.
constexpr std::uint64_t fnv_offset = 14695981039346656037ULL;
std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) {
    h ^= (v >> (8 * i)) & 0xffU;
    h *= 1099511628211ULL;
  }
  return h;
}
std::uint64_t mix(std::uint64_t h, const std::string& s) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return mix(h, s.size());
}
// Text of a number's exact value: 2 and 2.0 (equal to GiNaC, so one entry of the memo tables)
// get one text, whichever form is keyed first.
std::string number_text(const GiNaC::numeric& n) {
  return text_of(n.is_real() ? exact_value(n) : n);
}
// The exponent k of x^k when it is an integer in value, 3 or 3.0 alike (GiNaC treats x^3 and
// x^3.0 as one expression, so compiling them differently would make the tape depend on which
// was met first); nothing otherwise.
std::optional<long> integer_exponent(const GiNaC::ex& expo) {
  if (!GiNaC::is_a<GiNaC::numeric>(expo) || !GiNaC::ex_to<GiNaC::numeric>(expo).is_real()) {
    return std::nullopt;
  }
  const GiNaC::numeric v = exact_value(GiNaC::ex_to<GiNaC::numeric>(expo));
  if (!v.is_integer() || GiNaC::abs(v) > GiNaC::numeric(std::numeric_limits<long>::max())) {
    return std::nullopt;
  }
  return v.to_long();
}
// sum / c for the common coefficient c = common_coefficient(sum): every term's coefficient is
// +-c as a double, so each term becomes +-(its other factors). Built from the coefficients'
// signs alone, the quotient is the same whether GiNaC holds them as rationals or floats (GiNaC
// dividing a float coefficient would round, and an exact one would not).
GiNaC::ex divided_by_common_coefficient(const GiNaC::ex& sum) {
  GiNaC::exvector terms;
  terms.reserve(sum.nops());
  for (std::size_t i = 0; i < sum.nops(); ++i) {
    const GiNaC::ex term = sum.op(i);  // a product whose last operand is its coefficient
    const std::size_t n = term.nops();
    GiNaC::exvector factors;
    factors.reserve(n);
    for (std::size_t j = 0; j + 1 < n; ++j) factors.push_back(term.op(j));
    const bool negative = GiNaC::ex_to<GiNaC::numeric>(term.op(n - 1)).is_negative();
    factors.push_back(GiNaC::numeric(negative ? -1 : 1));
    terms.push_back(GiNaC::mul(factors));
  }
  return GiNaC::add(terms);
}
// The operands of a sum or product, with nested sums in a sum (products in a product) spliced
// in. GiNaC's evaluated expressions have none, but op() re-evaluates the power it rebuilds from
// a product's (base, exponent) pair, which may turn (y - x)^-1 into -(x - y)^-1, a product.
void append_operands(const GiNaC::ex& e, bool sum, GiNaC::exvector& out) {
  for (std::size_t i = 0; i < e.nops(); ++i) {
    const GiNaC::ex o = e.op(i);
    if (sum ? GiNaC::is_a<GiNaC::add>(o) : GiNaC::is_a<GiNaC::mul>(o)) {
      append_operands(o, sum, out);
    } else {
      out.push_back(o);
    }
  }
}
GiNaC::exvector operands(const GiNaC::ex& e) {
  GiNaC::exvector out;
  append_operands(e, GiNaC::is_a<GiNaC::add>(e), out);
  return out;
}
}  // namespace

// The key is invariant under negation (a - b and b - a get the same key, as GiNaC may keep
// either form depending on its order) and `sign` orients it: sign(-x) = -sign(x). Terms of a
// sum are then ordered by key alone, so the same terms are summed in the same order whatever
// form each one has; their values differ at most in sign, which rounding preserves exactly.
tape_builder::canonical_key tape_builder::key_of(const GiNaC::ex& e) {
  auto found = keys_.find(e);
  if (found != keys_.end()) return found->second;
  canonical_key k{fnv_offset, 1};
  auto signed_key = [](const canonical_key& c) {
    return mix(c.key, static_cast<std::uint64_t>(c.sign > 0 ? 1 : 2));
  };
  if (GiNaC::is_a<GiNaC::numeric>(e)) {
    const auto& n = GiNaC::ex_to<GiNaC::numeric>(e);
    const bool negative = n.is_real() && n.is_negative();
    k.key = mix(mix(k.key, 1), number_text(negative ? GiNaC::numeric(-n) : n));
    k.sign = negative ? -1 : 1;
  } else if (GiNaC::is_a<GiNaC::symbol>(e) || GiNaC::is_a<GiNaC::constant>(e)) {
    k.key = mix(mix(k.key, 2), text_of(e));
  } else if (GiNaC::is_a<GiNaC::mul>(e)) {
    std::vector<std::uint64_t> factors;
    for (const GiNaC::ex& f : operands(e)) {
      const canonical_key c = key_of(f);
      k.sign *= c.sign;
      if (GiNaC::is_a<GiNaC::numeric>(f) &&
          (f.is_equal(GiNaC::numeric(1)) || f.is_equal(GiNaC::numeric(-1)))) {
        continue;
      }
      factors.push_back(c.key);
    }
    std::sort(factors.begin(), factors.end());
    if (factors.size() == 1) {
      k.key = factors.front();  // -x: the key of x
    } else {
      k.key = mix(k.key, 3);
      for (auto f : factors) k.key = mix(k.key, f);
    }
  } else if (GiNaC::is_a<GiNaC::add>(e)) {
    const auto terms = ordered_terms(e);
    k.sign = terms.empty() ? 1 : terms.front().second.sign;
    k.key = mix(k.key, 4);
    for (const auto& [term, c] : terms) {
      k.key = mix(mix(k.key, c.key), static_cast<std::uint64_t>(c.sign == k.sign ? 1 : 2));
    }
  } else if (GiNaC::is_a<GiNaC::power>(e)) {
    const canonical_key base = key_of(e.op(0));
    const GiNaC::ex expo = e.op(1);
    k.key = mix(k.key, 5);
    if (const auto power = integer_exponent(expo)) {
      // (-x)^k = (-1)^k x^k: the key of x, oriented by the parity of k.
      k.key = mix(mix(k.key, base.key), signed_key(key_of(expo)));
      if (*power % 2 != 0) k.sign = base.sign;
    } else {
      k.key = mix(mix(k.key, signed_key(base)), signed_key(key_of(expo)));
    }
  } else {
    k.key = mix(mix(k.key, 6), GiNaC::is_a<GiNaC::function>(e)
                                   ? GiNaC::ex_to<GiNaC::function>(e).get_name()
                                   : std::string(GiNaC::ex_to<GiNaC::basic>(e).class_name()));
    for (std::size_t i = 0; i < e.nops(); ++i) k.key = mix(k.key, signed_key(key_of(e.op(i))));
  }
  keys_.emplace(e, k);
  return k;
}

std::vector<std::pair<GiNaC::ex, tape_builder::canonical_key>> tape_builder::ordered_terms(
    const GiNaC::ex& e) {
  std::vector<std::pair<GiNaC::ex, canonical_key>> ops;
  for (const GiNaC::ex& o : operands(e)) ops.emplace_back(o, key_of(o));
  // Equal keys would need a 64-bit collision between different terms of one sum.
  std::stable_sort(ops.begin(), ops.end(),
                   [](const auto& x, const auto& y) { return x.second.key < y.second.key; });
  return ops;
}

// The value of e: its canonical orientation, negated when e's key has the negative sign.
int tape_builder::compile(const GiNaC::ex& e) {
  const int id = compile_oriented(e);
  return key_of(e).sign < 0 ? emit(op::neg, id) : id;
}

// The value of sign(e) * e, sign(e) = key_of(e).sign. GiNaC may hold one subexpression as x - y
// in one process and as -(y - x) in another (it orients the base of an integer power by its
// first term in hash order); both have one key, and compiled in this orientation both give the
// same instructions, so the values are the same to the last bit, the sign of a zero included.
int tape_builder::compile_oriented(const GiNaC::ex& e) {
  auto found = memo_.find(e);
  if (found != memo_.end()) return found->second;
  int id = 0;
  if (GiNaC::is_a<GiNaC::numeric>(e) || GiNaC::is_a<GiNaC::constant>(e)) {
    id = compile_number(e);
  } else if (GiNaC::is_a<GiNaC::symbol>(e)) {
    throw io::option_error("symbol", "'" + text_of(e) + "' is unknown");
  } else if (GiNaC::is_a<GiNaC::add>(e) && common_coefficient(e) != 0.0) {
    // GiNaC distributes numbers over sums (2 (x - y) is kept as 2 x - 2 y); taking the common
    // coefficient (> 0) back out saves one multiplication per term.
    const GiNaC::ex quotient = divided_by_common_coefficient(e);
    id = emit(op::mul, compile_oriented(quotient), constant(common_coefficient(e)));
    if (key_of(quotient).sign != key_of(e).sign) id = emit(op::neg, id);
  } else if (GiNaC::is_a<GiNaC::add>(e)) {
    id = compile_sum(e);
  } else if (GiNaC::is_a<GiNaC::mul>(e)) {
    id = compile_product(e);
  } else if (GiNaC::is_a<GiNaC::power>(e)) {
    id = compile_power(e);
  } else if (GiNaC::is_a<GiNaC::function>(e)) {
    id = compile_function(e);
  } else {
    throw io::option_error("expression", "cannot be compiled: " + text_of(e));
  }
  memo_[e] = id;
  return id;
}

// A number or a named constant (pi): one constant register.
int tape_builder::compile_number(const GiNaC::ex& e) {
  int id = 0;
  const GiNaC::ex v = value_to_round(e);
  if (!GiNaC::is_a<GiNaC::numeric>(v) || !GiNaC::ex_to<GiNaC::numeric>(v).is_real()) {
    throw io::option_error("constant", text_of(e) + " is not a real number");
  }
  const double d = nearest_double(GiNaC::ex_to<GiNaC::numeric>(v));
  if (!std::isfinite(d)) {
    throw io::option_error("constant", text_of(e) + " is beyond the range of doubles");
  }
  id = constant(key_of(e).sign < 0 ? -d : d);  // oriented: a negative number's magnitude
  return id;
}

int tape_builder::compile_sum(const GiNaC::ex& e) {
  // Terms are summed in key order (see key_of), each in its orientation: the first term's sign
  // is the sum's (key_of), so sign(e) e = t1 +- t2 +- ... with t_i oriented; a - b is one
  // subtraction, never a negation and an addition.
  const int sign = key_of(e).sign;
  int acc = empty;
  for (const auto& [term, key] : ordered_terms(e)) {
    const int t = compile_oriented(term);
    acc = acc == empty ? t : emit(key.sign == sign ? op::add : op::sub, acc, t);
  }
  return acc;
}

int tape_builder::compile_product(const GiNaC::ex& e) {
  // sign(e) e is the product of the factors' orientations (key_of multiplies their signs), so
  // +-1 factors drop out. Numerator and denominator products; negative powers go to the
  // denominator (b^-k oriented is 1 / (b^k oriented)).
  int num = empty, den = empty;
  for (const auto& [f, key] : ordered_terms(e)) {
    if (GiNaC::is_a<GiNaC::numeric>(f)) {
      const auto c = GiNaC::ex_to<GiNaC::numeric>(f);
      if (c.is_equal(GiNaC::numeric(1)) || c.is_equal(GiNaC::numeric(-1))) continue;
    }
    bool to_den = false;
    GiNaC::ex base = f;
    if (GiNaC::is_a<GiNaC::power>(f) && GiNaC::is_a<GiNaC::numeric>(f.op(1)) &&
        GiNaC::ex_to<GiNaC::numeric>(f.op(1)).is_negative()) {
      to_den = true;
      base = GiNaC::pow(f.op(0), -f.op(1));
    }
    const int t = compile_oriented(base);
    if (to_den) {
      den = den == empty ? t : emit(op::mul, den, t);
    } else {
      num = num == empty ? t : emit(op::mul, num, t);
    }
  }
  if (num == empty) num = den == empty ? constant(1.0) : empty;
  if (den == empty) return num;
  return num == empty ? emit(op::inv, den) : emit(op::div, num, den);
}

int tape_builder::compile_power(const GiNaC::ex& e) {
  int id = 0;
  const GiNaC::ex base = e.op(0), expo = e.op(1);
  // An integer power's orientation is its oriented base's power (key_of); any other power is
  // positive-oriented and takes its base's value.
  const auto power = integer_exponent(expo);
  const int b = power ? compile_oriented(base) : compile(base);
  if (power) {
    long k = *power;
    const bool inverse = k < 0;
    if (inverse) k = -k;
    if (k == 0) {
      id = constant(1.0);
    } else {
      // Repeated squaring: x^k with O(log k) multiplications.
      int result = empty, p = b;
      while (k > 0) {
        if (k & 1) result = result == empty ? p : emit(op::mul, result, p);
        k >>= 1;
        if (k > 0) p = emit(op::sq, p);
      }
      id = inverse ? emit(op::inv, result) : result;
    }
  } else if (expo.is_equal(GiNaC::numeric(1, 2))) {
    id = emit(op::sqrt, b);
  } else if (expo.is_equal(GiNaC::numeric(-1, 2))) {
    id = emit(op::inv, emit(op::sqrt, b));
  } else {
    id = emit(op::pow, b, compile(expo));
  }
  return id;
}

int tape_builder::compile_function(const GiNaC::ex& e) {
  int id = 0;
  const std::string name = GiNaC::ex_to<GiNaC::function>(e).get_name();
  static const std::map<std::string, op> unary = {
      {"sin", op::sin},
      {"cos", op::cos},
      {"tan", op::tan},
      {"exp", op::exp},
      {"log", op::log},
      {"abs", op::abs},
      {"asin", op::asin},
      {"acos", op::acos},
      {"atan", op::atan},
      {"sinh", op::sinh},
      {"cosh", op::cosh},
      {"tanh", op::tanh},
      {"step", op::step},
      {"csgn", op::sign},
      {"sqrt", op::sqrt},
      // The real versions that expressions parse abs, sign and step to (real_functions.hpp).
      {"real_abs", op::abs},
      {"real_sign", op::sign},
      {"real_step", op::step}};
  if (name == "atan2" && e.nops() == 2) {
    id = emit(op::atan2, compile(e.op(0)), compile(e.op(1)));
  } else if (auto it = unary.find(name); it != unary.end() && e.nops() == 1) {
    id = emit(it->second, compile(e.op(0)));
  } else {
    throw io::option_error("function", "'" + name + "' cannot be compiled (in " + text_of(e) + ")");
  }
  return id;
}

void tape_builder::set_output(int index, const GiNaC::ex& e) {
  outputs_.emplace_back(compile(e), index);
}

evaluation_tape tape_builder::build() const {
  evaluation_tape t;
  const int n_in = static_cast<int>(inputs_.size());
  const int n_const = static_cast<int>(constants_.size());
  const int n_code = static_cast<int>(code_.size());
  t.inputs_ = n_in;
  t.constants_ = constants_;
  t.first_result_ = n_in + n_const;
  // Level scheduling: an instruction's level is one more than its operands'; instructions are
  // laid out by level, and by operation within a level. Dependencies stay satisfied, and runs
  // of the same operation (one per link of a chain, say) keep the dispatch branch predictable.
  std::vector<int> level(static_cast<std::size_t>(n_code), 0);
  auto level_of = [&](int id) {
    return id >= n_in ? level[static_cast<std::size_t>(id - n_in)] : 0;
  };
  for (int i = 0; i < n_code; ++i) {
    const auto& p = code_[static_cast<std::size_t>(i)];
    int l = level_of(p.a);
    if (p.b != no_operand) l = std::max(l, level_of(p.b));
    level[static_cast<std::size_t>(i)] = l + 1;
  }
  std::vector<int> order(static_cast<std::size_t>(n_code));
  for (int i = 0; i < n_code; ++i) order[static_cast<std::size_t>(i)] = i;
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
    const auto lx = level[static_cast<std::size_t>(x)], ly = level[static_cast<std::size_t>(y)];
    if (lx != ly) return lx < ly;
    return code_[static_cast<std::size_t>(x)].code < code_[static_cast<std::size_t>(y)].code;
  });
  std::vector<int> position(static_cast<std::size_t>(n_code));
  for (int k = 0; k < n_code; ++k)
    position[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])] = k;
  auto reg = [&](int id) {
    if (id < 0) return n_in + (-id - 1);
    if (id < n_in) return id;
    return n_in + n_const + position[static_cast<std::size_t>(id - n_in)];
  };
  t.code_.reserve(code_.size());
  for (int k = 0; k < n_code; ++k) {
    const auto& p = code_[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])];
    t.code_.push_back({p.code, reg(p.a), p.b == no_operand ? 0 : reg(p.b)});
  }
  int max_out = -1;
  for (const auto& [id, index] : outputs_) {
    t.output_map_.emplace_back(reg(id), index);
    max_out = std::max(max_out, index);
  }
  t.outputs_ = max_out + 1;
  t.registers_ = n_in + n_const + n_code;
  return t;
}

}  // namespace kinevo::symbolic
