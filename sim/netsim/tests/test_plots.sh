#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The plots of xtm-netsim and dcqcn-trace (issue 20, docs/netsim.md 5.1): one short run of
# each scenario, two sweeps (bars and lines) and a dcqcn-trace plot are drawn and checked by
# sim/netsim/tools/check_plots.py (each PNG as a file; what it shows on its script redrawn as
# SVG, against the run's own record); then the checker must catch each planted fault: a
# series gone from the key or without data, a wrong time unit or axis label, a reference
# line missing or at another value than the scenario's, the footer without its seed or
# command, the key inside the data, a title that does not fit, a truncated, resized or
# blank PNG, a bar or a sweep line lost. Prints PASS/FAIL lines for tools/run-tests.
set -u
NS=${NETSIM:-build/bin/xtm-netsim}
TR=${DCQCN_TRACE:-build/bin/dcqcn-trace}
CK=$PWD/sim/netsim/tools/check_plots.py
case $NS in /*) ;; *) NS=$PWD/$NS ;; esac
case $TR in /*) ;; *) TR=$PWD/$TR ;; esac
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
if ! command -v gnuplot >/dev/null; then echo "FAIL plots: gnuplot is not installed (Debian: gnuplot-nox)"; exit 0; fi

check() {  # name, kind, dir-or-png [, -- args]: the checker must pass
  local name=$1; shift
  if python3 "$CK" "$@" >"$T/ck.out" 2>&1; then echo "PASS plots $name ($(grep -c '^ok ' "$T/ck.out") plots)"
  else echo "FAIL plots $name"; cat "$T/ck.out"; fi
}

planted() {  # name, expected message (fixed string), checker arguments...: must fail with it
  local name=$1 want=$2; shift 2
  python3 "$CK" "$@" >"$T/ck.out" 2>&1; local rc=$?
  if [ $rc -eq 1 ] && grep -qF -- "$want" "$T/ck.out"; then echo "PASS plots-negative $name"
  else echo "FAIL plots-negative $name (exit $rc; expected a line with: $want)"; head -5 "$T/ck.out"; fi
}

copy() {  # a fresh copy of a result directory to plant a fault in
  rm -rf "$T/m"; cp -r "$1" "$T/m"
}

# ---- one short run of each scenario, all plots drawn and read back
"$NS" run sim/scenarios/scale-across.ini --set distance_km=500 --set duration_s=0.03 \
  --set warmup_s=0.015 --set interval_s=0.005 --set sample_us=100 --set start_spread_ms=3 \
  --out "$T/sa" >/dev/null 2>&1
check scale-across run "$T/sa"
"$NS" run sim/scenarios/pfc-victim.ini --set run=pfc --out "$T/pv" >/dev/null 2>&1
check pfc-victim run "$T/pv"
"$NS" run sim/scenarios/deep-buffer-sweep.ini --set message_mb=5 --set buffer_bdp=0.1 --out "$T/db" >/dev/null 2>&1
check deep-buffer run "$T/db"
"$NS" run sim/scenarios/roce-lab.ini --set phase=congested --set iterations=50 --set bulk_ms=1 --out "$T/rl" >/dev/null 2>&1
check roce-lab run "$T/rl"
# a long run (500 rate bins of 1 ms): the zoom is the last 200 bins, the whole run's rates
# are means per 3 ms
"$NS" run sim/scenarios/scale-across.ini --set distance_km=50 --set duration_s=0.5 \
  --set warmup_s=0.1 --set interval_s=0.05 --set sample_us=100 --set start_spread_ms=20 \
  --out "$T/lr" >/dev/null 2>&1
check long-run run "$T/lr"
# a sweep of bars (one axis) and one of lines (two axes)
"$NS" sweep pfc-victim --jobs 2 --out "$T/swb" >/dev/null 2>&1
check sweep-bars sweep "$T/swb"
"$NS" sweep pfc-victim-buffers --jobs 2 --out "$T/swl" >/dev/null 2>&1
check sweep-lines sweep "$T/swl"
# dcqcn-trace --png
targs=(--cnp-us 100,102.5,106.5,110.5 --until-us 3000 --every-us 1 --param RPG_TIME_RESET=5000 --png t.png)
(cd "$T" && "$TR" "${targs[@]}" >t.csv 2>t.err)
check dcqcn-trace trace "$T/t.png" -- "${targs[@]}"
# same command, same plot: no random input anywhere (the PNGs too)
"$NS" run sim/scenarios/pfc-victim.ini --set run=pfc --out "$T/pv2" >/dev/null 2>&1
if cmp -s "$T/pv/plots.gp" "$T/pv2/plots.gp" && cmp -s "$T/pv/rates.png" "$T/pv2/rates.png"; then
  echo "PASS plots deterministic"; else echo "FAIL plots deterministic (plots.gp or rates.png differ)"; fi

# ---- planted faults: each must be caught, with the line that says what is wrong
copy "$T/lr"
sed -i "s/zoom: from 300 ms/zoom: from 100 ms/" "$T/m/plots.gp"
planted zoom-too-long "zoomed panel spans 400000 us, more than 200 rate bins of 1000 us" run "$T/m"
copy "$T/lr"
sed -i 's|floor(\$1/WA) + 0.5) \* WA|floor($1/W) + 0.5) * W|g' "$T/m/plots.gp"
planted whole-run-unbinned "points in the whole-run panel, expected at most 402" run "$T/m"
copy "$T/sa"
sed -i "s/title 'client3 (8 QPs)'/notitle/" "$T/m/plots.gp"
planted series-missing "series 'client3 " run "$T/m"
copy "$T/sa"
sed -i "s|^plot 'timeseries.csv' using (\$1/1000):(\$2/1e6)|plot 'timeseries.csv' every ::0::10 using (\$1/1000):(\$2/1e6)|" "$T/m/plots.gp"
planted series-data-lost "series 'VOQ occupancy' has " run "$T/m"
copy "$T/sa"
sed -i "s/set xlabel 'time (ms)'/set xlabel 'time (us)'/" "$T/m/plots.gp"
planted wrong-time-unit "no time axis in ms" run "$T/m"
copy "$T/sa"
sed -i "s/set ylabel 'queue (MB, 10^6 B)'/set ylabel 'queue (bytes)'/" "$T/m/plots.gp"
planted wrong-queue-unit "queue.png: no y axis in MB" run "$T/m"
copy "$T/sa"
sed -i 's/"Kmin /"K_min /' "$T/m/plots.gp"
planted kmin-line-missing "no labelled Kmin line" run "$T/m"
copy "$T/sa"
python3 - "$T/m/summary.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["meta"]["params"]["kmin_rtt"] = "0.5"
json.dump(d, open(sys.argv[1], "w"))
PY
planted kmin-line-elsewhere "Kmin line at 0.75 RTT, the scenario says kmin_rtt 0.5" run "$T/m"
copy "$T/sa"
sed -i 's/seed 1, overrides/seed 7, overrides/' "$T/m/plots.gp"
planted footer-seed "footer lacks 'seed 1'" run "$T/m"
copy "$T/sa"
sed -i 's/reproduce: xtm-netsim run /reproduce: run /' "$T/m/plots.gp"
planted footer-command "footer lacks 'reproduce: xtm-netsim run sim/scenarios/scale-across.ini'" run "$T/m"
copy "$T/sa"
sed -i 's/set key outside top left horizontal/set key inside top right horizontal/' "$T/m/plots.gp"
planted key-inside "inside the data area" run "$T/m"
copy "$T/sa"
sed -i 's/^set multiplot title "scale-across: /set multiplot title "scale-across: a title far too long for the width of the image, which a reader would see cut off at both ends of the plot /' "$T/m/plots.gp"
planted title-cut "text does not fit in the image" run "$T/m"
copy "$T/sa"
head -c 20000 "$T/sa/queue.png" >"$T/m/queue.png"
planted png-truncated "queue.png: truncated" run "$T/m"
copy "$T/sa"
sed -i 's/^set terminal pngcairo size 1100,850/set terminal pngcairo size 800,600/' "$T/m/plots.gp"
(cd "$T/m" && gnuplot plots.gp 2>/dev/null)
planted png-size "util.png: 800x600 pixels, expected 1100x850" run "$T/m"
copy "$T/sa"
(cd "$T/m" && printf "set terminal pngcairo size 1100,850\nset output 'util.png'\nunset border\nunset tics\nset yrange [0:1]\nplot 2 notitle\n" | gnuplot 2>/dev/null)
planted png-blank "util.png: almost blank" run "$T/m"
copy "$T/sa"
rm "$T/m/rates-qp.png"
planted png-missing "rates-qp.png: missing" run "$T/m"
copy "$T/swl"
sed -i "s/ title 'dcqcn=off'/ notitle/g" "$T/m/report.gp"
planted sweep-line-missing "series 'dcqcn=off' missing" sweep "$T/m"
copy "$T/swl"
sed -i "s/strcol(2) eq 'on' ?/strcol(2) eq 'no' ?/g" "$T/m/report.gp"
planted sweep-points-lost "series 'dcqcn=on' has 0 points" sweep "$T/m"
copy "$T/swl"
sed -i "s/set ylabel 'victim FCT (us)'/set ylabel 'victim FCT (ms)'/" "$T/m/report.gp"
planted sweep-unit "victim.png: no y axis in us" sweep "$T/m"
copy "$T/swb"
sed -i "s/xtic(1) with boxes/xtic(1) every ::1 with boxes/" "$T/m/report.gp"
planted sweep-bar-lost "bars and 4 value labels, expected" sweep "$T/m"
cp "$T/t.png.gp" "$T/t.good.gp"
sed -i "s/set xlabel 'time (ms)'/set xlabel 'time (us)'/" "$T/t.png.gp"
planted trace-time-unit "no time axis in ms" trace "$T/t.png" -- "${targs[@]}"
cp "$T/t.good.gp" "$T/t.png.gp"
sed -i "s/ title 'CNP arrivals'/ notitle/" "$T/t.png.gp"
planted trace-cnps-missing "series 'CNP arrivals' missing" trace "$T/t.png" -- "${targs[@]}"
cp "$T/t.good.gp" "$T/t.png.gp"
planted trace-other-command "footer lacks 'reproduce: dcqcn-trace --cnp-us 100 " trace "$T/t.png" -- \
  --cnp-us 100 --until-us 3000 --every-us 1 --png t.png
