#!/usr/bin/env bash
# A real signal under mpiexec: Ctrl-C to the whole process group (SIGINT to mpiexec and every
# rank; mpiexec then sends SIGTERM to the ranks) or SIGTERM to mpiexec alone. The ranks must save
# the checkpoint before mpiexec's SIGKILL (1 s later with OpenMPI's defaults), and the resumed
# run must end exactly where the uninterrupted one does. mpiexec's own exit status is its own.
#   real_signal_resume.sh DRIVER "MPIEXEC ARGS" WORKDIR group-INT|mpiexec-TERM
set -u
driver=$1 mpiexec=$2 work=$3 how=$4
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
# shellcheck disable=SC2086
setsid $mpiexec -n 2 "$driver" wait 4 state.txt ready >out.txt 2>err.txt &
launcher=$!
for _ in $(seq 1 600); do [[ -f ready ]] && break; sleep 0.05; done
[[ -f ready ]] || { echo "the run never got going"; cat err.txt; kill -KILL -- -"$launcher"; exit 1; }
if [[ $how == group-INT ]]; then kill -INT -- -"$launcher"; else kill -TERM "$launcher"; fi
wait "$launcher"
grep -q '^generation [0-9]' state.txt 2>/dev/null || { echo "no checkpoint"; cat err.txt; exit 1; }
grep -q 'interrupted at generation' err.txt || { echo "not interrupted"; cat err.txt; exit 1; }
"$driver" resume 4 state.txt >resumed.txt || exit 1
"$driver" straight 4 unused >straight.txt || exit 1
if ! cmp -s resumed.txt straight.txt; then
  echo "resumed run differs"; diff straight.txt resumed.txt; exit 1
fi
echo "saved at $(grep '^generation' state.txt), resumed bit-identically"
cd / && rm -rf "$work"
