#include "kinevo/core/outcome.hpp"

#include <sstream>
#include <utility>

namespace kinevo::core {

std::string_view to_string(termination t) {
  switch (t) {
    case termination::ok:
      return "ok";
    case termination::not_converged:
      return "not_converged";
    case termination::infeasible:
      return "infeasible";
    case termination::failed:
      return "failed";
    case termination::interrupted:
      return "interrupted";
  }
  return "failed";
}

std::string summary::status() const {
  return reason.empty() ? std::string(to_string(end)) : reason;
}

namespace {

// ", 12 iterations, 400 evaluations, 0.5 s" for the figures present.
std::string figures(const summary& s) {
  std::ostringstream out;
  if (s.iterations) out << ", " << *s.iterations << " iterations";
  if (s.evaluations) out << ", " << *s.evaluations << " evaluations";
  if (s.seconds) out << ", " << *s.seconds << " s";
  return out.str();
}

}  // namespace

std::string summary::brief_report() const {
  std::string line = status();
  if (!message.empty()) line += ": " + message;
  return line + figures(*this);
}

std::string summary::full_report() const {
  std::ostringstream out;
  out << "status: " << status() << '\n' << "termination: " << to_string(end) << '\n';
  if (accepted) out << "accepted: yes (usable although not ok)\n";
  if (!message.empty()) out << "message: " << message << '\n';
  if (iterations) out << "iterations: " << *iterations << '\n';
  if (evaluations) out << "evaluations: " << *evaluations << '\n';
  if (seconds) out << "seconds: " << *seconds << '\n';
  return out.str();
}

summary summary::ended(termination end, std::string reason, std::string message) {
  summary s;
  s.end = end;
  s.reason = std::move(reason);
  s.message = std::move(message);
  return s;
}

int exit_status(const summary& s) {
  if (s.usable()) return exit_ok;
  return s.end == termination::interrupted ? exit_interrupted : exit_failure;
}

}  // namespace kinevo::core
