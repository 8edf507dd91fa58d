// The expression language's characters and function calls, checked on the text before GiNaC
// reads it. GiNaC's own lexer takes '#' for the start of a comment (`1 # + 100` read as 1) and
// its prototype table takes a call with no argument for a wildcard that matches the function of
// any arity: `sin()` called sin's reader with an empty argument list (a crash, found by an
// independent fuzzing campaign). Both are refused here, naming the character or the call.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace kinevo::symbolic {

// A function of the expression language: its name, its number of arguments and how it is
// written (for messages and the documentation).
struct expression_function {
  std::string_view name;
  std::size_t arity;
  std::string_view usage;
};

// Every function expressions may call, in the order messages list them.
std::span<const expression_function> expression_functions();

// The functions for messages: "sin, cos, ..., atan2(y, x), ..., step".
std::string supported_functions();

// The function named `name`, or nullptr.
const expression_function* find_expression_function(std::string_view name);

// Throws io::input_error "<where>: cannot parse '<text>': <reason>" when `text` holds a
// character outside the language (letters, digits, '_', '.', white space and + - * / ^ ( ) ,),
// calls a name that is not a function, or calls a function with the wrong number of arguments
// ("function 'atan2' takes 2 arguments, atan2(y, x); 'atan2(1)' has 1").
void check_expression_grammar(const std::string& text, const std::string& where);

}  // namespace kinevo::symbolic
