// Decimal literals of expression text read as the exact numbers they denote.
//
// GiNaC reads "0.04782" as a floating-point number and then combines the coefficients of like
// terms, distributes numbers over sums and multiplies coefficients out while differentiating,
// in the order of its hash values. Those hash values are seeded from the addresses of its
// classes' type information, which differ from process to process (address-space
// randomisation), so floating-point coefficients were rounded in a different order in each
// run: the same problem file gave the last digit differently from one process to the next
// (CEC 2006 g16), and terms that cancel exactly could survive as a rounding residue in one run
// and vanish in another. Exact rationals make that arithmetic exact, hence independent of the
// order; the evaluation tape's canonical keys then fix the order of the double arithmetic.
#pragma once

#include <cstddef>
#include <string>

namespace kinevo::symbolic::detail {

bool is_identifier_char(char c);
bool is_digit(char c);

// True when the literal at `pos` is (the start of) an exponent: '^' before it, past spaces,
// opening brackets and signs, or the second argument of pow(,).
bool in_exponent(const std::string& text, std::size_t pos);

// True when a number literal starts at `i`: a digit, or '.' before a digit, not inside a name
// (x1) or another literal.
bool number_literal_starts(const std::string& text, std::size_t i);

// The number literal starting at `begin` ends where GiNaC's lexer ends it: digits and '.',
// then an optional exponent marker with an optional sign and digits.
std::size_t number_literal_end(const std::string& text, std::size_t begin);

// True for a literal GiNaC would read as a floating-point number (a '.' or an exponent marker).
bool is_decimal_literal(const std::string& literal);

// A decimal literal that stays floating point: the base or the whole exponent of a power
// (`2.0^x`, `x^0.5`, `x^(-0.5)`, `pow(x, 1.5)`, `9.0^999`), which GiNaC computes once and never
// combines with other coefficients, and whose floating form is the documented way to compute a
// power in floating point rather than exactly. A literal inside a longer exponent
// (`x^(0.5*y)`) is exact like any other coefficient.
bool decimal_stays_floating(const std::string& text, std::size_t begin, std::size_t end);

// The number of decimal digits of the exact rational a decimal literal denotes (numerator and
// denominator together), for the exact-size bound of the parser's checks.
double exact_decimal_digits(const std::string& literal);

// `text` with every decimal literal that does not stay floating written as the exact rational
// it denotes: "0.04782" -> "(4782/100000)", "1.5e3" -> "1500", "2e-3" -> "(2/1000)". Other
// characters are kept, so GiNaC reads the same expression with exact coefficients.
std::string with_exact_decimals(const std::string& text);

}  // namespace kinevo::symbolic::detail
