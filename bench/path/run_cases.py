#!/usr/bin/env python3
"""Benchmark of `kinevo synth path` on the published cases (examples/path), run by hand.

For each case: 10 seeds at default settings (the budget is the file's "# evaluations", the
evaluations the paper used), the median, best and worst objective, how many runs met the
constraints and reached the best published objective, evaluations and wall time; the published
designs are recomputed independently by bench/path/published_designs.py.

Usage: python3 bench/path/run_cases.py [path/to/kinevo] [seeds]   (prints a Markdown table)
"""
import json
import pathlib
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]


def main():
    kinevo = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "build" / "kinevo")
    seeds = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    print("| case | best published | kinevo median | best | worst | feasible | at or below "
          "published | evaluations (budget) | wall s per run |")
    print("|---|---|---|---|---|---|---|---|---|")
    for case in sorted((ROOT / "examples" / "path").glob("case*.csv")):
        objectives, feasible, evaluations, walls, published, budget = [], 0, [], [], None, None
        for seed in range(1, seeds + 1):
            t0 = time.perf_counter()
            out = subprocess.run([kinevo, "synth", "path", str(case), "--seed", str(seed),
                                  "--json"], capture_output=True, text=True, check=False)
            walls.append(time.perf_counter() - t0)
            j = json.loads(out.stdout)
            objectives.append(j["objective"])
            feasible += bool(j["feasible"])
            evaluations.append(j["evaluations"])
            published = j["best_published_objective"]
        for line in case.read_text().splitlines():
            if line.startswith("# evaluations ="):
                budget = int(line.split("=")[1])
        reached = sum(o <= published for o in objectives)
        print(f"| {case.stem} | {published:.10e} | {statistics.median(objectives):.10e} | "
              f"{min(objectives):.10e} | {max(objectives):.10e} | {feasible}/{seeds} | "
              f"{reached}/{seeds} | {max(evaluations)} ({budget}) | "
              f"{statistics.median(walls):.2f} |")


if __name__ == "__main__":
    main()
