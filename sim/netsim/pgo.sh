#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Profile-guided build of the network simulator (docs/netsim.md 8, NETSIM_PGO=1):
#   1. compile every source with -fprofile-generate into OBJDIR and link an instrumented binary;
#   2. run it on a fixed training set (the bench's set-up at 4 KB and 1 KB, shortened, and one
#      short run of each other family), which writes the branch and call counts to OBJDIR/prof;
#   3. compile again into the same OBJDIR with -fprofile-use (the counts are found by the
#      object's path, hence the same directory) and link OUT.
# The profile changes code layout, inlining and branch order only: the results are the same
# (sim/netsim/tests/same-output.sh; test_cli.sh's cli-pgo-same compares the two builds' outputs).
# usage: pgo.sh OUT OBJDIR -- COMPILE-FLAGS... -- SOURCES... -- LINK-ARGS...
set -euo pipefail
OUT=$1 OBJ=$2
shift 2
[ "$1" = -- ] || { echo "pgo.sh: usage: OUT OBJDIR -- FLAGS -- SOURCES -- LINK-ARGS" >&2; exit 2; }
shift
FLAGS=() SRCS=() LINK=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do FLAGS+=("$1"); shift; done
shift
while [ $# -gt 0 ] && [ "$1" != -- ]; do SRCS+=("$1"); shift; done
shift
LINK=("$@")
CC=${CC:-cc}
rm -rf "$OBJ"
mkdir -p "$OBJ/prof"
OBJ=$(cd "$OBJ" && pwd)
PROF=(-fprofile-dir="$OBJ/prof")

build() {  # build MODE-FLAGS... -> objects in $OBJ, the binary in $1
  local out=$1
  shift
  local objs=() pids=() s o
  for s in "${SRCS[@]}"; do
    o=$OBJ/$(echo "$s" | tr / _).o
    objs+=("$o")
    "$CC" "${FLAGS[@]}" "$@" "${PROF[@]}" -c "$s" -o "$o" &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
  "$CC" "${FLAGS[@]}" "$@" "${PROF[@]}" "${objs[@]}" -o "$out" "${LINK[@]}"
}

build "$OBJ/xtm-netsim-instr" -fprofile-generate -fprofile-update=single
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
train() {  # a failed training run fails the build: its profile would be partial
  "$OBJ/xtm-netsim-instr" run "$@" --no-plots --json --out "$T/run" >"$T/json" 2>"$T/err" || {
    echo "pgo.sh: training run failed: $*" >&2
    cat "$T/err" >&2
    exit 1
  }
}
SA=(sim/scenarios/scale-across.ini --set distance_km=500 --set load_bdp=1.0 --set profile=final
  --set sample_us=0 --set client_start=sync --set warmup_s=0)
train "${SA[@]}" --set mtu=4096 --set duration_s=0.3
train "${SA[@]}" --set mtu=1024 --set duration_s=0.1
train sim/scenarios/pfc-victim.ini
train sim/scenarios/deep-buffer-sweep.ini --set transport=uet
train sim/scenarios/deep-buffer-sweep.ini
train sim/scenarios/roce-lab.ini
build "$OUT" -fprofile-use -fprofile-partial-training -Wno-missing-profile
rm -f "$OBJ/xtm-netsim-instr"
