#!/usr/bin/env python3
"""Random cases for dmlvk-run from a second, independent reading of OPERATORS.md.

tests/reference.c and the library were written by the same hands, so a point of the spec both read
the same wrong way would pass refgen's cases. This generator was written from OPERATORS.md's text
alone, without looking at either: sample positions, cells and weights on exact rationals
(fractions.Fraction, from the values as the tensors and descriptor fields hold them), sums in
float64. Its draws also differ from refgen's: arbitrary float coordinates and feature-stride
spatial scales (1/4 to 1/32), random pixel offsets and scales, regions far larger than the map,
inputs of few distinct values (ties under MAX), permuted and padded strides, broadcast inputs.
Tolerances: 8 ulp (float32) or 1 ulp (16-bit types), or an absolute error relative to the largest
sum of the terms' magnitudes (float32 rounds each term; the ROI gradient's terms are the taps'
products, not their exact differences).

usage: crosscheck.py OUTDIR SEED COUNT [SIZE]  (COUNT cases per operator, one file per operator; SIZE
(default 1) multiplies the bounds of maps, channels and regions)
"""
import json, math, os, random, struct, sys
from fractions import Fraction as F


def f32(v):
    return struct.unpack('<f', struct.pack('<f', v))[0]


def f16(v):
    return struct.unpack('<e', struct.pack('<e', v))[0]


def bf16(v):
    b = struct.unpack('<I', struct.pack('<f', f32(v)))[0]
    b = (b + 0x7fff + ((b >> 16) & 1)) & 0xffff0000
    return struct.unpack('<f', struct.pack('<I', b))[0]


ROUND = {'FLOAT32': f32, 'FLOAT16': f16, 'BFLOAT16': bf16}


def packed(sizes):
    st, acc = [0] * len(sizes), 1
    for d in reversed(range(len(sizes))):
        st[d] = acc
        acc *= sizes[d]
    return st


def strides_for(rng, sizes, allow_broadcast):
    """Packed strides of a random axis order, sometimes padded, sometimes (inputs) broadcast."""
    n = len(sizes)
    order = list(range(n))
    if rng.random() < 0.5:
        rng.shuffle(order)
    st, acc = [0] * n, 1
    for d in reversed(order):
        st[d] = acc
        acc *= sizes[d] + (rng.randint(1, 3) if rng.random() < 0.25 else 0)
    if allow_broadcast and rng.random() < 0.2:
        d = rng.randrange(n)
        st[d] = 0
    return st


def index_iter(sizes):
    if not sizes:
        yield ()
        return
    for i in range(sizes[0]):
        for rest in index_iter(sizes[1:]):
            yield (i,) + rest


def flat(idx, sizes):
    o = 0
    for i, s in zip(idx, sizes):
        o = o * s + i
    return o


def splitmix64(seed, n, lo, hi, dtype):
    """CASES.md's "random" data as README.md documents it, in logical order, rounded to the type."""
    state, out, mask = seed, [], (1 << 64) - 1
    for _ in range(n):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        z ^= z >> 31
        out.append(ROUND[dtype](lo + (hi - lo) * (z >> 11) * 2.0 ** -53))
    return out


def tensor(rng, dtype, sizes, values=None, output=False, plain=False, drawn=None):
    """A tensor's JSON and its logical values. With `drawn` (min, max), a third of the inputs that
    broadcast nothing come as "random" data instead of the values given."""
    t = {'dataType': dtype, 'sizes': list(sizes)}
    st = packed(sizes) if plain else strides_for(rng, sizes, not output and values is not None)
    if st != packed(sizes):
        t['strides'] = st
    if values is not None and drawn and 0 not in st and rng.random() < 0.3:
        seed = rng.randrange(1 << 63)
        t['random'] = {'seed': seed, 'min': drawn[0], 'max': drawn[1]}
        return t, splitmix64(seed, len(values), drawn[0], drawn[1], dtype)
    if values is not None:
        # a broadcast axis repeats its first element's values
        vals = []
        for idx in index_iter(sizes):
            src = tuple(0 if st[d] == 0 else idx[d] for d in range(len(sizes)))
            vals.append(values[flat(src, sizes)])
        t['data'] = vals
        return t, vals
    return t, None


def rnd_values(rng, n, dtype, lo=-2, hi=2):
    r = ROUND[dtype]
    return [r(rng.uniform(lo, hi)) for _ in range(n)]


def expected(vals, dtype, mag):
    rel = {'FLOAT32': 2e-5, 'FLOAT16': 3e-3, 'BFLOAT16': 2e-2}[dtype]
    return {'data': vals, 'ulp': 8 if dtype == 'FLOAT32' else 1, 'abs': rel * (mag + 1e-3)}



ENUMS = {'InterpolationMode': ('DML_INTERPOLATION_MODE_', {'NEAREST_NEIGHBOR': 0, 'LINEAR': 1}),
         'RoundingDirection': ('DML_AXIS_DIRECTION_', {'INCREASING': 0, 'DECREASING': 1}),
         'ReductionFunction': ('DML_REDUCE_FUNCTION_', {'AVERAGE': 2, 'MAX': 7})}


def spell(rng, desc):
    """CASES.md's other spellings: enumerations by number or by DirectML's full name, an explicit
    DimensionCount."""
    for key, (prefix, numbers) in ENUMS.items():
        if key in desc:
            k = rng.random()
            if k < 0.2:
                desc[key] = numbers[desc[key]]
            elif k < 0.4:
                desc[key] = prefix + desc[key]
    if 'Scales' in desc and rng.random() < 0.3:
        desc['DimensionCount'] = len(desc['Scales'])
    return desc


# ---------------------------------------------------------------- ReLU

def relu_case(rng, n, grad, dtype):
    dims = rng.randint(1, 8)
    sizes = [rng.randint(1, 4) for _ in range(dims)]
    count = math.prod(sizes)
    special = [0.0, -0.0, float('nan'), float('inf'), float('-inf')]
    def values():
        return [rng.choice(special) if rng.random() < 0.15 else ROUND[dtype](rng.uniform(-2, 2)) for _ in range(count)]
    tx, x = tensor(rng, dtype, sizes, values())
    tensors = {'InputTensor': tx}
    if grad:
        tdy, dy = tensor(rng, dtype, sizes, values())
        tensors['InputGradientTensor'] = tdy
        out = [d if v > 0 else 0.0 for v, d in zip(x, dy)]
        name = 'OutputGradientTensor'
    else:
        out = [v if v > 0 else 0.0 for v in x]
        name = 'OutputTensor'
    tensors[name], _ = tensor(rng, dtype, sizes, output=True)
    op = 'ACTIVATION_RELU_GRAD' if grad else 'ACTIVATION_RELU'
    c = {'name': f'crosscheck/{op.lower()}-{n}-{dtype.lower()}', 'operator': op, 'desc': {}, 'tensors': tensors,
         'expected': {name: {'data': [json_number(v) for v in out]}}}
    for t in tensors.values():
        if 'data' in t:
            t['data'] = [json_number(v) for v in t['data']]
    if dtype != 'FLOAT32':
        c['requires'] = ['float16']
    return c


def json_number(v):
    if math.isnan(v):
        return 'nan'
    if math.isinf(v):
        return 'inf' if v > 0 else '-inf'
    return v


# ---------------------------------------------------------------- resample

def axis_taps(o, S, scale, in_off, out_off, linear, rounding):
    x = (F(o) - F(out_off)) / F(scale) - F(in_off)
    if linear:
        c = min(max(x, F(0)), F(S - 1))
        i = math.floor(c)
        w = c - i
        return [(i, 1 - w), (min(i + 1, S - 1), w)]
    if rounding == 'half_down':
        k = math.ceil(x - F(1, 2))
    elif rounding == 'floor':
        k = math.floor(x)
    else:
        k = math.ceil(x)
    return [(min(max(k, 0), S - 1), F(1))]


def resample_case(rng, n, op, dtype, size):
    dims = 4 if op == 'RESAMPLE_GRAD' else rng.randint(1, 4)
    linear = rng.random() < 0.6
    rounding = 'half_down'
    rd = None
    if op in ('RESAMPLE2', 'RESAMPLE_GRAD1'):
        rd = rng.choice(['DECREASING', 'INCREASING'])
        rounding = 'floor' if rd == 'DECREASING' else 'ceil'
    scales, ioffs, ooffs, small, big = [], [], [], [], []
    for d in range(dims):
        active = dims <= 2 or d >= dims - 2 or rng.random() < 0.3
        if active:
            k = rng.random()
            if k < 0.4:
                s = rng.choice([2, 0.5, 3, 1 / 3, 1.5, 0.75, 4, 0.25, 1, 2.5, 1.25, 0.8, 7 / 3])
            else:
                s = math.exp(rng.uniform(math.log(0.2), math.log(5)))
        else:
            s = 1
        s = f32(s)
        kind = rng.random()
        if kind < 0.3:
            io, oo = 0.5, -0.5
        elif kind < 0.45:
            io, oo = 0, 0
        elif kind < 0.55:
            io, oo = 0, -0.5
        else:
            io, oo = f32(rng.uniform(-2, 2)), f32(rng.uniform(-2, 2))
        sm = rng.randint(1, 9 * size if active else 3)
        bg = max(1, int(math.floor(sm * s + 0.5)) + (rng.randint(-3, 3) if rng.random() < 0.3 else 0))
        scales.append(s); ioffs.append(io); ooffs.append(oo); small.append(sm); big.append(bg)
    forward = op in ('RESAMPLE1', 'RESAMPLE2')
    taps = [[axis_taps(o, small[d], scales[d], ioffs[d], ooffs[d], linear, rounding) for o in range(big[d])]
            for d in range(dims)]
    nsmall = math.prod(small)
    nbig = math.prod(big)
    if forward:
        xin = rnd_values(rng, nsmall, dtype)
        t_in, xin = tensor(rng, dtype, small, xin, drawn=(-2, 2))
        out = [0.0] * nbig
        mag = [0.0] * nbig
        for o in index_iter(big):
            terms = []
            def rec(d, w, idx):
                if d == dims:
                    terms.append(float(w) * xin[flat(idx, small)])
                    return
                for i, wi in taps[d][o[d]]:
                    rec(d + 1, w * wi, idx + (i,))
            rec(0, F(1), ())
            out[flat(o, big)] = math.fsum(terms)
            mag[flat(o, big)] = math.fsum(abs(t) for t in terms)
        t_out, _ = tensor(rng, dtype, big, output=True)
        tensors = {'InputTensor': t_in, 'OutputTensor': t_out}
        exp = {'OutputTensor': expected(out, dtype, max(mag))}
    else:
        dy = rnd_values(rng, nbig, dtype)
        t_dy, dy = tensor(rng, dtype, big, dy, drawn=(-2, 2))
        acc = [[] for _ in range(nsmall)]
        for o in index_iter(big):
            g = dy[flat(o, big)]
            def rec(d, w, idx):
                if d == dims:
                    acc[flat(idx, small)].append(float(w) * g)
                    return
                for i, wi in taps[d][o[d]]:
                    rec(d + 1, w * wi, idx + (i,))
            rec(0, F(1), ())
        out = [math.fsum(a) for a in acc]
        mag = max(math.fsum(abs(t) for t in a) for a in acc)
        t_out, _ = tensor(rng, dtype, small, output=True)
        tensors = {'InputGradientTensor': t_dy, 'OutputGradientTensor': t_out}
        exp = {'OutputGradientTensor': expected(out, dtype, mag)}
    desc = {'InterpolationMode': 'LINEAR' if linear else 'NEAREST_NEIGHBOR', 'Scales': scales,
            'InputPixelOffsets': ioffs, 'OutputPixelOffsets': ooffs}
    if rd:
        desc['RoundingDirection'] = rd
    c = {'name': f'crosscheck/{op.lower()}-{n}-{dtype.lower()}', 'operator': op, 'desc': spell(rng, desc),
         'tensors': tensors,
         'expected': exp}
    if dtype != 'FLOAT32':
        c['requires'] = ['float16']
    return c


# ---------------------------------------------------------------- ROI align

def roi_samples(q, r):
    """Region r's sample counts and its bins, each a list of samples (sy, sx, ty, tx) as Fractions."""
    x1, y1, x2, y2 = (F(v) for v in q['rois'][r])
    X1, X2 = x1 * F(q['sx']), x2 * F(q['sx'])
    Y1, Y2 = y1 * F(q['sy']), y2 * F(q['sy'])
    W, H = X2 - X1, Y2 - Y1
    OH, OW = q['oh'], q['ow']
    def count(extent, bins):
        n = math.ceil(abs(extent) / bins)
        return min(max(n, q['min']), q['max'])
    nx, ny = count(W, OW), count(H, OH)
    NX, NY = OW * nx, OH * ny
    def t_of(s, N):
        if q['corners']:
            return F(1, 2) if N == 1 else F(s, N - 1)
        return (F(s) - F(q['oo'])) / N
    bins = {}
    for oy in range(OH):
        for ox in range(OW):
            samples = []
            for jy in range(ny):
                ty = t_of(oy * ny + jy, NY)
                sy = Y1 + H * ty - F(q['io'])
                for jx in range(nx):
                    tx = t_of(ox * nx + jx, NX)
                    sx = X1 + W * tx - F(q['io'])
                    samples.append((sy, sx, ty, tx))
            bins[(oy, ox)] = samples
    return nx, ny, bins


def sample_taps(q, sy, sx):
    """Taps [(y, x, weight)] and derivative taps for d/dsy, d/dsx, or None when out of bounds."""
    Hn, Wn = q['h'], q['w']
    if sy < -1 or sy > Hn or sx < -1 or sx > Wn:
        return None
    cy = min(max(sy, F(0)), F(Hn - 1))
    cx = min(max(sx, F(0)), F(Wn - 1))
    if not q['linear']:
        return [(math.ceil(cy - F(1, 2)), math.ceil(cx - F(1, 2)), F(1))], [], []
    iy, ix = math.floor(cy), math.floor(cx)
    wy, wx = cy - iy, cx - ix
    jy, jx = min(iy + 1, Hn - 1), min(ix + 1, Wn - 1)
    taps = [(iy, ix, (1 - wy) * (1 - wx)), (iy, jx, (1 - wy) * wx), (jy, ix, wy * (1 - wx)), (jy, jx, wy * wx)]
    clamped_y = sy < 0 or sy > Hn - 1
    clamped_x = sx < 0 or sx > Wn - 1
    dy = [] if clamped_y else [(iy, ix, -(1 - wx)), (iy, jx, -wx), (jy, ix, 1 - wx), (jy, jx, wx)]
    dx = [] if clamped_x else [(iy, ix, -(1 - wy)), (iy, jx, 1 - wy), (jy, ix, -wy), (jy, jx, wy)]
    return taps, dy, dx


def region_table(q, r):
    """Region r's bins, each a list of samples: None where out of bounds, else the taps as (offset in
    the plane, float weight, exact weight), the derivative taps along y and x, and (ty, tx)."""
    nx, ny, bins = roi_samples(q, r)
    table = {}
    for key, smps in bins.items():
        rows = []
        for sy, sx, ty, tx in smps:
            tp = sample_taps(q, sy, sx)
            if tp is None:
                rows.append(None)
                continue
            w = q['w']
            rows.append({'taps': [(y * w + x, float(e), e) for y, x, e in tp[0]],
                         'dy': [(y * w + x, float(e)) for y, x, e in tp[1]],
                         'dx': [(y * w + x, float(e)) for y, x, e in tp[2]],
                         't': (float(ty), float(tx))})
        table[key] = rows
    return nx, ny, table


def roi_case(rng, n, backward, dtype, size):
    flavour = rng.random()
    q = {}
    q['b'] = rng.randint(1, 2)
    q['c'] = rng.randint(1, 3 * size)
    q['h'] = rng.randint(1, 10 * size)
    q['w'] = rng.randint(1, 10 * size)
    q['nr'] = rng.randint(1, 6 * size)
    q['oh'] = rng.randint(1, min(3 + size, 8))
    q['ow'] = rng.randint(1, min(3 + size, 8))
    q['linear'] = rng.random() < 0.75
    q['maximum'] = rng.random() < 0.35
    q['corners'] = rng.random() < 0.2
    if flavour < 0.3:   # detection heads: image coordinates, a feature stride
        q['sx'] = q['sy'] = rng.choice([1 / 16, 1 / 8, 1 / 4, 1 / 32])
    else:
        q['sx'] = f32(rng.choice([1, 0.5, 2, 0.3, 1.7]))
        q['sy'] = f32(rng.choice([1, 0.5, 2, 0.3, 1.7, q['sx']]))
    o = rng.random()
    if o < 0.35:
        q['io'], q['oo'] = 0.5, -0.5          # torchvision aligned=True
    elif o < 0.6:
        q['io'], q['oo'] = 0, -0.5            # aligned=False
    elif o < 0.7:
        q['io'], q['oo'] = 0, 0
    else:
        q['io'], q['oo'] = f32(rng.uniform(-1, 1)), f32(rng.uniform(-1, 1))
    if rng.random() < 0.35:
        q['min'], q['max'] = 1, 0xffffffff     # sampling_ratio 0
    else:
        q['min'] = rng.randint(1, 3)
        q['max'] = q['min'] + rng.choice([0, 0, 1, 2])
    rnd = ROUND[dtype]
    ex, ey = q['w'] / q['sx'], q['h'] / q['sy']
    rois = []
    for _ in range(q['nr']):
        k = rng.random()
        if k < 0.6:   # arbitrary floats, some overhanging
            c = [rng.uniform(-0.3 * ex, 1.2 * ex), rng.uniform(-0.3 * ey, 1.2 * ey),
                 rng.uniform(-0.3 * ex, 1.2 * ex), rng.uniform(-0.3 * ey, 1.2 * ey)]
            if rng.random() < 0.7:  # mostly ordered
                c = [min(c[0], c[2]), min(c[1], c[3]), max(c[0], c[2]), max(c[1], c[3])]
        elif k < 0.85:  # on a half-pixel grid
            c = [rng.randint(-2, 2 * int(ex) + 2) / 2, rng.randint(-2, 2 * int(ey) + 2) / 2,
                 rng.randint(-2, 2 * int(ex) + 2) / 2, rng.randint(-2, 2 * int(ey) + 2) / 2]
        else:  # far larger than the map
            c = [rng.uniform(-5, -1) * ex, rng.uniform(-5, -1) * ey, rng.uniform(2, 6) * ex, rng.uniform(2, 6) * ey]
        rois.append([rnd(v) for v in c])
    bidx = [rng.randrange(q['b']) for _ in range(q['nr'])]
    if backward and rng.random() < 0.15:
        bidx[rng.randrange(q['nr'])] = q['b'] + rng.randint(0, 3)
    # Adaptive counts on huge regions would make the case huge: bound them.
    for x1, y1, x2, y2 in rois:
        for ext, bins in ((abs(x2 - x1) * q['sx'], q['ow']), (abs(y2 - y1) * q['sy'], q['oh'])):
            if min(max(math.ceil(ext / bins), q['min']), q['max']) > 12:
                q['max'] = max(q['min'], 12)
    x_sizes = [q['b'], q['c'], q['h'], q['w']]
    y_sizes = [q['nr'], q['c'], q['oh'], q['ow']]
    few_values = True
    if rng.random() < 0.15:   # ties everywhere under MAX
        v = rnd(rng.uniform(-2, 2))
        xv = [v] * math.prod(x_sizes)
    elif rng.random() < 0.2:  # few distinct values: ties between samples on one element
        xv = [float(rng.randint(-2, 2)) for _ in range(math.prod(x_sizes))]
    else:
        xv = rnd_values(rng, math.prod(x_sizes), dtype)
        few_values = False
    roi_dims = rng.randint(2, 4)
    roi_sizes = [1] * (roi_dims - 2) + [q['nr'], 4]
    b_dims = rng.randint(1, 4)
    b_sizes = [1] * (b_dims - 1) + [q['nr']]
    tensors = {}
    tensors['ROITensor'], rv = tensor(rng, dtype, roi_sizes, [v for r in rois for v in r])
    q['rois'] = [rv[4 * r:4 * r + 4] for r in range(q['nr'])]
    tensors['BatchIndicesTensor'], bidx = tensor(rng, 'UINT32', b_sizes, bidx, plain=rng.random() < 0.5)
    xt, xv = tensor(rng, dtype, x_sizes, xv, drawn=None if few_values else (-2, 2))
    geo = [region_table(q, r) for r in range(q['nr'])]
    desc = {'ReductionFunction': 'MAX' if q['maximum'] else 'AVERAGE',
            'InterpolationMode': 'LINEAR' if q['linear'] else 'NEAREST_NEIGHBOR',
            'SpatialScaleX': q['sx'], 'SpatialScaleY': q['sy'], 'InputPixelOffset': q['io'],
            'OutputPixelOffset': q['oo'], 'MinimumSamplesPerOutput': q['min'],
            'MaximumSamplesPerOutput': q['max'], 'AlignRegionsToCorners': q['corners']}
    exp = {}
    plane = q['h'] * q['w']
    def value(smp, base):
        return math.fsum(w * xv[base + i] for i, w, _ in smp['taps'])
    def exact_value(smp, base):
        return sum((e * F(xv[base + i]) for i, _, e in smp['taps']), F(0))
    def first_largest(bins, base, oob):
        """MAX's winner: float64 values, exact rationals where two come within rounding."""
        best, bv = None, None
        for smp in bins:
            v = oob if smp is None else value(smp, base)
            if best is not None and abs(v - bv) <= 1e-9 * (abs(v) + abs(bv)) + 1e-300:
                ev = F(oob) if smp is None else exact_value(smp, base)
                eb = F(oob) if best == 'oob' else exact_value(best, base)
                if ev > eb:
                    best, bv = smp if smp is not None else 'oob', v
            elif bv is None or v > bv:
                best, bv = smp if smp is not None else 'oob', v
        return best, bv
    if not backward:
        oob = rnd(rng.uniform(-1, 1))
        desc['OutOfBoundsInputValue'] = oob
        out, mag = [], 0
        for r in range(q['nr']):
            nx, ny, bins = geo[r]
            b = bidx[r]
            for c in range(q['c']):
                base = (b * q['c'] + c) * plane
                for oy in range(q['oh']):
                    for ox in range(q['ow']):
                        smps = bins[(oy, ox)]
                        if q['maximum']:
                            best, bv = first_largest(smps, base, oob)
                            out.append(bv)
                            mag = max(mag, abs(oob) if best == 'oob' else
                                      math.fsum(abs(w * xv[base + i]) for i, w, _ in best['taps']))
                        else:
                            vals = [oob if smp is None else value(smp, base) for smp in smps]
                            out.append(math.fsum(vals) / len(vals))
                            mag = max(mag, math.fsum(abs(oob) if smp is None else
                                                     math.fsum(abs(w * xv[base + i]) for i, w, _ in smp['taps'])
                                                     for smp in smps) / len(smps))
        tensors['InputTensor'] = xt
        tensors['OutputTensor'], _ = tensor(rng, dtype, y_sizes, output=True)
        exp['OutputTensor'] = expected(out, dtype, mag)
        op = 'ROI_ALIGN1'
    else:
        op = 'ROI_ALIGN_GRAD'
        dyt, dyv = tensor(rng, dtype, y_sizes, rnd_values(rng, math.prod(y_sizes), dtype, -1, 1), drawn=(-1, 1))
        which = rng.randrange(3)
        want_dx, want_droi = which != 2, which != 1
        with_x = want_droi or q['maximum'] or rng.random() < 0.5
        dx = [[] for _ in range(len(xv))]
        droi = [[] for _ in range(4 * q['nr'])]
        droi_mag = [0.0] * (4 * q['nr'])
        for r in range(q['nr']):
            nx, ny, bins = geo[r]
            b = bidx[r]
            if b >= q['b']:
                continue
            for c in range(q['c']):
                base = (b * q['c'] + c) * plane
                for oy in range(q['oh']):
                    for ox in range(q['ow']):
                        g = dyv[((r * q['c'] + c) * q['oh'] + oy) * q['ow'] + ox]
                        smps = bins[(oy, ox)]
                        if q['maximum']:
                            # an out-of-bounds sample counts as 0 and, winning, passes nothing on
                            chosen, share = [first_largest(smps, base, 0.0)[0]], 1.0
                        else:
                            chosen, share = smps, 1.0 / len(smps)
                        gs = g * share
                        for smp in chosen:
                            if smp is None or smp == 'oob':
                                continue
                            for i, w, _ in smp['taps']:
                                if w != 0:
                                    dx[base + i].append(gs * w)
                            if q['linear']:
                                ty, tx = smp['t']
                                dvy = math.fsum(w * xv[base + i] for i, w in smp['dy'])
                                dvx = math.fsum(w * xv[base + i] for i, w in smp['dx'])
                                # float32 sums the taps' products: its error scales with their magnitudes
                                ay = math.fsum(abs(w * xv[base + i]) for i, w in smp['dy'])
                                ax = math.fsum(abs(w * xv[base + i]) for i, w in smp['dx'])
                                for k, (d, m, scale, t) in enumerate(((dvx, ax, q['sx'], tx), (dvy, ay, q['sy'], ty))):
                                    droi_mag[4 * r + k] += abs(gs) * m * scale
                                    droi_mag[4 * r + k + 2] += abs(gs) * m * scale
                                    droi[4 * r + k].append(gs * d * scale * (1 - t))
                                    droi[4 * r + k + 2].append(gs * d * scale * t)
        if with_x:
            tensors['InputTensor'] = xt
        tensors['InputGradientTensor'] = dyt
        if want_dx:
            tensors['OutputGradientTensor'], _ = tensor(rng, dtype, x_sizes, output=True)
            exp['OutputGradientTensor'] = expected([math.fsum(a) for a in dx], dtype,
                                                   max(math.fsum(abs(t) for t in a) for a in dx))
        if want_droi:
            tensors['OutputROIGradientTensor'], _ = tensor(rng, dtype, roi_sizes, output=True)
            e = expected([math.fsum(a) for a in droi], dtype, max(droi_mag))
            e['abs'] *= 2
            exp['OutputROIGradientTensor'] = e
    c = {'name': f'crosscheck/{op.lower()}-{n}-{dtype.lower()}-{desc["ReductionFunction"].lower()}', 'operator': op,
         'desc': spell(rng, desc), 'tensors': tensors, 'expected': exp}
    if dtype != 'FLOAT32':
        c['requires'] = ['float16']
    return c


PACK = {'FLOAT32': '<f', 'FLOAT16': '<e', 'UINT32': '<I'}


def encode(values, dtype):
    vals = [float(v) if isinstance(v, str) else v for v in values]  # 'nan', 'inf', '-inf'
    if dtype == 'BFLOAT16':
        return b''.join(struct.pack('<f', bf16(v))[2:] for v in vals)
    return b''.join(struct.pack(PACK[dtype], v) for v in vals)


def to_files(rng, case, outdir):
    """CASES.md's "file" form for some inputs and expected outputs: raw little-endian elements in
    logical order (expected values rounded to the output's type), beside the JSON."""
    stem = case['name'].replace('/', '_')
    types = {}
    for name, t in case['tensors'].items():
        types[name] = t['dataType']
        if 'data' in t and rng.random() < 0.15:
            t['file'] = f'{stem}.{name}.bin'
            with open(os.path.join(outdir, t['file']), 'wb') as fp:
                fp.write(encode(t.pop('data'), t['dataType']))
    for name, e in case.get('expected', {}).items():
        if rng.random() < 0.15:
            e['file'] = f'{stem}.{name}.expected.bin'
            with open(os.path.join(outdir, e['file']), 'wb') as fp:
                fp.write(encode(e.pop('data'), types[name]))


def main():
    out, seed, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    size = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    rng = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    types = ['FLOAT32', 'FLOAT16', 'BFLOAT16']
    ops = ['ACTIVATION_RELU', 'ACTIVATION_RELU_GRAD', 'RESAMPLE1', 'RESAMPLE2', 'RESAMPLE_GRAD', 'RESAMPLE_GRAD1',
           'ROI_ALIGN1', 'ROI_ALIGN_GRAD']
    groups = {op: [] for op in ops}
    for n in range(count):
        dtype = types[n % 3]
        for op in groups:
            if op.startswith('ACTIVATION'):
                groups[op].append(relu_case(rng, n, op.endswith('GRAD'), dtype))
            elif op.startswith('ROI'):
                groups[op].append(roi_case(rng, n, op == 'ROI_ALIGN_GRAD', dtype, size))
            else:
                groups[op].append(resample_case(rng, n, op, dtype, size))
    files = random.Random(seed + 1)   # apart, so that the cases' own draws stay as they are
    for op, cases in groups.items():
        for c in cases:
            to_files(files, c, out)
        with open(os.path.join(out, f'{op.lower()}.json'), 'w') as fp:
            json.dump({'cases': cases}, fp)


if __name__ == '__main__':
    main()
