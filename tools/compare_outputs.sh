#!/usr/bin/env bash
# Behaviour unchanged by a refactor? Runs the README's synthesis, analysis, kinematics,
# assembly, simulate, animate, model-file and optimize commands (and variants that reach the damped Newton,
# Gauss-Newton, line-search and chart code: perturbed assemblies, damping 0.3/0.7, SANLSU case 2,
# 5-pose dyads, plots) with two kinevo executables and compares every output: each command's
# stdout, stderr and exit status and every file it wrote, byte for byte (cmp), with only the
# wall-clock figures of the text and JSON masked. Exit 0 when identical, 1 otherwise.
#   tools/compare_outputs.sh OLD_KINEVO NEW_KINEVO [WORK_DIR]    (WORK_DIR: /tmp/kinevo-compare)
# For example: a build of main in build-main/, the branch's in build/:
#   tools/compare_outputs.sh build-main/kinevo build/kinevo
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,10p' "$0"; exit 2; }
old=$(realpath "$1"); new=$(realpath "$2"); work=${3:-/tmp/kinevo-compare}
E=$(realpath "$(dirname "$0")/../examples")
rm -rf "$work"; mkdir -p "$work/inputs"; I="$work/inputs"

# Inputs derived from the examples: assemblies that need the penalty stages (DFP, Armijo line
# search) and Gauss-Newton corrections, dyads of 5 poses (exact: damped Newton), chain files
# with a [solver] damping of 0.3.
"$old" model chain --links 30 --out "$I/chain30.toml" > /dev/null
"$old" model chain --links 100 --out "$I/chain100.toml" > /dev/null
"$old" simulate "$E/slider_crank.toml" --t-end 0.3 --dt 0.01 --quiet --out "$I/slider_run.csv"
"$old" simulate "$E/spatial_fivebar_driven.toml" --t-end 0.2 --dt 0.01 --quiet --out "$I/fivebar_run.csv"
python3 - "$E" "$I" <<'PY'
import re, sys
E, I = sys.argv[1], sys.argv[2]
t = open(f"{E}/haug_fourbar.toml").read()
p = t.replace("position = [0.0, 1.0]", "position = [0.1, 0.9]", 1)
p = p.replace('position = ["(1 + s7)/2", "(3 + s7)/2"]',
              'position = ["(1 + s7)/2 + 0.1", "(3 + s7)/2 - 0.1"]', 1)
p = p.replace('angle = "atan2(1 + s7, s7 - 1)"', 'angle = "atan2(1 + s7, s7 - 1) + 0.1"', 1)
open(f"{I}/fourbar_perturbed.toml", "w").write(p)
k = t.rfind("point_j = [2.0, 0.0]")
open(f"{I}/fourbar_open.toml", "w").write(t[:k] + "point_j = [20.0, 0.0]" + t[k + 20:])
for n, d in ((30, 0.05), (100, 0.01)):
    c = open(f"{I}/chain{n}.toml").read()
    c = re.sub(r'position = \["(\d+)\*l\*sin\(theta0\)"',
               lambda m: f'position = ["{m[1]}*l*sin(theta0) + {d}*{m[1]}"', c)
    open(f"{I}/chain{n}_perturbed.toml", "w").write(c)
rows = open(f"{E}/dyad_17.csv").read().splitlines()
head = [r for r in rows if r.startswith("#")]
data = [r for r in rows if not r.startswith("#")]
open(f"{I}/dyad_5.csv", "w").write("\n".join(head + data[:6]) + "\n")
open(f"{I}/dyad_7.csv", "w").write("\n".join(head + data[:8]) + "\n")
for name in ("chain_7r", "chain_6r_hexflex", "chain_rsrc"):
    c = open(f"{E}/{name}.toml").read().rstrip("\n")
    open(f"{I}/{name}_damped.toml", "w").write(c + "\n\n[solver]\ndamping = 0.3\nmax_iterations = 60\n")
PY

commands() {
  echo "synth fourbar --table $E/grashof_table1.csv --crank input --min-transmission 30 --max-ratio 10 -o fourbar/"
  echo "synth fourbar --table $E/grashof_table1.csv --crank input --min-transmission 30 --max-ratio 10 --method ga"
  echo "synth fourbar --table $E/grashof_table1.csv --crank input --json"
  echo "synth fourbar --table $E/grashof_table1.csv --crank both --json"
  echo "synth fourbar --table $E/grashof_table1.csv --output rocker --coupler rocker --min-transmission 30 --max-ratio 10 --json"
  echo "synth rssr --table $E/rssr_19.csv"
  echo "synth rssr --table $E/rssr_19.csv --method ga --json"
  echo "synth dyad --poses $E/dyad_17.csv --starts 100"
  echo "synth dyad --poses $E/dyad_17.csv --method ga --json"
  echo "synth dyad --poses $I/dyad_5.csv --starts 30 --json"
  echo "synth dyad --poses $I/dyad_7.csv --starts 30 --json"
  echo "synth dyad --poses $I/dyad_5.csv --method ga --json"
  echo "synth chebyshev --from 30 --to 120 -n 3 --json"
  for f in "$E"/path/*.csv; do echo "synth path $f -o path/ --json"; done
  for f in "$E"/cam_*.toml; do echo "synth cam $f -o cam/ --json"; done
  echo "analyze loop chain $E/shovel_actuator.toml -o shovel/"
  echo "analyze loop rrrr --a1 1 --a2 0.4 --a3 1.1 --a4 0.9 --from 0 --to 6.28 --step 0.1"
  for f in "$E"/chain_*.toml "$I"/chain_*_damped.toml; do
    echo "analyze chain $f -o out/ --json"
    echo "analyze chain $f"
  done
  for f in "$E"/*.toml "$I"/fourbar_*.toml "$I"/chain30_perturbed.toml "$I"/chain100_perturbed.toml; do
    echo "model assemble $f --json"
    echo "model info $f --json"
  done
  echo "kinematics $E/haug_fourbar.toml --t-end 6.283 --dt 0.01 --out q.csv --plot q.svg"
  echo "kinematics $E/haug_fourbar.toml --t-end 3 --dt 0.01 --json"
  echo "kinematics $E/slider_crank_lockup.toml --t-end 2 --dt 0.01 --json"
  for f in "$E"/fourbar_kinematics.toml "$E"/spatial_fivebar_driven.toml "$E"/slider_crank.toml \
           "$E"/seven_link_loop.toml "$I"/fourbar_perturbed.toml; do
    echo "kinematics $f --t-end 1 --dt 0.01 --assemble --out q.csv"
  done
  for s in gigsp lm uk; do
    echo "simulate $I/chain30.toml --t-end 0.2 --dt 0.01 --solver $s --out sim.csv --plot plot.svg"
  done
  echo "simulate $I/chain30.toml --t-end 0.2 --dt 0.01 --formulation projection --out sim.csv --plot plot.svg"
  echo "simulate $E/double_pendulum.toml --t-end 1 --dt 0.01 --out sim.csv --plot plot.svg"
  echo "simulate $E/spatial_fivebar_driven.toml --t-end 0.2 --dt 0.01 --out sim.csv --plot plot.svg"
  # The motion pages (simulate --animate draws the trajectory it recorded; kinevo animate a CSV)
  # and the model files written (model chain, model assemble --out).
  for f in double_pendulum slider_crank slider_crank_definitions spatial_fivebar_driven \
           spherical_pendulum_flywheel haug_fourbar parallelogram_bodies seven_link_loop; do
    echo "simulate $E/$f.toml --t-end 0.2 --dt 0.01 --animate page.html"
  done
  echo "simulate $E/double_pendulum.toml --t-end 0.3 --dt 0.01 --record-every 4 --out sim.csv --animate page.html --json"
  echo "simulate $E/spherical_pendulum_flywheel.toml --set tilt=0.3 --t-end 0.2 --dt 0.01 --animate page.html"
  echo "simulate $E/double_pendulum.toml --set nope=1 --t-end 0.2 --dt 0.01 --animate page.html"
  echo "simulate $E/double_pendulum.toml --t-end 40 --dt 0.5 --no-divergence-check --out sim.csv --animate page.html"
  echo "simulate $I/chain30.toml --t-end 0.05 --dt 0.01 --animate page.html"
  echo "animate $I/slider_run.csv --model $E/slider_crank.toml -o page.html"
  echo "animate $I/slider_run.csv --model $E/slider_crank.toml --view 2d --trail b2 -o page.html --json"
  echo "animate $I/fivebar_run.csv --model $E/spatial_fivebar_driven.toml -o page.html"
  echo "animate $I/fivebar_run.csv --model $E/spatial_fivebar_driven.toml --view 2d -o page.html"
  echo "model chain --links 4 --out chain.toml"
  echo "model chain --links 3 --spatial --spin 2 --out chain.toml --json"
  echo "model assemble $I/fourbar_perturbed.toml --out assembled.toml --json"
  echo "optimize --problem $E/sanlsu_arm.toml --method sanlsu --json"
  echo "optimize --problem $E/sanlsu_arm.toml --method sanlsu --start 0 0 0"
  echo "optimize --problem $E/sanlsu_arm.toml --method sanlsu --sanlsu-case 2 --sanlsu-damping 0.3 --json"
  echo "optimize --problem $E/sanlsu_ellipse.toml --method sanlsu --sanlsu-damping 0.7 --json"
  echo "optimize --problem $E/sanlsu_ellipse.toml --method sanlsu --sanlsu-max-iterations 1"
  echo "optimize --problem $E/sanlsu_ellipse.toml --refine sanlsu --seed 3 --json"
  echo "optimize --problem $E/problem_constrained.toml --seed 2 --plot best.svg --json"
  echo "optimize --function rastrigin --dim 5 --seed 1 --generations 50 --plot best.svg --log log.csv"
}

run_all() {  # kinevo, folder
  local n=0
  while IFS= read -r cmd; do
    n=$((n + 1)); mkdir -p "$2/$n"
    # shellcheck disable=SC2086
    (cd "$2/$n" && echo "$cmd" > cmd && rc=0 && { "$1" $cmd > stdout 2> stderr || rc=$?; } &&
      echo "$rc" > rc)
  done < <(commands)
}
run_all "$old" "$work/old"
run_all "$new" "$work/new"

# Wall-clock figures are the only text allowed to differ.
mask() {
  sed -E 's/"(seconds|wall_seconds)":[0-9.e+-]+/"\1":T/g; s/wall time [0-9.e+-]+ s/wall time T s/g;
          s/\([0-9.]+ s\)/(T s)/g; s/evaluations, [0-9.e+-]+ s/evaluations, T s/g' "$1"
}
status=0; count=0
while IFS= read -r f; do
  rel=${f#"$work/old/"}; count=$((count + 1))
  if [ ! -f "$work/new/$rel" ]; then echo "only in old: $rel"; status=1; continue; fi
  case $rel in
    */stdout | */stderr) cmp -s <(mask "$f") <(mask "$work/new/$rel") || { echo "differs: $rel ($(cat "$work/old/${rel%/*}/cmd"))"; status=1; } ;;
    *) cmp -s "$f" "$work/new/$rel" || { echo "differs: $rel"; status=1; } ;;
  esac
done < <(find "$work/old" -type f | sort)
extra=$(comm -13 <(cd "$work/old" && find . -type f | sort) <(cd "$work/new" && find . -type f | sort))
[ -z "$extra" ] || { echo "only in new: $extra"; status=1; }
echo "$count files compared ($(ls "$work/old" | wc -l) commands): $([ $status = 0 ] && echo identical || echo DIFFERENT)"
exit $status
