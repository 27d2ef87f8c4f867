#!/usr/bin/env bash
# `tandem check --concurrent` for every example NF × the enterprise and datamining workloads ×
# control latencies 10 µs, 1 ms and 10 ms (issue 23's acceptance run), on the simulated clock
# (`--virtual-clock`: the latency is counted in virtual time, so a 10 ms cell costs the wall
# time of a 10 µs one). One log per cell in OUT_DIR, one summary line per cell on stdout.
# Usage: scripts/concurrent-matrix.sh [PACKETS] [OUT_DIR]   (needs `cargo build --release`)
#        NFS="mazunat l4lb" LATENCIES="10ms" scripts/concurrent-matrix.sh 1000000
set -uo pipefail
cd "$(dirname "$0")/.."
PACKETS=${1:-1000000}
OUT=${2:-out/concurrent-matrix}
TANDEM=${TANDEM:-target/release/tandem}
mkdir -p "$OUT"
declare -A PLAN=([minilb]=lb [mazunat]=nat [l4lb]=lb [firewall]=plain [proxy]=plain [statefilter]=plain [trojan]=endhosts [pktcount]=plain [cmsketch]=plain [lpmrouter]=plain [vxlangw]=vxlan [vlantrunk]=vlan [hhdetect]=plain [aclfw]=plain [ratelimit]=plain)
declare -A FLOWS=([enterprise]=$((PACKETS / 25 + 100)) [datamining]=$((PACKETS / 90 + 100)))
fail=0
printf '%-12s %-11s %-6s %9s %8s %s\n' nf workload lat packets wall_s result
for lat in ${LATENCIES:-10us 1ms 10ms}; do
  for nf in ${NFS:-minilb mazunat l4lb firewall proxy statefilter trojan pktcount cmsketch lpmrouter vxlangw vlantrunk hhdetect aclfw ratelimit}; do
    for w in enterprise datamining; do
      log="$OUT/$nf-$w-$lat.txt"
      t0=$(date +%s)
      if "$TANDEM" check "examples/nfs/$nf/$nf.cc" --workload "$w" --plan "${PLAN[$nf]}" \
          --flows "${FLOWS[$w]}" --packets "$PACKETS" --concurrent --control-latency "$lat" \
          --virtual-clock >"$log" 2>&1; then r=PASS; else r=FAIL; fail=1; fi
      printf '%-12s %-11s %-6s %9s %8s %s\n' "$nf" "$w" "$lat" "$PACKETS" $(( $(date +%s) - t0 )) "$r"
    done
  done
done
exit $fail
