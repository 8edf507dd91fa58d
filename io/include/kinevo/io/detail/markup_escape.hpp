// Text placed inside SVG or HTML: the characters that would end an element or an attribute.
#pragma once

#include <string>

namespace kinevo::io {

// < > & " as entities; everything else unchanged (UTF-8 passes through).
std::string markup_escape(const std::string& text);

}  // namespace kinevo::io
