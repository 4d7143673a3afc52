#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The negative test of tools/mutate-rtl's pattern checks (make test): on a copy of the RTL
# that was "restructured" under a mutant (its line reworded, duplicated, its file removed,
# its nightly job dropped), `tools/mutate-rtl --check` must fail naming that mutant and the
# problem, and a run of the stale mutant (no --check) must fail as "stale pattern" with
# `caught 0/1` before it builds anything. The unmodified copy must pass. No build: runs in
# a second. Prints PASS/FAIL lines for tools/run-tests.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check() {  # NAME CONDITION-EXIT-STATUS DETAIL
  if [ "$2" -eq 0 ]; then echo "PASS mutate-patterns $1"; else echo "FAIL mutate-patterns $1: $3"; fi
}

# a fresh copy of what tools/mutate-rtl --check reads (the tool finds the tree from its
# own path)
fresh() {
  rm -rf "$tmp/t"
  mkdir -p "$tmp/t/tools" "$tmp/t/tests/regress"
  cp "$top/tools/mutate-rtl" "$tmp/t/tools/"
  cp -r "$top/rtl" "$tmp/t/"
  cp "$top/tests/regress/full.list" "$tmp/t/tests/regress/"
}

# the mutant used below and the line its pattern rewrites
m=threshold-compare
f=rtl/xtm/xtm_admit.sv
pat='end else if ({1'"'"'b0, occ_i} + cells > {1'"'"'b0, limit_i}) begin'

# ---- the unmodified tree: every pattern applies to one line
fresh
out=$(bash "$tmp/t/tools/mutate-rtl" --check 2>&1)
rc=$?
n=$(bash "$tmp/t/tools/mutate-rtl" --list | wc -l)
ok=1
[ $rc -eq 0 ] && grep -q "^patterns applied $n/$n\$" <<<"$out" && ok=0
check clean $ok "exit $rc: $(tail -1 <<<"$out")"
ok=1
[ "$(grep -cF "$pat" "$tmp/t/$f")" -eq 1 ] && ok=0
check anchor $ok "the line of $m is not once in $f (update this test with the mutant)"

# ---- the line reworded (a restructured block): stale
fresh
sed -i "s/cells > {1'b0, limit_i}) begin/cells > {1'b0, limit_q}) begin/" "$tmp/t/$f"
out=$(bash "$tmp/t/tools/mutate-rtl" --check 2>&1)
rc=$?
ok=1
[ $rc -ne 0 ] && grep -q "^FAIL $m: the mutation did not apply to $f (stale pattern)\$" <<<"$out" &&
  grep -q "^patterns applied $((n - 1))/$n\$" <<<"$out" && ok=0
check stale-check $ok "exit $rc: $(grep -m1 "$m\|applied" <<<"$out")"
# the same mutant run (not --check): fails before any build, counted as not caught
out=$(cd "$tmp/t" && timeout 60 bash tools/mutate-rtl "$m" 2>&1)
rc=$?
ok=1
[ $rc -ne 0 ] && grep -q "^FAIL $m: the mutation did not apply to $f (stale pattern)\$" <<<"$out" &&
  grep -q "| $m | rtl1 | \`$f:?\` | stale pattern |" <<<"$out" &&
  grep -q "^caught 0/1\$" <<<"$out" && ok=0
check stale-run $ok "exit $rc: $(tail -2 <<<"$out" | tr '\n' ' ')"

# ---- the line duplicated (the pattern matches two lines): ambiguous
fresh
sed -i "/$(sed 's/[][\/.*^$]/\\&/g' <<<"$pat")/{p}" "$tmp/t/$f"
out=$(bash "$tmp/t/tools/mutate-rtl" --check 2>&1)
rc=$?
ok=1
[ $rc -ne 0 ] && grep -q "^FAIL $m: the mutation changed 2 lines of $f (ambiguous pattern)\$" <<<"$out" &&
  ok=0
check ambiguous $ok "exit $rc: $(grep -m1 "$m" <<<"$out")"

# ---- the file gone (the block renamed or split)
fresh
rm "$tmp/t/$f"
out=$(bash "$tmp/t/tools/mutate-rtl" --check 2>&1)
rc=$?
ok=1
[ $rc -ne 0 ] && grep -q "^FAIL $m: $f does not exist (stale pattern)\$" <<<"$out" && ok=0
check file-gone $ok "exit $rc: $(grep -m1 "$m" <<<"$out")"

# ---- the mutant's nightly job dropped from tests/regress/full.list
fresh
sed -i "/^mutate-rtl-$m |/d" "$tmp/t/tests/regress/full.list"
out=$(bash "$tmp/t/tools/mutate-rtl" --check 2>&1)
rc=$?
ok=1
[ $rc -ne 0 ] && grep -q "^FAIL $m: no job 'mutate-rtl-$m' in tests/regress/full.list" <<<"$out" && ok=0
check nightly-job $ok "exit $rc: $(grep -m1 "$m" <<<"$out")"

# ---- an unknown mutant name is a usage error, not an empty pass
fresh
out=$(bash "$tmp/t/tools/mutate-rtl" --check no-such-mutant 2>&1)
rc=$?
ok=1
[ $rc -eq 2 ] && grep -q "no mutant named no-such-mutant" <<<"$out" && ok=0
check unknown-name $ok "exit $rc: $out"
