// The framing both motion pages share (the 3D viewer, io/viewer_html.hpp, and its 2D fallback,
// io/animation_html.hpp): the document, the title, the player's controls (play/pause, time
// slider, clock, speed), the data as JSON in <script id="...">, and the page's scripts.
#pragma once

#include <string>
#include <vector>

namespace kinevo::io {

struct html_page_parts {
  std::string title;                 // plain text (escaped here)
  std::string style;                 // CSS
  std::string extra_controls;        // HTML after the speed control (inside #controls)
  std::string body;                  // HTML after the controls
  std::string data_id;               // id of the <script type="application/json"> holding `data`
  std::string data;                  // JSON text
  std::vector<std::string> scripts;  // JavaScript, each in its own <script> (after the data)
};

std::string html_page(const html_page_parts& parts);

// Text inside a <script> element: "</" would end the element early.
std::string inside_script(std::string text);

}  // namespace kinevo::io
