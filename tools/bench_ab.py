#!/usr/bin/env python3
"""Two dmlvk-bench builds side by side on one device, in one run: an A/B comparison of a change.

usage: bench_ab.py A/dmlvk-bench B/dmlvk-bench [--passes N] [--out results.json] [-- dmlvk-bench args]

Runs the two binaries alternately in the order A B B A A B ... (so that a drift of the device's
clocks over the run weighs on both alike), each pass one `dmlvk-bench --json` process with the
given arguments (say `--preset sweep --only roi_align_grad --iterations 50`), and prints per
workload every pass's time, the median of each build and the change of B's median against A's.
One process per pass because a difference between processes (note 59's two modes) is part of
the noise a change must beat. Each process's times go to stderr as it ends, so that a run cut
short (a device call's time limit) keeps the passes it finished. Python's standard library only:
it runs where PyTorch is missing.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys


def run_alternated(runs, passes, bench_args):
    """Runs each (name, dmlvk-bench, environment) of `runs` once per pass, in order on odd passes
    and reversed on even ones, one `dmlvk-bench --json` process each. Returns every pass's result
    per name and the device, which must be the same for all."""
    results = {name: [] for name, _, _ in runs}
    devices = set()
    for k in range(passes):
        for name, bench, env in runs if k % 2 == 0 else reversed(runs):
            out = subprocess.run([bench, "--json", *bench_args], env={**os.environ, **env}, check=True,
                                 stdout=subprocess.PIPE, text=True).stdout
            result = json.loads(out)
            devices.add(result["device"])
            results[name].append(result)
            print(f"pass {k + 1} of {name}: {len(result['results'])} workloads, "
                  f"copy ceiling {result['copy_gbps']:.0f} GB/s", file=sys.stderr, flush=True)
            for r in result["results"]:
                print(f"  {r['name']} {r['ms']:.5f} ms", file=sys.stderr, flush=True)
    if len(devices) != 1:
        sys.exit(f"the passes ran on different devices: {sorted(devices)}")
    return results, devices.pop()


def row_times(results):
    """Each workload's times (ms) over one name's passes."""
    times = {}
    for result in results:
        for r in result["results"]:
            times.setdefault(r["name"], []).append(r["ms"])
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="the baseline's dmlvk-bench")
    parser.add_argument("b", help="the change's dmlvk-bench")
    parser.add_argument("--passes", type=int, default=2, help="passes of each build (default 2)")
    parser.add_argument("--out", help="write every pass's results here as JSON")
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    opts = parser.parse_args(argv[:split])
    opts.bench_args = argv[split + 1:]
    if opts.passes < 1:
        parser.error("--passes must be at least 1")

    passes, device = run_alternated([("A", opts.a, {}), ("B", opts.b, {})], opts.passes, opts.bench_args)
    if opts.out:
        with open(opts.out, "w") as f:
            json.dump({"a": opts.a, "b": opts.b, "args": opts.bench_args, "passes": {"a": passes["A"], "b": passes["B"]}},
                      f, indent=1)

    names = [r["name"] for r in passes["A"][0]["results"]]
    times = {w: row_times(passes[w.upper()]) for w in "ab"}
    ceilings = {w: [p["copy_gbps"] for p in passes[w.upper()]] for w in "ab"}
    print(f"device: {device}")
    print(f"A: {opts.a} (copy ceiling {min(ceilings['a']):.0f}-{max(ceilings['a']):.0f} GB/s)")
    print(f"B: {opts.b} (copy ceiling {min(ceilings['b']):.0f}-{max(ceilings['b']):.0f} GB/s)")
    print(f"dmlvk-bench {' '.join(opts.bench_args)}, {opts.passes} passes each, ms\n")
    width = max([len(n) for n in names] + [8])
    print(f"{'workload':<{width}}  {'A':>{8 * opts.passes}}  {'B':>{8 * opts.passes}}  {'change':>7}")
    for name in names:
        a, b = times["a"].get(name, []), times["b"].get(name, [])
        if not a or not b:
            continue
        change = statistics.median(b) / statistics.median(a) - 1
        cells = lambda v: " ".join(f"{t:7.4f}" for t in v)
        print(f"{name:<{width}}  {cells(a):>{8 * opts.passes}}  {cells(b):>{8 * opts.passes}}  {change:+7.1%}")


if __name__ == "__main__":
    main()
