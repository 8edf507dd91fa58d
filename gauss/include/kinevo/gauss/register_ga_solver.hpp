// Puts the "ga" solver into mechanics' solver factory, explicitly: a static initialiser in a
// static library is dropped when the program references nothing else in its object file, so
// every program that wants make_solver("ga") calls this once (the CLI does at start-up).
#pragma once

namespace kinevo::gauss {

// Idempotent and thread-safe.
void register_ga_solver();

}  // namespace kinevo::gauss
