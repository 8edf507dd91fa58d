#include "kinevo/io/detail/html_page.hpp"

#include <fmt/format.h>

#include "kinevo/io/detail/markup_escape.hpp"

namespace kinevo::io {

std::string inside_script(std::string text) {
  for (std::size_t at = text.find("</"); at != std::string::npos; at = text.find("</", at + 3)) {
    text.replace(at, 2, "<\\/");
  }
  return text;
}

std::string html_page(const html_page_parts& p) {
  const std::string title = markup_escape(p.title);
  std::string scripts;
  for (const auto& s : p.scripts) scripts += "<script>\n" + inside_script(s) + "\n</script>\n";
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<title>{0}</title>\n<style>{1}</style>\n</head>\n<body>\n<h1>{0}</h1>\n"
      "<div id=\"controls\"><button id=\"play\">Play</button>\n"
      "<input id=\"time\" type=\"range\" min=\"0\" step=\"1\" value=\"0\">\n"
      "<span id=\"clock\"></span>\n<label>speed <select id=\"speed\">"
      "<option value=\"0.1\">0.1x</option><option value=\"0.25\">0.25x</option>"
      "<option value=\"0.5\">0.5x</option><option value=\"1\" selected>1x</option>"
      "<option value=\"2\">2x</option><option value=\"4\">4x</option></select></label>\n"
      "{2}</div>\n{3}\n"
      "<script type=\"application/json\" id=\"{4}\">{5}</script>\n{6}</body>\n</html>\n",
      title, p.style, p.extra_controls, p.body, p.data_id, inside_script(p.data), scripts);
}

}  // namespace kinevo::io
