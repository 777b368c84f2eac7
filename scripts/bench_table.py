#!/usr/bin/env python3
"""BENCHMARKS.md's table from sweep-bench's JSON, by medians.

Usage: scripts/bench_table.py RESULTS.json [MORE.json ...]

Each benchmark's time is the median CPU time of its repetitions (run with
--benchmark_repetitions=N, best with --benchmark_enable_random_interleaving=true);
a benchmark in a later file replaces the same one in an earlier file. Prints a
markdown row per case, <Family>/<case>/sweep beside <Family>/<case>/box2d and
/chipmunk, with the ratios of the medians (below 1: sweep is faster). World
cases are per step (their per_body_step counter times their bodies), and the
Box2D variants other than box2d (box2d_discrete) get rows of their own; Move
cases give moves per second. ../shared/tools/bench_ratios.py reads only the
last repetition of each benchmark, which on a shared machine moves by 10 to
20 % from one repetition to the next.
"""
import json
import statistics
import sys

PEERS = ("box2d", "chipmunk")
FAMILIES = ("Broadphase", "Distance", "Manifold", "TimeOfImpact", "ShapeCast", "RayCast", "Hull",
            "Mass", "World", "Move")


def load(paths):
    runs = {}
    for path in paths:
        these = {}
        for b in json.load(open(path)).get("benchmarks", []):
            if b.get("run_type") != "aggregate":
                these.setdefault(b["name"], []).append(b)
        runs.update(these)
    return runs


def seconds(b):
    """One repetition's time in seconds: per step for a World case."""
    if "per_body_step" in b and "bodies" in b:
        return b["per_body_step"] * b["bodies"]
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b.get("time_unit", "ns")]
    return b["cpu_time"] * scale


def median(runs, name, of=seconds):
    return statistics.median(of(b) for b in runs[name]) if name in runs else None


def show(t):
    if t is None:
        return "—"
    for limit, unit, scale in ((1e-6, "ns", 1e9), (1e-3, "µs", 1e6), (1.0, "ms", 1e3)):
        if t < limit:
            v = t * scale
            break
    else:
        unit, v = "s", t
    digits = 2 if v < 10 else 1 if v < 100 else 0
    return f"{v:,.{digits}f} {unit}"


def ratio(a, b):
    return f"{a / b:.2f}" if a is not None and b is not None else "—"


def main():
    runs = load(sys.argv[1:])
    cases = []
    for name in runs:
        case, _, impl = name.rpartition("/")
        if impl == "sweep" and case not in cases:
            cases.append(case)
    # (Interleaved runs list the cases shuffled: by family, then by name.)
    cases.sort(key=lambda c: (FAMILIES.index(c.partition("/")[0])
                              if c.partition("/")[0] in FAMILIES else len(FAMILIES), c))
    print("| case | sweep | Box2D 2.4.1 | Chipmunk 7 | sweep / Box2D | sweep / Chipmunk |")
    print("|---|---:|---:|---:|---:|---:|")
    for case in cases:
        ours = case + "/sweep"
        if case.startswith("Move/"):
            moves = median(runs, ours, lambda b: b["moves_per_second"])
            print(f"| {case} | {moves / 1e6:.2f} M moves/s | — | — | — | — |")
            continue
        s = median(runs, ours)
        box2d, chipmunk = (median(runs, f"{case}/{peer}") for peer in PEERS)
        label = case + (" (per step)" if "per_body_step" in runs[ours][0] else "")
        print(f"| {label} | {show(s)} | {show(box2d)} | {show(chipmunk)} | {ratio(s, box2d)} | "
              f"{ratio(s, chipmunk)} |")
        for other in sorted(n for n in runs if n.startswith(case + "/box2d_")):
            t = median(runs, other)
            variant = other.rpartition("/")[2].removeprefix("box2d_")
            print(f"| {label}, against Box2D ({variant}) | | {show(t)} | | {ratio(s, t)} | |")


if __name__ == "__main__":
    main()
