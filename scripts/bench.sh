#!/usr/bin/env bash
# `make bench`: every example NF × the enterprise and datamining workloads through
# `tandem bench` (baseline vs offloaded on the same trace; callgrind counts), the switch
# engine on its built-in programs, a partial map under Zipf traffic (`tandem bench-partial`),
# then BENCHMARKS.md and docs/bench/*.svg.
# Usage: scripts/bench.sh      (needs `cargo build --release`; FLOWS, OUT, PROFILE,
#        NFS, WORKLOADS, EXTRA override the defaults below)
set -euo pipefail
cd "$(dirname "$0")/.."
TANDEM=${TANDEM:-target/release/tandem}
FLOWS=${FLOWS:-4000}
OUT=${OUT:-out/bench}
PROFILE=${PROFILE:-tofino1}
NFS=${NFS:-minilb mazunat l4lb firewall proxy statefilter cofilter trojan}
WORKLOADS=${WORKLOADS:-enterprise datamining}
EXTRA=${EXTRA:-}
declare -A PLAN=([minilb]=lb [mazunat]=nat [l4lb]=lb [firewall]=plain [proxy]=plain [statefilter]=plain [cofilter]=plain [trojan]=endhosts [ratelimit]=plain)
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
echo "== partial maps (MiniLB's map: switch table 10% of the keys, Zipf 0.8/0.9/1.1) =="
"$TANDEM" bench-partial examples/nfs/minilb/minilb.cc --profile "$PROFILE" --map map \
  --entries 240 --entries-share 0.1 --hotness sketch,counters,off --alphas 0.8,0.9,1.1 \
  --workload datamining --flows 20000 --plan lb \
  --packets 600000 --every 200 --json "$OUT/partial-minilb.json"
# The Sailfish gateway on its multi-tenant VXLAN plan (>= 100,000 packets): `tandem check`
# for every Tofino-like profile and bmv2, IPv4-only and 25% IPv6 inner traffic, and
# `tandem bench` (server instructions) on tofino2; figures in docs/bench/notes.md ("xgw").
# XGW=0 skips it.
if [ "${XGW:-1}" != 0 ]; then
  for v6 in 0 0.25; do
    for p in tofino1 tofino1:folded tofino2 bmv2; do
      echo "== xgw check on $p, IPv6 share $v6 =="
      "$TANDEM" check examples/nfs/xgw/xgw.cc --profile "$p" --workload enterprise --plan xgw \
        --flows 4500 --ipv6-share "$v6" \
        --compress routes4=75000,routes6=25000,vm_nc4=750000,vm_nc6=250000 \
        --json "$OUT/xgw-check-$p-$v6.json"
    done
    echo "== xgw bench on tofino2, IPv6 share $v6 =="
    "$TANDEM" bench examples/nfs/xgw/xgw.cc --profile tofino2 --workload enterprise --plan xgw \
      --flows "$FLOWS" --ipv6-share "$v6" --out-dir "$OUT/xgw-$v6"
  done
fi
echo "== switch engine =="
# interpreter and native engine side by side, instructions per packet, 1 and 2 workers, and
# the LPM router under 1,000 route updates per second
"$TANDEM" switch bench --seconds 2 --callgrind --workers 1,2 --updates-per-sec 1000 \
  --json "$OUT/engine.json"
"$TANDEM" bench-report "${results[@]}" --engine "$OUT/engine.json" \
  --notes docs/bench/notes.md --output BENCHMARKS.md --figures docs/bench --force \
  --partial "$OUT/partial-minilb.json" \
  --command "make bench    # scripts/bench.sh: FLOWS=$FLOWS PROFILE=$PROFILE"
