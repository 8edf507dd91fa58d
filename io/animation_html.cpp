#include "kinevo/io/animation_html.hpp"
#include "kinevo/io/detail/html_page.hpp"

#include <fmt/format.h>

#include "kinevo/io/errors.hpp"

#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "kinevo/io/atomic_file.hpp"

namespace kinevo::io {

namespace {

const char* style_name(point_style s) {
  switch (s) {
    case point_style::joint:
      return "joint";
    case point_style::particle:
      return "particle";
    case point_style::ground:
      return "ground";
    case point_style::centre:
      return "centre";
    case point_style::hidden:
      return "hidden";
  }
  return "joint";
}

nlohmann::json panel_json(const animation_panel& p) {
  nlohmann::json links = nlohmann::json::array();
  for (const auto& l : p.links) {
    links.push_back({{"name", l.name}, {"points", l.points}, {"closed", l.closed}});
  }
  nlohmann::json styles = nlohmann::json::array();
  for (const auto s : p.point_styles) styles.push_back(style_name(s));
  return {{"title", p.title},
          {"names", p.point_names},
          {"styles", styles},
          {"links", links},
          {"frames", p.frames}};
}

// The player: builds one SVG per panel (y up, model units, so the attributes are the model's
// coordinates), draws the frame nearest to a time, and runs the clock.
constexpr const char* player_script = R"JS(
const A = JSON.parse(document.getElementById('animation-data').textContent);
const NS = 'http://www.w3.org/2000/svg';
const panels = [];
A.panels.forEach((p, k) => {
  let lo = [Infinity, Infinity], hi = [-Infinity, -Infinity];
  for (const f of p.frames) for (let i = 0; i < f.length; ++i) {
    lo[i % 2] = Math.min(lo[i % 2], f[i]); hi[i % 2] = Math.max(hi[i % 2], f[i]);
  }
  if (!isFinite(lo[0])) { lo = [-1, -1]; hi = [1, 1]; }
  const size = Math.max(hi[0] - lo[0], hi[1] - lo[1], 1e-9), m = 0.08 * size;
  const fig = document.createElement('figure');
  const cap = document.createElement('figcaption'); cap.textContent = p.title; fig.appendChild(cap);
  const svg = document.createElementNS(NS, 'svg');
  svg.id = 'panel' + k;
  svg.setAttribute('viewBox',
      [lo[0] - m, -hi[1] - m, hi[0] - lo[0] + 2 * m, hi[1] - lo[1] + 2 * m].join(' '));
  const g = document.createElementNS(NS, 'g'); g.setAttribute('transform', 'scale(1,-1)');
  svg.appendChild(g); fig.appendChild(svg); document.getElementById('panels').appendChild(fig);
  const r = 0.015 * size;
  const lines = p.links.map(l => {
    const e = document.createElementNS(NS, l.closed ? 'polygon' : 'polyline');
    e.setAttribute('class', 'link'); e.setAttribute('data-name', l.name);
    g.appendChild(e); return e;
  });
  const dots = p.names.map((name, i) => {
    const e = document.createElementNS(NS, 'circle');
    e.id = 'panel' + k + '-' + name; e.setAttribute('class', p.styles[i]);
    e.setAttribute('r', ({particle: 1.6, centre: 0.5, hidden: 0}[p.styles[i]] ?? 1) * r);
    g.appendChild(e); return e;
  });
  panels.push({p, svg, lines, dots});
});
const times = A.times, slider = document.getElementById('time');
const label = document.getElementById('clock');
slider.max = times.length - 1;
function nearest(t) {
  let a = 0, b = times.length - 1;
  while (b - a > 1) { const c = (a + b) >> 1; if (times[c] <= t) a = c; else b = c; }
  return Math.abs(times[b] - t) < Math.abs(times[a] - t) ? b : a;
}
function draw(k) {
  for (const {p, svg, lines, dots} of panels) {
    const f = p.frames[k];
    dots.forEach((e, i) => { e.setAttribute('cx', f[2 * i]); e.setAttribute('cy', f[2 * i + 1]); });
    lines.forEach((e, j) => e.setAttribute('points',
        p.links[j].points.map(i => f[2 * i] + ',' + f[2 * i + 1]).join(' ')));
    svg.setAttribute('data-t', times[k]); svg.setAttribute('data-frame', k);
  }
  slider.value = k; label.textContent = A.label + ' = ' + times[k].toFixed(4) + ' ' + A.unit;
}
// A timer rather than requestAnimationFrame: it also runs where nothing is painted (a headless
// browser's virtual time), and the clock follows the elapsed time either way.
let timer = null, clock = times[0], last = null;
const button = document.getElementById('play');
function tick() {
  const now = performance.now();
  if (last !== null) clock += (now - last) / 1000 * Number(document.getElementById('speed').value);
  last = now;
  if (clock > times[times.length - 1]) clock = times[0];
  draw(nearest(clock));
}
function setPlaying(on) {
  // Pausing draws the time it is paused at (the last tick may be a while ago: timers of a busy
  // or hidden page are delayed); playing counts from the press, not from the first tick.
  if (timer !== null) { tick(); clearInterval(timer); }
  timer = on ? setInterval(tick, 1000 / 60) : null;
  last = on ? performance.now() : null;
  button.textContent = on ? 'Pause' : 'Play';
}
button.onclick = () => setPlaying(timer === null);
slider.oninput = () => { clock = times[Number(slider.value)]; draw(Number(slider.value)); };
const asked = /(?:^#|&)t=([^&]+)/.exec(location.hash);
// Play goes on from the frame shown (an address before the start would never reach it).
if (asked && isFinite(Number(asked[1]))) { const k = nearest(Number(asked[1])); clock = times[k]; draw(k); }
else { draw(0); setPlaying(true); }
document.body.setAttribute('data-ready', '1');
)JS";

constexpr const char* page_style = R"CSS(
body { font-family: sans-serif; margin: 1em; }
#panels { display: flex; flex-wrap: wrap; gap: 1em; }
figure { margin: 0; } svg { width: 480px; height: 480px; border: 1px solid #ccc; background: #fff; }
.link { fill: rgba(70, 110, 200, 0.15); stroke: #2a4d9b; stroke-width: 3px;
        vector-effect: non-scaling-stroke; }
polyline.link { fill: none; }
.joint { fill: #fff; stroke: #222; stroke-width: 2px; vector-effect: non-scaling-stroke; }
.particle { fill: #c0392b; } .centre { fill: #2a4d9b; } .hidden { display: none; }
.ground { fill: #888; stroke: #222; stroke-width: 2px; vector-effect: non-scaling-stroke; }
#controls { margin: 0.5em 0; } #time { width: 480px; }
)CSS";

}  // namespace

void animation_panel::validate(std::size_t frame_count) const {
  const std::size_t n = point_names.size();
  if (point_styles.size() != n) {
    throw input_error(fmt::format("animation panel '{}': {} point styles for {} points", title,
                                  point_styles.size(), n));
  }
  if (frames.size() != frame_count) {
    throw input_error(fmt::format("animation panel '{}': {} frames for {} times", title,
                                  frames.size(), frame_count));
  }
  for (const auto& l : links) {
    for (const int i : l.points) {
      if (i < 0 || static_cast<std::size_t>(i) >= n) {
        throw input_error(fmt::format("animation panel '{}': link '{}' names point {} of {}", title,
                                      l.name, i, n));
      }
    }
  }
  for (std::size_t k = 0; k < frames.size(); ++k) {
    if (frames[k].size() != 2 * n) {
      throw input_error(fmt::format("animation panel '{}': frame {} has {} values for {} points",
                                    title, k, frames[k].size(), n));
    }
    for (const double v : frames[k]) {
      if (!std::isfinite(v)) {
        throw input_error(
            fmt::format("animation panel '{}': frame {} has a non-finite coordinate", title, k));
      }
    }
  }
}

void animation::validate() const {
  if (times.empty()) throw input_error("animation: no frames");
  for (std::size_t k = 1; k < times.size(); ++k) {
    if (!(times[k] > times[k - 1])) {
      throw input_error(
          fmt::format("animation: times not increasing at frame {} (t = {})", k, times[k]));
    }
  }
  if (panels.empty()) throw input_error("animation: no panels");
  if (length_unit.empty()) throw input_error("animation: 'length_unit' is empty");
  if (!std::isfinite(up[0]) || !std::isfinite(up[1]) || (up[0] == 0.0 && up[1] == 0.0)) {
    throw input_error("animation: 'up' must be a finite, non-zero direction");
  }
  for (const auto& p : panels) p.validate(times.size());
}

nlohmann::json animation::to_json() const {
  nlohmann::json panel_list = nlohmann::json::array();
  for (const auto& p : panels) {
    panel_list.push_back(
        {{"title", p.title}, {"points", p.point_names.size()}, {"links", p.links.size()}});
  }
  return {{"frames", times.size()},
          {"time", time_label},
          {"time_unit", time_unit},
          {"length_unit", length_unit},
          {"start", times.empty() ? 0.0 : times.front()},
          {"end", times.empty() ? 0.0 : times.back()},
          {"panels", panel_list}};
}

std::string animation::report() const {
  std::size_t points = 0;
  for (const auto& p : panels) points += p.point_names.size();
  return fmt::format("{}: {} frames, {} = {:.6g} .. {:.6g} {}, {} panel(s), {} points", title,
                     times.size(), time_label, times.empty() ? 0.0 : times.front(),
                     times.empty() ? 0.0 : times.back(), time_unit, panels.size(), points);
}

std::string animation_html(const animation& a) {
  a.validate();
  nlohmann::json data = {
      {"title", a.title}, {"times", a.times}, {"label", a.time_label}, {"unit", a.time_unit}};
  data["panels"] = nlohmann::json::array();
  for (const auto& p : a.panels) data["panels"].push_back(panel_json(p));
  html_page_parts page;
  page.title = a.title;
  page.style = page_style;
  page.body = "<div id=\"panels\"></div>";
  page.data_id = "animation-data";
  page.data = data.dump();
  page.scripts = {player_script};
  return html_page(page);
}

void save_animation_html(const animation& a, const std::filesystem::path& path) {
  write_text_atomically(path, animation_html(a));
}

}  // namespace kinevo::io
