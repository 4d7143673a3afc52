#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# xtm-netsim command line: bad input gives the exact message and exit 1; every scenario
# runs a short smoke with the JSON fields of docs/netsim.md; a sweep is deterministic
# whatever the parallelism. Prints PASS/FAIL lines for tools/run-tests.
set -u
NS=${NETSIM:-build/bin/xtm-netsim}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

expect_err() {  # name, expected first stderr line, command...
  local name=$1 want=$2; shift 2
  local got rc
  got=$("$@" 2>&1 >/dev/null | head -1); rc=${PIPESTATUS[0]}
  "$@" >/dev/null 2>&1; rc=$?
  if [ $rc -eq 1 ] && [ "$got" = "$want" ]; then
    echo "PASS cli-bad $name"
  else
    echo "FAIL cli-bad $name (exit $rc)"; echo "  expected: $want"; echo "  got:      $got"
  fi
}

printf '[scenario]\nfamily = scale-across\n[params]\nclients = 4\nthis line is broken\n' >"$T/bad1.ini"
expect_err malformed-line "$T/bad1.ini:5: syntax error (expected '[section]' or 'key = value')" \
  "$NS" run "$T/bad1.ini"
printf '[scenario]\nfamily = scale-across\n[paramz]\nx = 1\n' >"$T/bad2.ini"
expect_err unknown-section "$T/bad2.ini:4: unknown section [paramz] (expected [scenario] or [params])" \
  "$NS" run "$T/bad2.ini"
printf '[scenario]\nfamily = scale-across\n[params]\nclients = 4\nclients = 2\n' >"$T/bad3.ini"
expect_err duplicate-key "$T/bad3.ini:5: duplicate key 'clients' (first at line 4)" "$NS" run "$T/bad3.ini"
sed 's/^clients = 4/clients = four/' sim/scenarios/scale-across.ini >"$T/bad4.ini"
expect_err not-a-number "$T/bad4.ini:17: clients: 'four' is not a number" "$NS" run "$T/bad4.ini"
printf '[scenario]\nfamily = scale-across\n[params]\nwibble = 1\n' >"$T/bad5.ini"
expect_err unknown-param "$T/bad5.ini:4: wibble: unknown key for family scale-across" "$NS" run "$T/bad5.ini"
expect_err set-unknown-key "--set 'nosuch': unknown key for scenario pfc-victim (keys: run, buffer_mib, dcqcn, extra_senders, flow_mb, link_gbps, delay_us, mtu, duration_s, sample_us, seed, ack_every, rto_us)" \
  "$NS" run sim/scenarios/pfc-victim.ini --set nosuch=1
expect_err zero-rate "--set link_gbps: a zero link rate" "$NS" run sim/scenarios/pfc-victim.ini --set link_gbps=0
expect_err negative-delay "--set delay_us: a negative delay" "$NS" run sim/scenarios/pfc-victim.ini --set delay_us=-1
expect_err negative-distance "--set distance_km: -5 is out of range 0..20000" \
  "$NS" run sim/scenarios/scale-across.ini --set distance_km=-5
expect_err empty-window "--set load_bdp: an empty window (load_bdp must be > 0)" \
  "$NS" run sim/scenarios/scale-across.ini --set load_bdp=0
expect_err window-rounds-to-zero "--set load_bdp: 0.001 BDP gives an empty window (t = 0 messages of 65536 B per QP)" \
  "$NS" run sim/scenarios/scale-across.ini --set distance_km=50 --set load_bdp=0.001
expect_err bad-profile "--set profile: 'shallow' is not one of low-kmin, final, deep-buffer, custom" \
  "$NS" run sim/scenarios/scale-across.ini --set profile=shallow
expect_err bad-run "--set run: 'solo' is not one of alone, big-buffer, pfc, other-priority" \
  "$NS" run sim/scenarios/pfc-victim.ini --set run=solo
expect_err set-syntax "--set 'distance_km': expected key=value" \
  "$NS" run sim/scenarios/scale-across.ini --set distance_km

# smoke: each scenario briefly, JSON fields present and stamped
smoke() {  # name, scenario, sets...
  local name=$1 sc=$2; shift 2
  local args=()
  for s in "$@"; do args+=(--set "$s"); done
  if "$NS" run "$sc" "${args[@]}" --json --no-plots --out "$T/$name" >"$T/$name.json" 2>"$T/$name.err" &&
     python3 - "$T/$name.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
for k in ("bottleneck_util_gbps", "tail_drops", "lossless_drops", "ecn_marks", "cnps_sent",
          "pause_frames", "peak_queue_bytes", "peak_queue_rtt", "retransmitted_bytes", "jain_fairness"):
    assert k in s, k
for f in d["flows"]:
    for k in ("name", "bytes", "fct_us", "goodput_gbps"):
        assert k in f, k
for l in d["links"]:
    for k in ("name", "util_gbps", "pause_frames_rx", "paused_us"):
        assert k in l, k
m = d["meta"]
assert m["version"] and m["scenario"] and "seed" in m and "overrides" in m and m["units"]
assert s["bottleneck_util_gbps"] > 0
PY
  then echo "PASS cli-smoke $name"; else echo "FAIL cli-smoke $name"; cat "$T/$name.err"; fi
}
smoke scale-across sim/scenarios/scale-across.ini distance_km=50 duration_s=0.005
smoke scale-across-custom sim/scenarios/scale-across.ini distance_km=100 profile=custom clients=2 duration_s=0.005
smoke deep-buffer sim/scenarios/deep-buffer-sweep.ini message_mb=5 buffer_bdp=0.1
smoke pfc-victim sim/scenarios/pfc-victim.ini run=pfc
smoke roce-lab sim/scenarios/roce-lab.ini phase=congested iterations=50 bulk_ms=1

# the CSV is stamped and states its units
"$NS" run sim/scenarios/pfc-victim.ini --set run=alone --out "$T/csv" --no-plots >/dev/null 2>&1
if head -1 "$T/csv/timeseries.csv" | grep -q '^# xtm-netsim .*seed 1; overrides: run=alone' &&
   sed -n 2p "$T/csv/timeseries.csv" | grep -q 'units: time_us'; then
  echo "PASS cli-csv-stamp"; else echo "FAIL cli-csv-stamp"; head -3 "$T/csv/timeseries.csv"; fi

# a sweep gives identical results on 1 and 2 jobs
"$NS" sweep pfc-victim --jobs 1 --out "$T/sw1" >/dev/null 2>&1
"$NS" sweep pfc-victim --jobs 2 --out "$T/sw2" >/dev/null 2>&1
if [ -s "$T/sw1/results.csv" ] && cmp -s "$T/sw1/results.csv" "$T/sw2/results.csv"; then
  echo "PASS cli-sweep-deterministic"; else echo "FAIL cli-sweep-deterministic"; fi

# the routers' run-ahead (lookahead) is exact: the same results as running each router only
# up to the present (NETSIM_NO_LOOKAHEAD=1), perf figures aside
la_same() {  # name, scenario, sets...
  local name=$1 sc=$2; shift 2
  local args=()
  for s in "$@"; do args+=(--set "$s"); done
  "$NS" run "$sc" "${args[@]}" --json --no-plots --out "$T/la1" >"$T/la1.json" 2>/dev/null
  NETSIM_NO_LOOKAHEAD=1 "$NS" run "$sc" "${args[@]}" --json --no-plots --out "$T/la2" >"$T/la2.json" 2>/dev/null
  if python3 - "$T/la1.json" "$T/la2.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    d.pop("perf")
assert a == b
assert a["summary"]["bottleneck_util_gbps"] > 0
PY
  then echo "PASS cli-lookahead-exact $name"; else echo "FAIL cli-lookahead-exact $name"; fi
}
la_same pfc-victim sim/scenarios/pfc-victim.ini run=other-priority
la_same scale-across sim/scenarios/scale-across.ini distance_km=50 duration_s=0.01
