#!/usr/bin/env python3
"""dmlvk-bench side by side with PyTorch's CUDA backward kernels, on the same shapes, in one run.

usage: bench_torch.py [--bench PATH/dmlvk-bench] [--preset gpu|sweep|random] [--seed N] [--count N] [--iterations N]
                      [--only S] [--out results.json] [--mix | --op-only] [--chunk N]

Runs dmlvk-bench --json (Vulkan, on its own device), then times the PyTorch ops on the same
GPU with CUDA events (warm-up, then the median of many runs, random inputs), and prints a table
with both times, both fractions of dmlvk-bench's copy ceiling and the ratio.
"""
import argparse
import json
import statistics
import subprocess
import sys
import time

import torch
import torchvision  # noqa: F401  (registers torch.ops.torchvision)


def splitmix64(state):
    state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return state, z ^ (z >> 31)


def roi_boxes(rois, n, h, w, scale):
    """The boxes dmlvk-bench draws (tools/dmlvk_bench.c, roi_boxes), as torchvision's Kx5 rows."""
    s = 2024
    img_w, img_h = w / scale, h / scale
    rows = []
    for k in range(rois):
        u = []
        for _ in range(4):
            s, r = splitmix64(s)
            u.append((r >> 11) * 2.0 ** -53)
        bw, bh = 16 + u[2] * (img_w / 3), 16 + u[3] * (img_h / 3)
        x1, y1 = u[0] * (img_w - bw), u[1] * (img_h - bh)
        rows.append([k % n, x1, y1, x1 + bw, y1 + bh])
    return torch.tensor(rows, dtype=torch.float32)


def time_cuda(fn, iterations, warm_ms=1000.0):
    """As dmlvk-bench times: first keep the GPU busy for warm_ms of wall time and until two rounds
    agree within 2% (its clocks rise only under sustained load), then runs back to back with events
    between them and one synchronization at the end; the median."""
    previous, start_all = None, time.perf_counter()
    while True:
        t0 = time.perf_counter()
        for _ in range(20):
            fn()
        torch.cuda.synchronize()
        per_run = (time.perf_counter() - t0) / 20
        elapsed = (time.perf_counter() - start_all) * 1e3
        settled = previous is not None and abs(per_run - previous) <= 0.02 * previous
        previous = per_run
        if (elapsed >= warm_ms and settled) or elapsed >= 5000:
            break
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(iterations)]
    for start, end in events:
        start.record()
        fn()
        end.record()
    torch.cuda.synchronize()
    return statistics.median(start.elapsed_time(end) for start, end in events)


def torch_workload(p, iterations):
    """PyTorch's equivalent of a dmlvk-bench workload (its printed parameters), timed; None where
    PyTorch has none (ROI MAX, dmlvk's deterministic mode, regions of +-1e30)."""
    dtype = {"FLOAT32": torch.float32, "FLOAT16": torch.float16, "BFLOAT16": torch.bfloat16}[p["type"]]
    dev = "cuda"
    kind = p["kind"]
    n, c, h, w, oh, ow = p["n"], p["c"], p["h"], p["w"], p["oh"], p["ow"]

    def rand(*shape):
        return torch.rand(*shape, device=dev, dtype=dtype) * 2 - 1

    if kind in ("relu", "relu_grad"):
        shape, fmt = ([n, c, h, w], torch.channels_last) if p["channels_last"] else ([n], torch.contiguous_format)
        x = rand(*shape).contiguous(memory_format=fmt)
        if kind == "relu":
            return time_cuda(lambda: torch.relu(x), iterations)
        g = rand(*shape).contiguous(memory_format=fmt)
        return time_cuda(lambda: torch.ops.aten.threshold_backward(g, x, 0), iterations)
    if kind in ("nearest", "bilinear", "nearest_grad", "bilinear_grad"):
        one_d = p["dims"] == 3
        oc = p.get("oc", c)
        nearest = kind.startswith("nearest")
        if oc != c:
            # The channel axis scales too: a volume {N, D, H, W}, PyTorch's 5-D trilinear.
            small, big = [n, 1, c, h, w], [n, 1, oc, oh, ow]
            if kind == "bilinear":
                x = rand(*small)
                return time_cuda(lambda: torch.nn.functional.interpolate(
                    x, size=big[2:], mode="trilinear", align_corners=False), iterations)
            if kind == "bilinear_grad":
                g = rand(*big)
                return time_cuda(lambda: torch.ops.aten.upsample_trilinear3d_backward(
                    g, big[2:], small, False, None, None, None), iterations)
            if kind == "nearest":
                x = rand(*small)
                return time_cuda(lambda: torch.nn.functional.interpolate(x, size=big[2:], mode="nearest"), iterations)
            g = rand(*big)
            return time_cuda(lambda: torch.ops.aten.upsample_nearest3d_backward(
                g, big[2:], small, None, None, None), iterations)
        small, big = ([n, c, w], [n, c, ow]) if one_d else ([n, c, h, w], [n, c, oh, ow])
        fmt = torch.channels_last if p["channels_last"] else torch.contiguous_format
        # Other memory orders: a view of a tensor stored in that order (PyTorch's kernels take it
        # as it comes, copying where they need to).
        order = {"ncwh": (0, 1, 3, 2), "chwn": (1, 2, 3, 0)}.get(p.get("layout", "default"))

        def tensor(shape):
            if order is None:
                return rand(*shape).contiguous(memory_format=fmt)
            stored = rand(*[shape[d] for d in order])
            return stored.permute(*[order.index(d) for d in range(4)])

        if kind in ("nearest", "bilinear"):
            x = tensor(small)
            mode = "nearest" if nearest else ("linear" if one_d else "bilinear")
            corners = None if nearest else False
            return time_cuda(lambda: torch.nn.functional.interpolate(
                x, size=big[2:], mode=mode, align_corners=corners), iterations)
        g = tensor(big)
        if one_d and nearest:
            return time_cuda(lambda: torch.ops.aten.upsample_nearest1d_backward(g, big[2:], small, None), iterations)
        if one_d:
            return time_cuda(lambda: torch.ops.aten.upsample_linear1d_backward(
                g, big[2:], small, False, None), iterations)
        if nearest:
            return time_cuda(lambda: torch.ops.aten.upsample_nearest2d_backward(
                g, big[2:], small, None, None), iterations)
        return time_cuda(lambda: torch.ops.aten.upsample_bilinear2d_backward(
            g, big[2:], small, False, None, None), iterations)
    if kind in ("roi_align1", "roi_align_grad"):
        if p["maximum"] or p["deterministic"] or p["huge"]:
            return None
        rois, scale, ratio, aligned = p["rois"], p["spatial_scale"], p["samples"], bool(p["aligned"])
        # torchvision has no bfloat16 kernels: a bfloat16 model runs the float32 ones on upcast
        # inputs and casts back, and that is what is timed.
        up = torch.float32 if dtype == torch.bfloat16 else dtype
        boxes = roi_boxes(rois, n, h, w, scale).to(dev, up)
        if kind == "roi_align1":
            x = rand(n, c, h, w)
            return time_cuda(lambda: torchvision.ops.roi_align(
                x.to(up), boxes, (oh, ow), scale, ratio, aligned).to(dtype), iterations)
        # The input gradient only (torchvision has no ROI gradient).
        g = rand(rois, c, oh, ow)
        return time_cuda(lambda: torch.ops.torchvision._roi_align_backward(
            g.to(up), boxes, scale, oh, ow, n, c, h, w, ratio, aligned).to(dtype), iterations)
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", default="build/tools/dmlvk-bench")
    ap.add_argument("--iterations", type=int, default=50)
    ap.add_argument("--out")
    ap.add_argument("--only", help="passed to dmlvk-bench: workloads whose name contains one of its "
                    "comma-separated substrings")
    ap.add_argument("--preset", default="gpu", help="passed to dmlvk-bench: gpu, sweep or random")
    ap.add_argument("--seed", help="passed to dmlvk-bench: the random preset's seed")
    ap.add_argument("--count", help="passed to dmlvk-bench: the random preset's workloads")
    ap.add_argument("--shape", help="passed to dmlvk-bench: resample shapes by name (its --help) instead of the "
                    "preset's workloads")
    ap.add_argument("--mix", action="store_true", help="passed to dmlvk-bench: each row against a copy of its own "
                    "bytes read and written (a \"same mix\" column)")
    ap.add_argument("--op-only", action="store_true", help="passed to dmlvk-bench: no same-size copy per "
                    "workload (its column reads 0.0%%), for checks of many rows against PyTorch alone")
    ap.add_argument("--chunk", type=int, default=0, help="run dmlvk-bench on this many workloads per process "
                    "(from its --list), PyTorch after each, and write --out after each, so that a run stopped by a "
                    "time limit keeps the rows that finished; 0 (the default): one process for all")
    args = ap.parse_args()

    only = ["--only", args.only] if args.only else []
    mix = ["--mix"] if args.mix else []
    op_only = ["--op-only"] if args.op_only else []
    draw = ((["--seed", args.seed] if args.seed else []) + (["--count", args.count] if args.count else [])
            + (["--shape", args.shape] if args.shape else []))
    preset = ["--preset", args.preset] + draw
    common = [args.bench, "--json"] + preset + ["--iterations", str(args.iterations)] + mix + op_only
    if args.chunk > 0:
        names = subprocess.run([args.bench] + preset + ["--list"] + only, check=True,
                               capture_output=True, text=True).stdout.split()
        chunks = [names[i:i + args.chunk] for i in range(0, len(names), args.chunk)]
        if not chunks:
            sys.exit(f"bench_torch.py: no workload of --preset {args.preset} matches --only {args.only}")
    else:
        chunks = [None]
    width = 58 if args.preset == "random" or args.shape else 44  # their names carry the shapes
    head = (f"{'workload':{width}} {'dmlvk ms':>9} {'of copy':>8} {'same size':>9} "
            + (f"{'same mix':>9} " if args.mix else "") + f"{'torch ms':>9} {'of copy':>8} {'speedup':>8}")
    first, rows = None, []
    for k, chunk in enumerate(chunks):
        pick = ["--only", ",".join(chunk)] if chunk else only
        run = subprocess.run(common + pick, check=True, capture_output=True, text=True)
        ours = json.loads(run.stdout)
        copy = ours["copy_gbps"]
        if first is None:
            first = ours
            print(f"device: {ours['device']}, torch {torch.__version__} on {torch.cuda.get_device_name()}")
            print(f"copy ceiling (dmlvk-bench, compute-shader copy): {copy:.0f} GB/s"
                  + (f" in the first of {len(chunks)} processes" if len(chunks) > 1 else "") + "\n")
            print(head)
            print("-" * len(head))
        for r in ours["results"]:
            if chunk and r["name"] not in chunk:
                continue  # --only matches substrings: another chunk's row
            t = torch_workload(r["params"], args.iterations)
            torch_frac = (r["bytes"] / (t * 1e6)) / copy if t else None
            speedup = t / r["ms"] if t else None
            rows.append(dict(r, torch_ms=t, torch_fraction_of_copy=torch_frac, speedup=speedup, copy_gbps=copy))
            print(f"{r['name']:{width}} {r['ms']:9.4f} {100 * r['fraction_of_copy']:7.1f}% "
                  f"{100 * r['fraction_of_same_size_copy']:8.1f}% "
                  + (f"{100 * r['fraction_of_same_mix_copy']:8.1f}% " if args.mix else "")
                  + (f"{t:9.4f} {100 * torch_frac:7.1f}% {speedup:7.2f}x" if t else f"{'-':>9} {'-':>8} {'-':>8}"))
            sys.stdout.flush()
        if args.out:  # after every process, so that a run stopped by a time limit keeps what finished
            with open(args.out, "w") as f:
                json.dump(dict(first, results=rows, torch=torch.__version__, complete=k + 1 == len(chunks)), f,
                          indent=1)


if __name__ == "__main__":
    main()
