#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# make test-slurm: starts a single-node Slurm cluster on this machine from Debian's
# packages (munge, slurmctld, slurmd; installed with apt-get if missing, as root), runs the
# QUICK nightly list through it as a job array (tools/regress --slurm: sbatch --array
# --wait, one JUnit fragment per task, merged), and checks that the merged result (test
# names and pass/fail) equals the local QUICK run with the same base seed.
# Prints PASS/FAIL/SKIP lines; SKIP (not a pass) only when the packages cannot be installed.
#   BASE_SEED=<n> (default 1)   LOCAL=<dir>: reuse a local QUICK run made with that seed
#   SLURM_LIST=<file>: another list instead of QUICK (make test: tests/regress/slurm-smoke.list)
#   SLURM_STRICT=1: a SKIP (packages not installable, not root) is a FAIL (make test)
set -u
cd "$(dirname "$0")/../.." || exit 2
ROOT=$(pwd)
SEED=${BASE_SEED:-1}
W=$ROOT/build/slurm-test
SOUT=build/nightly-slurm
LOUT=${LOCAL:-build/nightly-local}
if [ -n "${SLURM_LIST:-}" ]; then
  LISTARG=(--list "$SLURM_LIST"); LISTNAME=$(basename "$SLURM_LIST")
  SOUT=build/slurm-smoke/slurm; LOUT=build/slurm-smoke/local; rm -rf build/slurm-smoke
else
  LISTARG=(--quick); LISTNAME=quick.list
fi
skip() {
  if [ -n "${SLURM_STRICT:-}" ]; then echo "FAIL test-slurm: $*"; exit 1; fi
  echo "SKIP test-slurm: $*"; exit 0
}

if [ "$(id -u)" != 0 ]; then
  skip "must run as root (starts munged, slurmctld, slurmd)"
fi
need=""
for p in munge slurmctld slurmd slurm-client; do
  dpkg-query -W -f='${Status}' $p 2>/dev/null | grep -q "install ok installed" || need="$need $p"
done
if [ -n "$need" ]; then
  echo "[slurm] installing:$need"
  if ! { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $need; } >"$ROOT/build/slurm-apt.log" 2>&1; then
    skip "the Debian packages ($need) cannot be installed (build/slurm-apt.log)"
  fi
fi

host=$(hostname -s)
rm -rf "$W"; mkdir -p "$W/state" "$W/spool" "$W/munge"
conf=$W/slurm.conf
cat >"$conf" <<EOF
# single-node cluster of make test-slurm (tests/regress/test-slurm.sh)
ClusterName=xtm-nightly
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
CryptoType=crypto/munge
StateSaveLocation=$W/state
SlurmdSpoolDir=$W/spool
SlurmctldPidFile=$W/slurmctld.pid
SlurmdPidFile=$W/slurmd.pid
SlurmctldLogFile=$W/slurmctld.log
SlurmdLogFile=$W/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmdTimeout=300
InactiveLimit=0
KillWait=30
MinJobAge=3600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=nightly Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$conf

# munge: its own key and socket, so a system munged (if any) is left alone
key=$W/munge/munge.key
dd if=/dev/urandom of="$key" bs=1024 count=1 status=none
chown munge:munge "$W/munge" "$key" 2>/dev/null; chmod 700 "$W/munge"; chmod 400 "$key"
sock=/run/munge/munge.socket.2
mkdir -p /run/munge && chown munge:munge /run/munge 2>/dev/null
started_munge=""
if ! munge -n >/dev/null 2>&1; then
  runuser -u munge -- /usr/sbin/munged --key-file="$key" --pid-file="$W/munge/munged.pid" \
    --log-file="$W/munge/munged.log" --seed-file="$W/munge/munged.seed" >/dev/null 2>&1 ||
    /usr/sbin/munged --force --key-file="$key" --pid-file="$W/munge/munged.pid" \
      --log-file="$W/munge/munged.log" --seed-file="$W/munge/munged.seed"
  started_munge=1
fi
cleanup() {
  for f in "$W/slurmd.pid" "$W/slurmctld.pid"; do
    [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
  done
  [ -n "$started_munge" ] && [ -f "$W/munge/munged.pid" ] && kill "$(cat "$W/munge/munged.pid")" 2>/dev/null
}
trap cleanup EXIT
munge -n | unmunge >/dev/null 2>&1 || { echo "FAIL test-slurm: munge does not work ($W/munge/munged.log)"; exit 1; }

slurmctld -f "$conf" || { echo "FAIL test-slurm: slurmctld did not start"; tail -20 "$W/slurmctld.log"; exit 1; }
slurmd -f "$conf" -N "$host" || { echo "FAIL test-slurm: slurmd did not start"; tail -20 "$W/slurmd.log"; exit 1; }
for i in $(seq 60); do
  st=$(sinfo -h -n "$host" -o %t 2>/dev/null)
  case $st in idle*|mix*|alloc*) break ;; esac
  sleep 1
done
echo "[slurm] node $host: ${st:-unknown}"
case $st in idle*|mix*|alloc*) ;; *)
  echo "FAIL test-slurm: the node did not come up"; tail -20 "$W/slurmctld.log" "$W/slurmd.log"; exit 1 ;;
esac

# the local QUICK run with the same base seed (reused when LOCAL names one)
if ! python3 -c "import json,sys; m=json.load(open('$LOUT/meta.json')); sys.exit(0 if m['seed']==$SEED and m['list'].endswith('$LISTNAME') and m['mode']=='local' else 1)" 2>/dev/null; then
  echo "[slurm] local run of $LISTNAME, base seed $SEED -> $LOUT"
  tools/regress "${LISTARG[@]}" --seed "$SEED" --jobs "$(nproc)" --out "$LOUT" --no-post | tail -3
fi
echo "[slurm] $LISTNAME through Slurm, base seed $SEED -> $SOUT"
tools/regress "${LISTARG[@]}" --seed "$SEED" --jobs "$(nproc)" --out "$SOUT" --slurm --no-post | tail -3
nfrag=$(ls "$SOUT"/fragments/*.xml 2>/dev/null | wc -l)
ntask=$(python3 -c "import json; print(len(json.load(open('$SOUT/tasks.json'))['tasks']))")
echo "[slurm] $nfrag JUnit fragments from $ntask array tasks"
# the comparison must be able to fail: one flipped status and one missing testcase
neg=$W/neg; mkdir -p "$neg"
awk 'BEGIN{FS=OFS="\t"} NR==1{$2=($2=="passed"?"failed":"passed")} {print}' "$SOUT/results.tsv" >"$neg/flip.tsv"
sed '$d' "$SOUT/results.tsv" >"$neg/short.tsv"
for f in flip short; do
  if tools/regress --compare "$LOUT/results.tsv" "$neg/$f.tsv" >/dev/null; then
    echo "FAIL test-slurm: the comparison did not notice a changed result ($f)"; exit 1
  fi
done
echo "[slurm] negative checks: a flipped status and a missing testcase are both reported"
if [ "$nfrag" = "$ntask" ] && tools/regress --compare "$LOUT/results.tsv" "$SOUT/results.tsv"; then
  echo "PASS test-slurm: merged Slurm result equals the local run of $LISTNAME ($ntask testcases)"
else
  echo "FAIL test-slurm: the Slurm run differs from the local run (see above; $SOUT/summary.md)"
  exit 1
fi
# xtm-netsim sweep --slurm on the same cluster (issue 15)
bash tests/regress/test-slurm-netsim.sh || exit 1
