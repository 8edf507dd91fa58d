// core::summary as JSON: io owns nlohmann/json, core stays below it.
#pragma once

#include <nlohmann/json.hpp>

#include "kinevo/core/outcome.hpp"

namespace kinevo::io {

// {"status", "termination", "message", "usable", "exit_status"} and the figures present
// ("iterations", "evaluations", "seconds"); "accepted" when true.
nlohmann::json to_json(const core::summary& s);

}  // namespace kinevo::io
