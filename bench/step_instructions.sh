#!/usr/bin/env bash
# Instructions per RK4 step, kinevo and MuJoCo, counted by valgrind's callgrind: the difference of
# two runs of `compare_mujoco[_spatial] profile MODEL SOLVER STEPS` of different lengths, divided
# by the difference of their step counts, so start-up and the first step's set-up cancel. Only the
# steps are instrumented (--instr-atstart=no; the program starts and stops callgrind around them).
# Deterministic, unaffected by the machine's load; a proxy for time only, since the programs'
# instructions per cycle differ (MuJoCo's dense loops against kinevo's short Eigen kernels).
#   bench/step_instructions.sh BUILD_DIR [planar|spatial|mechanisms|all] [SOLVER...]
# Prints one line per model: model, and instructions per step of each solver (default: mujoco
# gigsp lm), then kinevo / MuJoCo.
set -euo pipefail
build=${1:?usage: $0 BUILD_DIR [planar|spatial|mechanisms|all] [SOLVER...]}
what=${2:-all}
shift $(( $# >= 2 ? 2 : 1 ))
solvers=("$@")
[ ${#solvers[@]} -eq 0 ] && solvers=(mujoco gigsp lm)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# per_step PROGRAM MODEL SOLVER SHORT LONG
per_step() {
  local prog=$1 model=$2 solver=$3 s1=$4 s2=$5 i1 i2
  for s in "$s1" "$s2"; do
    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$work/cg.$s" \
      "$build/bench/$prog" profile "$model" "$solver" "$s" >/dev/null 2>"$work/err.$s" || {
      echo "failed: $prog profile $model $solver $s" >&2
      cat "$work/err.$s" >&2
      return 1
    }
  done
  i1=$(awk '/^totals:/ {print $2}' "$work/cg.$s1")
  i2=$(awk '/^totals:/ {print $2}' "$work/cg.$s2")
  echo $(((i2 - i1) / (s2 - s1)))
}

row() {  # row PROGRAM LABEL MODEL SHORT LONG
  local prog=$1 label=$2 model=$3 s1=$4 s2=$5 line counts=()
  line="$label"
  for solver in "${solvers[@]}"; do
    counts+=("$(per_step "$prog" "$model" "$solver" "$s1" "$s2")")
    line+=" | ${counts[-1]}"
  done
  if [ "${solvers[0]}" = mujoco ]; then
    for ((k = 1; k < ${#solvers[@]}; ++k)); do
      line+=" | $(awk -v a="${counts[k]}" -v b="${counts[0]}" 'BEGIN {printf "%.2f", a / b}')"
    done
  fi
  echo "| $line |"
}

header="| model"
for solver in "${solvers[@]}"; do header+=" | $solver"; done
if [ "${solvers[0]}" = mujoco ]; then
  for ((k = 1; k < ${#solvers[@]}; ++k)); do header+=" | ${solvers[k]} / mujoco"; done
fi
echo "$header |"
if [ "$what" = planar ] || [ "$what" = all ]; then
  row compare_mujoco "planar chain N = 2" 2 20 120
  row compare_mujoco "planar chain N = 10" 10 20 120
  row compare_mujoco "planar chain N = 50" 50 10 40
  row compare_mujoco "planar chain N = 90" 90 5 20
fi
if [ "$what" = spatial ] || [ "$what" = all ]; then
  row compare_mujoco_spatial "spatial chain N = 2" 2 20 120
  row compare_mujoco_spatial "spatial chain N = 10" 10 10 50
  row compare_mujoco_spatial "spatial chain N = 50" 50 5 20
  row compare_mujoco_spatial "spatial chain N = 90" 90 3 10
fi
if [ "$what" = mechanisms ] || [ "$what" = all ]; then
  row compare_mujoco "four-bar (n 9, m 8)" four-bar 20 120
  row compare_mujoco "slider-crank (n 9, m 8)" slider-crank 20 120
  row compare_mujoco_spatial "pendulum with flywheel (n 14, m 10)" flywheel 20 120
fi
