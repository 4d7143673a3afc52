#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# tools/check-readme and tools/make-help, and their negative tests: a README naming a
# target or a path that does not exist, or leaving a tracked directory out of its Layout,
# and a malformed or duplicated help line, must each fail with a message naming it.
# Prints PASS/FAIL lines for tools/run-tests.
set -u
cd "$(dirname "$0")/../.."
tmp=build/test-check-readme
rm -rf "$tmp" && mkdir -p "$tmp"
ok() { echo "PASS $1"; }
ko() { echo "FAIL $1"; shift; [ $# -gt 0 ] && cat "$@"; }

if tools/check-readme >"$tmp/out" 2>&1; then ok check-readme-tree; else ko check-readme-tree "$tmp/out"; fi

if make --no-print-directory >"$tmp/help" 2>&1 && grep -q '^  make help ' "$tmp/help" \
   && [ "$(make --no-print-directory help)" = "$(cat "$tmp/help")" ]; then
  ok make-default-is-help
else ko make-default-is-help "$tmp/help"; fi

# mutant READMEs: each must fail, naming what is wrong
mutant() {  # name, sed expression, expected message
  sed -E "$2" README.md >"$tmp/$1.md"
  if cmp -s README.md "$tmp/$1.md"; then ko "$1 (the edit did not apply)"; return; fi
  if tools/check-readme --top "$tmp/$1.md" --readme "$tmp/$1.md" >"$tmp/$1.out" 2>&1; then
    ko "$1 (passed)" "$tmp/$1.out"
  elif grep -qF "$3" "$tmp/$1.out"; then ok "$1"
  else ko "$1 (wrong message)" "$tmp/$1.out"; fi
}
mutant readme-unknown-target 's/^\| `make demo` \|/| `make demo-no-such` |/' 'names `make demo-no-such`, which is not a make target'
mutant readme-unknown-path 's|^tests/fuzz/( +)|tests/fuzzz/\1|' 'names `tests/fuzzz/`, which does not exist'
mutant readme-layout-missing-dir '\|^sim/netsim/ |,+1d' 'Layout does not name the tracked directory sim/netsim/'
mutant readme-unknown-backquoted-path 's|`docs/targets.md`|`docs/no-such-targets.md`|' 'names `docs/no-such-targets.md`, which does not exist'

# make-help refuses a malformed or duplicated help line
printf 'foo:\n## foo bar\n' >"$tmp/bad.mk"
if tools/make-help Makefile "$tmp/bad.mk" >"$tmp/bad.out" 2>&1; then ko make-help-malformed "$tmp/bad.out"
elif grep -q 'help line not of the form' "$tmp/bad.out"; then ok make-help-malformed
else ko make-help-malformed "$tmp/bad.out"; fi
printf '## demo: again\ndemo:\n' >"$tmp/dup.mk"
if tools/make-help Makefile "$tmp/dup.mk" >"$tmp/dup.out" 2>&1; then ko make-help-duplicate "$tmp/dup.out"
elif grep -q 'already has a help line' "$tmp/dup.out"; then ok make-help-duplicate
else ko make-help-duplicate "$tmp/dup.out"; fi
