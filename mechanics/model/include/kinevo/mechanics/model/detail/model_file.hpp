// Reads a TOML model file into a model_description (expressions, not yet compiled).
// The format is documented in docs/model-files.md.
#pragma once

#include <toml++/toml.h>
#include <map>
#include <memory>
#include <string>

#include "kinevo/mechanics/model/detail/model_description.hpp"
#include "kinevo/mechanics/model/detail/toml_fields.hpp"
#include "kinevo/mechanics/model/model.hpp"

namespace kinevo::mechanics {

// The description of a model file's text, as load_model_from_string reads it before building
// the model (the same errors: io::input_error naming file, line and field). In model.cpp.
std::unique_ptr<model_description> describe_model_file(const std::string& text,
                                                       const std::string& source,
                                                       const model_options& options);

// Throws io::input_error naming file, line and field.
void read_model_file(const toml::table& root, const std::string& source,
                     const model_options& options, model_description& out);

// The drawing's part of the file (model_geometry.hpp), read with `context`: the parameters as
// read_model_file resolved them, the definitions substituted. Never throws for a file the model
// reads: what fails is kept for the drawing.
model_geometry read_model_geometry(const toml::table& root, const toml_fields& fields,
                                   const symbolic::expression_context& context, bool spatial);

// A particle, planar body or the ground, as expressions in q.
struct component_frame {
  bool ground = false;
  bool particle = false;
  GiNaC::ex x = 0, y = 0, phi = 0;
  GiNaC::ex mass = 0;
};

// The component sections ([[particle]], [[body]], [[joint]], [[force]]), in components.cpp.
// Bodies and particles add coordinates (first pass); joints and forces add expressions
// (second pass, after the equations sections).
class component_reader {
 public:
  void read_bodies(const toml::table& root, const toml_fields& fields,
                   const std::vector<GiNaC::ex>& gravity, model_description& out);
  // Joints, then forces; each type is one stage function in components.cpp.
  void read_joints_and_forces(const toml::table& root, const toml_fields& fields,
                              model_description& out);
  // Replaces the [definitions] symbols in the frames' masses (read before the definitions were
  // parsed) by their expressions.
  void substitute_definitions(const symbolic::expression_context& context,
                              const std::string& where);

 private:
  void read_joints(const toml::table& root, const toml_fields& fields, model_description& out);
  void read_forces(const toml::table& root, const toml_fields& fields, model_description& out);
  std::map<std::string, component_frame> frames_;
};

}  // namespace kinevo::mechanics
