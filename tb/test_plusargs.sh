#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Bad plusargs of the co-simulation (docs/cosim.md "Plusargs"): a number that is not a whole
# unsigned decimal in range, an unknown or repeated plusarg, a flag with a value, a value
# plusarg without one, and an output directory that cannot be made, are usage errors (a
# message naming the plusarg, exit 2, nothing simulated); +out= is a path, never shell
# text. Then one good run, so the checks below cannot pass on a binary that rejects all.
# Prints PASS/FAIL lines for tools/run-tests.
set -u
SIM=${SIM:-sim/build/small/Vxtm_top}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

# expect_usage NAME PATTERN PLUSARGS...: exit 2 and PATTERN on stderr
expect_usage() {
  local name=$1 pat=$2
  shift 2
  # the case's plusargs, then whichever of +test +cycles +out it does not give (a repeated
  # plusarg is itself refused)
  local extra=() a
  for a in test=smoke cycles=100 "out=$tmp/run"; do
    case " $* " in *" +${a%%=*}="*) ;; *) extra+=("+$a") ;; esac
  done
  "$SIM" "$@" "${extra[@]}" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" -eq 2 ] && grep -q -- "$pat" "$tmp/err" && ! grep -q 'TEST PASSED' "$tmp/out"; then
    echo "PASS plusargs-$name"
  else
    echo "FAIL plusargs-$name: exit $rc, stderr: $(head -c 300 "$tmp/err")"
    fails=$((fails + 1))
  fi
}

expect_usage seed-hex "+seed '0x10' is not an integer" +seed=0x10
expect_usage seed-junk "+seed '12abc' is not an integer" +seed=12abc
expect_usage cycles-negative "+cycles '-1' is not an integer" +cycles=-1
expect_usage cycles-empty "+cycles" +cycles=
expect_usage seed-too-big "+seed '18446744073709551616' is out of range" +seed=18446744073709551616
expect_usage every-octal-like "+state_every '1e3' is not an integer" +state_every=1e3
expect_usage out-unwritable "cannot create the output directory" +out=/proc/xtm-no/such
# names: unknown (a typo must not run the default), repeated, a flag with a value, not a
# plusarg at all
expect_usage unknown "unknown plusarg '+seeds=3' (known: +test= +seed= +cycles= +trace" +seeds=3
expect_usage repeated "+seed given twice ('+seed=2')" +seed=1 +seed=2
expect_usage flag-value "+trace is a flag and takes no value ('+trace=0')" +trace=0
expect_usage not-plusarg "'smoke' is not a plusarg (+name or +name=value)" smoke
expect_usage value-missing "+fw needs a value (+fw=<value>)" +fw

# +out= with shell text: the directory is made literally, nothing is run
"$SIM" +test=smoke +cycles=100 "+out=$tmp/a;touch $tmp/pwned;\$(touch $tmp/pwned2)" \
  >"$tmp/out" 2>&1
if [ -e "$tmp/pwned" ] || [ -e "$tmp/pwned2" ]; then
  echo "FAIL plusargs-out-shell: +out= text was run by a shell"
  fails=$((fails + 1))
elif ! grep -q '^TEST PASSED' "$tmp/out"; then
  echo "FAIL plusargs-out-shell: the run with a literal odd directory name failed"
  fails=$((fails + 1))
else
  echo "PASS plusargs-out-shell"
fi

# the control: good plusargs simulate and pass (leading zeros are decimal, not octal)
if "$SIM" +test=smoke +seed=007 +cycles=200 +out="$tmp/good" >"$tmp/out" 2>&1 &&
  grep -q '^TEST PASSED' "$tmp/out" && grep -q '^seed: 7$' "$tmp/out"; then
  echo "PASS plusargs-good"
else
  echo "FAIL plusargs-good: $(tail -3 "$tmp/out")"
  fails=$((fails + 1))
fi
exit $((fails > 0))
