#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# xtm-netsim command line (docs/netsim.md 3, "Bad input"): bad input gives the exact message
# and exit 1, a lost output exit 2, no input reaches a shell; every scenario runs a short
# smoke with the JSON fields of docs/netsim.md; the set-up items of issue 15 that the CLI
# shows (alone topology, exact flow bytes, per-interval series, L1/L2, NIC latency, the
# HPCC and UET modes); a sweep is deterministic whatever the parallelism.
# Prints PASS/FAIL lines for tools/run-tests.
set -u
NS=${NETSIM:-build/bin/xtm-netsim}
case $NS in /*) ;; *) NS=$PWD/$NS ;; esac
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

EXPECT_ERR_TAG=cli-bad
. "$(dirname "$0")/expect_err.sh"

# ---- malformed files
printf '[scenario]\nfamily = scale-across\n[params]\nclients = 4\nthis line is broken\n' >"$T/bad1.ini"
expect_err malformed-line 1 "$T/bad1.ini:5: syntax error (expected '[section]' or 'key = value')" \
  "$NS" run "$T/bad1.ini"
printf '[scenario]\nfamily = scale-across\n[paramz]\nx = 1\n' >"$T/bad2.ini"
expect_err unknown-section 1 "$T/bad2.ini:4: unknown section [paramz] (expected [scenario] or [params])" \
  "$NS" run "$T/bad2.ini"
printf '[scenario]\nfamily = scale-across\n[params]\nclients = 4\nclients = 2\n' >"$T/bad3.ini"
expect_err duplicate-key 1 "$T/bad3.ini:5: duplicate key 'clients' (first at line 4)" "$NS" run "$T/bad3.ini"
sed 's/^clients = 4/clients = four/' sim/scenarios/scale-across.ini >"$T/bad4.ini"
expect_err not-a-number 1 "$T/bad4.ini:17: clients: 'four' is not an integer (expected 1..12)" "$NS" run "$T/bad4.ini"
printf '[scenario]\nfamily = scale-across\n[params]\nwibble = 1\n' >"$T/bad5.ini"
expect_err unknown-param 1 "$T/bad5.ini:4: wibble: unknown key for family scale-across" "$NS" run "$T/bad5.ini"
# a line over libinih's buffer is reported on its own line, not the next one
{ printf '[scenario]\nfamily = pfc-victim\n[params]\nrun = pfc\n'; printf 'flow_mb = 1 ; %0190d\n' 0; printf 'x y z\n'; } >"$T/long.ini"
expect_err long-line 1 "$T/long.ini:5: line longer than 198 characters" "$NS" run "$T/long.ini"
printf '[scenario]\nfamily = pfc-victim\n[params]\nrun = pfc\x00\n' >"$T/nul.ini"
expect_err nul-byte 1 "$T/nul.ini:4: a NUL byte (not a text file?)" "$NS" run "$T/nul.ini"

# ---- unbounded or wrong inputs: a clear message, never a hang
expect_err dev-zero-run 1 "/dev/zero: larger than 1048576 bytes (not a scenario or configuration file?)" "$NS" run /dev/zero
expect_err dev-zero-keys 1 "/dev/zero: larger than 1048576 bytes (not a scenario or configuration file?)" "$NS" keys /dev/zero
expect_err dev-urandom-run 1 "/dev/urandom: larger than 1048576 bytes (not a scenario or configuration file?)" "$NS" run /dev/urandom
expect_err directory 1 "$T: is a directory, not a file" "$NS" run "$T"
expect_err missing-file 1 "$T/nope.ini: cannot open: No such file or directory" "$NS" run "$T/nope.ini"
expect_err roce-config-dev-zero 1 "--set config: /dev/zero: larger than 1048576 bytes (not a scenario or configuration file?)" \
  "$NS" run sim/scenarios/roce-lab.ini --set config=/dev/zero
# 110,000 nested blocks crashed the configuration compiler (parse_block) through config=
python3 -c "print('class-of-service ' + 'a {' * 110000)" >"$T/deep.conf"
expect_err roce-config-nesting 1 "sim/scenarios/roce-lab.ini: router configuration: deep.conf:1:212: blocks nested deeper than 64 levels (router z9100, 1 error)" \
  "$NS" run sim/scenarios/roce-lab.ini --set config="$T/deep.conf" --out "$T/deepout"
expect_err roce-config-directory 1 "--set config: $T: is a directory, not a file" \
  "$NS" run sim/scenarios/roce-lab.ini --set config="$T"
expect_err huge-csv 1 "--set sample_us: 0.001 us over 60 s is 60000000000 rows of timeseries.csv, above the limit of 1000000 (raise sample_us, or 0 for no time series)" \
  "$NS" run sim/scenarios/scale-across.ini --set sample_us=0.001
# the issue's 0.5 ms run: 500,001 rows are under the row limit but 169 MB; bounded in values
expect_err huge-csv-values 1 "--set sample_us, duration_s: 0.001 us over 0.0005 s is 500001 rows x 49 columns of timeseries.csv, above the limit of 20000000 values (raise sample_us, or 0 for no time series)" \
  "$NS" run sim/scenarios/scale-across.ini --set sample_us=0.001 --set duration_s=0.0005 --out "$T/hugecsv"
[ -e "$T/hugecsv/timeseries.csv" ] && echo "FAIL cli-bad huge-csv-nothing-written" || echo "PASS cli-bad huge-csv-nothing-written"
expect_err huge-csv-duration 1 "--set duration_s: 1000 us over 3600 s is 3600000 rows of timeseries.csv, above the limit of 1000000 (raise sample_us, or 0 for no time series)" \
  "$NS" run sim/scenarios/scale-across.ini --set duration_s=3600
expect_err huge-intervals 1 "--set interval_s: 1e-06 s over 60 s is 60000000 intervals, above the limit of 1000000" \
  "$NS" run sim/scenarios/scale-across.ini --set interval_s=0.000001

# ---- numbers: strict (tools/lib/xtm_num), integers where an integer is meant
expect_err half-clients 1 "--set clients: '1.5' is not an integer (expected 1..12)" \
  "$NS" run sim/scenarios/scale-across.ini --set clients=1.5
expect_err half-qps 1 "--set qps: '2.5' is not an integer (expected 1..256)" \
  "$NS" run sim/scenarios/scale-across.ini --set qps=2.5
expect_err half-senders 1 "--set extra_senders: '1.5' is not an integer (expected -1..8)" \
  "$NS" run sim/scenarios/pfc-victim.ini --set extra_senders=1.5
expect_err half-seed 1 "--set seed: '1.5' is not an integer (expected 0..18446744073709551615)" \
  "$NS" run sim/scenarios/scale-across.ini --set seed=1.5
expect_err hex-float 1 "--set distance_km: '0x1p5' is not a decimal number (expected 0..20000)" \
  "$NS" run sim/scenarios/scale-across.ini --set distance_km=0x1p5
expect_err inf 1 "--set delay_us: 'inf' is not a decimal number (expected -1000000000..1000000)" \
  "$NS" run sim/scenarios/pfc-victim.ini --set delay_us=inf
expect_err trailing-junk 1 "--set mtu: '4096abc' is not an integer (expected 64..9000)" \
  "$NS" run sim/scenarios/scale-across.ini --set mtu=4096abc
expect_err jobs-junk 1 "xtm-netsim: --jobs '2x' is not an integer (expected 1..1024)" \
  "$NS" sweep pfc-victim --jobs 2x
expect_err set-unknown-key 1 "--set 'nosuch': unknown key for scenario pfc-victim (keys: run, buffer_mib, dcqcn, extra_senders, flow_mb, link_gbps, delay_us, mtu, duration_s, sample_us, seed, ack_every, rto_us, switch_mode, interval_s, warmup_s)" \
  "$NS" run sim/scenarios/pfc-victim.ini --set nosuch=1
expect_err zero-rate 1 "--set link_gbps: a zero link rate" "$NS" run sim/scenarios/pfc-victim.ini --set link_gbps=0
expect_err negative-delay 1 "--set delay_us: a negative delay" "$NS" run sim/scenarios/pfc-victim.ini --set delay_us=-1
expect_err negative-distance 1 "--set distance_km: '-5' is out of range 0..20000" \
  "$NS" run sim/scenarios/scale-across.ini --set distance_km=-5
expect_err empty-window 1 "--set load_bdp: an empty window (load_bdp must be > 0)" \
  "$NS" run sim/scenarios/scale-across.ini --set load_bdp=0
# the key that causes a range error is the one named
expect_err window-blames-link 1 "--set link_gbps: the window load_bdp x BDP / (qps x msg_bytes) = 1 x 647 B / (8 x 65536 B) rounds to t = 0 messages per QP" \
  "$NS" run sim/scenarios/scale-across.ini --set link_gbps=0.001
expect_err window-blames-load 1 "--set load_bdp: the window load_bdp x BDP / (qps x msg_bytes) = 0.0001 x 64737500 B / (8 x 65536 B) rounds to t = 0 messages per QP" \
  "$NS" run sim/scenarios/scale-across.ini --set load_bdp=0.0001
expect_err window-two-keys 1 "--set load_bdp, distance_km: the window load_bdp x BDP / (qps x msg_bytes) = 0.001 x 7900000 B / (8 x 65536 B) rounds to t = 0 messages per QP" \
  "$NS" run sim/scenarios/scale-across.ini --set distance_km=50 --set load_bdp=0.001
expect_err host-prop-blamed 1 "--set host_prop_us: the host cable (5000 us one way) is not shorter than half the RTT (5179.0 us)" \
  "$NS" run sim/scenarios/scale-across.ini --set host_prop_us=5000
expect_err bad-profile 1 "--set profile: 'shallow' is not one of final, low-kmin, deep-buffer or custom" \
  "$NS" run sim/scenarios/scale-across.ini --set profile=shallow
expect_err bad-run 1 "--set run: 'solo' is not one of alone, big-buffer, pfc or other-priority" \
  "$NS" run sim/scenarios/pfc-victim.ini --set run=solo
expect_err bad-start 1 "--set client_start: 'now' is not one of staggered or sync" \
  "$NS" run sim/scenarios/scale-across.ini --set client_start=now
expect_err bad-transport 1 "--set transport: 'quic' is not one of roce, uet or tcp" \
  "$NS" run sim/scenarios/deep-buffer-sweep.ini --set transport=quic
expect_err bad-tcp-cc 1 "--set tcp_cc: 'reno' is not one of cubic or bbr" \
  "$NS" run sim/scenarios/deep-buffer-sweep.ini --set tcp_cc=reno
expect_err bad-tcp-flows 1 "--set tcp_flows: '0' is out of range 1..256" \
  "$NS" run sim/scenarios/deep-buffer-sweep.ini --set transport=tcp --set tcp_flows=0
expect_err tcp-flows-above-bytes 1 "--set tcp_flows: 2 flows cannot share a message of 1 bytes" \
  "$NS" run sim/scenarios/deep-buffer-sweep.ini --set transport=tcp --set message_mb=0.000001 --set tcp_flows=2
expect_err tcp-state-limit 1 "--set tcp_flows, distance_km: 256 flows x a window of 4 BDP (500050 segments) is above the limit of 4194304 segments of TCP state" \
  "$NS" run sim/scenarios/deep-buffer-sweep.ini --set transport=tcp --set tcp_flows=256 --set distance_km=2000 --set mtu=1000
expect_err bad-tcp-min-rto 1 "--set tcp_min_rto_ms: '0' is out of range 0.001..60000" \
  "$NS" run sim/scenarios/deep-buffer-sweep.ini --set transport=tcp --set tcp_min_rto_ms=0
expect_err dcqcn-set-injection 1 "--set dcqcn_set: RPG_MIN_DEC_FAC: '1; } } x {' is not an integer (expected 0..1000000)" \
  "$NS" run sim/scenarios/scale-across.ini "--set=dcqcn_set=RPG_MIN_DEC_FAC=1; } } x {"
expect_err set-syntax 1 "--set 'distance_km': expected key=value" \
  "$NS" run sim/scenarios/scale-across.ini --set distance_km
expect_err set-control-char 1 "--set run: value 'p\\x01fc' is not printable text of at most 255 characters" \
  "$NS" run sim/scenarios/pfc-victim.ini --set "run=$(printf 'p\001fc')"
# keys of one set-up (profile=custom, pfc_thresholds=custom, roce-lab phases): a bad value is
# refused whatever the set-up; a good one that does not apply is a warning and a summary note
expect_err custom-key-checked 1 "--set buffer_rtt: '12abc' is not a decimal number (expected 0.0001..1000)" \
  "$NS" run sim/scenarios/scale-across.ini --set buffer_rtt=12abc
expect_err pfc-key-checked 1 "--set pfc_xoff_us: 'nan' is not a decimal number (expected 0.001..1000000)" \
  "$NS" run sim/scenarios/scale-across.ini --set pfc_xoff_us=nan
expect_err unused-override-warned 0 "xtm-netsim: warning: --set buffer_rtt: not used by this run (it applies only with profile=custom)" \
  "$NS" run sim/scenarios/scale-across.ini --set buffer_rtt=3 --set duration_s=0.001 --set interval_s=0.001 --no-plots --out "$T/unused1"
grep -q '"buffer_rtt not used (only with profile=custom); ' "$T/unused1/summary.json" &&
  echo "PASS cli-bad unused-override-in-summary" || echo "FAIL cli-bad unused-override-in-summary"
expect_err unused-phase-key-warned 0 "xtm-netsim: warning: --set recover_ms: not used by this run (it applies only with phase=recovered)" \
  "$NS" run sim/scenarios/roce-lab.ini --set phase=unloaded --set iterations=1 --set recover_ms=2 --no-plots --out "$T/unused2"
# a configuration that cannot do what it says: 100g ports on 37 Gb/s links
expect_err roce-host-gbps 1 "--set host_gbps: roce-lab-6g-ecn.conf: interface et-0/0/1 runs at 100 Gb/s in the configuration, but its link at 37 Gb/s" \
  "$NS" run sim/scenarios/roce-lab.ini --set host_gbps=37
expect_err alone-no-senders 1 "--set extra_senders: run=alone is the victim by itself (no incast senders)" \
  "$NS" run sim/scenarios/pfc-victim.ini --set run=alone --set extra_senders=2
# a sweep with a bad override is bad input (1), refused before anything runs
expect_err sweep-bad-value 1 "--set buffer_mib: 'abc' is not a decimal number (expected 0..65536)" \
  "$NS" sweep pfc-victim --set buffer_mib=abc --out "$T/swbad"
expect_err sweep-bad-key 1 "--set 'nosuch': unknown key for scenario pfc-victim (keys: run, buffer_mib, dcqcn, extra_senders, flow_mb, link_gbps, delay_us, mtu, duration_s, sample_us, seed, ack_every, rto_us, switch_mode, interval_s, warmup_s)" \
  "$NS" sweep pfc-victim --set nosuch=1 --out "$T/swbad"
[ -e "$T/swbad" ] && echo "FAIL cli-bad sweep-bad-nothing-written" || echo "PASS cli-bad sweep-bad-nothing-written"
expect_err sweep-unknown-family 1 "xtm-netsim sweep: unknown family 'nope'; families: scale-across grid buffer-sweep deep-buffer-sweep deep-buffer-sweep-uet pfc-victim pfc-victim-buffers pfc-victim-senders roce-lab sensitivity-4to1 policed-circuits" \
  "$NS" sweep nope

# ---- options: each belongs to its commands and is given once (run --slurm ran locally,
# sweep --no-plots drew the plots, the last --out and the last --set of a key won)
expect_err run-slurm 1 "xtm-netsim: --slurm is not an option of 'run'" "$NS" run sim/scenarios/pfc-victim.ini --slurm
expect_err run-jobs 1 "xtm-netsim: --jobs is not an option of 'run'" "$NS" run sim/scenarios/pfc-victim.ini --jobs 2
expect_err sweep-no-plots 1 "xtm-netsim: --no-plots is not an option of 'sweep'" "$NS" sweep pfc-victim --no-plots --out "$T/swopt"
expect_err sweep-json 1 "xtm-netsim: --json is not an option of 'sweep'" "$NS" sweep pfc-victim --json --out "$T/swopt"
expect_err keys-set 1 "xtm-netsim: --set is not an option of 'keys'" "$NS" keys sim/scenarios/pfc-victim.ini --set run=pfc
expect_err out-twice 1 "xtm-netsim: option given twice '--out'" \
  "$NS" run sim/scenarios/pfc-victim.ini --out "$T/o1" --out "$T/o2"
expect_err set-key-twice 1 "xtm-netsim: --set given twice for 'run'" \
  "$NS" run sim/scenarios/pfc-victim.ini --set run=alone "--set=run=pfc"
expect_err out-no-value 1 "xtm-netsim: --out needs a value" "$NS" run sim/scenarios/pfc-victim.ini --out
expect_err set-no-value 1 "xtm-netsim: --set needs a value" "$NS" run sim/scenarios/pfc-victim.ini --set
[ -e "$T/swopt" ] || [ -e "$T/o1" ] || [ -e "$T/o2" ] && echo "FAIL cli-bad options-nothing-written" || echo "PASS cli-bad options-nothing-written"

# ---- --help: the usage on standard output, exit 0 (sweep --help printed "unknown family
# '--help'"); sweep's lists every family with its scenario
help_ok() {  # name, expected first line, command...
  local name=$1 want=$2; shift 2
  local out rc
  out=$("$@" 2>/dev/null); rc=$?
  if [ $rc -eq 0 ] && [ "$(printf '%s\n' "$out" | head -1)" = "$want" ] &&
     { [ "$name" != sweep ] || [ "$(printf '%s\n' "$out" | grep -c '^  [a-z0-9-]* *sim/scenarios/.*\.ini: ')" -eq 11 ]; }; then
    echo "PASS cli-help $name"
  else
    echo "FAIL cli-help $name (exit $rc)"; printf '%s\n' "$out" | head -3
  fi
}
help_ok sweep "usage: xtm-netsim sweep <family> [--set key=value]... [--jobs N] [--out DIR] [--slurm] [--report-only]" "$NS" sweep --help
help_ok sweep-family "usage: xtm-netsim sweep <family> [--set key=value]... [--jobs N] [--out DIR] [--slurm] [--report-only]" "$NS" sweep pfc-victim -h
help_ok top "usage:" "$NS" --help
help_ok run "usage:" "$NS" run --help
# "--help" as the value of --set is a value, not a request for help
expect_err set-value-help 1 "--set '--help': expected key=value" "$NS" run sim/scenarios/pfc-victim.ini --set --help

# ---- a `config` path in a scenario file is relative to that file's directory (it was
# relative to the working directory); one given with --set to the working directory
mkdir -p "$T/lab/sub"
cp firmware/examples/roce-lab-6g-ecn.conf "$T/lab/sub/lab.conf"
sed 's#^config = .*#config = sub/lab.conf#' sim/scenarios/roce-lab.ini >"$T/lab/rl.ini"
sed 's#^config = .*#config = nope.conf#' sim/scenarios/roce-lab.ini >"$T/lab/rl2.ini"
if "$NS" run "$T/lab/rl.ini" --set iterations=5 --set phase=unloaded --no-plots --out "$T/lab/o1" >/dev/null 2>&1 &&
   (cd "$T/lab/sub" && "$NS" run ../rl.ini --set iterations=5 --set phase=unloaded --no-plots --out "$T/lab/o2" >/dev/null 2>&1) &&
   [ -s "$T/lab/o1/summary.json" ] && [ -s "$T/lab/o2/summary.json" ]; then
  echo "PASS cli-config-relative-to-scenario"
else
  echo "FAIL cli-config-relative-to-scenario"
fi
expect_err config-set-relative-to-cwd 1 "--set config: sub/lab.conf: cannot open: No such file or directory" \
  "$NS" run "$T/lab/rl.ini" --set config=sub/lab.conf
expect_err config-file-missing 1 "$T/lab/rl2.ini:17: config: $T/lab/nope.conf: cannot open: No such file or directory" \
  "$NS" run "$T/lab/rl2.ini"

# ---- outputs: an existing file as --out, a full disk, standard output full
touch "$T/afile"
expect_err out-is-file 1 "xtm-netsim: --out $T/afile: exists and is not a directory" \
  "$NS" run sim/scenarios/pfc-victim.ini --out "$T/afile"
expect_err sweep-out-is-file 1 "xtm-netsim: --out $T/afile: exists and is not a directory" \
  "$NS" sweep pfc-victim --out "$T/afile"
expect_err stdout-full 2 "xtm-netsim: writing standard output: No space left on device; the run's outputs are incomplete" \
  sh -c "exec \"\$0\" run sim/scenarios/pfc-victim.ini --json --no-plots --out \"\$1\" >/dev/full" "$NS" "$T/full1"
mkdir -p "$T/full2"; ln -s /dev/full "$T/full2/summary.json"
expect_err summary-full 2 "xtm-netsim: writing $T/full2/summary.json: No space left on device; the run's outputs are incomplete" \
  "$NS" run sim/scenarios/pfc-victim.ini --no-plots --out "$T/full2"
mkdir -p "$T/full3"; ln -s /dev/full "$T/full3/intervals.csv"
expect_err intervals-full 2 "xtm-netsim: writing $T/full3/intervals.csv: No space left on device; the run's outputs are incomplete" \
  "$NS" run sim/scenarios/pfc-victim.ini --no-plots --out "$T/full3"
mkdir -p "$T/full4"; ln -s /dev/full "$T/full4/pfc-victim-A.conf"
expect_err config-full 2 "sim/scenarios/pfc-victim.ini: cannot write $T/full4/pfc-victim-A.conf: No space left on device" \
  "$NS" run sim/scenarios/pfc-victim.ini --no-plots --out "$T/full4"
keys_full=$( "$NS" keys sim/scenarios/pfc-victim.ini 2>&1 >/dev/full; echo "rc=$?")
[ "$keys_full" = "xtm-netsim: writing standard output: No space left on device
rc=2" ] && echo "PASS cli-bad keys-stdout-full" || { echo "FAIL cli-bad keys-stdout-full"; echo "$keys_full"; }

# ---- no shell: a scenario name and --out with shell and gnuplot metacharacters
cd "$T" || exit 1
printf "[scenario]\nfamily = pfc-victim\nname = lab';touch\${IFS}PWNED;'\n[params]\nrun = pfc\n" >inj1.ini
cat "$OLDPWD/sim/scenarios/pfc-victim.ini" | sed "s/^name = pfc-victim/name = x\$(touch PWNED)/" >inj2.ini
expect_err name-quote 1 "inj1.ini:3: name 'lab';touch\${IFS}PWNED;'': a scenario name is 1..47 characters of A-Z a-z 0-9 . _ - (not starting with . or -)" \
  "$NS" run inj1.ini
expect_err name-dollar 1 "inj2.ini:9: name 'x\$(touch PWNED)': a scenario name is 1..47 characters of A-Z a-z 0-9 . _ - (not starting with . or -)" \
  "$NS" run inj2.ini
cd "$OLDPWD" || exit 1
for o in "o'x;touch PWNED2;'" 'o`touch PWNED3`' 'o$(touch PWNED4)' "o\"; system('touch PWNED5'); \"" "o
touch PWNED6"; do
  "$NS" run sim/scenarios/pfc-victim.ini --set run=alone --out "$T/$o" >/dev/null 2>"$T/inj.err"
done
pwned=$(find "$T" . -maxdepth 3 -name 'PWNED*' -type f 2>/dev/null)
if [ -n "$pwned" ]; then echo "FAIL cli-no-shell (a command ran: $pwned)"; else
  if [ -s "$T/o'x;touch PWNED2;'/util.png" ] || ! command -v gnuplot >/dev/null; then echo "PASS cli-no-shell"
  else echo "FAIL cli-no-shell (no plot in the quoted directory)"; cat "$T/inj.err"; fi; fi
# the CSV is stamped and states its units; the plots name L1 and L2
"$NS" run sim/scenarios/pfc-victim.ini --set run=alone --out "$T/csv" >/dev/null 2>&1
if head -1 "$T/csv/timeseries.csv" | grep -q '^# xtm-netsim .*seed 1; overrides: run=alone' &&
   sed -n 2p "$T/csv/timeseries.csv" | grep -q 'units: time_us' &&
   grep -q "title 'L1 (+ preamble, SFD, IFG)'" "$T/csv/plots.gp" && ! grep -q "$T" "$T/csv/plots.gp"; then
  echo "PASS cli-csv-stamp"; else echo "FAIL cli-csv-stamp"; head -3 "$T/csv/timeseries.csv"; fi

# ---- smoke: each scenario briefly, JSON fields present and stamped
smoke() {  # name, scenario, sets...
  local name=$1 sc=$2; shift 2
  local args=()
  for s in "$@"; do args+=(--set "$s"); done
  if "$NS" run "$sc" "${args[@]}" --json --no-plots --out "$T/$name" >"$T/$name.json" 2>"$T/$name.err" &&
     python3 - "$T/$name.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
for k in ("bottleneck_util_gbps", "bottleneck_util_l1_gbps", "tail_drops", "lossless_drops",
          "ecn_marks", "cnps_sent", "pause_frames", "peak_queue_bytes", "peak_queue_rtt",
          "retransmitted_bytes", "jain_fairness", "interval_s", "intervals_complete"):
    assert k in s, k
for f in d["flows"]:
    for k in ("name", "bytes", "fct_us", "goodput_gbps"):
        assert k in f, k
for l in d["links"]:
    for k in ("name", "util_gbps", "pause_frames_rx", "paused_us"):
        assert k in l, k
m = d["meta"]
assert m["version"] and m["scenario"] and "seed" in m and "overrides" in m and m["units"] and m["setup"]
assert s["bottleneck_util_gbps"] > 0 and s["bottleneck_util_l1_gbps"] > s["bottleneck_util_gbps"]
assert d["intervals"]
PY
  then echo "PASS cli-smoke $name"; else echo "FAIL cli-smoke $name"; cat "$T/$name.err"; fi
}
smoke scale-across sim/scenarios/scale-across.ini distance_km=50 duration_s=0.005 interval_s=0.001 client_start=sync
smoke scale-across-custom sim/scenarios/scale-across.ini distance_km=100 profile=custom clients=2 duration_s=0.005 interval_s=0.001 pfc_thresholds=ptx-default profile_shape=ramp
smoke deep-buffer sim/scenarios/deep-buffer-sweep.ini message_mb=5 buffer_bdp=0.1
smoke deep-buffer-uet sim/scenarios/deep-buffer-sweep.ini message_mb=5 buffer_bdp=0.1 transport=uet
smoke deep-buffer-tcp sim/scenarios/deep-buffer-sweep.ini message_mb=5 buffer_bdp=0.1 transport=tcp tcp_flows=3 tcp_min_rto_ms=1
smoke deep-buffer-bbr sim/scenarios/deep-buffer-sweep.ini message_mb=5 buffer_bdp=0.1 transport=tcp tcp_cc=bbr
smoke pfc-victim sim/scenarios/pfc-victim.ini run=pfc
smoke pfc-victim-hpcc sim/scenarios/pfc-victim.ini run=pfc switch_mode=hpcc
smoke roce-lab sim/scenarios/roce-lab.ini phase=congested iterations=50 bulk_ms=1

# ---- the set-ups of issue 15 as the CLI shows them (exact numbers)
python3 - "$T" <<'PY' && echo "PASS cli-setups" || echo "FAIL cli-setups"
import json, sys
T = sys.argv[1]
d = json.load(open(T + "/csv/summary.json"))
# alone: the victim by itself, S sends nothing; every flow carries exactly 1,000,000 bytes
assert [f["name"] for f in d["flows"]] == ["VS->VR (victim)"], d["flows"]
assert d["flows"][0]["bytes"] == 1000000
assert [l["util_gbps"] for l in d["links"] if l["name"] == "S->A"] == [0]
p = json.load(open(T + "/pfc-victim.json"))
assert all(f["bytes"] == 1000000 for f in p["flows"]), [f["bytes"] for f in p["flows"]]
# L1 - L2 of each interval is 20 B per frame: util_l1 - util_l2 = 160 bits x frames / dur
s = p["summary"]
assert abs(sum(i["util_l2_gbps"] * i["dur_s"] for i in p["intervals"]) - s["bottleneck_util_gbps"] * s["duration_s"]) < 1e-9
PY
# UET: selective retransmission delivers the message exactly once; RoCE go-back-N resends more
python3 - "$T/deep-buffer.json" "$T/deep-buffer-uet.json" <<'PY' && echo "PASS cli-uet" || echo "FAIL cli-uet"
import json, sys
r, u = (json.load(open(p)) for p in sys.argv[1:3])
fu = u["flows"][0]
assert fu["transport"] == "uet" and fu["bytes"] == 5000000 and fu["fct_us"] is not None
assert r["flows"][0]["transport"] == "roce"
PY
# TCP: three flows stripe the 5 MB message exactly (2 x 1,666,667 + 1,666,666 B), all done;
# every TCP flow reports its loss-recovery counters
python3 - "$T/deep-buffer-tcp.json" "$T/deep-buffer-bbr.json" "$T/deep-buffer.json" <<'PY' && echo "PASS cli-tcp" || echo "FAIL cli-tcp"
import json, sys
c, b = (json.load(open(p)) for p in sys.argv[1:3])
assert [f["bytes"] for f in c["flows"]] == [1666667, 1666667, 1666666], c["flows"]
assert [f["name"] for f in c["flows"]] == ["message.0", "message.1", "message.2"]
assert [f["name"] for f in b["flows"]] == ["message"] and b["flows"][0]["bytes"] == 5000000
for f in c["flows"] + b["flows"]:
    assert f["transport"] == "tcp" and f["fct_us"] is not None, f
    for k in ("tcp_retrans_segs", "tcp_fast_retransmits", "tcp_rto_count", "tcp_cwnd_segs", "tcp_srtt_us"):
        assert k in f, k
# the striped transfer ends with its last flow; runs without TCP have no such field
assert c["summary"]["transfer_fct_us"] == max(f["fct_us"] for f in c["flows"])
assert b["summary"]["transfer_fct_us"] == b["flows"][0]["fct_us"]
assert "transfer_fct_us" not in json.load(open(sys.argv[3]))["summary"]
PY
# NIC latency: 4 pipeline passes per probe (data: host1 tx, host2 rx; ACK: host2 tx, host1 rx)
# (one sample: later probes of an unloaded run are paced by the 6 Gb/s shaper of queue 3)
"$NS" run sim/scenarios/roce-lab.ini --set phase=unloaded --set iterations=1 --set nic_tx_ns=0 --set nic_rx_ns=0 --json --no-plots --out "$T/lat0" >"$T/lat0.json" 2>/dev/null
"$NS" run sim/scenarios/roce-lab.ini --set phase=unloaded --set iterations=1 --json --no-plots --out "$T/lat1" >"$T/lat1.json" 2>/dev/null
python3 - "$T/lat0.json" "$T/lat1.json" <<'PY' && echo "PASS cli-nic-latency" || echo "FAIL cli-nic-latency"
import json, sys
a, b = (json.load(open(p))["flows"][-1]["latency_us"]["p50"] for p in sys.argv[1:3])
assert abs((b - a) - 1.2) < 1e-9, (a, b)
PY
# scale-across start modes: staggered clients start start_spread_ms apart, sync within 10 us
"$NS" run sim/scenarios/scale-across.ini --set distance_km=50 --set duration_s=0.002 --set start_spread_ms=0.5 --set interval_s=0.001 --json --no-plots --out "$T/stag" >"$T/stag.json" 2>/dev/null
python3 - "$T/stag.json" "$T/scale-across.json" <<'PY' && echo "PASS cli-client-start" || echo "FAIL cli-client-start"
import json, sys
st, sy = (json.load(open(p)) for p in sys.argv[1:3])
for f in st["flows"]:
    c = int(f["name"][6])
    assert c * 500 <= f["start_us"] < c * 500 + 10, f
assert all(f["start_us"] < 10 for f in sy["flows"])
assert "client_start staggered" in st["meta"]["setup"] and "client_start sync" in sy["meta"]["setup"]
PY

# ---- a sweep gives identical results on 1 and 2 jobs; --report-only rewrites the same report
"$NS" sweep pfc-victim --jobs 1 --out "$T/sw1" >/dev/null 2>&1
"$NS" sweep pfc-victim --jobs 2 --out "$T/sw2" >/dev/null 2>&1
cp "$T/sw2/results.csv" "$T/sw2.csv"
"$NS" sweep pfc-victim --report-only --out "$T/sw2" >/dev/null 2>&1
if [ -s "$T/sw1/results.csv" ] && cmp -s "$T/sw1/results.csv" "$T/sw2/results.csv" && cmp -s "$T/sw2.csv" "$T/sw2/results.csv"; then
  echo "PASS cli-sweep-deterministic"; else echo "FAIL cli-sweep-deterministic"; fi
# the deep-buffer sweep's fct_us column is the message's FCT: with transport=tcp the transfer is
# striped over tcp_flows flows and ends with the last (summary transfer_fct_us), not the first
# flow's (the column was flows[0].fct_us). One TCP run placed as the sweep's first run, the
# report rewritten from it (the other 35 runs absent: "run failed")
d="$T/swdb/distance_km=10_buffer_bdp=3_message_mb=50"
mkdir -p "$T/swdb"
"$NS" run sim/scenarios/deep-buffer-sweep.ini --set message_mb=5 --set buffer_bdp=0.1 \
  --set transport=tcp --set tcp_flows=3 --set tcp_min_rto_ms=1 --json --no-plots --out "$d" >/dev/null 2>&1
"$NS" sweep deep-buffer-sweep --report-only --out "$T/swdb" >/dev/null 2>&1
if python3 - "$d/summary.json" "$T/swdb/results.csv" <<'PY'; then echo "PASS cli-sweep-fct-transfer"; else echo "FAIL cli-sweep-fct-transfer"; fi
import csv, json, sys
j = json.load(open(sys.argv[1]))
rows = [r for r in csv.reader(open(sys.argv[2])) if r and not r[0].startswith("#")]
col = rows[0].index("fct_us")
want = j["summary"]["transfer_fct_us"]
first = j["flows"][0]["fct_us"]
assert len(j["flows"]) == 3 and abs(want - first) > 1, (want, first)
got = float(rows[1][col])
assert abs(got - want) <= 1e-5 * want, (got, want, first)
PY
# the sweep report's plots (gnuplot on report.gp) with shell and gnuplot metacharacters in
# --out: nothing runs, the plots are drawn in the quoted directory
q="$T/r'x;touch PWNED8;'\"; system('touch PWNED9'); \""
cp -r "$T/sw2" "$q"
rm -f "$q"/*.png
"$NS" sweep pfc-victim --report-only --out "$q" >/dev/null 2>"$T/inj.err"; rc=$?
pwned=$(find "$T" . -maxdepth 3 -name 'PWNED*' 2>/dev/null)
if [ -n "$pwned" ] || [ $rc -ne 0 ]; then echo "FAIL cli-sweep-no-shell (exit $rc; ran: $pwned)"; cat "$T/inj.err"
elif [ -s "$q/util.png" ] || ! command -v gnuplot >/dev/null; then echo "PASS cli-sweep-no-shell"
else echo "FAIL cli-sweep-no-shell (no plot in the quoted directory)"; cat "$T/inj.err"; fi

# same_outputs JSON1 JSON2 DIR1 DIR2 GUARD: 0 when two runs' JSON (perf aside),
# timeseries.csv and intervals.csv are identical and GUARD (a Python expression on the
# first run's JSON `a`) holds, so that two runs that did nothing do not count as the same
same_outputs() {
  python3 - "$1" "$2" "$5" <<'PY' || return 1
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    d.pop("perf")
sys.exit(0 if a == b and eval(sys.argv[3]) else 1)
PY
  cmp -s "$3/timeseries.csv" "$4/timeseries.csv" && cmp -s "$3/intervals.csv" "$4/intervals.csv"
}

# the engine's run-ahead is exact: routers running to their horizon, NICs transmitting ahead
# of their wakes and receiving quiet frames ahead of their events give the same results as
# nothing ahead of its event (NETSIM_NO_LOOKAHEAD=1), perf figures aside, time series and
# per-interval KPIs included (a sample reads routers and links as of its time); a NIC
# horizon without its ingress ring, or a CE frame taken as quiet, fails the scale-across one
la_same() {  # name, scenario, sets...
  local name=$1 sc=$2; shift 2
  local args=()
  for s in "$@"; do args+=(--set "$s"); done
  "$NS" run "$sc" "${args[@]}" --json --no-plots --out "$T/la1" >"$T/la1.json" 2>/dev/null
  NETSIM_NO_LOOKAHEAD=1 "$NS" run "$sc" "${args[@]}" --json --no-plots --out "$T/la2" >"$T/la2.json" 2>/dev/null
  if same_outputs "$T/la1.json" "$T/la2.json" "$T/la1" "$T/la2" 'a["summary"]["bottleneck_util_gbps"] > 0'
  then echo "PASS cli-lookahead-exact $name"; else echo "FAIL cli-lookahead-exact $name"; fi
}
la_same pfc-victim sim/scenarios/pfc-victim.ini run=other-priority
la_same scale-across sim/scenarios/scale-across.ini distance_km=50 duration_s=0.01 interval_s=0.001 client_start=sync

# the NICs' dcqcn models run without their rate-update stream (the alpha timer lazy,
# dcqcn_set_rate_stream): the same results as with it (NETSIM_DCQCN_RATE_STREAM=1), perf
# aside, the sampled time series (the flows' rates) included
rs_same() {  # name, scenario, sets...
  local name=$1 sc=$2; shift 2
  local args=()
  for s in "$@"; do args+=(--set "$s"); done
  "$NS" run "$sc" "${args[@]}" --json --no-plots --out "$T/rs1" >"$T/rs1.json" 2>/dev/null
  NETSIM_DCQCN_RATE_STREAM=1 "$NS" run "$sc" "${args[@]}" --json --no-plots --out "$T/rs2" >"$T/rs2.json" 2>/dev/null
  if same_outputs "$T/rs1.json" "$T/rs2.json" "$T/rs1" "$T/rs2" 'a["summary"]["cnps_sent"] > 0' &&
    [ -s "$T/rs1/timeseries.csv" ]; then
    echo "PASS cli-rate-stream-exact $name"
  else echo "FAIL cli-rate-stream-exact $name"; fi
}
rs_same scale-across sim/scenarios/scale-across.ini distance_km=100 duration_s=0.02 sample_us=100 client_start=sync
rs_same roce-lab sim/scenarios/roce-lab.ini

# the profile-guided build (sim/netsim/pgo.sh, docs/netsim.md 8) gives the one-pass build's
# results: the same JSON (perf aside), interval series and time series; the comparison sees
# a difference where there is one (the same runs at another distance)
NS1=${NETSIM_1PASS:-build/bin/xtm-netsim-1pass}
case $NS1 in /*) ;; *) NS1=$PWD/$NS1 ;; esac
pgo_diff() {  # bin-a, bin-b, a's and b's own set ('' none), scenario, sets... -> 0: the same
  local a=$1 b=$2 xa=$3 xb=$4 sc=$5; shift 5
  local args=() ax=() bx=()
  for s in "$@"; do args+=(--set "$s"); done
  [ -n "$xa" ] && ax=(--set "$xa")
  [ -n "$xb" ] && bx=(--set "$xb")
  rm -rf "$T/pg1" "$T/pg2"
  "$a" run "$sc" "${args[@]}" "${ax[@]}" --json --no-plots --out "$T/pg1" >"$T/pg1.json" 2>/dev/null || return 2
  "$b" run "$sc" "${args[@]}" "${bx[@]}" --json --no-plots --out "$T/pg2" >"$T/pg2.json" 2>/dev/null ||
    return 2
  same_outputs "$T/pg1.json" "$T/pg2.json" "$T/pg1" "$T/pg2" 'a["summary"]["bottleneck_util_gbps"] > 0'
}
PGO_SA=(sim/scenarios/scale-across.ini duration_s=0.02 sample_us=100 interval_s=0.005
  client_start=sync warmup_s=0 mtu=1024)
if [ -x "$NS1" ]; then
  pgo_diff "$NS" "$NS1" distance_km=100 distance_km=100 "${PGO_SA[@]}" &&
    pgo_diff "$NS" "$NS1" '' '' sim/scenarios/pfc-victim.ini run=pfc &&
    pgo_diff "$NS" "$NS1" '' '' sim/scenarios/deep-buffer-sweep.ini transport=uet
  rc=$?
  if [ $rc = 0 ]; then echo "PASS cli-pgo-same"; else echo "FAIL cli-pgo-same (rc $rc)"; fi
  # negative: the one-pass run at another distance differs, and the comparison says so (1)
  pgo_diff "$NS" "$NS1" distance_km=100 distance_km=50 "${PGO_SA[@]}"
  rc=$?
  if [ $rc = 1 ]; then echo "PASS cli-pgo-same-sees-difference"; else
    echo "FAIL cli-pgo-same-sees-difference (rc $rc, expected 1)"; fi
else
  echo "FAIL cli-pgo-same (no one-pass build at $NS1: make $NS1)"
fi
