#!/usr/bin/env python3
# gen-exp-log.py - the tables and polynomial coefficients of src/math/exp_log.h,
# and the bounds its comments state.  Needs Python 3 and mpmath.
#
# Usage: python3 src/math/gen-exp-log.py > src/math/exp_log_tables.h
#        python3 src/math/gen-exp-log.py --bounds (prints the error bounds)
#
# Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
import sys
import mpmath as mp

mp.mp.prec = 300

def rn(v):
    """v rounded to the nearest double (ties to even)."""
    return float(mp.mpf(v))  # mpmath rounds to nearest on conversion

def split(v, bits):
    """v's leading part with at most BITS significant bits (round to nearest)."""
    v = mp.mpf(v)
    if v == 0:
        return 0.0
    e = int(mp.floor(mp.log(abs(v), 2)))
    q = mp.mpf(2) ** (e - bits + 1)
    return float(mp.nint(v / q) * q)

def hexd(v):
    return float(v).hex()

def cdef(v):
    """A C constant for a #define: negative ones in parentheses."""
    return "(%s)" % hexd(v) if v < 0 else hexd(v)

LN2 = mp.log(2)

# ---- exp: exp(x) = 2^(k/64) exp(r), k = round(x 64/ln2), |r| <= ln2/128.
EXP_N = 64
inv = rn(EXP_N / LN2)
# k*L1 exact for |k| < 2^17 (|x| < 746): L1 has 36 significant bits.
L1 = split(LN2 / EXP_N, 36)
L2 = rn(LN2 / EXP_N - mp.mpf(L1))
L3 = rn(LN2 / EXP_N - mp.mpf(L1) - mp.mpf(L2))
exp_tab = []
for j in range(EXP_N):
    t = mp.mpf(2) ** (mp.mpf(j) / EXP_N)
    hi = rn(t)
    lo = rn(t - mp.mpf(hi))
    exp_tab += [hi, lo]
# |r| <= ln2/128 plus the slack of k's rounding of z = x*inv: the rounded z
# is off by at most 2^-53 |z| <= 2^-36 for |x| < 746, so |z - k| <= 1/2 +
# 2^-36.
R_EXP = (mp.mpf(0.5) + mp.mpf(2) ** -36) * LN2 / EXP_N
def q_exp(r):
    r = mp.mpf(r)
    if r == 0:
        return mp.mpf(0.5)
    return (mp.expm1(r) - r) / (r * r)
qe, _ = mp.chebyfit(q_exp, [-R_EXP, R_EXP], 4, error=True)
qe = [rn(c) for c in reversed(qe)]   # c2, c3, c4, c5

# ---- log: x = 2^e m, m in [1, 2); i = round((m - 1) 128); c_i ~ 1/m on
# 2^-12's grid, so that c_i m_hi - 1 and c_i m_lo are exact (m_hi: m to
# 2^-40, m_lo = m - m_hi); log x = e ln2 - log c_i + log1p(c_i m - 1).
LOG_N = 128
LN2_HI = split(LN2, 42)          # e*LN2_HI exact for |e| < 2^11
LN2_LO = rn(LN2 - mp.mpf(LN2_HI))
log_tab = []
R_LOG = mp.mpf(0)
for i in range(LOG_N + 1):
    a = 1 + (mp.mpf(i) - mp.mpf(0.5)) / LOG_N
    b = 1 + (mp.mpf(i) + mp.mpf(0.5)) / LOG_N
    if i == 0:
        a = mp.mpf(1)
        c = mp.mpf(1)
    elif i == LOG_N:
        b = mp.mpf(2)
        c = mp.mpf(0.5)
    else:
        c = mp.nint(2 / (a + b) * 4096) / 4096
    R_LOG = max(R_LOG, abs(c * a - 1), abs(c * b - 1))
    ml = -mp.log(c)
    if i == LOG_N:
        hi, lo = LN2_HI, LN2_LO
    else:
        # multiple of 2^-42, so that e*LN2_HI + hi is exact
        hi = float(mp.nint(ml * mp.mpf(2) ** 42) / mp.mpf(2) ** 42)
        lo = rn(ml - mp.mpf(hi))
    log_tab += [float(c), hi, lo]
# log1p(r) = r - r^2/2 + r^3 q(r), q of degree 4, |r| <= R_LOG.
def q_log(r):
    r = mp.mpf(r)
    if r == 0:
        return mp.mpf(1) / 3
    return (mp.log1p(r) - r + r * r / 2) / (r ** 3)
ql, _ = mp.chebyfit(q_log, [-R_LOG, R_LOG], 5, error=True)
ql = [rn(c) for c in reversed(ql)]   # c3 .. c7

# ---- the float exp of LOGSUMEXP's terms (gr_expf_term): exp(d) for
# -86 <= d <= 0 = 2^(k/32) exp(r), k = round(d 32/ln2), |r| <= ln2/64, in
# float arithmetic: a 32-entry float table (128 bytes, one cache line),
# exp(r) - 1 = r + r^2 (1/2 + r/6).
def rnf(v):
    """v rounded to the nearest float (ties to even), as a Python float."""
    v = mp.mpf(v)
    if v == 0:
        return 0.0
    e = int(mp.floor(mp.log(abs(v), 2)))
    q = mp.mpf(2) ** (e - 23)
    return float(mp.nint(v / q) * q)

def hexf(v):
    """A float constant: the hexadecimal literal without trailing zeros."""
    m, e = float(v).hex().split("p")
    return "%sp%sf" % (m.rstrip("0").rstrip("."), e)

EXPF_N = 32
expf_inv = rnf(EXPF_N / LN2)
# k*L1 exact in float for |k| <= 3971 (|d| <= 86): L1 has 12 significant bits.
EXPF_L1 = split(LN2 / EXPF_N, 12)
EXPF_L2 = rnf(LN2 / EXPF_N - mp.mpf(EXPF_L1))
EXPF_C3 = rnf(mp.mpf(1) / 6)
expf_tab = [rnf(mp.mpf(2) ** (mp.mpf(j) / EXPF_N)) for j in range(EXPF_N)]

def bounds():
    # The polynomials with their double coefficients, against the functions,
    # on a fine grid of their intervals: the largest error relative to
    # exp(r) (exp), and relative to log1p(r) (log).
    n = 4000
    ee = mp.mpf(0)
    for s in range(-n, n + 1):
        r = R_EXP * s / n
        p = r + r * r * (qe[0] + r * (qe[1] + r * (qe[2] + r * qe[3])))
        ee = max(ee, abs((1 + p) - mp.exp(r)) / mp.exp(r))
    el = mp.mpf(0)
    for s in range(-n, n + 1):
        r = R_LOG * s / n
        if r == 0:
            continue
        p = r - r * r / 2 + r ** 3 * (ql[0] + r * (ql[1] + r * (ql[2] + r * (ql[3] + r * ql[4]))))
        el = max(el, abs(p - mp.log1p(r)) / abs(mp.log1p(r)))
    print("exp: |r| <= %s, polynomial relative error <= 2^%.1f" % (mp.nstr(R_EXP, 8), float(mp.log(ee, 2))))
    print("log: |r| <= %s (2^%.2f), polynomial relative error <= 2^%.1f" % (mp.nstr(R_LOG, 8), float(mp.log(R_LOG, 2)), float(mp.log(el, 2))))
    # Fast2Sum(hi, r) in gr_log needs |hi| >= |r| whenever hi != 0.
    worst = None
    for e in (-1, 0, 1):
        for i in range(LOG_N + 1):
            c = mp.mpf(log_tab[3 * i])
            h = e * LN2 - mp.log(c)
            if abs(h) < mp.mpf(2) ** -60:
                continue
            a = 1 + (mp.mpf(i) - mp.mpf(0.5)) / LOG_N if i else mp.mpf(1)
            b = 1 + (mp.mpf(i) + mp.mpf(0.5)) / LOG_N if i < LOG_N else mp.mpf(2)
            rr = max(abs(c * a - 1), abs(c * b - 1))
            ratio = abs(h) / rr
            if worst is None or ratio < worst[0]:
                worst = (ratio, e, i)
    print("log: smallest |e ln2 - log c_i| / max|r| = %s (e=%d, i=%d)" % (mp.nstr(worst[0], 6), worst[1], worst[2]))

def emit():
    print("/* exp_log_tables.h - the tables and coefficients of exp_log.h.")
    print(" * Generated by src/math/gen-exp-log.py (python3 src/math/gen-exp-log.py >")
    print(" * src/math/exp_log_tables.h): do not edit by hand.")
    print(" *")
    print(" * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING. */")
    print("#ifndef GR_MATH_EXP_LOG_TABLES_H")
    print("#define GR_MATH_EXP_LOG_TABLES_H")
    print("#define GR_MATH_EXP_INV_L   %s /* 64/ln2 */" % cdef(inv))
    print("#define GR_MATH_EXP_L1      %s /* ln2/64, 36 bits */" % cdef(L1))
    print("#define GR_MATH_EXP_L2      %s" % cdef(L2))
    print("#define GR_MATH_EXP_L3      %s" % cdef(L3))
    for k, c in enumerate(qe):
        print("#define GR_MATH_EXP_C%d      %s" % (k + 2, cdef(c)))
    print("#define GR_MATH_LN2_HI      %s /* 42 bits */" % cdef(LN2_HI))
    print("#define GR_MATH_LN2_LO      %s" % cdef(LN2_LO))
    for k, c in enumerate(ql):
        print("#define GR_MATH_LOG_C%d      %s" % (k + 3, cdef(c)))
    print("#define GR_MATH_EXPF_INV_L  %s /* 32/ln2 */" % hexf(expf_inv))
    print("#define GR_MATH_EXPF_L1     %s /* ln2/32, 12 bits */" % hexf(EXPF_L1))
    print("#define GR_MATH_EXPF_L2     %s" % hexf(EXPF_L2))
    print("#define GR_MATH_EXPF_C3     %s /* 1/6 */" % hexf(EXPF_C3))
    print("/* 2^(j/32) rounded to float, j = 0..31. */")
    print("#define GR_MATH_EXPF_TABLE { \\")
    for j in range(0, EXPF_N, 4):
        print("  %s, \\" % ", ".join(hexf(v) for v in expf_tab[j:j + 4]))
    print("}")
    print("/* 2^(j/64) = hi + lo, j = 0..63: {hi, lo} pairs. */")
    print("#define GR_MATH_EXP_TABLE { \\")
    for j in range(EXP_N):
        print("  %s, %s, \\" % (hexd(exp_tab[2 * j]), hexd(exp_tab[2 * j + 1])))
    print("}")
    print("/* i = 0..128: {c_i, hi, lo}, -log(c_i) = hi + lo, hi a multiple of 2^-42. */")
    print("#define GR_MATH_LOG_TABLE { \\")
    for i in range(LOG_N + 1):
        print("  %s, %s, %s, \\" % (hexd(log_tab[3 * i]), hexd(log_tab[3 * i + 1]), hexd(log_tab[3 * i + 2])))
    print("}")
    print("#endif")

if len(sys.argv) > 1 and sys.argv[1] == "--bounds":
    bounds()
else:
    emit()
