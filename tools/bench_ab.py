#!/usr/bin/env python3
"""Two dmlvk-bench builds side by side on one device, in one run: an A/B comparison of a change.

usage: bench_ab.py A/dmlvk-bench B/dmlvk-bench [--passes N] [--out results.json] [-- dmlvk-bench args]

Runs the two binaries alternately in the order A B B A A B ... (so that a drift of the device's
clocks over the run weighs on both alike), each pass one `dmlvk-bench --json` process with the
given arguments (say `--preset sweep --only roi_align_grad --iterations 50`), and prints per
workload every pass's time, the median of each build and the change of B's median against A's.
One process per pass because a difference between processes (note 59's two modes) is part of
the noise a change must beat. Python's standard library only: it runs where PyTorch is missing.
"""
import argparse
import json
import statistics
import subprocess
import sys


def run_pass(bench, args):
    out = subprocess.run([bench, "--json", *args], check=True, stdout=subprocess.PIPE, text=True).stdout
    return json.loads(out)


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

    order = []
    for k in range(opts.passes):
        order += ["a", "b"] if k % 2 == 0 else ["b", "a"]
    passes = {"a": [], "b": []}
    devices = set()
    for which in order:
        result = run_pass(opts.a if which == "a" else opts.b, opts.bench_args)
        devices.add(result["device"])
        passes[which].append(result)
        print(f"pass {len(passes[which])} of {which.upper()}: {len(result['results'])} workloads, "
              f"copy ceiling {result['copy_gbps']:.0f} GB/s", file=sys.stderr, flush=True)
    if len(devices) != 1:
        sys.exit(f"the passes ran on different devices: {sorted(devices)}")
    if opts.out:
        with open(opts.out, "w") as f:
            json.dump({"a": opts.a, "b": opts.b, "args": opts.bench_args, "passes": passes}, f, indent=1)

    names = [r["name"] for r in passes["a"][0]["results"]]
    times = {w: {n: [] for n in names} for w in "ab"}
    for w in "ab":
        for result in passes[w]:
            for r in result["results"]:
                times[w].setdefault(r["name"], []).append(r["ms"])
    ceilings = {w: [p["copy_gbps"] for p in passes[w]] for w in "ab"}
    print(f"device: {devices.pop()}")
    print(f"A: {opts.a} (copy ceiling {min(ceilings['a']):.0f}-{max(ceilings['a']):.0f} GB/s)")
    print(f"B: {opts.b} (copy ceiling {min(ceilings['b']):.0f}-{max(ceilings['b']):.0f} GB/s)")
    print(f"dmlvk-bench {' '.join(opts.bench_args)}, {opts.passes} passes each, ms\n")
    width = max([len(n) for n in names] + [8])
    print(f"{'workload':<{width}}  {'A':>{8 * opts.passes}}  {'B':>{8 * opts.passes}}  {'change':>7}")
    for name in names:
        a, b = times["a"][name], times["b"][name]
        if not a or not b:
            continue
        change = statistics.median(b) / statistics.median(a) - 1
        cells = lambda v: " ".join(f"{t:7.4f}" for t in v)
        print(f"{name:<{width}}  {cells(a):>{8 * opts.passes}}  {cells(b):>{8 * opts.passes}}  {change:+7.1%}")


if __name__ == "__main__":
    main()
