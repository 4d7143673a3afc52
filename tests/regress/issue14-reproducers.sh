#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 14 (hostile and careless input): every reproducer the issue names, item by item,
# and the case of the bad-input suite that runs it with its exact message and exit code.
# The reproducers live in the suites (`make test` runs them); this script runs the four
# suites once and fails when a case listed here is missing from its suite's output or did
# not pass, or when a suite has any FAIL line. Usage (from the repository root, with
# build/bin/xtmctl, xtm-netsim and dcqcn-trace built):
#   tests/regress/issue14-reproducers.sh [--from DIR]
# --from DIR reads DIR/<suite>.out (saved outputs of the suites) instead of running them.
set -u
from=
if [ "${1:-}" = "--from" ] && [ -n "${2:-}" ]; then from=$2; fi

# suite file | PASS label (the PASS line without "PASS ") | issue item
read -r -d '' TABLE <<'EOF'
ns|cli-bad name-quote|injection: scenario name lab';touch${IFS}PWNED;'
ns|cli-bad name-dollar|injection: scenario name x$(touch PWNED)
ns|cli-no-shell|injection: quote, backquote, $( ), gnuplot system(), newline in run --out
ns|cli-sweep-no-shell|injection: the same in sweep --out (report plots)
dt|dcqcn-trace-cli png-gnuplot-system|injection: dcqcn-trace --png "x.png'; system('touch p'); ..."
dt|dcqcn-trace-cli png-nothing-ran|injection: no file created by any refused --png
dt|dcqcn-trace-cli png-drawn|injection: a good --png is still drawn (gnuplot by fork/exec)
xc|xtmctl-cli nesting-110000|crash: 110,000 nested blocks (parse_block)
bc|bad-config nesting-65|crash: nesting limit 64 (65 refused)
xc|xtmctl-cli set-nesting|crash: set-form nesting bounded the same way
ns|cli-bad roce-config-nesting|crash: 110,000 nested blocks through roce-lab config=
xc|xtmctl-cli dev-zero|hang: xtmctl plan /dev/zero
xc|xtmctl-cli dev-urandom|hang: xtmctl plan /dev/urandom
xc|xtmctl-cli apply-dev-zero|hang: xtmctl apply /dev/zero
ns|cli-bad dev-zero-run|hang: xtm-netsim run /dev/zero
ns|cli-bad dev-zero-keys|hang: xtm-netsim keys /dev/zero
ns|cli-bad dev-urandom-run|hang: xtm-netsim run /dev/urandom
ns|cli-bad roce-config-dev-zero|hang: roce-lab config=/dev/zero
ns|cli-bad huge-csv|output size: --set sample_us=0.001 (60 s)
ns|cli-bad huge-csv-values|output size: --set sample_us=0.001 over 0.5 ms (169 MB before)
ns|cli-bad huge-csv-nothing-written|output size: nothing written when refused
ns|cli-bad huge-intervals|output size: --set interval_s=0.000001
dt|dcqcn-trace-cli every-1e-7|output size: dcqcn-trace --every-us 0.0000001
dt|dcqcn-trace-cli rows-limit|output size: dcqcn-trace rows above 1,000,000
bc|bad-config port-wrap|nonsense: et-0/0/4294967297
bc|bad-config port-huge|nonsense: a port number above 2^64
ns|cli-bad half-clients|nonsense: --set clients=1.5
ns|cli-bad half-qps|nonsense: --set qps=2.5
ns|cli-bad half-senders|nonsense: --set extra_senders=1.5
ns|cli-bad half-seed|nonsense: --set seed=1.5
ns|cli-bad hex-float|nonsense: --set distance_km=0x1p5
ns|cli-bad inf|nonsense: --set delay_us=inf
xc|xtmctl-cli us-exponent|nonsense: xtmctl stats --us 1e15
xc|xtmctl-cli num-desc-junk|nonsense: xtmctl --num-desc 4096abc
bc|bad-config shaping-1k|nonsense: shaping-rate 1k rounds to 0 (scheduler)
bc|bad-config iface-shaping-1k|nonsense: shaping-rate 1k rounds to 0 (interface)
bc|bad-config transmit-above-port|nonsense: transmit-rate 400g on a 100g port
bc|bad-config rpg-min-above-max|nonsense: RPG_MIN_RATE above RPG_MAX_RATE
bc|warn-config decreasing-probability|nonsense: decreasing drop probabilities (warning)
bc|bad-config ecn-empty-profile|nonsense: an empty drop profile behind ECN
bc|bad-config ecn-zero-profile|nonsense: an all-zero drop profile behind ECN
bc|bad-config unused-sched-cap|nonsense: an unused scheduler is validated (buffer cap)
bc|bad-config unused-sched-no-profile|nonsense: an unused scheduler is validated (dangling profile)
bc|bad-config unused-sched-shaping|nonsense: an unused scheduler is validated (shaper rounds to 0)
bc|warn-config unused-scheduler|nonsense: an unused scheduler is warned about
ns|cli-bad roce-host-gbps|nonsense: roce-lab host_gbps=37 against 100g ports
ns|cli-bad out-is-file|lost output: xtm-netsim run --out an existing file
ns|cli-bad sweep-out-is-file|lost output: xtm-netsim sweep --out an existing file
xc|xtmctl-cli dev-full-plan|lost output: xtmctl plan >/dev/full
xc|xtmctl-cli dev-full-plan_--json|lost output: xtmctl plan --json >/dev/full
xc|xtmctl-cli dev-full-apply|lost output: xtmctl apply >/dev/full
xc|xtmctl-cli dev-full-stats_--us_20|lost output: xtmctl stats >/dev/full
xc|xtmctl-cli trace-dev-full|lost output: xtmctl apply --trace /dev/full
xc|xtmctl-cli dump-dev-full|lost output: xtmctl apply --dump /dev/full
ns|cli-bad stdout-full|lost output: xtm-netsim run --json >/dev/full
ns|cli-bad summary-full|lost output: summary.json on a full disk
ns|cli-bad intervals-full|lost output: intervals.csv on a full disk
ns|cli-bad config-full|lost output: a generated configuration on a full disk
ns|cli-bad keys-stdout-full|lost output: xtm-netsim keys >/dev/full
dt|dcqcn-trace-cli dev-full|lost output: dcqcn-trace >/dev/full
dt|dcqcn-trace-cli help-dev-full|lost output: dcqcn-trace --help >/dev/full
dt|dcqcn-trace-cli closed-pipe|lost output: dcqcn-trace | head -1
bc|bad-config name-tab|JSON: a quoted name with a TAB
bc|bad-config name-escape|JSON: a quoted name with a control character (ESC)
xc|xtmctl-cli json-names|JSON: valid for quote, backslash, space, slash in names
bc|bad-config name-64|names cut at 63: a 64-character name is refused
dt|dcqcn-trace-cli until-1e20|nonsense: dcqcn-trace --until-us 1e20
dt|dcqcn-trace-cli line-rate-twice|nonsense: --param LINE_RATE=1 with --line-rate-mbps
dt|dcqcn-trace-cli line-rate-param-used|nonsense: --param LINE_RATE alone is used
dt|dcqcn-trace-cli cnp-after-until|nonsense: CNP times after --until-us (warning)
dt|dcqcn-trace-cli cnp-after-last-sample|nonsense: CNP times after the last sample (warning)
bc|bad-config bad-xoff|message: a bad xoff is one error, no false xon-below-half
xc|xtmctl-cli directory|message: a directory to xtmctl
ns|cli-bad directory|message: a directory to xtm-netsim
ns|cli-bad roce-config-directory|message: a directory as roce-lab config=
ns|cli-bad long-line|message: an INI line over libinih's limit, on its own line
ns|cli-bad window-blames-link|message: link_gbps blamed, not load_bdp
ns|cli-bad window-blames-load|message: load_bdp blamed when it is the cause
ns|cli-bad host-prop-blamed|message: host_prop_us blamed, not rtt_us
ns|cli-bad sweep-bad-value|message: a sweep with a bad --set exits 1
ns|cli-bad sweep-bad-key|message: a sweep with an unknown --set key exits 1
ns|cli-bad sweep-bad-nothing-written|message: nothing written by a refused sweep
ns|cli-bad custom-key-checked|audit: a profile=custom key is checked with any profile
ns|cli-bad pfc-key-checked|audit: a pfc_thresholds=custom key is checked with any setting
ns|cli-bad unused-override-warned|audit: an override that does not apply is warned about
ns|cli-bad unused-override-in-summary|audit: ... and noted in the summary
ns|cli-bad unused-phase-key-warned|audit: roce-lab recover_ms outside phase=recovered
ns|cli-bad run-slurm|audit: run --slurm (ran locally)
ns|cli-bad sweep-no-plots|audit: sweep --no-plots (plots drawn)
ns|cli-bad out-twice|audit: --out given twice (the last won)
ns|cli-bad set-key-twice|audit: --set of one key twice (the last won)
ns|cli-bad options-nothing-written|audit: nothing written for a refused option
xc|xtmctl-cli plan-trace|audit: xtmctl plan --trace FILE (no trace, exit 0)
xc|xtmctl-cli plan-trace-nothing-written|audit: ... nothing written
xc|xtmctl-cli us-twice|audit: xtmctl --us given twice (the last won)
xc|xtmctl-cli model-options|audit: the model options still work with every command
EOF

declare -A SUITE=(
  [bc]=firmware/tests/test_bad_configs.sh
  [xc]=firmware/tests/test_xtmctl_cli.sh
  [ns]=sim/netsim/tests/test_cli.sh
  [dt]=tools/tests/test_dcqcn_trace_cli.sh
)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
for k in bc xc ns dt; do
  s=${SUITE[$k]}
  b=$(basename "$s" .sh)
  if [ -n "$from" ]; then
    cp "$from/$b.out" "$tmp/$k.out" || { echo "FAIL issue14 no saved output $from/$b.out"; exit 1; }
  else
    bash "$s" >"$tmp/$k.out" 2>&1
  fi
  np=$(grep -c '^PASS ' "$tmp/$k.out")
  nf=$(grep -c '^FAIL ' "$tmp/$k.out")
  echo "suite $s: $np PASS, $nf FAIL"
  [ "$nf" -eq 0 ] || { grep '^FAIL ' "$tmp/$k.out" | sed 's/^/  /'; bad=1; }
done
n=0
while IFS='|' read -r k label item; do
  [ -z "$k" ] && continue
  n=$((n + 1))
  if grep -qxF "PASS $label" "$tmp/$k.out"; then
    echo "PASS issue14 [$item] ${SUITE[$k]}: $label"
  else
    echo "FAIL issue14 [$item] ${SUITE[$k]}: $label (missing or not passed)"
    bad=1
  fi
done <<<"$TABLE"
echo "issue14: $n reproducer cases listed; $([ $bad -eq 0 ] && echo 'all pass' || echo 'some FAIL')"
exit $bad
