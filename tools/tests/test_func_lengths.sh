#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/func-lengths --max (make lint-func-lengths) must fail on a function one line over the
# limit, pass at the limit, and fail on a missing file; and the project's files pass.
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fn() {  # NAME LINES: a C function of exactly LINES lines
  { echo "int $1(int x) {"; for _ in $(seq 1 $(($2 - 3))); do echo "  x += 1;"; done
    echo "  return x;"; echo "}"; } > "$tmp/$1.c"
}
fn at_limit 120
fn over_limit 121
if tools/func-lengths --max 120 "$tmp/at_limit.c" >/dev/null 2>&1; then
  echo "PASS func-lengths-at-limit"; else echo "FAIL func-lengths-at-limit (120 lines refused)"; fi
if tools/func-lengths --max 120 "$tmp/over_limit.c" >/dev/null 2>"$tmp/err" &&
   true; then
  echo "FAIL func-lengths-over-limit (121 lines passed)"
elif grep -q 'over_limit is 121 lines (> 120)' "$tmp/err"; then
  echo "PASS func-lengths-over-limit"
else
  echo "FAIL func-lengths-over-limit (message: $(head -1 "$tmp/err"))"
fi
if tools/func-lengths --max 120 "$tmp/none.c" >/dev/null 2>&1; then
  echo "FAIL func-lengths-missing-file (passed)"; else echo "PASS func-lengths-missing-file"; fi
if make -s lint-func-lengths >"$tmp/lint" 2>&1; then
  echo "PASS func-lengths-project"; else echo "FAIL func-lengths-project"; cat "$tmp/lint"; fi
