#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# tools/format-check (make lint's clang-format check) and its negative tests: a misformatted
# copy of a clean source must fail and be named; the check of the tree passes; the pending
# list names only tracked files. PASS/FAIL lines for tools/run-tests.
set -u
cd "$(dirname "$0")/../.."
tmp=build/test-format-check
rm -rf "$tmp" && mkdir -p "$tmp"
if tools/format-check >"$tmp/tree.out" 2>&1; then echo "PASS format-tree-clean"
else echo "FAIL format-tree-clean"; cat "$tmp/tree.out"; fi

cp cmodel/xtm/xtm_profile.c "$tmp/good.c"
if tools/format-check --files "$tmp/good.c" >"$tmp/good.out" 2>&1; then echo "PASS format-clean-copy"
else echo "FAIL format-clean-copy"; cat "$tmp/good.out"; fi
# two spaces after a return type, an indent of 3, a brace on its own line: each must fail
n=0
for m in 's/^static inline uint32_t lfsr_step/static inline uint32_t  lfsr_step/' \
         's/^  return (s \& 1u)/   return (s \& 1u)/' \
         's/^static inline uint32_t lfsr_step(uint32_t s) {$/static inline uint32_t lfsr_step(uint32_t s)\n{/'; do
  n=$((n + 1))
  sed "$m" cmodel/xtm/xtm_profile.c >"$tmp/bad.c"
  if cmp -s cmodel/xtm/xtm_profile.c "$tmp/bad.c"; then echo "FAIL format-mutant ($m did not apply)"; continue; fi
  if tools/format-check --files "$tmp/bad.c" >"$tmp/bad.out" 2>&1; then
    echo "FAIL format-mutant ($m passed the check)"
  elif grep -qF "$tmp/bad.c" "$tmp/bad.out"; then echo "PASS format-mutant-$n"
  else echo "FAIL format-mutant ($m: file not named)"; cat "$tmp/bad.out"; fi
done
stale=$(grep -v '^#' tools/format-pending | grep . | while read -r f; do git ls-files --error-unmatch "$f" >/dev/null 2>&1 || echo "$f"; done)
if [ -z "$stale" ]; then echo "PASS format-pending-tracked"; else echo "FAIL format-pending-tracked: $stale"; fi
