#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Real-looking Junos configurations (issue 19; docs/firmware.md section 4.3), each checked
# by the lines of firmware/tests/junos/expected.tsv:
#   NAME <TAB> KIND <TAB> ARGS <TAB> EXPECT
# NAME is a file of firmware/tests/junos/, ARGS extra xtmctl options ('-' for none), KIND:
#   error    `plan` and `apply` exit 1, the first error line is NAME:EXPECT, apply prints
#            no write
#   warning  `plan` exits 0 and one stderr line is NAME:EXPECT
#   message  one stderr line of `plan` is NAME:EXPECT (whatever the exit status)
#   json     `plan --json` exits 0 and the Python expression EXPECT is true of its output d
#   same     `apply` of NAME and of the file EXPECT exit 0 with identical writes
#   count    the summary line is EXPECT ("xtmctl: N errors; nothing programmed")
# Prints PASS/FAIL lines for tools/run-tests, then the number of configurations and checks.
set -u
XTMCTL=${XTMCTL:-build/bin/xtmctl}
DIR=firmware/tests/junos
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
declare -A seen
while IFS=$'\t' read -r name kind args expect; do
  [ -z "$name" ] && continue
  case $name in \#*) continue ;; esac
  n=$((n + 1))
  seen[$name]=1
  conf=$DIR/$name
  [ "$args" = "-" ] && args=""
  # shellcheck disable=SC2086  # ARGS are xtmctl options, split on purpose
  "$XTMCTL" plan "$conf" $args >"$tmp/out" 2>"$tmp/err"
  rc=$?
  ok=0
  why=""
  case $kind in
    error)
      first=$(grep -v ': warning: \|: note: ' "$tmp/err" | head -1)
      # shellcheck disable=SC2086
      "$XTMCTL" apply "$conf" $args >"$tmp/aout" 2>/dev/null
      arc=$?
      if [ $rc -eq 1 ] && [ $arc -eq 1 ] && [ "$first" = "$conf:$expect" ] && [ ! -s "$tmp/aout" ]; then
        ok=1
      else
        why="exit $rc/$arc; got: $first"
      fi
      ;;
    warning)
      if [ $rc -eq 0 ] && grep -qxF -- "$conf:$expect" "$tmp/err"; then ok=1; else why="exit $rc; $(grep -c . "$tmp/err") stderr lines: $(head -3 "$tmp/err")"; fi
      ;;
    message)
      if grep -qxF -- "$conf:$expect" "$tmp/err"; then ok=1; else why="exit $rc; stderr: $(head -3 "$tmp/err")"; fi
      ;;
    count)
      if [ "$(tail -1 "$tmp/err")" = "$expect" ]; then ok=1; else why="got: $(tail -1 "$tmp/err")"; fi
      ;;
    json)
      # shellcheck disable=SC2086
      if "$XTMCTL" plan "$conf" $args --json 2>/dev/null >"$tmp/j" &&
         python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
q = {(x["interface"], x["name"]): x for x in d["queues"]}
p = {x["name"]: x for x in d["ports"]}
sys.exit(0 if eval(sys.argv[2]) else 1)' "$tmp/j" "$expect" 2>"$tmp/perr"; then
        ok=1
      else
        why="exit $rc; $(head -2 "$tmp/err") $(tail -2 "$tmp/perr")"
      fi
      ;;
    same)
      # shellcheck disable=SC2086
      "$XTMCTL" apply "$conf" $args >"$tmp/a1" 2>/dev/null; r1=$?
      # shellcheck disable=SC2086
      "$XTMCTL" apply "$DIR/$expect" $args >"$tmp/a2" 2>/dev/null; r2=$?
      if [ $r1 -eq 0 ] && [ $r2 -eq 0 ] && cmp -s "$tmp/a1" "$tmp/a2" && [ -s "$tmp/a1" ]; then
        ok=1
      else
        why="exit $r1/$r2; $(diff "$tmp/a1" "$tmp/a2" | head -4 | tr '\n' ' ')"
      fi
      ;;
    *)
      why="unknown check kind '$kind'"
      ;;
  esac
  if [ $ok -eq 1 ]; then
    echo "PASS junos $name $kind"
  else
    echo "FAIL junos $name $kind"
    echo "  expected: $expect"
    echo "  $why"
  fi
done <"$DIR/expected.tsv"
# every configuration of the folder is checked
for f in "$DIR"/*.conf "$DIR"/*.set; do
  b=$(basename "$f")
  if [ -z "${seen[$b]:-}" ]; then echo "FAIL junos $b (no check in expected.tsv)"; fi
done
nconf=$(ls "$DIR"/*.conf "$DIR"/*.set 2>/dev/null | wc -l)
if [ "$nconf" -ge 40 ]; then echo "PASS junos-count ($nconf configurations, $n checks)"; else echo "FAIL junos-count ($nconf < 40 configurations)"; fi
