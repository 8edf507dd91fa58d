#!/usr/bin/env bash
# The kinevo side of the CEC 2006 benchmark (docs/benchmarks.md, "Constrained optimisation:
# CEC 2006"): runs
#   build/kinevo optimize --problem DIR/PROBLEM.toml --max-evals BUDGET --generations 0 --seed S
#     --allow-infeasible (an infeasible final is a result to count here, not a failed run)
#     --json [EXTRA OPTIONS]
# for every problem, seed 1..N and budget, JOBS runs at a time (xargs -P), and writes the CSV
#   solver,budget,problem,seed,evaluations,f,feasible,max_violation,error
# that build/bench/compare_cec2006_summary turns into the side-by-side table (pagmo's columns
# come from build/bench/compare_pagmo_cec2006).
#   f         the JSON's "objective" (the objective at the best point, without penalty)
#   feasible  the JSON's "feasible" when it has one, else max_violation <= 1e-4 (which lets
#             an inequality be violated by up to 1e-4, where CEC 2006 allows none)
#   error     |f - f*| / max(1, |f*|), f* from the problem file's "# best-known f* = VALUE"
#             header line; nan when the file has none
# Needs jq (./setup.sh --bench installs it). Usage:
#   bench/cec2006_kinevo.sh --label kinevo-default --out cec2006_kinevo_default.csv
#   bench/cec2006_kinevo.sh --label kinevo-best --out cec2006_kinevo_best.csv -- --preset tuned
#   bench/cec2006_kinevo.sh --label smoke --dir examples --problems problem_constrained \
#     --seeds 2 --budgets 20000
set -euo pipefail

usage() {
  cat <<'EOF'
usage: bench/cec2006_kinevo.sh --label SOLVER [options] [-- EXTRA kinevo optimize options]
  --label SOLVER      the CSV's solver column, e.g. kinevo-default, kinevo-best (required)
  --dir DIR           folder of the problem files (default: examples/cec2006)
  --problems LIST     problem names without .toml, comma or space separated (default: g01..g24)
  --seeds N           seeds 1..N (default: 10)
  --budgets LIST      evaluation budgets, comma or space separated (default: 100000,500000)
  --jobs N            runs at a time (default: 2)
  --kinevo PATH       the kinevo executable (default: build/kinevo)
  --out FILE          the CSV (default: standard output)
EOF
}

root=$(cd "$(dirname "$0")/.." && pwd)
label=""
dir="$root/examples/cec2006"
problems=()
for k in $(seq 1 24); do problems+=("$(printf 'g%02d' "$k")"); done
seeds=10
budgets=(100000 500000)
jobs=2
kinevo="$root/build/kinevo"
out=""
extra=()

die() {
  echo "cec2006_kinevo.sh: $*" >&2
  exit 2
}
whole() { [[ $1 =~ ^[1-9][0-9]*$ ]] || die "$2: '$1' is not a positive whole number"; }

while (($#)); do
  case $1 in
    --label) label=${2:?--label needs a value}; shift 2 ;;
    --dir) dir=${2:?--dir needs a value}; shift 2 ;;
    --problems) read -r -a problems <<<"${2//,/ }"; shift 2 ;;
    --seeds) seeds=${2:?--seeds needs a value}; shift 2 ;;
    --budgets) read -r -a budgets <<<"${2//,/ }"; shift 2 ;;
    --jobs) jobs=${2:?--jobs needs a value}; shift 2 ;;
    --kinevo) kinevo=${2:?--kinevo needs a value}; shift 2 ;;
    --out) out=${2:?--out needs a value}; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument '$1' (kinevo's own options go after --)" ;;
  esac
done

[[ -n $label ]] || { usage >&2; die "--label is required"; }
[[ $label != *,* ]] || die "--label must not contain a comma"
whole "$seeds" --seeds
whole "$jobs" --jobs
((${#budgets[@]})) || die "--budgets is empty"
for b in "${budgets[@]}"; do whole "$b" --budgets; done
((${#problems[@]})) || die "--problems is empty"
for p in "${problems[@]}"; do [[ -f $dir/$p.toml ]] || die "no problem file $dir/$p.toml"; done
[[ -x $kinevo ]] || die "$kinevo is not an executable (build it: cmake --build build --target kinevo)"
command -v jq >/dev/null || die "jq is needed (apt-get install jq, or ./setup.sh --bench)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One run; xargs calls it with "budget problem seed". It always succeeds: a failed run leaves
# its exit status in $tmp/NAME.rc and is reported below.
run_one() {
  local budget=$1 problem=$2 seed=$3
  local name="$budget-$problem-$seed"
  local -a more=()
  eval "more=($CEC2006_EXTRA)"
  local rc=0
  "$CEC2006_KINEVO" optimize --problem "$CEC2006_DIR/$problem.toml" --max-evals "$budget" \
    --generations 0 --seed "$seed" --json --allow-infeasible "${more[@]}" \
    >"$CEC2006_TMP/$name.json" \
    2>"$CEC2006_TMP/$name.err" || rc=$?
  echo "$rc" >"$CEC2006_TMP/$name.rc"
}
export -f run_one
export CEC2006_KINEVO=$kinevo CEC2006_DIR=$dir CEC2006_TMP=$tmp
CEC2006_EXTRA=""
((${#extra[@]} == 0)) || CEC2006_EXTRA=$(printf '%q ' "${extra[@]}")
export CEC2006_EXTRA

runs=$((${#budgets[@]} * ${#problems[@]} * seeds))
echo "cec2006_kinevo.sh: $runs runs of '$kinevo optimize ${extra[*]}', $jobs at a time" >&2
for b in "${budgets[@]}"; do
  for p in "${problems[@]}"; do
    for s in $(seq 1 "$seeds"); do echo "$b $p $s"; done
  done
done | xargs -P "$jobs" -n 3 bash -c 'run_one "$@"' _

# The rows, in task order. jq prints numbers with 17 significant digits.
# shellcheck disable=SC2016  # jq's own $variables
to_row='
  (if has("feasible") then .feasible else (.max_violation <= 1e-4) end) as $feasible
  | (if $fstar == "nan" then "nan"
     else ($fstar | tonumber) as $f | ((.objective - $f) | fabs) / ([1, ($f | fabs)] | max)
     end) as $error
  | [$solver, $budget, $problem, $seed, .evaluations, .objective,
     (if $feasible then 1 else 0 end), .max_violation, $error]
  | map(tostring) | join(",")'
failed=0
{
  echo "solver,budget,problem,seed,evaluations,f,feasible,max_violation,error"
  for b in "${budgets[@]}"; do
    for p in "${problems[@]}"; do
      fstar=$(sed -n 's/^#[[:space:]]*best-known f\*[[:space:]]*=[[:space:]]*\([^[:space:]]*\).*/\1/p' \
        "$dir/$p.toml" | head -n 1)
      [[ -n $fstar ]] || fstar=nan
      for s in $(seq 1 "$seeds"); do
        name="$b-$p-$s"
        if [[ $(cat "$tmp/$name.rc") == 0 ]] &&
          jq -r --arg solver "$label" --arg budget "$b" --arg problem "$p" --arg seed "$s" \
            --arg fstar "$fstar" "$to_row" "$tmp/$name.json" 2>>"$tmp/$name.err"; then
          continue
        fi
        # A failed run stays in the table as an infeasible one, and the script fails.
        echo "cec2006_kinevo.sh: run failed (budget $b, $p, seed $s): $(head -c 500 "$tmp/$name.err")" >&2
        failed=$((failed + 1))
        echo "$label,$b,$p,$s,0,nan,0,nan,nan"
      done
    done
  done
} >"$tmp/out.csv"

if [[ -n $out ]]; then
  cp "$tmp/out.csv" "$out"
  echo "cec2006_kinevo.sh: wrote $out (table: build/bench/compare_cec2006_summary $out)" >&2
else
  cat "$tmp/out.csv"
fi
if ((failed)); then
  echo "cec2006_kinevo.sh: $failed of $runs runs failed" >&2
  exit 1
fi
