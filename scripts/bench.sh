#!/usr/bin/env bash
# `make bench`: every example NF × the enterprise and datamining workloads through
# `tandem bench` (baseline vs offloaded on the same trace; callgrind counts), the switch
# engine on its built-in programs, then BENCHMARKS.md and docs/bench/*.svg.
# Usage: scripts/bench.sh      (needs `cargo build --release`; FLOWS, OUT, PROFILE,
#        NFS, WORKLOADS, EXTRA override the defaults below)
set -euo pipefail
cd "$(dirname "$0")/.."
TANDEM=${TANDEM:-target/release/tandem}
FLOWS=${FLOWS:-4000}
OUT=${OUT:-out/bench}
PROFILE=${PROFILE:-tofino1}
NFS=${NFS:-minilb mazunat l4lb firewall proxy statefilter trojan}
WORKLOADS=${WORKLOADS:-enterprise datamining}
EXTRA=${EXTRA:-}
declare -A PLAN=([minilb]=lb [mazunat]=nat [l4lb]=lb [firewall]=plain [proxy]=plain [statefilter]=plain [trojan]=endhosts [ratelimit]=plain)
mkdir -p "$OUT"
results=()
for nf in $NFS; do
  for w in $WORKLOADS; do
    echo "== $nf on $w =="
    # shellcheck disable=SC2086
    "$TANDEM" bench "examples/nfs/$nf/$nf.cc" --profile "$PROFILE" --workload "$w" \
      --flows "$FLOWS" --plan "${PLAN[$nf]}" --out-dir "$OUT/$nf-$w" $EXTRA
    results+=("$OUT/$nf-$w/bench.json")
  done
done
echo "== switch engine =="
# interpreter and native engine side by side, instructions per packet, 1 and 2 workers, and
# the LPM router under 1,000 route updates per second
"$TANDEM" switch bench --seconds 2 --callgrind --workers 1,2 --updates-per-sec 1000 \
  --json "$OUT/engine.json"
"$TANDEM" bench-report "${results[@]}" --engine "$OUT/engine.json" \
  --notes docs/bench/notes.md --output BENCHMARKS.md --figures docs/bench \
  --command "make bench    # scripts/bench.sh: FLOWS=$FLOWS PROFILE=$PROFILE"
