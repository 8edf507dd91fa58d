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
foreach(svg IN LISTS figures)
  execute_process(COMMAND "${RSVG}" -o "${svg}.png" "${svg}" RESULT_VARIABLE rc
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "rsvg-convert cannot render ${svg}: ${err}")
  endif()
endforeach()
message(STATUS "rendered ${n} figures")
