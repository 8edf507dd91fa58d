#include "kinevo/io/summary_json.hpp"

#include <string>

namespace kinevo::io {

nlohmann::json to_json(const core::summary& s) {
  nlohmann::json j = {{"status", s.status()},
                      {"termination", std::string(core::to_string(s.end))},
                      {"message", s.message},
                      {"usable", s.usable()},
                      {"exit_status", core::exit_status(s)}};
  if (s.accepted) j["accepted"] = true;
  if (s.iterations) j["iterations"] = *s.iterations;
  if (s.evaluations) j["evaluations"] = *s.evaluations;
  if (s.seconds) j["seconds"] = *s.seconds;
  return j;
}

}  // namespace kinevo::io
