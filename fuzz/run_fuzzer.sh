#!/usr/bin/env bash
# Runs one libFuzzer target for ctest (fuzz/CMakeLists.txt):
#   run_fuzzer.sh replay TARGET SCRATCH [-FLAG...] SEED_DIR...
#       runs every seed once; fails on a crash or a violated invariant;
#   run_fuzzer.sh fuzz TARGET SCRATCH [-FLAG...] SEED_DIR...
#       fuzzes from the seeds for SWEEP_FUZZ_SECONDS (default 60) seconds.
# Flags (-dict=...) go to libFuzzer as they are. New inputs go to
# SCRATCH/corpus, kept between runs so that fuzzing resumes where it stopped;
# a crash is saved as SCRATCH/crash-<sha1> and replays with `TARGET FILE`.
# While fuzzing, inputs are capped at 128 KiB for speed (a longer seed is cut
# to that; the replay runs every seed whole).
set -euo pipefail
mode=$1 target=$2 scratch=$3
shift 3
mkdir -p "$scratch/corpus"
common=(-rss_limit_mb=2048 -timeout=25 -artifact_prefix="$scratch/")
case "$mode" in
  replay) exec "$target" "${common[@]}" -runs=0 "$@" ;;
  fuzz) exec "$target" "${common[@]}" -max_total_time="${SWEEP_FUZZ_SECONDS:-60}" \
          -max_len=131072 -print_final_stats=1 "$scratch/corpus" "$@" ;;
  *) echo "run_fuzzer.sh: unknown mode $mode" >&2; exit 2 ;;
esac
