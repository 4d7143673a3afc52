#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# tools/cosim-tests (the co-sim test lists from the testbenches' registries) and its
# negative tests: a list naming a test the registry lacks, and a full.list that no longer
# runs a directed test, must each fail naming the test; tools/run-tests fails an empty
# command. PASS/FAIL lines for tools/run-tests.
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
# a test made outside the dcqcn table (csr_edges) is in the registry too
if tools/cosim-tests dcqcn --directed | grep -qx csr_edges; then echo "PASS cosim-tests-outside-table"
else echo "FAIL cosim-tests-outside-table (dcqcn csr_edges not read from tb/dcqcn_tests.cpp)"; fi
# tools/run-tests: a --cmd whose command expanded to nothing (a make variable used before its
# definition made one such "test" pass) fails
if tools/run-tests --cmd empty-one '' >"$tmp/empty.out" 2>&1; then echo "FAIL run-tests-empty-cmd (passed)"
elif grep -q '^FAIL empty-one: empty command' "$tmp/empty.out" && grep -q '^0 passed, 1 failed' "$tmp/empty.out"; then
  echo "PASS run-tests-empty-cmd"
else echo "FAIL run-tests-empty-cmd"; cat "$tmp/empty.out"; fi
