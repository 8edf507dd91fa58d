// What a drawing of a model needs (mechanics/model/model_drawing.hpp), read by the one model
// file reader (read_model_file) with the parameters it resolved (in file order, --set applied
// and checked) and the [definitions] substituted: the solids (particles and bodies) with their
// masses and inertias, the points of joints and forces on them or on ground, joint axes and the
// direction of gravity. Values are expressions, each with the "file:line: field" it came from:
// the drawing makes them constants and refuses, naming the field, one that is not (a point that
// moves with a coordinate), while the model itself may well use such a value.
#pragma once

#include <ginac/ginac.h>

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace kinevo::mechanics {

struct model_geometry {
  // A value, a vector or a matrix of the file, and where it is.
  struct field {
    std::vector<GiNaC::ex> values;
    std::string where;
  };
  // Each part below keeps in `error` the message reading it gave, if any (the model may not
  // read a field the way a drawing does, e.g. a point of a force type that has none): the
  // drawing raises it, loading the model does not.

  bool spatial = false;
  // [model] gravity, else the g of the first [[force]] of type gravity; none when neither.
  std::optional<field> gravity;
  std::string gravity_error;

  struct solid {
    std::string name;
    bool particle = false;
    field mass;     // one value (0 when the file gives none)
    field inertia;  // planar: one value; spatial: 9, row by row (zeros where the file gives none)
    std::string error;
  };
  std::vector<solid> solids;  // the [[particle]] tables, then the [[body]] tables, in file order

  struct side {
    std::string body;  // a solid's name or "ground"
    std::string body_where;
    field point;  // its point on that body (2 or 3 values; zeros when not given)
  };
  struct connection {
    std::string section;  // "joint" or "force"
    std::string name;     // the table's name, else "joint<k>" / "force<k>" (k from 1 per section)
    std::string type;     // "" when not given
    std::optional<side> i, j;
    std::optional<field> axis;  // axis_i, when given and the joint type turns or slides about it
    std::string where;          // "file:line" of the table
    std::string error;
  };
  std::vector<connection> connections;  // the [[joint]] tables, then the [[force]] tables
};

}  // namespace kinevo::mechanics
