#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/regress with hostile input (issue 14): test names and configurations that carry
# shell metacharacters or path escapes are refused with file:line and run nothing; an
# --out folder full of metacharacters is quoted into the commands and given to the
# coverage tools as an argument (no shell: the old `sh(..., shell=True)` ran `touch` from
# such a path). Prints PASS/FAIL lines for tools/run-tests.
set -u
R=tools/regress
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2
cd - >/dev/null || exit 2

check() {  # NAME CONDITION-EXIT-STATUS DETAIL
  if [ "$2" -eq 0 ]; then echo "PASS regress $1"; else echo "FAIL regress $1: $3"; fi
}

# ---- hostile names: refused before anything runs, the line named
n=0
for name in 'x;touch PWNED' 'x$(touch PWNED)' 'x`touch PWNED`' '../../escape' 'a b' "x'y" 'x|y' '-rf'; do
  n=$((n + 1))
  printf '# list\n%s | touch %s/ran | - | -\n' "$name" "$tmp" >"$tmp/bad$n.list"
  out=$(cd "$tmp" && python3 "$OLDPWD/$R" --list "$tmp/bad$n.list" --out "$tmp/o$n" --no-post --jobs 1 2>&1)
  rc=$?
  ok=1
  [ $rc -ne 0 ] && grep -q "bad$n.list:2: test name" <<<"$out" && [ ! -e "$tmp/PWNED" ] && [ ! -e "$tmp/ran" ] && ok=0
  check "hostile-name-$n" $ok "exit $rc: $(head -2 <<<"$out")"
done
printf 'ok | touch %s/ran | - | small,x;touch PWNED\n' "$tmp" >"$tmp/badcfg.list"
out=$(cd "$tmp" && python3 "$OLDPWD/$R" --list "$tmp/badcfg.list" --out "$tmp/oc" --no-post --jobs 1 2>&1)
rc=$?
ok=1
[ $rc -ne 0 ] && grep -q "badcfg.list:1: configuration" <<<"$out" && [ ! -e "$tmp/PWNED" ] && [ ! -e "$tmp/ran" ] && ok=0
check hostile-config $ok "exit $rc: $(head -2 <<<"$out")"

# ---- a hostile --out folder: quoted into the command, an argument to the coverage tools
odir="$tmp/o;touch PWNED;x \$(touch PWNED2) 'q"
# one Verilator coverage point (SystemC::Coverage-3 text), written by the job into {out}
printf "# SystemC::Coverage-3\nC '\\001t\\002line\\001page\\002v_line/top\\001f\\002rtl/x.sv\\001l\\00210\\001h\\002top' 3\n" >"$tmp/cov.dat"
printf 'cov-{cfg} | cp %s/cov.dat {out}/coverage.dat && echo seed {seed} cfg {cfg} >{out}/note.txt | =7 | small\n' "$tmp" >"$tmp/good.list"
out=$(cd "$tmp" && python3 "$OLDPWD/$R" --list "$tmp/good.list" --out "$odir" --jobs 1 2>&1)
rc=$?
ok=1
note="$odir/runs/cov-small.7/note.txt"
[ $rc -eq 0 ] && [ "$(cat "$note" 2>/dev/null)" = "seed 7 cfg small" ] && [ ! -e "$tmp/PWNED" ] &&
  [ ! -e "$tmp/PWNED2" ] && [ ! -e PWNED ] && [ ! -e PWNED2 ] && grep -q '^1 passed, 0 failed$' <<<"$out" && ok=0
check hostile-out-folder $ok "exit $rc: $(tail -3 <<<"$out")"
# the coverage step merged the run's file from that folder (verilator_coverage, lcov and
# genhtml are Perl wrappers that shell out their arguments: they are given a private
# folder's paths, so nothing of the --out name reaches a shell)
ok=1
grep -q 'Code coverage (Verilator, merged over 1 runs)' "$odir/summary.md" 2>/dev/null &&
  [ -s "$odir/coverage/merged.dat" ] && [ ! -e "$tmp/PWNED" ] && [ ! -e PWNED ] && ok=0
check coverage-no-shell $ok "$(grep -i coverage "$odir/summary.md" 2>/dev/null | head -2)"
# the rerun line quotes the checkout and the folder
ok=1
grep -qF "rerun: \`cd $(pwd) && mkdir -p '$odir/runs/cov-small.7'" "$odir/summary.md" 2>/dev/null ||
  grep -qF "| cov-small.7 | passed |" "$odir/summary.md" 2>/dev/null && ok=0
check summary-written $ok "$(head -5 "$odir/summary.md" 2>/dev/null)"
# the summary and the JUnit file are stamped (issue 17): spec versions, git describe
ok=1
spec=$(tools/stamp --value spec); gitd=$(tools/stamp --value git)
grep -qF -- "- stamp: spec $spec, spec-dcqcn $(tools/stamp --value spec-dcqcn), git $gitd," "$odir/summary.md" 2>/dev/null &&
  grep -qF "<property name=\"spec_version\" value=\"$spec\"/>" "$odir/junit.xml" 2>/dev/null &&
  grep -qF "<property name=\"git\" value=\"$gitd\"/>" "$odir/junit.xml" 2>/dev/null && ok=0
check stamped $ok "$(grep -m1 stamp "$odir/summary.md" 2>/dev/null) / $(grep -o '<properties>.*</properties>' "$odir/junit.xml" 2>/dev/null)"
