#!/usr/bin/env bash
# Runs one libFuzzer target for ctest (fuzz/CMakeLists.txt):
#   run_fuzzer.sh replay TARGET SCRATCH SEED_DIR...   every seed once; fails on a crash
#   run_fuzzer.sh fuzz   TARGET SCRATCH SEED_DIR...   fuzzes for SWEEP_FUZZ_SECONDS (default 60)
# New inputs go to SCRATCH/corpus (kept between runs, so fuzzing resumes
# where it stopped), crash reproducers to SCRATCH/ as crash-<sha1>.
set -euo pipefail
mode=$1 target=$2 scratch=$3
shift 3
mkdir -p "$scratch/corpus"
common=(-rss_limit_mb=2048 -timeout=25 -artifact_prefix="$scratch/")
case "$mode" in
  replay) exec "$target" "${common[@]}" -runs=0 "$@" ;;
  fuzz) exec "$target" "${common[@]}" -max_total_time="${SWEEP_FUZZ_SECONDS:-60}" \
          -print_final_stats=1 "$scratch/corpus" "$@" ;;
  *) echo "run_fuzzer.sh: unknown mode $mode" >&2; exit 2 ;;
esac
