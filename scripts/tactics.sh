#!/usr/bin/env bash
# Runs the whole tactics suite in a release build and prints the solve rates and times:
# all 834 public renju VCF problems (tests/data/vcf_public.jsonl), the quintet mate problems and
# the self-play VCT positions (tests/data/vct_selfplay.jsonl, freestyle, and
# tests/data/vct_renju_selfplay.jsonl).
#
#   scripts/tactics.sh
set -euo pipefail
cd "$(dirname "$0")/.."
WUZI_VCF_STRIDE=1 WUZI_VCT_STRIDE=1 cargo test --release --test tactics -- --nocapture --test-threads 1 2>&1 \
  | grep -oE "vcf_public: .*|vct_(renju_)?selfplay: .*|\"?quintet.*|test result.*"
