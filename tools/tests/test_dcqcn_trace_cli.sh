#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Hostile and careless input to dcqcn-trace (issue 14; docs/tools.md "Bad input"): gnuplot
# injection through --png, every numeric option with the classes of bad numbers, options
# that silently overrode each other, CNP times the run never reaches, a full disk. Each
# case checks the exact exit code and the exact first stderr line (and, where input was
# refused, an empty stdout). Prints PASS/FAIL lines for tools/run-tests.
set -u
T=${DCQCN_TRACE:-build/bin/dcqcn-trace}
T=$(realpath "$T")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# case_ NAME EXIT 'first stderr line' ARGS...
case_() {
  local name=$1 want_rc=$2 want=$3
  shift 3
  timeout 60 "$T" "$@" >out 2>err
  local rc=$?
  local first
  first=$(head -1 err)
  if [ "$rc" -eq "$want_rc" ] && [ "$first" = "$want" ] && { [ "$want_rc" -eq 0 ] || [ ! -s out ]; }; then
    echo "PASS dcqcn-trace-cli $name"
  else
    echo "FAIL dcqcn-trace-cli $name (exit $rc, expected $want_rc)"
    echo "  expected: $want"
    echo "  got:      $first"
    [ "$want_rc" -ne 0 ] && [ -s out ] && echo "  stdout not empty: $(head -c 200 out)"
  fi
}
PNGMSG="dcqcn-trace: --png: a file name for gnuplot may hold only letters, digits and . _ + - / (no quotes, spaces or a leading '-'; at most 255)"

# ---- gnuplot injection: the reproducer, then the other metacharacters; nothing may run
case_ png-gnuplot-system 2 "$PNGMSG 'x.png'; system('touch p'); set output 'y.png'" \
  --png "x.png'; system('touch p'); set output 'y.png"
for bad in 'a b.png' 'a"b.png' 'a;b.png' 'a$(touch p).png' 'a`touch p`.png' 'a|b.png' 'a&b.png' \
           'a\b.png' $'a\nb.png' '-x.png' 'a*.png' '~/x.png' 'a!b.png'; do
  "$T" --until-us 10 --png "$bad" >out 2>err; rc=$?
  if [ $rc -eq 2 ] && head -1 err | grep -qF -- "$PNGMSG" && [ ! -s out ]; then
    echo "PASS dcqcn-trace-cli png-refused-$(printf '%q' "$bad")"
  else
    echo "FAIL dcqcn-trace-cli png-refused-$(printf '%q' "$bad") (exit $rc)"; head -2 err
  fi
done
long=$(printf 'a%.0s' $(seq 1 256)).png
"$T" --until-us 10 --png "$long" >out 2>err
if [ $? -eq 2 ] && head -1 err | grep -qF -- "$PNGMSG"; then echo "PASS dcqcn-trace-cli png-too-long"; else echo "FAIL dcqcn-trace-cli png-too-long"; fi
if [ ! -e p ] && [ ! -e y.png ] && [ ! -e x.png ]; then echo "PASS dcqcn-trace-cli png-nothing-ran"; else echo "FAIL dcqcn-trace-cli png-nothing-ran"; ls; fi
# a good name is drawn (gnuplot without a shell); a failing gnuplot is an error exit
mkdir -p sub
if "$T" --cnp-us 100,102.5 --until-us 2000 --every-us 10 --png sub/t-1.png >out 2>err && [ -s sub/t-1.png ] &&
   [ "$(head -c 4 sub/t-1.png | od -An -tx1 | tr -d ' ')" = 89504e47 ]; then
  echo "PASS dcqcn-trace-cli png-drawn"
else
  echo "FAIL dcqcn-trace-cli png-drawn"; head -3 err
fi
# gnuplot's own message comes first; ours last; gnuplot's stdout (the PNG) is not in the CSV
"$T" --until-us 10 --png nodir/t.png >out 2>err; rc=$?
[ $rc -eq 1 ] && [ "$(tail -1 err)" = "dcqcn-trace: gnuplot failed (exit status 1); nodir/t.png not written" ] &&
  ! grep -q PNG out err && echo "PASS dcqcn-trace-cli png-no-directory" || echo "FAIL dcqcn-trace-cli png-no-directory (exit $rc)"
PATH=/nonexistent "$T" --until-us 10 --png t.png >out 2>err; rc=$?
[ $rc -eq 1 ] && [ "$(head -1 err)" = "dcqcn-trace: cannot run gnuplot (not installed? Debian: gnuplot-nox)" ] &&
  echo "PASS dcqcn-trace-cli png-no-gnuplot" || echo "FAIL dcqcn-trace-cli png-no-gnuplot (exit $rc)"

# ---- numbers: too fine, too long, exponent overflow, hex float, inf/nan, sign, junk, empty
case_ every-1e-7 2 "dcqcn-trace: --every-us '0.0000001' is out of range 1e-06..1000000000" --every-us 0.0000001
case_ every-below-cycle 2 "dcqcn-trace: --every-us 0.0005 is below one cycle (0.001 us at CYCLES_PER_US 1000)" --every-us 0.0005
case_ rows-limit 2 "dcqcn-trace: --until-us 1e9 / --every-us 1 gives 1000000001 rows, above the limit of 1000000 (raise --every-us)" --until-us 1e9
case_ until-1e20 2 "dcqcn-trace: --until-us '1e20' is out of range 0..1000000000" --until-us 1e20
case_ until-negative 2 "dcqcn-trace: --until-us '-5' is out of range 0..1000000000" --until-us -5
case_ until-hexfloat 2 "dcqcn-trace: --until-us '0x1p5' is not a decimal number (expected 0..1000000000)" --until-us 0x1p5
case_ until-inf 2 "dcqcn-trace: --until-us 'inf' is not a decimal number (expected 0..1000000000)" --until-us inf
case_ until-nan 2 "dcqcn-trace: --until-us 'nan' is not a decimal number (expected 0..1000000000)" --until-us nan
case_ until-junk 2 "dcqcn-trace: --until-us '100us' is not a decimal number (expected 0..1000000000)" --until-us 100us
case_ until-empty 2 "dcqcn-trace: --until-us needs a value (a decimal number 0..1000000000)" --until-us ''
case_ until-underflow 2 "dcqcn-trace: --until-us '1e-400' is out of range 0..1000000000" --until-us 1e-400
case_ tx-above 2 "dcqcn-trace: --tx-gbps '1001' is out of range 0..1000" --tx-gbps 1001
case_ line-rate-exp 2 "dcqcn-trace: --line-rate-mbps '1e5' is not an integer (expected 1..1000000)" --line-rate-mbps 1e5
case_ line-rate-junk 2 "dcqcn-trace: --line-rate-mbps '100000abc' is not an integer (expected 1..1000000)" --line-rate-mbps 100000abc
case_ line-rate-zero 2 "dcqcn-trace: --line-rate-mbps '0' is out of range 1..1000000" --line-rate-mbps 0
case_ param-range 2 "dcqcn-trace: RPG_GD '16' is out of range 0..15" --param RPG_GD=16
case_ param-fraction 2 "dcqcn-trace: RPG_GD '1.5' is not an integer (expected 0..15)" --param RPG_GD=1.5
case_ param-hex 2 "dcqcn-trace: RPG_GD '0x3' is not an integer (expected 0..15)" --param RPG_GD=0x3
case_ param-wrap 2 "dcqcn-trace: RPG_AI_RATE '4294967301' is out of range 0..1000000" --param RPG_AI_RATE=4294967301
case_ param-empty 2 "dcqcn-trace: RPG_GD needs a value (an integer 0..15)" --param RPG_GD=
case_ param-unknown 2 "dcqcn-trace: unknown parameter name 'RPG_GDX'" --param RPG_GDX=1
case_ cnp-empty-piece 2 "dcqcn-trace: --cnp-us needs a value (a decimal number 0..1000000000)" --cnp-us 1,,2
case_ cnp-junk 2 "dcqcn-trace: --cnp-us '2x' is not a decimal number (expected 0..1000000000)" --cnp-us 1,2x
case_ cnp-not-whole-cycle 2 "dcqcn-trace: CNP time 100.0004 us is not a whole cycle at CYCLES_PER_US 1000 (one cycle = 0.001 us)" --cnp-us 100.0004
case_ cnp-same-cycle 2 "dcqcn-trace: two CNPs in the same cycle (100.000 us)" --cnp-us 100,100.000

# ---- silent overrides and silently dropped input
case_ line-rate-twice 2 "dcqcn-trace: --line-rate-mbps and --param LINE_RATE both set the line rate; give one" --param LINE_RATE=1 --line-rate-mbps 5000
case_ option-twice 2 "dcqcn-trace: option given twice '--until-us'" --until-us 10 --until-us 20
case_ param-twice 2 "dcqcn-trace: --param given twice for 'RPG_GD'" --param RPG_GD=1 --param RPG_GD=2
case_ unknown-option 2 "dcqcn-trace: unknown option '--until'" --until 10
case_ stray-argument 2 "dcqcn-trace: unexpected argument '10'" 10
case_ missing-value 2 "dcqcn-trace: missing value for '--png'" --png
"$T" --param LINE_RATE=5000 --until-us 2 >out 2>err
[ $? -eq 0 ] && sed -n 3p out | grep -qx '0.000,5000,5000,1023' &&
  echo "PASS dcqcn-trace-cli line-rate-param-used" || echo "FAIL dcqcn-trace-cli line-rate-param-used"
case_ cnp-after-until 0 "dcqcn-trace: warning: 2 CNP times at or after the last sample (1000.000 us) are not simulated (first: 1000.000 us)" --cnp-us 10,1000,3000
case_ cnp-after-last-sample 0 "dcqcn-trace: warning: 1 CNP time at or after the last sample (900.000 us) is not simulated (first: 950.000 us)" --cnp-us 950 --every-us 300
case_ min-above-max 0 "dcqcn-trace: warning: RPG_MIN_RATE 5000 is above the rate cap 1000 Mb/s: the floor saturates to the cap (D6.1)" --param RPG_MIN_RATE=5000 --param RPG_MAX_RATE=1000 --until-us 10
case_ max-above-line 0 "dcqcn-trace: warning: RPG_MAX_RATE 200000 is above the line rate 100000 Mb/s: the cap is the line rate (D6.1)" --param RPG_MAX_RATE=200000 --until-us 10
# the sample at --until-us is kept (1000 / 0.1 is 9999.999... in binary)
"$T" --until-us 1000 --every-us 0.1 >out 2>err
[ "$(tail -1 out)" = "1000.000,100000,100000,1023" ] && echo "PASS dcqcn-trace-cli last-sample-kept" ||
  echo "FAIL dcqcn-trace-cli last-sample-kept ($(tail -1 out))"

# ---- output lost: a full disk or a closed pipe is an error exit
"$T" --until-us 100 >/dev/full 2>err; rc=$?
[ $rc -eq 1 ] && [ "$(head -1 err)" = "dcqcn-trace: cannot write the output: No space left on device" ] &&
  echo "PASS dcqcn-trace-cli dev-full" || echo "FAIL dcqcn-trace-cli dev-full (exit $rc)"
"$T" --help >/dev/full 2>err; rc=$?
[ $rc -eq 1 ] && echo "PASS dcqcn-trace-cli help-dev-full" || echo "FAIL dcqcn-trace-cli help-dev-full (exit $rc)"
"$T" --until-us 50000 --every-us 0.1 2>err | head -1 >/dev/null; rc=${PIPESTATUS[0]}
[ $rc -eq 1 ] && [ "$(head -1 err)" = "dcqcn-trace: cannot write the output: Broken pipe" ] &&
  echo "PASS dcqcn-trace-cli closed-pipe" || echo "FAIL dcqcn-trace-cli closed-pipe (exit $rc: $(head -1 err))"
