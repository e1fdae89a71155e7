#!/usr/bin/env python3
"""torch-side.py - gpureduce beside torch, CUB, a read-only probe and a copy,
in one process, on torch's own buffers.

Usage: bench/torch-side.py [--lib PATH] [--suite LIST] [--type LIST] [--op LIST]
                           [--elements LOG2] [--repeat N] [--calls N] [--csv FILE]
                           [--device cuda|cpu] [--quick]

It loads libgpureduce with ctypes, calls it on torch tensors' data_ptr()
on torch's current stream, and times both with CUDA events: the median of
--repeat runs of --calls calls each, after a warm-up.  Every result of
gpureduce is checked against torch's (sums within a relative 1e-4 of the
sum of |x|, extremes and indices exactly) and a wrong one is counted; the
exit status is 1 when any was wrong.  GB/s counts the bytes each side
reads and writes: input, offsets and its own output.  The probe reads
2^30 bytes with as few instructions as a read can take (bench/torch-side.cu,
built with nvcc into a temporary directory; without nvcc there is no probe
and no CUB column).

Suites (--suite, default all but logsumexp and amax when the library lacks them):
  columns     C columns of L rows, row-major (batch stride 1): torch's x.sum(0), ...
  rows        contiguous rows of L (L = 1 and 2 also against a copy of the same bytes)
  misaligned  rows of L at leading dimension L + 1, starting one element in
  segments    CSR segments of many length distributions: torch.segment_reduce, CUB
  logsumexp   rows of GPUREDUCE_LOGSUMEXP: torch.logsumexp, JAX's jit logsumexp
  amax        GPUREDUCE_AMAX beside MAX on 1-D, rows, columns and segments
  first       the wall time of the first and the second call of each API in this
              process (module loading: compare libraries built with and without
              --with-fatbin-compression=size); runs before the others

--op takes sum, max, argmax, argmax+value (GPUREDUCE_WITH_VALUE; torch.max(x, dim)),
min and argmin.
--type takes f32, bf16, f16, f64.  --elements sets the total (default 28: 2^28
elements; segments use 2^(elements - 2)).  --quick: 2^22 elements, 2 x 5 calls,
to try the script.  --device cpu runs on the host backend and torch's CPU
tensors (timings by the wall clock), to try it without a GPU.

Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
"""
import argparse
import csv
import ctypes
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# JAX would otherwise take 75 % of the GPU's memory at its first array.
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
import torch  # noqa: E402

# <gpureduce/base.h>
TYPES = {"f16": (0, torch.float16), "bf16": (1, torch.bfloat16), "f32": (2, torch.float32),
         "f64": (3, torch.float64)}
SUM, MIN, MAX, ARGMIN, ARGMAX = 0, 2, 3, 4, 5
WITH_VALUE = 0x2
HOST = -1


class Gpureduce:
    """The few calls of libgpureduce the script makes, through ctypes."""

    def __init__(self, path, device):
        self.lib = ctypes.CDLL(path)
        L = self.lib
        vp, sz, i64, u32, i32 = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int64,
                                 ctypes.c_uint, ctypes.c_int)
        L.gpureduce_create.argtypes = [ctypes.POINTER(vp), i32]
        L.gpureduce_set_stream.argtypes = [vp, vp]
        L.gpureduce_last_message.argtypes = [vp]
        L.gpureduce_last_message.restype = ctypes.c_char_p
        L.gpureduce_op_name.argtypes = [i32]
        L.gpureduce_op_name.restype = ctypes.c_char_p
        L.gpureduce_result_size.argtypes = [i32, i32, u32]
        L.gpureduce_result_size.restype = sz
        L.gpureduce_version_string.restype = ctypes.c_char_p
        L.gpureduce_reduce.argtypes = [vp, vp, sz, i32, i32, u32, vp]
        L.gpureduce_reduce_batched.argtypes = [vp, vp, sz, sz, i64, i64, i32, i32, u32, vp]
        L.gpureduce_reduce_segments.argtypes = [vp, vp, vp, sz, i32, i32, u32, vp]
        self.handle = vp()
        self.check(L.gpureduce_create(ctypes.byref(self.handle), HOST if device == "cpu" else 0),
                   "gpureduce_create")
        if device == "cuda":
            self.check(L.gpureduce_set_stream(self.handle,
                                              torch.cuda.current_stream().cuda_stream),
                       "gpureduce_set_stream")

    def check(self, status, what):
        if status != 0:
            msg = self.lib.gpureduce_last_message(self.handle) if self.handle else b""
            raise RuntimeError(f"{what}: status {status}: {msg.decode(errors='replace')}")

    def op(self, name):
        """The op code of `name` ("logsumexp", "amax"), or None in an older library."""
        for k in range(64):
            n = self.lib.gpureduce_op_name(k)
            if n is None:
                return None
            if n.decode() == name:
                return k
        return None

    def result_size(self, t, op, flags):
        return self.lib.gpureduce_result_size(t, op, flags)

    def reduce(self, x, out, n, t, op, flags=0):
        self.check(self.lib.gpureduce_reduce(x, out, n, t, op, flags, self.handle),
                   "gpureduce_reduce")

    def batched(self, x, out, batch, n, bstride, estride, t, op, flags=0):
        self.check(self.lib.gpureduce_reduce_batched(x, out, batch, n, bstride, estride, t, op,
                                                     flags, self.handle),
                   "gpureduce_reduce_batched")

    def segments(self, x, out, offsets, count, t, op, flags=0):
        self.check(self.lib.gpureduce_reduce_segments(x, out, offsets, count, t, op, flags,
                                                      self.handle),
                   "gpureduce_reduce_segments")


class Shim:
    """bench/torch-side.cu built with nvcc: the probe and CUB's segmented reductions."""

    def __init__(self, here):
        self.lib = None
        nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc"
                                        if os.path.exists("/usr/local/cuda/bin/nvcc") else None)
        if not nvcc:
            print("torch-side: no nvcc: no probe, no CUB column", file=sys.stderr)
            return
        self.dir = tempfile.mkdtemp(prefix="torch-side.")
        so = os.path.join(self.dir, "torch-side.so")
        major, minor = torch.cuda.get_device_capability()
        cmd = [nvcc, "-O3", f"-arch=sm_{major}{minor}", "-shared", "-Xcompiler", "-fPIC", "-o",
               so, os.path.join(here, "torch-side.cu")]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            print("torch-side: building the probe failed:\n" + r.stderr, file=sys.stderr)
            return
        self.lib = ctypes.CDLL(so)
        self.lib.ts_probe.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_uint,
                                      ctypes.c_void_p, ctypes.c_void_p]
        self.lib.ts_cub_segments.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p,
                                             ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p,
                                             ctypes.POINTER(ctypes.c_size_t), ctypes.c_void_p]


class Bench:
    def __init__(self, args):
        self.args = args
        self.dev = torch.device(args.device)
        self.gr = Gpureduce(args.lib, args.device)
        self.table = []
        self.wrong = 0
        self.shim = Shim(os.path.dirname(os.path.abspath(__file__))) \
            if args.device == "cuda" and args.suites != ["first"] else None
        self.probe_gbs = None
        self.copy_gbs = None

    # ---- timing ----------------------------------------------------------
    def stream(self):
        return torch.cuda.current_stream().cuda_stream if self.args.device == "cuda" else None

    def time_us(self, fn):
        """Median microseconds a call of fn, over --repeat runs of --calls calls."""
        a = self.args
        for _ in range(3):
            fn()
        if a.device == "cpu":
            ts = []
            for _ in range(a.repeat):
                t0 = time.perf_counter()
                for _ in range(a.calls):
                    fn()
                ts.append((time.perf_counter() - t0) / a.calls * 1e6)
            return statistics.median(ts)
        torch.cuda.synchronize()
        ts = []
        for _ in range(a.repeat):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            for _ in range(a.calls):
                fn()
            e.record()
            e.synchronize()
            ts.append(s.elapsed_time(e) * 1e3 / a.calls)
        return statistics.median(ts)

    def references(self):
        """The probe and a device-to-device copy, each over 2^30 bytes."""
        if self.args.device != "cuda":
            return
        buf = torch.randint(0, 2**31 - 1, (2**28,), dtype=torch.int32, device=self.dev)
        nbytes = buf.numel() * 4
        if self.shim and self.shim.lib:
            sink = torch.zeros(1, dtype=torch.int32, device=self.dev)
            sms = torch.cuda.get_device_properties(0).multi_processor_count
            best = None
            for per_sm in (2, 4, 8, 16):
                us = self.time_us(lambda: self.shim.lib.ts_probe(buf.data_ptr(), nbytes,
                                                                 sms * per_sm, sink.data_ptr(),
                                                                 self.stream()))
                best = us if best is None else min(best, us)
            self.probe_gbs = nbytes / best / 1e3
        dst = torch.empty_like(buf)
        us = self.time_us(lambda: dst.copy_(buf))
        self.copy_gbs = 2 * nbytes / us / 1e3
        print(f"# probe {self.probe_gbs and round(self.probe_gbs)} GB/s, "
              f"copy {round(self.copy_gbs)} GB/s (read + write), 2^30 bytes", flush=True)

    # ---- one row of the tables -------------------------------------------
    def record(self, suite, tname, opname, shape, ours_us, ours_bytes, peer, peer_us, peer_bytes,
               ok, note=""):
        gbs = ours_bytes / ours_us / 1e3
        peer_gbs = peer_bytes / peer_us / 1e3 if peer_us else None
        row = {"suite": suite, "type": tname, "op": opname, "shape": shape,
               "gpureduce_us": round(ours_us, 2), "gpureduce_gbs": round(gbs),
               "of_probe": round(gbs / self.probe_gbs, 3) if self.probe_gbs else "",
               "peer": peer, "peer_us": round(peer_us, 2) if peer_us else "",
               "peer_gbs": round(peer_gbs) if peer_gbs else "",
               "ratio": round(peer_us / ours_us, 3) if peer_us else "",
               "check": "ok" if ok else "WRONG", "note": note}
        if not ok:
            self.wrong += 1
        self.table.append(row)
        print(f"{suite:10s} {tname:4s} {opname:12s} {shape:26s} {gbs:7.0f} GB/s "
              f"{row['of_probe'] if row['of_probe'] != '' else '':>6} probe  "
              f"{peer:22s} {row['peer_gbs'] if peer_gbs else '-':>6} GB/s  x{row['ratio']}  "
              f"{row['check']} {note}", flush=True)

    # ---- the checks --------------------------------------------------------
    @staticmethod
    def close(ours, ref, scale):
        d = (ours.double() - ref.double()).abs()
        return bool((d <= 1e-4 * scale.double() + 1e-30).all())

    def compare(self, opname, ours, ref, x, dim):
        """ours (raw bytes tensor of the results) against torch's ref along dim of x."""
        if opname == "sum":  # against the sum in double, not torch's rounded one
            return self.close(ours.view(torch.float32 if x.dtype != torch.float64
                                        else torch.float64), x.double().sum(dim),
                              x.double().abs().sum(dim))
        if opname in ("max", "min"):
            return bool(torch.equal(ours.view(x.dtype), ref))
        if opname in ("argmax", "argmin"):
            return bool(torch.equal(ours.view(torch.int64), ref))
        if opname == "argmax+value":
            w = ours.view(torch.int64).view(-1, 2)
            idx_ok = torch.equal(w[:, 0], ref[1].reshape(-1))
            val = w[:, 1].contiguous().view(torch.uint8).view(-1, 8)[:, :x.element_size()]
            val = val.contiguous().view(x.dtype).reshape(-1)
            return bool(idx_ok and torch.equal(val, ref[0].reshape(-1)))
        raise ValueError(opname)

    def op_args(self, opname):
        return {"sum": (SUM, 0), "max": (MAX, 0), "argmax": (ARGMAX, 0),
                "argmax+value": (ARGMAX, WITH_VALUE), "min": (MIN, 0),
                "argmin": (ARGMIN, 0)}[opname]

    def torch_op(self, opname, x, dim):
        if opname == "sum":
            return lambda: x.sum(dim)
        if opname == "max":
            return lambda: x.amax(dim)
        if opname == "min":
            return lambda: x.amin(dim)
        if opname == "argmax":
            return lambda: x.argmax(dim)
        if opname == "argmin":
            return lambda: x.argmin(dim)
        return lambda: torch.max(x, dim)

    def out_for(self, t, op, flags, count):
        rs = self.gr.result_size(t, op, flags)
        return torch.empty(count * rs, dtype=torch.uint8, device=self.dev), rs

    # ---- a batched case: `batch` vectors of n in x --------------------------
    def batched_case(self, suite, tname, opname, shape, x, batch, n, bstride, estride, dim):
        t, _ = TYPES[tname]
        op, flags = self.op_args(opname)
        out, rs = self.out_for(t, op, flags, batch)
        call = lambda: self.gr.batched(x.data_ptr(), out.data_ptr(), batch, n, bstride, estride,
                                       t, op, flags)
        ours_us = self.time_us(call)
        call()
        ref_fn = self.torch_op(opname, x, dim)
        ref = ref_fn()
        ok = self.compare(opname, out, ref, x, dim)
        peer_us = self.time_us(ref_fn)
        if isinstance(ref, tuple):
            peer_out = sum(r.numel() * r.element_size() for r in ref)
        else:
            peer_out = ref.numel() * ref.element_size()
        nbytes = batch * n * x.element_size()
        self.record(suite, tname, opname, shape, ours_us, nbytes + batch * rs,
                    f"torch {'max' if opname == 'argmax+value' else opname}(dim={dim})", peer_us,
                    nbytes + peer_out, ok)
        return ours_us

    def data(self, shape, tname):
        _, dt = TYPES[tname]
        g = torch.Generator(device=self.dev).manual_seed(45)
        return torch.randn(shape, generator=g, device=self.dev, dtype=torch.float32).to(dt)

    # ---- the suites ----------------------------------------------------------
    def columns(self):
        total = 1 << self.args.elements
        for tname in self.args.types:
            for c_log2 in (1, 3, 5, 7, 9, 12, 16, 20, 24, self.args.elements - 1):
                C, L = 1 << c_log2, total >> c_log2
                if L < 2:
                    continue
                x = self.data((L, C), tname)  # column c: x[:, c], stride C
                for opname in self.args.ops:
                    self.batched_case("columns", tname, opname, f"{C} x {L}", x, C, L, 1, C, 0)
                del x

    def rows(self):
        total = 1 << self.args.elements
        for tname in self.args.types:
            for L in (1, 2, 4, 8, 32, 128, 512, 4096, 65536):
                B = total // L
                if B < 2:
                    continue
                x = self.data((B, L), tname)
                for opname in self.args.ops:
                    us = self.batched_case("rows", tname, opname, f"{B} x {L}", x, B, L, L, 1, 1)
                    if L <= 2 and self.copy_gbs:
                        t, _ = TYPES[tname]
                        op, flags = self.op_args(opname)
                        rs = self.gr.result_size(t, op, flags)
                        gbs = (B * L * x.element_size() + B * rs) / us / 1e3
                        self.table[-1]["note"] = f"{gbs / self.copy_gbs:.3f} of the copy"
                        print(f"{'':10s} rows of {L}: {gbs / self.copy_gbs:.3f} of the copy's "
                              f"GB/s", flush=True)
                del x

    def misaligned(self):
        total = 1 << self.args.elements
        for tname in self.args.types:
            for L in (2, 4, 8, 32, 128, 512, 4096, 65536):
                B = total // L
                if B < 2:
                    continue
                base = self.data((B * (L + 1) + 1,), tname)
                x = base[1:].view(B, L + 1)[:, :L]  # one element in, leading dimension L + 1
                for opname in self.args.ops:
                    self.batched_case("misaligned", tname, opname, f"{B} x {L} ld {L + 1}", x, B,
                                      L, L + 1, 1, 1)
                del base, x

    def lengths(self, dist, total):
        """A length distribution's lengths (int64, on the device) summing to total."""
        g = torch.Generator(device="cpu").manual_seed(46)
        kind, _, arg = dist.partition(":")
        if kind == "uniform":
            lo, _, hi = arg.partition("..")
            lo, hi = int(lo), int(hi or lo)
            n = 2 * total // max(1, lo + hi) + 16
            ls = torch.randint(lo, hi + 1, (n,), generator=g, dtype=torch.int64)
        elif kind == "zipf":  # zipf:S[:MAX], P(k) ~ k^-S on 1..MAX (default: the total)
            a, _, cap = arg.partition(":")
            a, cap = float(a), int(cap or total)
            n = total
            u = torch.rand(n, generator=g, dtype=torch.float64)
            ls = torch.clamp((1 - u).pow(-1.0 / (a - 1.0)).floor(), 1, cap).to(torch.int64)
        elif kind == "half-in-one":
            rest = torch.randint(1, 17, (total // 8,), generator=g, dtype=torch.int64)
            ls = torch.cat([torch.tensor([total // 2]), rest])
            ls = ls[torch.randperm(ls.numel(), generator=g)]
        else:
            raise ValueError(dist)
        c = torch.cumsum(ls, 0)
        if int(c[-1]) < total:  # short: one more segment of what is left
            ls = torch.cat([ls, torch.tensor([total - int(c[-1])])])
        else:  # cut at the first partial sum >= total, the last segment shortened
            k = int(torch.searchsorted(c, torch.tensor([total])).item())
            ls = ls[:k + 1].clone()
            ls[-1] -= int(c[k]) - total
        assert int(ls.sum()) == total and int(ls.min()) >= 0, dist
        return ls.to(self.dev)

    DISTS = ("uniform:1..64", "uniform:0..256", "uniform:128", "uniform:4096", "uniform:65536",
             "uniform:1..100000", "zipf:1.2:65536", "zipf:2", "zipf:3", "half-in-one")

    def segments(self):
        total = 1 << max(10, self.args.elements - 2)
        for tname in self.args.types:
            x = self.data((total,), tname)
            t, _ = TYPES[tname]
            for dist in self.DISTS:
                ls = self.lengths(dist, total)
                S = ls.numel()
                offsets = torch.zeros(S + 1, dtype=torch.int64, device=self.dev)
                offsets[1:] = torch.cumsum(ls, 0)
                for opname in self.args.ops:
                    op, flags = self.op_args(opname)
                    out, rs = self.out_for(t, op, flags, S)
                    call = lambda: self.gr.segments(x.data_ptr(), out.data_ptr(),
                                                    offsets.data_ptr(), S, t, op, flags)
                    us = self.time_us(call)
                    call()
                    ok = self.check_segments(opname, out, x, ls, offsets)
                    nbytes = total * x.element_size() + (S + 1) * 8
                    peer, peer_us, peer_out = self.segments_peer(opname, x, ls, offsets, tname)
                    self.record("segments", tname, opname, f"{dist} ({S} segs)", us,
                                nbytes + S * rs, peer, peer_us, nbytes + peer_out * S, ok)
            del x

    def check_segments(self, opname, out, x, ls, offsets):
        """Against torch, on the segments that are not empty (a loop-free check)."""
        nonempty = ls > 0
        if opname == "sum":
            ref = torch.segment_reduce(x.float(), "sum", lengths=ls, unsafe=True)
            scale = torch.segment_reduce(x.float().abs(), "sum", lengths=ls, unsafe=True)
            return self.close(out.view(torch.float32)[nonempty], ref[nonempty], scale[nonempty])
        if opname in ("max", "min"):
            ref = torch.segment_reduce(x, opname, lengths=ls, unsafe=True)
            return bool(torch.equal(out.view(x.dtype)[nonempty], ref[nonempty]))
        # argmax, argmin: the first index of the extreme, by a scatter over (segment, index)
        seg = torch.repeat_interleave(torch.arange(ls.numel(), device=self.dev), ls)
        mx = torch.segment_reduce(x.float(), "min" if opname == "argmin" else "max", lengths=ls,
                                  unsafe=True)
        pos = torch.arange(x.numel(), device=self.dev) - offsets[:-1][seg]
        hit = x.float() == mx[seg]
        big = torch.full((ls.numel(),), 2**62, dtype=torch.int64, device=self.dev)
        first = big.scatter_reduce(0, seg[hit], pos[hit], reduce="amin")
        idx = (out.view(torch.int64) if opname != "argmax+value"
               else out.view(torch.int64).view(-1, 2)[:, 0])
        return bool(torch.equal(idx[nonempty], first[nonempty]))

    def segments_peer(self, opname, x, ls, offsets, tname):
        """CUB where the shim has it (f32 sum, max, argmax), else torch.segment_reduce."""
        op = {"sum": 0, "max": 3, "argmax": 5}.get(opname)  # the shim's op codes
        if self.shim and self.shim.lib and tname == "f32" and op is not None:
            S = ls.numel()
            tb = ctypes.c_size_t(0)
            cub_out = torch.empty(S * 8, dtype=torch.uint8, device=self.dev)
            self.shim.lib.ts_cub_segments(op, x.data_ptr(), cub_out.data_ptr(),
                                          offsets.data_ptr(), S, None, ctypes.byref(tb),
                                          self.stream())
            temp = torch.empty(max(1, tb.value), dtype=torch.uint8, device=self.dev)
            call = lambda: self.shim.lib.ts_cub_segments(op, x.data_ptr(), cub_out.data_ptr(),
                                                         offsets.data_ptr(), S, temp.data_ptr(),
                                                         ctypes.byref(tb), self.stream())
            return "cub::DeviceSegmentedReduce", self.time_us(call), 8 if op == 5 else 4
        if opname in ("sum", "max", "min"):
            fn = lambda: torch.segment_reduce(x, opname, lengths=ls, unsafe=True)
            return "torch.segment_reduce", self.time_us(fn), x.element_size()
        return "-", None, 0

    def logsumexp(self):
        lse = self.gr.op("logsumexp")
        if lse is None:
            print("# logsumexp: this libgpureduce has no GPUREDUCE_LOGSUMEXP", flush=True)
            return
        try:
            import jax
            import jax.dlpack
            jit_lse = jax.jit(lambda v: jax.scipy.special.logsumexp(v, axis=-1))
        except Exception as e:  # JAX is optional
            print(f"# logsumexp: no JAX ({e})", flush=True)
            jax = None
        total = 1 << self.args.elements
        for tname in self.args.types:
            t, _ = TYPES[tname]
            if self.gr.result_size(t, lse, 0) == 0:
                continue
            for L in (8, 32, 128, 512, 4096, 65536, 1 << 20):
                B = total // L
                if B < 2:
                    continue
                x = self.data((B, L), tname)
                out, rs = self.out_for(t, lse, 0, B)
                call = lambda: self.gr.batched(x.data_ptr(), out.data_ptr(), B, L, L, 1, t, lse, 0)
                us = self.time_us(call)
                call()
                ref = torch.logsumexp(x.double(), dim=1)
                ours = out.view(torch.float32 if rs == 4 else torch.float64).double()
                ok = bool(((ours - ref).abs() <= 1e-5 * ref.abs().clamp(min=1)).all())
                nbytes = B * L * x.element_size()
                peer_us = self.time_us(lambda: torch.logsumexp(x, dim=1))
                self.record("logsumexp", tname, "logsumexp", f"{B} x {L}", us, nbytes + B * rs,
                            "torch.logsumexp", peer_us, nbytes + B * x.element_size(), ok)
                if jax is not None and self.args.device == "cuda":
                    xj = jax.dlpack.from_dlpack(x)
                    jit_lse(xj).block_until_ready()
                    ts = []
                    for _ in range(self.args.repeat):
                        t0 = time.perf_counter()
                        for _ in range(self.args.calls):
                            r = jit_lse(xj)
                        r.block_until_ready()
                        ts.append((time.perf_counter() - t0) / self.args.calls * 1e6)
                    j_us = statistics.median(ts)
                    self.record("logsumexp", tname, "logsumexp", f"{B} x {L}", us,
                                nbytes + B * rs, "jax.jit logsumexp", j_us,
                                nbytes + B * x.element_size(), ok)
                del x

    def first(self):
        """Wall time of the first call of each kind in this process, then of the second."""
        total = 1 << 20
        x = self.data((total,), "f32")
        offsets = torch.arange(0, total + 1, 256, dtype=torch.int64, device=self.dev)
        S = offsets.numel() - 1
        out = torch.empty(max(S, 4096) * 16, dtype=torch.uint8, device=self.dev)
        t = TYPES["f32"][0]
        sync = torch.cuda.synchronize if self.args.device == "cuda" else (lambda: None)
        sync()
        calls = (("1-D sum", lambda: self.gr.reduce(x.data_ptr(), out.data_ptr(), total, t, SUM)),
                 ("1-D argmax", lambda: self.gr.reduce(x.data_ptr(), out.data_ptr(), total, t,
                                                       ARGMAX)),
                 ("rows of 256 sum", lambda: self.gr.batched(x.data_ptr(), out.data_ptr(), 4096,
                                                             256, 256, 1, t, SUM)),
                 ("columns sum", lambda: self.gr.batched(x.data_ptr(), out.data_ptr(), 256, 4096,
                                                         1, 256, t, SUM)),
                 ("segments sum", lambda: self.gr.segments(x.data_ptr(), out.data_ptr(),
                                                           offsets.data_ptr(), S, t, SUM)))
        for name, fn in calls:
            us = []
            for _ in range(2):
                t0 = time.perf_counter()
                fn()
                sync()
                us.append((time.perf_counter() - t0) * 1e6)
            print(f"first      f32  {name:16s} first call {us[0]:9.0f} us, second {us[1]:7.0f} us",
                  flush=True)
            self.table.append({"suite": "first", "type": "f32", "op": name, "shape": "",
                               "gpureduce_us": round(us[0], 1), "gpureduce_gbs": "",
                               "of_probe": "", "peer": "second call",
                               "peer_us": round(us[1], 1), "peer_gbs": "", "ratio": "",
                               "check": "", "note": ""})
        del x

    def amax(self):
        amax = self.gr.op("amax")
        if amax is None:
            print("# amax: this libgpureduce has no GPUREDUCE_AMAX", flush=True)
            return
        total = 1 << self.args.elements
        for tname in self.args.types:
            t, _ = TYPES[tname]
            x = self.data((total,), tname)
            for shape, batch, n, bs, es in (("1-D", 1, total, total, 1),
                                            ("rows of 128", total // 128, 128, 128, 1),
                                            ("rows of 4096", total // 4096, 4096, 4096, 1),
                                            ("columns 4096 x 65536", 4096, total // 4096, 1,
                                             4096)):
                res = {}
                for op in (MAX, amax):
                    out, rs = self.out_for(t, op, 0, batch)
                    call = lambda: self.gr.batched(x.data_ptr(), out.data_ptr(), batch, n, bs, es,
                                                   t, op, 0)
                    res[op] = (self.time_us(call), out, rs)
                    call()
                ref = (x.view(batch, n) if es == 1 else x.view(n, batch).t()).abs().amax(1)
                ok = bool(torch.equal(res[amax][1].view(x.dtype), ref))
                nbytes = total * x.element_size()
                self.record("amax", tname, "amax", shape, res[amax][0],
                            nbytes + batch * res[amax][2], "gpureduce max", res[MAX][0],
                            nbytes + batch * res[MAX][2], ok)
            del x


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--lib", default=os.environ.get("GPUREDUCE_LIB",
                                                   os.path.join(".libs", "libgpureduce.so")))
    p.add_argument("--suite", default="columns,rows,misaligned,segments,logsumexp,amax")
    p.add_argument("--type", default="f32,bf16")
    p.add_argument("--op", default="sum,max,argmax,argmax+value")
    p.add_argument("--elements", type=int, default=28)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--calls", type=int, default=20)
    p.add_argument("--csv")
    p.add_argument("--device", default="cuda", choices=("cuda", "cpu"))
    p.add_argument("--quick", action="store_true")
    a = p.parse_args()
    a.types = a.type.split(",")
    a.ops = a.op.split(",")
    if a.quick:
        a.elements, a.repeat, a.calls = 22, 2, 5
    a.suites = a.suite.split(",")
    for suite in a.suites:
        if suite not in ("columns", "rows", "misaligned", "segments", "logsumexp", "amax", "first"):
            p.error(f"--suite {suite}: columns, rows, misaligned, segments, logsumexp, amax, first")
    for tname in a.types:
        if tname not in TYPES:
            p.error(f"--type {tname}: one of {', '.join(TYPES)}")
    b = Bench(a)
    print(f"# libgpureduce {b.gr.lib.gpureduce_version_string().decode()}, torch "
          f"{torch.__version__}, "
          f"{torch.cuda.get_device_name(0) if a.device == 'cuda' else 'host backend'}, "
          f"2^{a.elements} elements, median of {a.repeat} x {a.calls} calls", flush=True)
    if "first" in a.suites:
        b.first()
    if a.suites != ["first"]:
        b.references()
    for suite in a.suites:
        if suite != "first":
            getattr(b, suite)()
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(b.table[0].keys()) if b.table else ["suite"])
            w.writeheader()
            w.writerows(b.table)
    print(f"# {len(b.table)} rows, {b.wrong} wrong", flush=True)
    return 1 if b.wrong else 0


if __name__ == "__main__":
    sys.exit(main())
