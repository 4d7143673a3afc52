#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# tools/cosim-tests (the co-sim test lists from the testbenches' registries) and its
# negative tests: a list naming a test the registry lacks, and a full.list that no longer
# runs a directed test, must each fail naming the test. PASS/FAIL lines for tools/run-tests.
set -u
cd "$(dirname "$0")/../.."
tmp=build/test-cosim-tests
rm -rf "$tmp" && mkdir -p "$tmp"
n=$(tools/cosim-tests xtm --directed | wc -l); d=$(tools/cosim-tests dcqcn --directed | wc -l)
if [ "$n" -ge 10 ] && [ "$d" -ge 10 ] && ! tools/cosim-tests xtm --directed | grep -qx random; then
  echo "PASS cosim-tests-registry ($n xtm, $d dcqcn directed tests)"
else echo "FAIL cosim-tests-registry ($n xtm, $d dcqcn; random must not be directed)"; fi
L="tests/regress/full.list tests/regress/coverage.list"
if tools/cosim-tests --check --lists $L >"$tmp/ok.out" 2>&1; then echo "PASS cosim-tests-lists"
else echo "FAIL cosim-tests-lists"; cat "$tmp/ok.out"; fi
mkdir -p "$tmp/a" "$tmp/b"
sed 's/+test=hbm /+test=hbm_gone /' tests/regress/full.list >"$tmp/a/full.list"
if tools/cosim-tests --check --lists "$tmp/a/full.list" >"$tmp/a.out" 2>&1; then echo "FAIL cosim-tests-unknown (passed)"
elif grep -q '+test=hbm_gone is not a test of the xtm registry' "$tmp/a.out"; then echo "PASS cosim-tests-unknown"
else echo "FAIL cosim-tests-unknown"; cat "$tmp/a.out"; fi
grep -v '+test=dwrr ' tests/regress/full.list >"$tmp/b/full.list"
if tools/cosim-tests --check --lists "$tmp/b/full.list" >"$tmp/b.out" 2>&1; then echo "FAIL cosim-tests-missing (passed)"
elif grep -q 'the directed xtm test dwrr of the registry is not run' "$tmp/b.out"; then echo "PASS cosim-tests-missing"
else echo "FAIL cosim-tests-missing"; cat "$tmp/b.out"; fi
