# Runs every CLI command that writes figures (small, fast settings) and renders each .svg with
# rsvg-convert, so a figure that is not valid SVG fails the test.
#   cmake -DDRIVER=kinevo -DEXAMPLES=dir -DOUT=dir -DRSVG=rsvg-convert -P render_figures.cmake
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")

# name, then the arguments; a command may end with status 0 only.
function(run name)
  execute_process(COMMAND "${DRIVER}" ${ARGN} RESULT_VARIABLE rc ERROR_VARIABLE err
                  OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${name}: kinevo ${ARGN} exited with ${rc}: ${err}")
  endif()
endfunction()

set(E "${EXAMPLES}")
run(study study double-pendulum --t-end 0.01 --seed 2 --out "${OUT}/study")
run(simulate simulate "${E}/double_pendulum.toml" --t-end 0.2 --plot "${OUT}/simulate.svg")
run(simulate_x simulate "${E}/slider_crank.toml" --t-end 0.2 --plot "${OUT}/simulate_x.svg"
    --plot-columns b1_phi,b2_x)
run(fourbar synth fourbar --table "${E}/grashof_table1.csv" -o "${OUT}/fourbar")
run(rssr synth rssr --table "${E}/rssr_19.csv" -o "${OUT}/rssr")
run(dyad synth dyad --poses "${E}/dyad_17.csv" -o "${OUT}/dyad")
foreach(cam translating_roller oscillating_roller flat_face)
  run(cam_${cam} synth cam "${E}/cam_${cam}.toml" -o "${OUT}/cam_${cam}")
endforeach()
run(loop analyze loop chain "${E}/shovel_actuator.toml" -o "${OUT}/loop")
run(chain analyze chain "${E}/chain_6r_hexflex.toml" -o "${OUT}/chain")
# simulate --plot's defaults and units: a 50-link chain (a few series by default), an x-y path
# (equal scales), mixed units (one panel per unit), a slip velocity.
run(chain_model model chain --links 50 --out "${OUT}/chain50.toml")
run(simulate_chain simulate "${OUT}/chain50.toml" --t-end 1 --quiet --plot "${OUT}/simulate_chain.svg")
run(simulate_path simulate "${E}/spherical_pendulum_flywheel.toml" --t-end 2 --quiet
    --plot "${OUT}/simulate_path.svg" --plot-x wheel_x --plot-columns wheel_y)
run(simulate_units simulate "${E}/slider_crank.toml" --t-end 0.2 --quiet
    --plot "${OUT}/simulate_units.svg" --plot-columns b1_phi,b2_x,b1_phi_dot)
run(simulate_slip simulate "${E}/disc_slip_roll.toml" --t-end 0.05 --dt 1e-4 --quiet
    --plot "${OUT}/simulate_slip.svg" --plot-columns rolling_slip)
run(kinematics kinematics "${E}/fourbar_kinematics.toml" --t-end 1 --dt 0.05 --plot
    "${OUT}/kinematics.svg")
run(optimize optimize --function ackley --dim 3 --islands 2 --generations 20 --plot
    "${OUT}/optimize.svg")

file(GLOB_RECURSE figures "${OUT}/*.svg")
list(LENGTH figures n)
# study 9, simulate 2, fourbar 2, rssr 2, dyad 1, cams 3, loop 1, chain 1, kinematics 1, optimize 1
if(n LESS 23)
  message(FATAL_ERROR "expected at least 23 figures, found ${n}: ${figures}")
endif()
# The checks of the simulate figures' text (the tick scales of the path are checked in
# tests/cli/test_cli_figures.cpp, which can do arithmetic).
function(expect_count file what expected)
  file(READ "${OUT}/${file}" text)
  string(REGEX MATCHALL "${what}" found "${text}")
  list(LENGTH found n)
  if(NOT n EQUAL expected)
    message(FATAL_ERROR "${file}: ${n} matches of '${what}', expected ${expected}")
  endif()
endfunction()
expect_count(simulate_chain.svg "<polyline" 4)          # the chain's two ends, x and y
expect_count(simulate_path.svg "rotate\\(-90\\)[^>]*>wheel_y \\[m\\]<" 1)
expect_count(simulate_units.svg "rotate\\(-90\\)" 3)    # rad, m, rad/s: three panels
expect_count(simulate_slip.svg "\\[1\\]" 0)              # a velocity, not dimensionless
expect_count(simulate_slip.svg ">rolling_slip \\[m/s\\]<" 1)  # the unit its constraint declares
foreach(f simulate.svg simulate_x.svg simulate_chain.svg simulate_units.svg)
  expect_count(${f} ">[^<]*\\[[^<]*, [^<]*\\]<" 0)    # no axis mixing units: [m, rad]
endforeach()
file(SIZE "${OUT}/simulate_chain.svg" chain_bytes)
if(chain_bytes GREATER 200000)
  message(FATAL_ERROR "simulate_chain.svg is ${chain_bytes} bytes")
endif()

foreach(svg IN LISTS figures)
  execute_process(COMMAND "${RSVG}" -o "${svg}.png" "${svg}" RESULT_VARIABLE rc
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "rsvg-convert cannot render ${svg}: ${err}")
  endif()
endforeach()
message(STATUS "rendered ${n} figures")
