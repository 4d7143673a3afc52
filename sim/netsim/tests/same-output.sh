#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Identity check for speed work on xtm-netsim (docs/netsim.md 8): runs the command lines
# below with a reference binary and a candidate and compares every output (summary.json,
# intervals.csv, timeseries.csv, the generated configuration, standard output and standard
# error) byte for byte, but for the version string, the wall-time line of standard output
# and the timing fields of `perf` (wall_s, the two rates, peak RSS). The event counts of
# `perf` (events, per type, stale wakes, packet-hops, pool figures) must be equal too.
#   sim/netsim/tests/same-output.sh [--no-event-counts] [--no-pool-figures] REF NEW [WORK_DIR]
# --no-event-counts: for a change that schedules fewer (or more) events with the same
# results: `perf`'s event counts (events, events_by_type with stale_wakes) are left out of
# the comparison; everything else, packet-hops and pool figures included, must be equal.
# --no-pool-figures: for a change in when routers run ahead: the packet pool's peak and
# growth (the engine's memory, which depends on when a router frees the packets it sends)
# are left out too.
# Exit status 0 when all are identical, 1 otherwise. Not part of make test (about a minute).
set -u
EVENTS=1
POOL=1
while [ "${1:-}" = --no-event-counts ] || [ "${1:-}" = --no-pool-figures ]; do
  if [ "$1" = --no-event-counts ]; then EVENTS=0; else POOL=0; fi
  shift
done
REF=$1
NEW=$2
W=${3:-$(mktemp -d)}
S=sim/scenarios
SA="$S/scale-across.ini --set distance_km=500 --set load_bdp=1.0 --set profile=final --set warmup_s=0"
LINES=(
  "sa500-4k|$SA --set mtu=4096 --set duration_s=0.3 --set client_start=sync"
  "sa500-1k|$SA --set mtu=1024 --set duration_s=0.15 --set client_start=sync"
  "sa100-iv|$S/scale-across.ini --set distance_km=100 --set duration_s=0.2 --set interval_s=0.05 --set warmup_s=0.1 --set client_start=sync"
  "sa50-stag|$S/scale-across.ini --set distance_km=50 --set duration_s=0.2 --set client_start=staggered --set start_spread_ms=50 --set warmup_s=0"
  "sa200-nola|NOLA $S/scale-across.ini --set distance_km=200 --set duration_s=0.1 --set client_start=sync --set warmup_s=0"
  "pv-pfc|$S/pfc-victim.ini --set run=pfc"
  "pv-other|$S/pfc-victim.ini --set run=other-priority"
  "pv-alone|$S/pfc-victim.ini --set run=alone"
  "pv-hpcc|$S/pfc-victim.ini --set run=pfc --set switch_mode=hpcc"
  "rl-cong|$S/roce-lab.ini --set phase=congested"
  "rl-rec|$S/roce-lab.ini --set phase=recovered"
  "db10|$S/deep-buffer-sweep.ini --set distance_km=10"
  "db30-uet|$S/deep-buffer-sweep.ini --set distance_km=30 --set transport=uet"
  "db10-tcp|$S/deep-buffer-sweep.ini --set distance_km=10 --set transport=tcp --set message_mb=20"
  "policed|$S/policed-circuits.ini"
)
norm() { # normalise the version string and the wall-time line
  sed -E -e 's/1\.0\.0\+[0-9a-f]+(-dirty)?/VERSION/g' \
    -e 's/^simulated ([0-9.]+) s in [0-9.]+ s wall \([0-9.]+ simulated s per wall s\)/simulated \1 s in WALL/' \
    -e 's/, peak RSS [0-9]+ MiB$//' -e "s|$W/(ref\|new)/|DIR/|g"
}
run1() { # bin ref|new name args...
  local bin=$1 d=$W/$2/$3  # $2: ref or new
  shift 3
  local env=()
  if [ "${1:-}" = NOLA ]; then env=(NETSIM_NO_LOOKAHEAD=1); shift; fi
  rm -rf "$d"
  mkdir -p "$d"
  # shellcheck disable=SC2068
  env ${env[@]+"${env[@]}"} "$bin" run "$@" --no-plots --out "$d/out" >"$d/stdout" 2>"$d/stderr"
  echo $? >"$d/rc"
}
fail=0
for l in "${LINES[@]}"; do
  name=${l%%|*}
  # shellcheck disable=SC2086
  set -- ${l#*|}
  run1 "$REF" ref "$name" "$@" &
  run1 "$NEW" new "$name" "$@"
  wait
  bad=""
  for f in rc stdout stderr; do
    cmp -s <(norm <"$W/ref/$name/$f") <(norm <"$W/new/$name/$f") || bad="$bad $f"
  done
  for f in $(cd "$W/ref/$name/out" && ls); do
    if [ "$f" = summary.json ]; then
      python3 - "$W/ref/$name/out/$f" "$W/new/$name/out/$f" "$EVENTS" "$POOL" <<'PY' || bad="$bad $f"
import json, re, sys
def load(p):
    d = json.load(open(p))
    for k in ("wall_s", "sim_s_per_wall_s", "packet_hops_per_wall_s", "peak_rss_mib"):
        d.get("perf", {}).pop(k, None)
    if sys.argv[3] == "0":
        for k in ("events", "events_by_type"):
            d.get("perf", {}).pop(k, None)
    if sys.argv[4] == "0":
        for k in ("pool_peak_packets", "pool_grows"):
            d.get("perf", {}).pop(k, None)
    d["meta"]["version"] = "VERSION"
    return d
sys.exit(0 if load(sys.argv[1]) == load(sys.argv[2]) else 1)
PY
    else
      cmp -s <(norm <"$W/ref/$name/out/$f") <(norm <"$W/new/$name/out/$f" 2>/dev/null) || bad="$bad $f"
    fi
  done
  [ "$(cd "$W/ref/$name/out" && ls)" = "$(cd "$W/new/$name/out" && ls)" ] || bad="$bad file-list"
  ev=$(python3 -c "import json,sys; p=json.load(open(sys.argv[1])).get('perf',{}); print(p.get('events'), p.get('packet_hops'))" "$W/new/$name/out/summary.json" 2>/dev/null)
  if [ -n "$bad" ]; then
    echo "DIFFER $name:$bad"
    fail=1
  else
    echo "same   $name (rc $(cat "$W/new/$name/rc"), events/packet-hops $ev)"
  fi
done
echo "work dir: $W"
exit $fail
