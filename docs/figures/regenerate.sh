#!/usr/bin/env bash
# Regenerates every figure in docs/figures/ that the CLI makes (docs/figures.md lists them).
# Run from the repository root after ./setup.sh:  docs/figures/regenerate.sh [path/to/kinevo]
set -euo pipefail
kinevo=${1:-build/kinevo}
fig=docs/figures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
E=examples

# Linkage synthesis (docs/synthesis.md): drawings and error charts.
"$kinevo" synth fourbar --table $E/grashof_table1.csv -q -o "$tmp/fourbar"
cp "$tmp/fourbar/fourbar_linkage.svg" "$tmp/fourbar/fourbar_error.svg" $fig/
"$kinevo" synth rssr --table $E/rssr_19.csv -q -o "$tmp/rssr"
cp "$tmp/rssr/rssr_output.svg" "$tmp/rssr/rssr_error.svg" $fig/
"$kinevo" synth dyad --poses $E/dyad_17.csv -q -o "$tmp/dyad"
cp "$tmp/dyad/dyad.svg" $fig/dyad.svg

# Cams (docs/cams.md).
for cam in translating_roller oscillating_roller flat_face; do
  "$kinevo" synth cam $E/cam_$cam.toml -q -o "$tmp/cam_$cam"
  cp "$tmp/cam_$cam/cam.svg" $fig/cam_$cam.svg
done

# Coupled loops (docs/loop-analysis.md) and a spatial chain (docs/spatial-chains.md).
"$kinevo" analyze loop chain $E/shovel_actuator.toml -q -o "$tmp/shovel"
cp "$tmp/shovel/loop.svg" $fig/shovel_actuator.svg
"$kinevo" analyze chain $E/chain_6r_hexflex.toml -q -o "$tmp/hexflex"
cp "$tmp/hexflex/chain.svg" $fig/chain_6r_hexflex.svg

# Simulation plots (docs/spatial.md, docs/intermittent.md, docs/mechanics.md).
sim() { "$kinevo" simulate "$@" --quiet; }
sim $E/double_pendulum.toml --t-end 2 --plot $fig/double_pendulum.svg
sim $E/spherical_pendulum_flywheel.toml --t-end 8 --integrator dopri --dt 0.005 \
  --plot $fig/spatial_pendulum_wheel_xy.svg --plot-x wheel_x --plot-columns wheel_y
sim $E/spherical_pendulum_flywheel.toml --t-end 8 --integrator dopri --dt 0.005 \
  --plot $fig/spatial_pendulum_violation.svg --plot-columns position_violation
sim $E/spatial_fivebar_driven.toml --t-end 20 --stabilization projection --record-every 10 \
  --plot $fig/spatial_fivebar_driven_crank.svg --plot-columns crank2_x,crank2_x_dot
sim $E/spatial_fivebar_driven.toml --t-end 20 --stabilization projection --record-every 10 \
  --plot $fig/spatial_fivebar_driven_violation.svg --plot-columns position_violation
sim $E/disc_slip_roll.toml --t-end 0.2 --dt 1e-3 --plot $fig/disc_slip_roll_slip.svg \
  --plot-columns rolling_slip
sim $E/disc_slip_roll.toml --t-end 0.2 --dt 1e-3 --plot $fig/disc_slip_roll_velocities.svg \
  --plot-columns x_dot,th_dot
sim $E/disc_slip_roll.toml --t-end 0.2 --dt 1e-3 --plot $fig/disc_slip_roll_x_theta.svg \
  --plot-columns x,th
for cols in "slip contact_slip" "speeds phi1_dot,phi3_dot" "x x"; do
  set -- $cols
  sim $E/constant_speed_driver.toml --t-end 1.5 --dt 1e-3 \
    --plot $fig/constant_speed_driver_$1.svg --plot-columns "$2"
done
sim $E/constant_speed_driver.toml --t-end 1.5 --dt 1e-3 --set eps=0.1 \
  --plot $fig/constant_speed_driver_stick_slip.svg --plot-columns contact_slip

# The double-pendulum study (docs/gauss-study.md), a short motion: report.md embeds these.
"$kinevo" study double-pendulum --t-end 0.05 --quiet --out "$tmp/study"
for f in convergence_x1dd convergence_z1 convergence_error motion_positions motion_differences; do
  cp "$tmp/study/$f.svg" $fig/study_$f.svg
done

# GA convergence (docs/ga.md).
"$kinevo" optimize --function ackley --dim 3 --islands 2 --generations 20 --quiet \
  --plot $fig/optimize_ackley.svg
echo "regenerated the figures in $fig"
# The screenshots of the motion pages (viewer_*.png, animation_slider_crank.png) are taken by the
# Chromium tests; copy them after a test run (docs/animation.md, "Screenshots"):
#   ctest --test-dir build -R 'CliAnimate\.Chromium' && cmake --build build --target docs_screenshots
