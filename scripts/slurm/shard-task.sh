#!/usr/bin/env bash
# One task of a puzzle-search job array: runs `puzzle <COMMAND...> --json --shard I/N --threads T`
# (`--threads T` where the command reads a thread count)
# into OUTDIR/shard-I-of-N.jsonl, where I is the task's place in the array (1-based, whatever
# the array's first index), N the array's task count and T the task's --cpus-per-task. A task
# that finds its output from an earlier attempt (preempted, timed out, requeued) resumes from
# it: the items complete there are written again and not run.
#
# Called by experiment.sbatch, solve.sbatch and generate.sbatch:
#   shard-task.sh OUTDIR COMMAND...   (e.g. OUTDIR experiment samegame --iterations 2000)
# and by merge.sbatch, after the array, to join the shards:
#   shard-task.sh --merge OUTDIR N [MERGE FLAGS...]   (writes OUTDIR/merged.jsonl)
# PUZZLE names the binary (default: `puzzle` on PATH, else target/release/puzzle under the
# directory sbatch was called from).
set -euo pipefail
merge=
if [ "${1:-}" = --merge ]; then
  merge=1
  shift
fi
outdir=$1
shift
puzzle=${PUZZLE:-}
if [ -z "$puzzle" ]; then
  if command -v puzzle >/dev/null 2>&1; then
    puzzle=puzzle
  else
    puzzle=${SLURM_SUBMIT_DIR:-.}/target/release/puzzle
  fi
fi
if [ -n "$merge" ]; then
  count=$1
  shift
  shards=()
  for i in $(seq 1 "$count"); do
    shards+=("$outdir/shard-$i-of-$count.jsonl")
  done
  exec "$puzzle" merge "${shards[@]}" --out "$outdir/merged.jsonl" "$@"
fi
: "${SLURM_ARRAY_TASK_ID:?run this inside a Slurm job array (sbatch --array=1-N)}"
index=$((SLURM_ARRAY_TASK_ID - ${SLURM_ARRAY_TASK_MIN:-1} + 1))
count=${SLURM_ARRAY_TASK_COUNT:?}
threads=${SLURM_CPUS_PER_TASK:-1}
mkdir -p "$outdir"
out=$outdir/shard-$index-of-$count.jsonl
prev=$out.prev
resume=()
# Keep the longer of the last two attempts' outputs as the one to resume from (a resumed
# output repeats every complete item of the one before it).
if [ -s "$out" ]; then
  if [ ! -s "$prev" ] || [ "$(wc -l <"$out")" -ge "$(wc -l <"$prev")" ]; then
    mv -f "$out" "$prev"
  fi
fi
if [ -s "$prev" ]; then
  resume=(--resume "$prev")
fi
# The task's CPUs become --threads where the command reads a thread count (its --help offers
# --threads); a command that does not is refused the flag, so it is not given.
threads_flag=()
help=$("$puzzle" "$@" --help)
if grep -Eq '^[[:space:]]+--threads' <<<"$help"; then
  threads_flag=(--threads "$threads")
fi
echo "shard $index/$count, $threads CPU(s): $puzzle $* ${threads_flag[*]} -> $out" >&2
"$puzzle" "$@" --json --quiet --shard "$index/$count" "${threads_flag[@]}" "${resume[@]}" >"$out"
