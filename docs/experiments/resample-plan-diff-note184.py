#!/usr/bin/env python3
"""BENCHMARKS.md note 184: lists the resample rows whose plan differs between two planner builds
(an experiment aid, not run by meson or CI).

usage: resample-plan-diff-note184.py BENCH PROBE_A PROBE_B [VAR=VALUE]

BENCH is a dmlvk-bench (its `--list` names the random rows of seeds 1-16, count 64); PROBE_A and
PROBE_B are builds of resample-plan-probe-note174.c; with VAR=VALUE, PROBE_B runs with that
environment variable set (one build of a knob patch for both). The sweep's 4-D resample rows come
from tools/dmlvk_bench.c's table. Prints each changed row with both probes' dispatch lines.
"""
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

BENCH, PROBE_A, PROBE_B = sys.argv[1:4]
KNOB = sys.argv[4] if len(sys.argv) > 4 else None
HERE = os.path.dirname(os.path.abspath(__file__))


def rows():
    src = open(os.path.join(HERE, '..', '..', 'tools', 'dmlvk_bench.c')).read()
    for m in re.finditer(r'\{ "(\w+)", (BILINEAR_GRAD|NEAREST_GRAD|BILINEAR|NEAREST), (F32|F16|BF16), ([^}]*)\}', src):
        name, op, t, rest = m.groups()
        f = dict(re.findall(r'\.(\w+) = (\d+)', rest))
        if all(k in f for k in ('n', 'c', 'h', 'w', 'oh', 'ow')):
            yield ('sweep', name + '_' + t.lower(), 'bwd' if 'GRAD' in op else 'fwd', t.lower(),
                   'nearest' if 'NEAREST' in op else 'linear', 'nhwc' if 'nhwc' in name else 'nchw',
                   f['n'], f['c'], f['h'], f['w'], f['oh'], f['ow'])
    for seed in range(1, 17):
        out = subprocess.run([BENCH, '--preset', 'random', '--seed', str(seed), '--count', '64', '--list'],
                             capture_output=True, text=True, check=True).stdout.split()
        for r in out:
            m = re.match(r'(rnd\d+)_(bilinear|nearest)(_grad)?_(f32|f16|bf16)(_nhwc)?_(\d+)x(\d+)x(\d+)x(\d+)_(\d+)x(\d+)$', r)
            if not m:
                continue
            _, mode, grad, t, nhwc, n, c, a, b, x, y = m.groups()
            # names give the forward's input first (for a gradient the written tensor), as the probe
            # takes them; until note 185 this swapped them for gradients, probing transposed problems
            small, big = (a, b), (x, y)
            yield ('s%d' % seed, r, 'bwd' if grad else 'fwd', t, 'nearest' if mode == 'nearest' else 'linear',
                   'nhwc' if nhwc else 'nchw', n, c, small[0], small[1], big[0], big[1])


def probe(r, exe, knob):
    env = dict(os.environ)
    if knob:
        k, v = knob.split('=', 1)
        env[k] = v
    return subprocess.run([exe] + list(r[2:]), capture_output=True, text=True, env=env).stdout


def both(r):
    return r, probe(r, PROBE_A, None), probe(r, PROBE_B, KNOB)


count = 0
with ThreadPoolExecutor(os.cpu_count()) as ex:
    for r, a, b in ex.map(both, list(rows())):
        count += 1
        if a != b:
            print(r[0], r[1])
            print('  A', a.strip().replace('\n', ' | '))
            print('  B', b.strip().replace('\n', ' | '))
print('rows', count, file=sys.stderr)
