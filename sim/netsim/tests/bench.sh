#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make bench item of the network simulator: scale-across at 500 km, load_bdp 1.0, final
# profile, one process (one core), at 4 KB and at 1 KB payload. Prints simulated packet-hops
# per wall second, simulated seconds per wall second (wall and CPU time) and peak memory,
# against the targets of issue 15 (2.0 at 4 KB, 0.6 at 1 KB, under 1 GB), and the load average.
# NETSIM_BENCH_S (default 2) sets the simulated seconds per point.
set -eu
NS=${1:-build/bin/xtm-netsim}
S=${NETSIM_BENCH_S:-2}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
printf '%-8s %10s %14s %12s %12s %10s %8s\n' payload sim_s hops_per_s sim/wall sim/cpu rss_MiB target
for mtu in 4096 1024; do
  target=2.0; [ "$mtu" = 1024 ] && target=0.6
  /usr/bin/time -f '%U %S' -o "$T/time" "$NS" run sim/scenarios/scale-across.ini \
    --set distance_km=500 --set load_bdp=1.0 --set profile=final --set mtu=$mtu \
    --set duration_s=$S --set sample_us=0 --set client_start=sync --set warmup_s=0 --json --no-plots --out "$T/run$mtu" >"$T/j$mtu"
  python3 - "$T/j$mtu" "$T/time" "$mtu" "$target" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); p = d["perf"]; s = d["summary"]
u, sy = map(float, open(sys.argv[2]).read().split()[-2:])
print("%-8s %10.3f %14.0f %12.3f %12.3f %10.1f %8s" % (
    sys.argv[3], s["duration_s"], p["packet_hops_per_wall_s"], p["sim_s_per_wall_s"],
    s["duration_s"] / (u + sy), p["peak_rss_mib"], sys.argv[4]))
PY
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) (2-core machine shared with other work)"
echo "(sim/cpu uses the process's user+system time, including set-up; the machine is shared)"
