#!/usr/bin/env bash
# A real Slurm test of sharded runs on this one machine (no mocks): installs Debian's slurm-wlm
# and munge where missing (needs root and apt), starts munged, slurmctld and slurmd directly (no
# systemd, no cgroups; a generated slurm.conf, the munge key, state, logs and sockets in a
# temporary directory), submits with scripts/slurm/submit.sh a 4-task array of a small
# experiment and of a small set solve, each with its dependent merge job, waits for them, and
# checks that each merged output (and the experiment's report) equals the unsharded run's,
# times aside. Stops its daemons and removes the directory on exit, whatever happens.
#
#   bash scripts/slurm/test-local-cluster.sh    (from the repository root; .ci/run calls it)
#
# PUZZLE names the binary to test (default: build it with cargo into $CARGO_TARGET_DIR or
# target/). KEEP_SLURM_TEST=1 keeps the temporary directory for a look at the logs.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD

say() { echo "== slurm test: $*"; }
fail() {
  echo "slurm test FAILED: $*" >&2
  exit 1
}

# --- 1. The packages -------------------------------------------------------------------------
need=()
command -v slurmctld >/dev/null 2>&1 || need+=(slurm-wlm)
command -v munged >/dev/null 2>&1 || need+=(munge)
if [ ${#need[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] || fail "installing ${need[*]} needs root"
  say "apt-get install ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}" >/dev/null
fi

# --- 2. The binary ---------------------------------------------------------------------------
if [ -z "${PUZZLE:-}" ]; then
  say "cargo build --release --bin puzzle"
  cargo build --release --quiet --bin puzzle
  PUZZLE=${CARGO_TARGET_DIR:-$root/target}/release/puzzle
fi
PUZZLE=$(cd "$(dirname "$PUZZLE")" && pwd)/$(basename "$PUZZLE")
[ -x "$PUZZLE" ] || fail "no binary at $PUZZLE"
export PUZZLE
# Bounded: about a minute on a 2-core machine once built; four minutes at most.
deadline=$((SECONDS + 240))

# --- 3. A one-node cluster in a temporary directory ------------------------------------------
tmp=$(mktemp -d /tmp/puzzle-slurm.XXXXXX)
chmod 755 "$tmp"
pids=()
cleanup() {
  local status=$?
  if [ -n "${SLURM_CONF:-}" ] && command -v scancel >/dev/null 2>&1; then
    scancel --quiet --user="$(id -un)" 2>/dev/null || true
  fi
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
  done
  if [ $status -ne 0 ]; then
    for log in "$tmp"/*.log "$tmp"/out/*/*.log; do
      [ -f "$log" ] && { echo "--- $log"; tail -n 20 "$log"; } >&2
    done
  fi
  if [ -z "${KEEP_SLURM_TEST:-}" ]; then
    rm -rf "$tmp"
  else
    echo "kept $tmp" >&2
  fi
  exit $status
}
trap cleanup EXIT INT TERM

mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/out"
chmod 700 "$tmp/munge"
# A fresh key for this cluster only (the machine's own munge, if any, is left alone).
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge/munge.key"
socket=$tmp/munge/munge.socket
say "starting munged"
munged --foreground --force --key-file="$tmp/munge/munge.key" --socket="$socket" \
  --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munged.log" \
  --seed-file="$tmp/munge/munged.seed" >"$tmp/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 50); do
  [ -S "$socket" ] && break
  sleep 0.1
done
[ -S "$socket" ] || fail "munged did not start (see $tmp/munged.log)"

cpus=$(nproc)
export SLURM_CONF=$tmp/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=puzzletest
SlurmctldHost=localhost
SlurmUser=root
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
say "starting slurmctld and slurmd ($cpus CPUs)"
started=$SECONDS
slurmctld -D -i -f "$SLURM_CONF" >"$tmp/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N localhost -f "$SLURM_CONF" >"$tmp/slurmd.out" 2>&1 &
pids+=($!)
until sinfo --noheader --states=idle --format=%n 2>/dev/null | grep -qx localhost; do
  [ $SECONDS -lt $((deadline - 180)) ] || fail "the node did not come up idle (sinfo: $(sinfo 2>&1 | tail -n 2))"
  sleep 0.5
done
say "node idle after $((SECONDS - started)) s"

# --- 4. The runs: sharded on Slurm, and unsharded here ---------------------------------------
experiment=(samegame --count 4 --playouts tabu --formulas uctk0.1,ucb-tuned --iterations 300)
levels=$tmp/levels.xsb
awk 'BEGIN { RS = ""; ORS = "\n\n" } NR > 1 && NR <= 13' data/sokoban/Microban_155.xsb >"$levels"
solve=(sokoban "$levels" --algo astar --iterations 20000)

say "submitting 4-task arrays with their merge jobs"
echo "experiment: $(scripts/slurm/submit.sh experiment 4 "$tmp/out/experiment" "${experiment[@]}")"
echo "solve: $(scripts/slurm/submit.sh solve 4 "$tmp/out/solve" "${solve[@]}")"

say "unsharded runs for comparison"
"$PUZZLE" experiment "${experiment[@]}" --threads 1 --json --quiet \
  --out "$tmp/experiment-report.md" >"$tmp/experiment.jsonl"
"$PUZZLE" solve "${solve[@]}" --threads 1 --json --quiet >"$tmp/solve.jsonl"

say "waiting for the jobs"
while [ -n "$(squeue --noheader --user="$(id -un)" 2>/dev/null)" ]; do
  [ $SECONDS -lt "$deadline" ] || fail "the jobs did not finish in time: $(squeue 2>&1)"
  sleep 1
done
for merged in "$tmp/out/experiment/merged.jsonl" "$tmp/out/solve/merged.jsonl"; do
  [ -s "$merged" ] || fail "no $merged (did the array or the merge job fail?)"
done

# --- 5. Merged equals unsharded, times aside ---------------------------------------------------
untimed() {
  sed -E 's/"(time_s|elapsed_s|total_time_s|median_time_s|max_solved_time_s)":[-0-9.eE+]+/"\1":0/g' "$1"
}
same() {
  if ! diff <(untimed "$1") <(untimed "$2") >"$tmp/diff" 2>&1; then
    head -n 20 "$tmp/diff" >&2
    fail "$3: the merged output differs from the unsharded run"
  fi
}
same "$tmp/experiment.jsonl" "$tmp/out/experiment/merged.jsonl" "experiment samegame"
same "$tmp/solve.jsonl" "$tmp/out/solve/merged.jsonl" "solve sokoban"
# The reports link their plots by file name and give the runs' summed seconds.
report() { sed -E -e 's/(Run time )[0-9]+/\1N/' -e 's/\]\([a-z-]+-samegame-/](samegame-/' "$1"; }
diff <(report "$tmp/experiment-report.md") <(report "$tmp/out/experiment/report.md") >&2 ||
  fail "the merged report differs from the unsharded run's"
for plot in samegame-boards.svg samegame-totals.svg; do
  cmp -s "$tmp/experiment-report-$plot" "$tmp/out/experiment/report-$plot" ||
    fail "the merged plot $plot differs from the unsharded run's"
done
grep -q '"shard":"4/4"' "$tmp/out/solve/shard-4-of-4.jsonl" || fail "shard 4 ran no item"
say "passed in $((SECONDS - started)) s after the build: 4-task arrays of an experiment and a set solve, merged by dependent jobs, equal the unsharded runs"
