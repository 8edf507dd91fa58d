// The 3D viewer page's own script and style (io/viewer_html.hpp): kept apart from the C++ that
// assembles the page so that each stays short.
#pragma once

namespace kinevo::io {

// Reads the scene JSON from <script id="scene-data">, builds the three.js scene (instanced
// meshes: one draw call per kind of shape, so hundreds of bodies still play) and runs the clock.
extern const char* const viewer_script;
extern const char* const viewer_style;

}  // namespace kinevo::io
