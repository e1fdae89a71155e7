#!/bin/sh
# bench/perf-targets.sh [--list] CSV - issue 16's three speed targets, counted
# over the 1-D grid (bench/grid-1d --csv; bench/data/perf-h200-1d.csv):
#   >= CUB     rows with a CUB time where gr_us <= cub_us;
#   GB/s       rows of 256 MiB of input or more whose GB/s is at least 0.95 x
#              the f32 sum's at the same byte count and offset.  Where the
#              sweep has no f32 sum of those bytes (the 2- and 8-byte
#              types, whose byte counts are odd powers of 2), the f32 sum's
#              GB/s is interpolated linearly in log(bytes) between the two
#              nearest f32 sums, or taken from the largest one beyond it;
#   probe      the probe's time over the f32 sum's (probe / gr) at 2^28 and
#              2^30, offset 0; the target is 0.99 or more.
# --list prints every row that misses the GB/s target, with its ratio.
# A developer's tool: reads the CSV only, needs nothing but a POSIX awk
# (with log(): busybox's awk only where built with its maths support).
list=0
if test "${1-}" = --list; then list=1; shift; fi
test $# -eq 1 || { echo "usage: $0 [--list] CSV" >&2; exit 2; }
awk -F, -v list=$list '
function esize(t) {
  return t ~ /^(i8|u8)$/ ? 1 : t ~ /^(f16|bf16)$/ ? 2 : t ~ /^(f32|i32|u32)$/ ? 4 : \
         t ~ /^(f64|i64|u64)$/ ? 8 : 0
}
# the f32 sum GB/s at b bytes and offset o (its nf32[o] points, by bytes)
function ref(b, o,   i, t) {
  if (b <= fb[o, 1]) return fg[o, 1]
  for (i = 2; i <= nf32[o]; ++i)
    if (b <= fb[o, i]) {
      t = (log(b) - log(fb[o, i - 1])) / (log(fb[o, i]) - log(fb[o, i - 1]))
      return fg[o, i - 1] + t * (fg[o, i] - fg[o, i - 1])
    }
  return fg[o, nf32[o]]
}
NR == 1 {
  for (i = 1; i <= NF; ++i) col[$i] = i
  split("op type n offset gr_us cub_us probe_us", need, " ")
  for (i = 1; i <= 7; ++i)
    if (!(need[i] in col)) {
      print "perf-targets: not a grid-1d CSV (no " need[i] " column)" > "/dev/stderr"
      bad = 1; exit 2
    }
  next
}
esize($col["type"]) == 0 {
  print "perf-targets: line " NR ": unknown type " $col["type"] > "/dev/stderr"; bad = 1; exit 2
}
{
  op[NR] = $col["op"]; ty[NR] = $col["type"]; n[NR] = $col["n"]; off[NR] = $col["offset"]
  gr[NR] = $col["gr_us"]; cub[NR] = $col["cub_us"]; probe[NR] = $col["probe_us"]
  if (op[NR] == "sum" && ty[NR] == "f32") {
    o = off[NR]; k = ++nf32[o]; fb[o, k] = n[NR] * 4; fg[o, k] = n[NR] * 4 / gr[NR]
    for (j = k; j > 1 && fb[o, j - 1] > fb[o, j]; --j) { # keep sorted by bytes
      tb = fb[o, j]; fb[o, j] = fb[o, j - 1]; fb[o, j - 1] = tb
      tg = fg[o, j]; fg[o, j] = fg[o, j - 1]; fg[o, j - 1] = tg
    }
    if (o == 0 && (n[NR] == 268435456 || n[NR] == 1073741824))
      pr[n[NR]] = sprintf("%.3f", probe[NR] / gr[NR])
  }
}
END {
  if (bad) exit 2
  if (!nf32[0] && !nf32[3])
    print "perf-targets: no f32 sum rows, so no GB/s reference" > "/dev/stderr"
  for (r = 2; r <= NR; ++r) {
    if (cub[r] != "" && cub[r] != "-") { ++ncub; if (gr[r] + 0 <= cub[r] + 0) ++okcub }
    b = n[r] * esize(ty[r])
    if (b < 268435456 || !nf32[off[r]]) continue
    ++ngb
    ratio = b / gr[r] / ref(b, off[r])
    if (ratio >= 0.95) ++okgb
    else if (list) printf "%.3f %s %s n=%s offset=%s %s us\n", ratio, op[r], ty[r], n[r], off[r], gr[r]
  }
  printf ">= CUB: %d of %d rows\n", okcub, ncub
  printf "GB/s >= 0.95 x f32 sum from 256 MiB: %d of %d rows\n", okgb, ngb
  printf "f32 sum probe/gr: 2^28 %s, 2^30 %s\n", (268435456 in pr) ? pr[268435456] : "-", \
         (1073741824 in pr) ? pr[1073741824] : "-"
}' "$1"
