#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every firmware/tests/bad/<name>.conf must make `xtmctl plan` and `xtmctl apply` exit 1
# with the exact first error line of expected.tsv (`<name><TAB><line>:<col>: <message>`,
# optionally `<TAB>errors=N`: exactly N errors, i.e. no follow-on error), and apply must
# print no register write. Every firmware/tests/warn/<name>.conf must compile (exit 0) with
# the exact first warning of its expected.tsv. Then the 500 km final example's JSON plan
# must show the Done numbers. Prints PASS/FAIL lines for tools/run-tests.
set -u
XTMCTL=${XTMCTL:-build/bin/xtmctl}
DIR=firmware/tests/bad
n=0
while IFS=$'\t' read -r name expect count; do
  n=$((n + 1))
  conf=$DIR/$name.conf
  out=$("$XTMCTL" plan "$conf" 2>&1 >/dev/null); rc=$?
  first=$(grep -v ': warning: ' <<<"$out" | head -1)
  aout=$("$XTMCTL" apply "$conf" 2>/dev/null); arc=$?
  nerr_ok=1
  if [ -n "$count" ]; then
    grep -qx "xtmctl: ${count#errors=} errors\?; nothing programmed" <<<"$out" || nerr_ok=0
  fi
  if [ $rc -eq 1 ] && [ $arc -eq 1 ] && [ "$first" = "$conf:$expect" ] && [ -z "$aout" ] && [ $nerr_ok -eq 1 ]; then
    echo "PASS bad-config $name"
  else
    echo "FAIL bad-config $name (exit $rc/$arc)"
    echo "  expected: $conf:$expect ${count:-}"
    echo "  got:      $first"
    echo "  summary:  $(tail -1 <<<"$out")"
    [ -n "$aout" ] && echo "  apply printed writes"
  fi
done < "$DIR/expected.tsv"
if [ "$n" -ge 49 ]; then echo "PASS bad-config-count ($n cases)"; else echo "FAIL bad-config-count ($n < 49)"; fi

WDIR=firmware/tests/warn
n=0
while IFS=$'\t' read -r name expect; do
  n=$((n + 1))
  conf=$WDIR/$name.conf
  out=$("$XTMCTL" plan "$conf" 2>&1 >/dev/null); rc=$?
  first=$(grep ': warning: ' <<<"$out" | head -1)
  if [ $rc -eq 0 ] && [ "$first" = "$conf:$expect" ]; then
    echo "PASS warn-config $name"
  else
    echo "FAIL warn-config $name (exit $rc)"
    echo "  expected: $conf:$expect"
    echo "  got:      $first"
  fi
done < "$WDIR/expected.tsv"
if [ "$n" -ge 9 ]; then echo "PASS warn-config-count ($n cases)"; else echo "FAIL warn-config-count ($n < 9)"; fi

# Done criterion: 500 km final profile, RDMA queue = 2.5 x 5179 us at 100 Gb/s
if "$XTMCTL" plan firmware/examples/dci-500km-final.conf --json 2>/dev/null | python3 -c '
import json, sys, math
d = json.load(sys.stdin)
q = [q for q in d["queues"] if q["name"] == "rdma-data"][0]
limit = int(2.5 * 5179e-6 * 100e9 / 8)            # 161843750 bytes
assert q["target_rate_bps"] == 100_000_000_000, q
assert q["limit_bytes"] == limit, q["limit_bytes"]
assert q["limit_cells"] == math.ceil(limit / d["hw"]["cell_bytes"]), q["limit_cells"]
assert [p["fill_pct"] for p in q["profile"]] == [30, 60]
assert [p["bytes"] for p in q["profile"]] == [limit * 30 // 100, limit * 60 // 100]
assert [p["prob_pct"] for p in q["profile"]] == [1, 100]
assert q["no_loss"] and q["marking_point"] == "head"
'; then echo "PASS plan-500km-final-json"; else echo "FAIL plan-500km-final-json"; fi

# every example compiles without error
for f in firmware/examples/*.conf; do
  if "$XTMCTL" plan "$f" >/dev/null 2>&1; then echo "PASS example $(basename "$f")"; else echo "FAIL example $f"; fi
done

# apply: the writes are printed and the trace/dump files are written
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if "$XTMCTL" apply firmware/examples/roce-lab-6g-ecn.conf --trace "$tmp/t.tsv" --dump "$tmp/d.tsv" >"$tmp/w.tsv" 2>/dev/null &&
   grep -q $'\tW\t0x0204\t0x00000b72\tQ_LIMIT_CELLS\[11\]' "$tmp/w.tsv" &&
   grep -q $'^0x0204\tQ_LIMIT_CELLS\[11\]\t0x00000b72' "$tmp/d.tsv" &&
   [ "$(grep -c $'\tR\t' "$tmp/t.tsv")" -gt 0 ]; then
  echo "PASS apply-roce-lab"
else
  echo "FAIL apply-roce-lab"
fi
if "$XTMCTL" stats firmware/examples/roce-lab-6g-ecn.conf --us 100 | grep -q '^roce'; then
  echo "PASS stats-roce-lab"
else
  echo "FAIL stats-roce-lab"
fi
# policed example (experiment 5): the stats load of 4 policed 100G sources at a 20 Gb/s
# policer each: every arrival is passed or dropped by its policer, the POLICE drops are the
# VOQ's Q_DROP_POL, and what passes is the bucket's refill (at most 2.5 B/cycle x 100 us,
# the bucket being empty at reset, spec 4.7) plus one packet
if "$XTMCTL" stats firmware/examples/fabric-20g-policed.conf --us 100 2>/dev/null | python3 -c '
import re, sys
t = sys.stdin.read()
offered = int(re.search(r"(\d+) packets offered", t).group(1))
pol = [tuple(map(int, m)) for m in re.findall(r"passed (\d+) packets, dropped (\d+) packets, (\d+) bytes", t)]
be = [l.split() for l in t.splitlines() if l.startswith("best-effort")][0]
arr, enq, dropped_police = int(be[1]), int(be[2]), int(be[7])
assert len(pol) == 4 and sum(p + d for p, d, _ in pol) == offered == arr, (pol, offered)
assert all(b == 4096 * d for _, d, b in pol)
assert dropped_police == sum(d for _, d, _ in pol) > 0 and enq == arr - dropped_police
assert all(0 < p * 4096 <= 2.5 * 100000 * 1.02 + 4096 for p, _, _ in pol), pol
'; then echo "PASS stats-fabric-policed"; else echo "FAIL stats-fabric-policed"; fi
# the Junos test copy of the policed example is the example
if diff <(grep -v '^#' firmware/examples/fabric-20g-policed.conf) <(grep -v '^#' firmware/tests/junos/policer-iface.conf) >/dev/null; then
  echo "PASS example-policed-copy"
else
  echo "FAIL example-policed-copy (firmware/tests/junos/policer-iface.conf differs from the example)"
fi
