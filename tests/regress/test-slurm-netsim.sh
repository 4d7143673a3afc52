#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# xtm-netsim sweep --slurm on the running single-node cluster of tests/regress/test-slurm.sh
# (SLURM_CONF set by it): the pfc-victim sweep as one Slurm job array must give the same
# results.csv as the local sweep, with one array task per run; the comparison must be able
# to fail (a changed value is noticed). Prints PASS/FAIL lines.
set -u
cd "$(dirname "$0")/../.." || exit 2
NS=build/bin/xtm-netsim
W=build/slurm-netsim
[ -x "$NS" ] || { echo "FAIL test-slurm-netsim: $NS not built"; exit 1; }
rm -rf "$W"
"$NS" sweep pfc-victim --jobs "$(nproc)" --out "$W/local" >"$W.local.log" 2>&1 ||
  { echo "FAIL test-slurm-netsim: the local sweep failed"; tail -5 "$W.local.log"; exit 1; }
"$NS" sweep pfc-victim --slurm --out "$W/slurm" >"$W.slurm.log" 2>&1
rc=$?
ntask=$(ls "$W"/slurm/slurm/task-*.log 2>/dev/null | wc -l)
nrun=$(ls "$W"/slurm/*/exit_status 2>/dev/null | wc -l)
echo "[slurm] xtm-netsim sweep pfc-victim: sweep exit $rc, $ntask array task logs, $nrun run statuses"
sed '1d' "$W/slurm/results.csv" >"$W/slurm.body"; sed '1d' "$W/local/results.csv" >"$W/local.body"
awk 'BEGIN{FS=OFS=","} NR==2{$2=$2+1} {print}' "$W/slurm.body" >"$W/neg.body"
if cmp -s "$W/neg.body" "$W/local.body"; then
  echo "FAIL test-slurm-netsim: the comparison did not notice a changed value"; exit 1
fi
if [ $rc -eq 0 ] && [ "$ntask" = 4 ] && [ "$nrun" = 4 ] && grep -q "as one Slurm job array" "$W/slurm/report.md" &&
   cmp -s "$W/slurm.body" "$W/local.body"; then
  echo "PASS test-slurm-netsim: the Slurm job array's merged results equal the local sweep (4 runs)"
else
  echo "FAIL test-slurm-netsim: see $W.slurm.log and $W/slurm/slurm/"; tail -5 "$W.slurm.log"
  diff "$W/local.body" "$W/slurm.body" | head; exit 1
fi
