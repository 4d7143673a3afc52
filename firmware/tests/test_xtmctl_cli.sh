#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Hostile and careless input to xtmctl (issue 14; docs/firmware.md section 9): streams,
# huge and deeply nested files, every numeric option with the classes of bad numbers,
# writes to a full disk. Each case: the exact exit code and the exact first stderr line,
# and nothing on stdout where input was refused. Prints PASS/FAIL lines for tools/run-tests.
set -u
X=${XTMCTL:-build/bin/xtmctl}
C=firmware/examples/roce-lab-6g-ecn.conf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# case NAME EXIT 'first stderr line' CMD...: stdout must be empty unless EXIT is 0 (or
# ANY_STDOUT=1: apply prints its writes before it writes --trace/--dump)
case_() {
  local name=$1 want_rc=$2 want=$3 any=${ANY_STDOUT:-0}
  shift 3
  timeout 60 "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  local first
  first=$(head -1 "$tmp/err")
  if [ "$rc" -eq "$want_rc" ] && [ "$first" = "$want" ] && { [ "$want_rc" -eq 0 ] || [ "$any" = 1 ] || [ ! -s "$tmp/out" ]; }; then
    echo "PASS xtmctl-cli $name"
  else
    echo "FAIL xtmctl-cli $name (exit $rc, expected $want_rc)"
    echo "  expected: $want"
    echo "  got:      $first"
    [ "$want_rc" -ne 0 ] && [ "$any" != 1 ] && [ -s "$tmp/out" ] && echo "  stdout not empty: $(head -c 200 "$tmp/out")"
  fi
}

# ---- streams and files instead of a configuration
case_ dev-zero 1 "/dev/zero: is larger than 4194304 bytes (the configuration compiler's input limit)" $X plan /dev/zero
case_ dev-urandom 1 "/dev/urandom: is larger than 4194304 bytes (the configuration compiler's input limit)" $X plan /dev/urandom
case_ apply-dev-zero 1 "/dev/zero: is larger than 4194304 bytes (the configuration compiler's input limit)" $X apply /dev/zero
case_ directory 1 "firmware/examples: is a directory, not a configuration file" $X plan firmware/examples
case_ missing-file 1 "$tmp/none.conf: cannot open: No such file or directory" $X plan "$tmp/none.conf"
case_ dev-null 1 "/dev/null: no 'class-of-service' stanza" $X plan /dev/null
printf 'class-of-service {\0}\n' >"$tmp/nul.conf"
case_ nul-byte 1 "$tmp/nul.conf: contains a NUL byte at offset 18 (not a text file)" $X plan "$tmp/nul.conf"
head -c 3000000 /dev/urandom >"$tmp/random.conf"
# random bytes: the first message depends on the bytes; refused with a count, no crash
out=$(timeout 60 $X plan "$tmp/random.conf" 2>&1 >/dev/null); rc=$?
if [ $rc -eq 1 ] && grep -q '^xtmctl: [0-9]* errors\?; nothing programmed$' <<<"$out"; then
  echo "PASS xtmctl-cli random-bytes-refused"
else
  echo "FAIL xtmctl-cli random-bytes-refused (exit $rc)"; head -3 <<<"$out"
fi
# a file just above the limit, and one just at it (a comment: compiled, then no stanza)
head -c $((4 * 1024 * 1024 + 1)) /dev/zero | tr '\0' '#' >"$tmp/big.conf"
case_ above-limit 1 "$tmp/big.conf: is larger than 4194304 bytes (the configuration compiler's input limit)" $X plan "$tmp/big.conf"
head -c $((4 * 1024 * 1024)) /dev/zero | tr '\0' '#' >"$tmp/limit.conf"
case_ at-limit 1 "$tmp/limit.conf: no 'class-of-service' stanza" $X plan "$tmp/limit.conf"
# 110,000 nested blocks crashed xtmctl (SIGSEGV in parse_block); 64 levels are the limit
python3 -c "print('class-of-service ' + 'a {' * 110000)" >"$tmp/deep.conf"
case_ nesting-110000 1 "$tmp/deep.conf:1:212: blocks nested deeper than 64 levels" $X plan "$tmp/deep.conf"
python3 -c "print('{' * 200000)" >"$tmp/braces.conf"
case_ braces-200000 1 "$tmp/braces.conf:1:1: unexpected '{' at the start of a statement" $X plan "$tmp/braces.conf"
python3 -c "print('class-of-service { ' + 'x; ' * 1000000 + '}')" >"$tmp/wide.conf"
case_ statements-1M 1 "$tmp/wide.conf:1:20: unknown statement 'x' in class-of-service" $X plan "$tmp/wide.conf"
# the same mistake a million times is one message and a note of its repeats
out=$(timeout 60 $X plan "$tmp/wide.conf" 2>&1 >/dev/null)
if [ "$(sed -n 2p <<<"$out")" = "$tmp/wide.conf: note: the error above is repeated 999999 more times (at 1:23, 1:26, 1:29, 1:32 and 999995 more)" ] &&
   [ "$(grep -c . <<<"$out")" -eq 3 ]; then
  echo "PASS xtmctl-cli statements-1M-one-message"
else
  echo "FAIL xtmctl-cli statements-1M-one-message"; head -3 <<<"$out"
fi
# the set form: nesting is bounded like the curly form's, 66,000 distinct names read in
# linear time (the timeout of case_ is 60 s)
python3 -c "print('set ' + 'groups g ' * 200 + 'x y')" >"$tmp/deep.set"
case_ set-nesting 1 "$tmp/deep.set:1:293: blocks nested deeper than 64 levels" $X plan "$tmp/deep.set"
python3 -c "print('\n'.join('set class-of-service schedulers s%d transmit-rate percent 1' % i for i in range(66000)))" >"$tmp/wide.set"
case_ set-66000-names 1 "$tmp/wide.set:65:33: too many schedulers (at most 64)" $X plan "$tmp/wide.set"

# ---- numeric options: trailing junk, exponent, hex, sign, fraction, overflow, empty, range
case_ us-exponent 2 "xtmctl: --us '1e15' is not an integer (expected 1..1000000)" $X stats $C --us 1e15
case_ num-desc-junk 2 "xtmctl: --num-desc '4096abc' is not an integer (expected 2..1048576)" $X plan $C --num-desc 4096abc
case_ num-desc-hex 2 "xtmctl: --num-desc '0x1000' is not an integer (expected 2..1048576)" $X plan $C --num-desc 0x1000
case_ num-desc-range 2 "xtmctl: --num-desc '1' is out of range 2..1048576" $X plan $C --num-desc 1
case_ us-negative 2 "xtmctl: --us '-1' is not an integer (expected 1..1000000)" $X stats $C --us -1
case_ us-fraction 2 "xtmctl: --us '1.5' is not an integer (expected 1..1000000)" $X stats $C --us 1.5
case_ us-space 2 "xtmctl: --us ' 100' is not an integer (expected 1..1000000)" $X stats $C --us ' 100'
case_ us-empty 2 "xtmctl: --us needs a value (an integer 1..1000000)" $X stats $C --us ''
case_ us-zero 2 "xtmctl: --us '0' is out of range 1..1000000" $X stats $C --us 0
case_ us-wrap 2 "xtmctl: --us '18446744073709551617' is out of range 1..1000000" $X stats $C --us 18446744073709551617
case_ clock-exponent 2 "xtmctl: --clock-hz '1e9' is not an integer (expected 1000000..10000000000)" $X plan $C --clock-hz 1e9
case_ clock-range 2 "xtmctl: --clock-hz '999999' is out of range 1000000..10000000000" $X plan $C --clock-hz 999999
case_ clock-control 2 "xtmctl: --clock-hz '1\\x1b[2J' is not an integer (expected 1000000..10000000000)" $X plan $C --clock-hz $'1\e[2J'
case_ us-missing 2 "xtmctl: --us needs a value" $X stats $C --us
case_ trace-missing 2 "xtmctl: --trace needs a value" $X apply $C --trace
case_ unknown-option 2 "xtmctl: unknown option '--uss'" $X stats $C --uss 100
case_ unknown-command 2 "usage: xtmctl plan <conf> [--json] [--clock-hz N]" $X plot $C
# an option the command does not use was dropped (plan --trace FILE wrote no trace, exit 0);
# a repeated option silently took the last value
case_ plan-trace 2 "xtmctl: --trace is not an option of 'plan'" $X plan $C --trace "$tmp/t.tsv"
[ -e "$tmp/t.tsv" ] && echo "FAIL xtmctl-cli plan-trace-nothing-written" || echo "PASS xtmctl-cli plan-trace-nothing-written"
case_ plan-us 2 "xtmctl: --us is not an option of 'plan'" $X plan $C --us 100
case_ stats-json 2 "xtmctl: --json is not an option of 'stats'" $X stats $C --json
case_ apply-json 2 "xtmctl: --json is not an option of 'apply'" $X apply $C --json
case_ stats-dump 2 "xtmctl: --dump is not an option of 'stats'" $X stats $C --dump "$tmp/d.tsv"
case_ us-twice 2 "xtmctl: option given twice '--us'" $X stats $C --us 5 --us 7
case_ json-twice 2 "xtmctl: option given twice '--json'" $X plan $C --json --json
case_ clock-twice 2 "xtmctl: option given twice '--clock-hz'" $X apply $C --clock-hz 1000000000 --clock-hz 2000000000
case_ model-options 0 "" $X plan $C --json --num-desc 4096 --apb --port-speed 100 --clock-hz 1000000000

# ---- output lost: a full disk is an error exit, never a success
for cmd in "plan" "plan --json" "apply" "stats --us 20"; do
  set -- $cmd
  c=$1; shift
  $X "$c" $C "$@" >/dev/full 2>"$tmp/err"; rc=$?
  if [ $rc -eq 2 ] && [ "$(head -1 "$tmp/err")" = "xtmctl: cannot write the output: No space left on device" ]; then
    echo "PASS xtmctl-cli dev-full-${cmd// /_}"
  else
    echo "FAIL xtmctl-cli dev-full-${cmd// /_} (exit $rc)"; head -2 "$tmp/err"
  fi
done
ANY_STDOUT=1 case_ trace-dev-full 2 "xtmctl: cannot write the trace /dev/full: No space left on device" $X apply $C --trace /dev/full
ANY_STDOUT=1 case_ dump-dev-full 2 "xtmctl: cannot write the register dump /dev/full: No space left on device" $X apply $C --dump /dev/full
ANY_STDOUT=1 case_ trace-dir 2 "xtmctl: cannot write the trace $tmp: Is a directory" $X apply $C --trace "$tmp"

# ---- JSON stays valid for any name the compiler accepts (quote, backslash, spaces, slash;
# in a Junos string a backslash escapes a quote or a backslash: "c n\\p" is the name c n\p)
sed 's/class cnp queue-num 6;/class "c n\\\\p\/\x27x" queue-num 6;/; s/forwarding-class cnp /forwarding-class "c n\\\\p\/\x27x" /g' $C >"$tmp/names.conf"
if $X plan "$tmp/names.conf" --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert "c n\\p/\x27x" in [q["name"] for q in d["queues"]], d["queues"]
' 2>"$tmp/err"; then
  echo "PASS xtmctl-cli json-names"
else
  echo "FAIL xtmctl-cli json-names"; cat "$tmp/err"
fi
