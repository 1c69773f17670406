#!/usr/bin/env bash
# Submit a sharded puzzle-search run to Slurm: a job array of N tasks (one shard each) and the
# merge as a job that starts when every task succeeded (--dependency=afterok). Run from the
# repository root (the scripts and target/release/puzzle are found from there; set PUZZLE to
# use another binary).
#
#   scripts/slurm/submit.sh KIND N OUTDIR ARGS...
#     KIND   experiment | solve | generate
#     N      shards (array tasks)
#     OUTDIR where the shards, merged.jsonl and the report or levels go
#     ARGS   the puzzle command after KIND, e.g. `samegame --iterations 2000`,
#            `sokoban levels.xsb --algo astar`, `sokoban --seeds 1..101 --time-limit 30`
#   SBATCH_ARGS  extra sbatch flags for the array, e.g. "--cpus-per-task=4 --time=02:00:00
#                --partition=short"
#
# Prints the array's and the merge's job ids.
set -euo pipefail
kind=${1:?usage: submit.sh experiment|solve|generate N OUTDIR ARGS...}
count=${2:?usage: submit.sh KIND N OUTDIR ARGS...}
outdir=${3:?usage: submit.sh KIND N OUTDIR ARGS...}
shift 3
dir=$(cd "$(dirname "$0")" && pwd)
case $kind in
  experiment) merge_flags=(--report "$outdir/report.md") ;;
  generate) merge_flags=(--xsb "$outdir/levels.xsb") ;;
  solve) merge_flags=() ;;
  *) echo "submit.sh: unknown kind '$kind' (experiment, solve or generate)" >&2; exit 2 ;;
esac
mkdir -p "$outdir"
# shellcheck disable=SC2086 # SBATCH_ARGS is a list of flags
array=$(sbatch --parsable --array="1-$count" --chdir="$PWD" --output="$outdir/%x-%A_%a.log" \
  --export="ALL,PUZZLE_SLURM_DIR=$dir" ${SBATCH_ARGS:-} "$dir/$kind.sbatch" "$outdir" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterok:$array" --chdir="$PWD" \
  --output="$outdir/%x-%j.log" --export="ALL,PUZZLE_SLURM_DIR=$dir" \
  "$dir/merge.sbatch" "$outdir" "$count" "${merge_flags[@]}")
merge=${merge%%;*}
echo "array $array ($count shards), merge $merge (after the array succeeds)"
