#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Hostile and careless command lines to the dcqcn co-simulation (issue 14): shell
# metacharacters in +out (the directory is made with mkdir(2), nothing may run), every
# numeric plusarg with the classes of bad numbers (hex, sign, trailing text, empty, too
# large, out of range), unknown, repeated and malformed plusargs, an +out that cannot be a
# directory and traces that cannot be written (a full device). Each case checks the exact
# exit code and the exact FAILURE line. Prints PASS/FAIL lines for tools/run-tests.
#   tb/test_dcqcn_tb_cli.sh [path/to/Vdcqcn_top]
set -u
B=$(realpath "${1:-sim/build/dcqcn/Vdcqcn_top}")
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# case_ NAME EXIT 'FAILURE line' ARGS...: the run exits with EXIT and prints the line
case_() {
  local name=$1 want_rc=$2 want=$3
  shift 3
  timeout 120 "$B" "$@" >out 2>&1
  local rc=$?
  local got
  got=$(grep -m1 '^FAILURE' out)
  if [ "$rc" -eq "$want_rc" ] && [ "$got" = "$want" ] && grep -q '^TEST FAILED CHECKS' out; then
    echo "PASS dcqcn-tb-cli $name"
  else
    echo "FAIL dcqcn-tb-cli $name (exit $rc, expected $want_rc)"
    echo "  expected: $want"
    echo "  got:      $got"
  fi
}
BAD="FAILURE: bad command line:"
R=1000000000000000

# ---- a good run first (the checks below must not reject it)
if "$B" +test=smoke +seed=1 +cycles=2000 +state_every=500 +max_errors=1 +debug_qp=0 \
     +trace_start=1999 +out=ok >out 2>&1 && grep -q '^TEST PASSED CHECKS' out &&
   [ -s ok/trace_dut.tsv ] && [ -s ok/trace_model.tsv ]; then
  echo "PASS dcqcn-tb-cli good-run"
else
  echo "FAIL dcqcn-tb-cli good-run"; tail -5 out
fi

# ---- +out with shell metacharacters: a literal directory name, no command runs
for bad in 'a; touch p' 'a$(touch p)' 'a`touch p`' 'a|touch p' 'a&&touch p' $'a\ntouch p'; do
  rm -rf -- ./* 2>/dev/null
  "$B" +test=smoke +cycles=1000 "+out=$bad" >out 2>&1; rc=$?
  if [ $rc -eq 0 ] && [ ! -e p ] && [ -s "$bad/trace_dut.tsv" ]; then
    echo "PASS dcqcn-tb-cli out-literal-$(printf '%q' "$bad")"
  else
    echo "FAIL dcqcn-tb-cli out-literal-$(printf '%q' "$bad") (exit $rc)"; ls -la; tail -3 out
  fi
done
rm -rf -- ./* 2>/dev/null
"$B" +test=smoke +cycles=1000 +out=d1/d2/d3 >out 2>&1 && [ -s d1/d2/d3/trace_model.tsv ] &&
  echo "PASS dcqcn-tb-cli out-nested" || echo "FAIL dcqcn-tb-cli out-nested"

# ---- numbers: decimal, whole, in range
case_ cycles-hex 2 "$BAD +cycles '0x100' is not an integer (expected 1..$R)" +test=smoke +cycles=0x100
case_ cycles-zero 2 "$BAD +cycles '0' is out of range 1..$R" +test=smoke +cycles=0
case_ cycles-negative 2 "$BAD +cycles '-5' is not an integer (expected 1..$R)" +test=smoke +cycles=-5
case_ cycles-trailing 2 "$BAD +cycles '100k' is not an integer (expected 1..$R)" +test=smoke +cycles=100k
case_ cycles-space 2 "$BAD +cycles ' 100' is not an integer (expected 1..$R)" +test=smoke '+cycles= 100'
case_ cycles-exp 2 "$BAD +cycles '1e6' is not an integer (expected 1..$R)" +test=smoke +cycles=1e6
case_ cycles-huge 2 "$BAD +cycles '1000000000000001' is out of range 1..$R" +test=smoke +cycles=1000000000000001
case_ seed-wrap 2 "$BAD +seed '18446744073709551616' is out of range 0..18446744073709551615" \
  +test=smoke +seed=18446744073709551616
case_ seed-sign 2 "$BAD +seed '+3' is not an integer (expected 0..18446744073709551615)" +test=smoke +seed=+3
case_ state-every-frac 2 "$BAD +state_every '9.5' is not an integer (expected 0..$R)" +test=smoke +state_every=9.5
case_ trace-start-neg 2 "$BAD +trace_start '-1' is not an integer (expected 0..$R)" +test=smoke +trace_start=-1
case_ max-errors-zero 2 "$BAD +max_errors '0' is out of range 1..18446744073709551615" +test=smoke +max_errors=0
case_ debug-qp-range 2 "$BAD +debug_qp '64' is out of range 0..63" +test=smoke +debug_qp=64
case_ debug-qp-atoi 2 "$BAD +debug_qp '3x' is not an integer (expected 0..63)" +test=smoke +debug_qp=3x
if "$B" +test=smoke +seed=010 +cycles=1000 +out=o10 >out 2>&1 && grep -qx 'seed: 10' out; then
  echo "PASS dcqcn-tb-cli seed-leading-zero-is-decimal"
else
  echo "FAIL dcqcn-tb-cli seed-leading-zero-is-decimal"; head -3 out
fi
case_ seed-empty 2 "$BAD +seed needs a value (+seed=<value>)" +test=smoke +seed=
case_ out-empty 2 "$BAD +out needs a value (+out=<value>)" +test=smoke +out=

# ---- names: unknown, repeated, flag with a value, not a plusarg
case_ unknown 2 "$BAD unknown plusarg '+cycle=100' (known: +test= +seed= +cycles= +trace +trace_start= +state_every= +max_errors= +out= +eager +list +rtl_only +debug_qp= +cov_file=)" \
  +test=smoke +cycle=100
case_ twice 2 "$BAD +seed given twice ('+seed=2')" +test=smoke +seed=1 +seed=2
case_ flag-value 2 "$BAD +trace is a flag and takes no value ('+trace=0')" +test=smoke +trace=0
case_ not-plusarg 2 "$BAD 'smoke' is not a plusarg (+name or +name=value)" smoke
case_ unknown-test 2 "FAILURE: unknown test 'nosuch'; +list shows the tests" +test=nosuch
case_ unknown-test-quoted 2 "FAILURE: unknown test 'a\\x1b[2Jb'; +list shows the tests" $'+test=a\e[2Jb'

# ---- output that cannot be written: exit non-zero, never 0 after lost output
touch afile
case_ out-under-file 2 "FAILURE: +out: cannot create directory afile/x: Not a directory" \
  +test=smoke +cycles=1000 +out=afile/x
mkdir -p full && ln -sf /dev/full full/trace_dut.tsv
case_ trace-full-disk 1 "FAILURE: writing the traces in full failed" +test=smoke +cycles=3000 +out=full
