#!/usr/bin/env bash
# The random-NF differential fuzzer: N random NFs (default 100), each lifted, partitioned for
# tofino1, bmv2 and tiny (budgets varied at random), compiled and checked against the native
# NF on a short random trace. Extra arguments go to `tandem fuzz-nfs` (e.g. --seed 1000
# --jobs 2 --known-bugs). Failures are kept under target/fuzz-failures. The last line is the
# one-line summary; the exit status is non-zero on any failure. See docs/fuzzing.md.
# TANDEM=path/to/tandem uses that binary instead of building target/release/tandem.
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-100}"
shift || true
if [ -z "${TANDEM:-}" ]; then
  cargo build --release -q -p tandem-cli
  TANDEM=target/release/tandem
fi
exec "$TANDEM" fuzz-nfs --count "$n" --keep-failures target/fuzz-failures "$@"
