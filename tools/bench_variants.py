#!/usr/bin/env python3
"""One dmlvk-bench under several environments side by side on one device, in one run.

usage: bench_variants.py BENCH [--passes N] [--out results.json] NAME[:VAR=VALUE[,VAR=VALUE...]] ...
                         -- dmlvk-bench args

For experiment builds whose choices come from environment variables (never committed; see
BENCHMARKS.md "How to run"): each variant is a name and the variables it sets, the first one the
baseline (say `base:` with none). Runs one `dmlvk-bench --json` process per variant and pass, the
variants in order on odd passes and reversed on even ones (so that a drift of the device's clocks
weighs on all alike), and prints per workload the median time of each variant and its change
against the first. tools/bench_ab.py compares two binaries the same way and runs the passes for
both (run_alternated; as there, --out is written after every process, and a run stopped by
SIGTERM or Ctrl-C prints what finished). Python's standard library only: it runs where PyTorch
is missing.
"""
import argparse
import json
import statistics
import sys

from bench_ab import first_rows, row_times, run_alternated, write_json


def parse_variant(text):
    name, _, assignments = text.partition(":")
    if not name:
        raise argparse.ArgumentTypeError(f"variant {text!r}: no name before ':'")
    env = {}
    for item in filter(None, assignments.split(",")):
        var, eq, value = item.partition("=")
        if not eq or not var:
            raise argparse.ArgumentTypeError(f"variant {text!r}: {item!r} is not VAR=VALUE")
        env[var] = value
    return name, env


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bench", help="the experiment build's dmlvk-bench")
    parser.add_argument("variants", nargs="+", type=parse_variant, help="NAME[:VAR=VALUE,...], the first the baseline")
    parser.add_argument("--passes", type=int, default=2, help="passes of each variant (default 2)")
    parser.add_argument("--out", help="write every pass's results here as JSON")
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    opts = parser.parse_args(argv[:split])
    bench_args = argv[split + 1:]
    if opts.passes < 1:
        parser.error("--passes must be at least 1")
    names = [name for name, _ in opts.variants]
    if len(set(names)) != len(names):
        parser.error("variant names must differ")

    def save(passes, complete):
        if opts.out:
            write_json(opts.out, {"bench": opts.bench, "variants": dict(opts.variants), "args": bench_args,
                                  "complete": complete, "passes": passes})

    passes, device, complete = run_alternated([(name, opts.bench, env) for name, env in opts.variants], opts.passes,
                                              bench_args, on_pass=lambda p: save(p, False))
    save(passes, complete)

    times = {name: row_times(passes[name]) for name in names}
    rows = first_rows(passes)
    print(f"device: {device}")
    print(f"{opts.bench} {' '.join(bench_args)}, {opts.passes} passes each"
          f"{'' if complete else ' (stopped early: fewer passes finished)'}, median ms (change against {names[0]};"
          f" - where none finished)\n")
    width = max([len(n) for n in rows] + [8])
    cell = max([len(n) for n in names] + [16])
    print(f"{'workload':<{width}}" + "".join(f"  {n:>{cell}}" for n in names))
    for row in rows:
        base = statistics.median(times[names[0]][row]) if row in times[names[0]] else None
        cells = []
        for n in names:
            if row not in times[n]:
                cells.append("-")
                continue
            m = statistics.median(times[n][row])
            cells.append(f"{m:.4f}" if n == names[0] or base is None else f"{m:.4f} {m / base - 1:+6.1%}")
        print(f"{row:<{width}}" + "".join(f"  {c:>{cell}}" for c in cells))


if __name__ == "__main__":
    main()
