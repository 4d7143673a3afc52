# SPDX-License-Identifier: Apache-2.0
# Sourced by the xtm-netsim shell tests (test_cli.sh, test_policed.sh), not run on its own.
# expect_err NAME EXIT FIRST_LINE COMMAND...: runs COMMAND and prints "PASS $EXPECT_ERR_TAG NAME"
# when it exits with EXIT and its first stderr line is FIRST_LINE, else a FAIL line with both
# lines. A router configuration's compiler warnings and notes come first on stderr
# (ns_router_program): they are skipped.
expect_err() {
  local name=$1 want_rc=$2 want=$3; shift 3
  local got rc
  got=$(timeout 60 "$@" 2>&1 >/dev/null | grep -v '^xtm-netsim: router [^ ]*: .*: \(warning\|note\): ' | head -1)
  timeout 60 "$@" >/dev/null 2>&1; rc=$?
  if [ $rc -eq "$want_rc" ] && [ "$got" = "$want" ]; then
    echo "PASS ${EXPECT_ERR_TAG:?} $name"
  else
    echo "FAIL ${EXPECT_ERR_TAG:?} $name (exit $rc, expected $want_rc)"; echo "  expected: $want"; echo "  got:      $got"
  fi
}
