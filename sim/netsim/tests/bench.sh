#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make bench item of the network simulator: scale-across at 500 km, load_bdp 1.0, final
# profile, one process (one core), at 4 KB and at 1 KB payload. Prints simulated packet-hops
# per wall second, simulated seconds per wall second (wall and CPU time) and peak memory,
# against the targets of issue 15 (2.0 at 4 KB, 0.6 at 1 KB, under 1 GB), and the load average.
# Each point runs NETSIM_BENCH_REPS times (default 3, one after the other) and prints the
# median run by wall time, with the slowest and fastest run's sim/wall beside it: on a shared
# VM a single run moves by a third from one minute to the next (docs/netsim.md 9.6).
# NETSIM_BENCH_S (default 2) sets the simulated seconds per run.
set -eu
NS=${1:-build/bin/xtm-netsim}
S=${NETSIM_BENCH_S:-2}
R=${NETSIM_BENCH_REPS:-3}
case $R in '' | *[!0-9]* | 0) echo "bench.sh: NETSIM_BENCH_REPS must be a positive integer" >&2; exit 2 ;; esac
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
printf '%-8s %10s %14s %12s %12s %10s %8s %16s\n' payload sim_s hops_per_s sim/wall sim/cpu rss_MiB target \
  "runs:min..max"
for mtu in 4096 1024; do
  target=2.0; [ "$mtu" = 1024 ] && target=0.6
  for r in $(seq "$R"); do
    /usr/bin/time -f '%U %S' -o "$T/time$r" "$NS" run sim/scenarios/scale-across.ini \
      --set distance_km=500 --set load_bdp=1.0 --set profile=final --set mtu=$mtu \
      --set duration_s=$S --set sample_us=0 --set client_start=sync --set warmup_s=0 --json --no-plots \
      --out "$T/run$mtu" >"$T/j$r"
  done
  python3 - "$T" "$R" "$mtu" "$target" <<'PY'
import json, sys
t, reps = sys.argv[1], int(sys.argv[2])
runs = []
for r in range(1, reps + 1):
    d = json.load(open("%s/j%d" % (t, r)))
    u, sy = map(float, open("%s/time%d" % (t, r)).read().split()[-2:])
    runs.append((d["perf"]["sim_s_per_wall_s"], d, u + sy))
runs.sort(key=lambda x: x[0])
rate, d, cpu = runs[len(runs) // 2]  # the median (the upper one of an even count)
p, s = d["perf"], d["summary"]
print("%-8s %10.3f %14.0f %12.3f %12.3f %10.1f %8s %16s" % (
    sys.argv[3], s["duration_s"], p["packet_hops_per_wall_s"], rate, s["duration_s"] / cpu,
    p["peak_rss_mib"], sys.argv[4], "%d:%.3f..%.3f" % (reps, runs[0][0], runs[-1][0])))
PY
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) (2-core machine shared with other work)"
echo "(median of the runs by sim/wall; sim/cpu uses that run's user+system time, including set-up)"
