#include "kinevo/mechanics/dynamics/trajectory_motion.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "kinevo/io/errors.hpp"

namespace kinevo::mechanics {

drawing_motion trajectory_motion(const model_drawing& drawing, const recorded_trajectory& run,
                                 const std::string& source) {
  const auto& names = run.coordinate_names;
  std::vector<std::size_t> index;
  for (const auto& c : drawing.coordinate_names()) {
    const auto it = std::find(names.begin(), names.end(), c);
    if (it == names.end()) {
      throw io::input_error(fmt::format(
          "{}: the run has no coordinate '{}' (coordinates: {})", source, io::excerpt(c, 40),
          io::excerpt(fmt::format("{}", fmt::join(names, ", ")), 200)));
    }
    index.push_back(static_cast<std::size_t>(it - names.begin()));
  }
  drawing_motion m;
  for (std::size_t k = 0; k < run.times.size(); ++k) {
    std::vector<double> q;
    q.reserve(index.size());
    for (const std::size_t i : index) q.push_back(run.coordinates[k][i]);
    m.add(run.times[k], std::move(q));
  }
  return m;
}

}  // namespace kinevo::mechanics
