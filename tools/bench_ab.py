#!/usr/bin/env python3
"""Two dmlvk-bench builds side by side on one device, in one run: an A/B comparison of a change.

usage: bench_ab.py A/dmlvk-bench B/dmlvk-bench [--passes N] [--out results.json] [-- dmlvk-bench args]

Runs the two binaries alternately in the order A B B A A B ... (so that a drift of the device's
clocks over the run weighs on both alike), each pass one `dmlvk-bench --json` process with the
given arguments (say `--preset sweep --only roi_align_grad --iterations 50`), and prints per
workload every pass's time, the median of each build and the change of B's median against A's.
One process per pass because a difference between processes (note 59's two modes) is part of
the noise a change must beat. Each process's times go to stderr as it ends, and --out's JSON is
written again after every process; a run stopped by SIGTERM (`timeout`, a device call's time
limit) or Ctrl-C prints its table from the passes it finished, and its JSON says "complete":
false. Python's standard library only: it runs where PyTorch is missing.
"""
import argparse
import json
import os
import signal
import statistics
import subprocess
import sys


class Cut(Exception):
    """The run was stopped before its last pass."""


def run_alternated(runs, passes, bench_args, on_pass=None):
    """Runs each (name, dmlvk-bench, environment) of `runs` once per pass, in order on odd passes
    and reversed on even ones, one `dmlvk-bench --json` process each. Returns every pass's result
    per name, the device, which must be the same for all, and whether every pass ran: where the
    run is stopped (SIGTERM, as `timeout` sends to the whole process group, or Ctrl-C), what
    finished stands, and SIGTERM stays ignored from then on: `timeout` signals the tool twice (the
    command, then its group), and a second signal after the first's handling would kill the
    caller while it prints what finished. on_pass(results), if given, runs after every process,
    so that a caller can keep each pass before the next starts."""
    results = {name: [] for name, _, _ in runs}
    devices = set()
    cut = False

    def stop(signum, frame):
        nonlocal cut
        if not cut:
            cut = True
            raise Cut()

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        try:
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
                    if on_pass:
                        on_pass(results)
        except subprocess.CalledProcessError as e:
            if e.returncode >= 0:  # dmlvk-bench failed; a negative code is a signal, the run's stop
                raise
            cut = True
    except (Cut, KeyboardInterrupt):
        cut = True
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN if cut else previous)
    if cut:
        done = sum(len(v) for v in results.values())
        print(f"stopped after {done} of {passes * len(runs)} processes; what finished follows", file=sys.stderr,
              flush=True)
    if not devices:
        sys.exit("no pass finished")
    if len(devices) != 1:
        sys.exit(f"the passes ran on different devices: {sorted(devices)}")
    return results, devices.pop(), not cut


def row_times(results):
    """Each workload's times (ms) over one name's passes."""
    times = {}
    for result in results:
        for r in result["results"]:
            times.setdefault(r["name"], []).append(r["ms"])
    return times


def first_rows(passes):
    """The workload names of the first pass that finished, in its order."""
    for results in passes.values():
        if results:
            return [r["name"] for r in results[0]["results"]]
    return []


def write_json(path, value):
    """Writes value to path whole or not at all: a stop mid-write leaves the last complete file."""
    with open(path + ".tmp", "w") as f:
        json.dump(value, f, indent=1)
    os.replace(path + ".tmp", path)


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

    def save(passes, complete):
        if opts.out:
            write_json(opts.out, {"a": opts.a, "b": opts.b, "args": opts.bench_args, "complete": complete,
                                  "passes": {"a": passes["A"], "b": passes["B"]}})

    passes, device, complete = run_alternated([("A", opts.a, {}), ("B", opts.b, {})], opts.passes, opts.bench_args,
                                              on_pass=lambda p: save(p, False))
    save(passes, complete)

    names = first_rows(passes)
    times = {w: row_times(passes[w.upper()]) for w in "ab"}

    def ceiling(w):
        c = [p["copy_gbps"] for p in passes[w.upper()]]
        return f"copy ceiling {min(c):.0f}-{max(c):.0f} GB/s" if c else "no pass finished"

    print(f"device: {device}")
    print(f"A: {opts.a} ({ceiling('a')})")
    print(f"B: {opts.b} ({ceiling('b')})")
    print(f"dmlvk-bench {' '.join(opts.bench_args)}, {opts.passes} passes each"
          f"{'' if complete else ' (stopped early: fewer passes finished)'}, ms\n")
    width = max([len(n) for n in names] + [8])
    print(f"{'workload':<{width}}  {'A':>{8 * opts.passes}}  {'B':>{8 * opts.passes}}  {'change':>7}")
    for name in names:
        a, b = times["a"].get(name, []), times["b"].get(name, [])
        change = f"{statistics.median(b) / statistics.median(a) - 1:+7.1%}" if a and b else "-"
        cells = lambda v: " ".join(f"{t:7.4f}" for t in v) or "-"
        print(f"{name:<{width}}  {cells(a):>{8 * opts.passes}}  {cells(b):>{8 * opts.passes}}  {change:>7}")


if __name__ == "__main__":
    main()
