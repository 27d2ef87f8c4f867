#!/usr/bin/env bash
# `tandem check` for every example NF × the enterprise and datamining workloads × the
# tofino1 and bmv2 profiles, on ≥ 100,000 packets each (issue 8's acceptance run).
# Usage: scripts/check-all.sh [PACKETS] [OUT_DIR]      (needs `cargo build --release`)
#        NFS="lpmrouter pktcount" scripts/check-all.sh   (a subset of the NFs)
set -uo pipefail
cd "$(dirname "$0")/.."
PACKETS=${1:-100000}
OUT=${2:-out/check-all}
TANDEM=${TANDEM:-target/release/tandem}
mkdir -p "$OUT"
declare -A PLAN=([minilb]=lb [mazunat]=nat [l4lb]=lb [firewall]=plain [proxy]=plain [statefilter]=plain [trojan]=endhosts [pktcount]=plain [cmsketch]=plain [lpmrouter]=plain [vxlangw]=vxlan [vlantrunk]=vlan [hhdetect]=plain [aclfw]=plain [ratelimit]=plain)
# Flows enough for PACKETS packets (enterprise ≈ 35 packets per flow, datamining ≈ 134).
declare -A FLOWS=([enterprise]=$((PACKETS / 25 + 100)) [datamining]=$((PACKETS / 90 + 100)))
fail=0
printf '%-12s %-11s %-8s %9s %9s %9s %8s %s\n' nf workload profile packets fastpath%% server batches result
for nf in ${NFS:-minilb mazunat l4lb firewall proxy statefilter trojan pktcount cmsketch lpmrouter vxlangw vlantrunk hhdetect aclfw ratelimit}; do
  for w in enterprise datamining; do
    for p in tofino1 bmv2; do
      json="$OUT/$nf-$w-$p.json"
      if "$TANDEM" check "examples/nfs/$nf/$nf.cc" --profile "$p" --workload "$w" \
          --plan "${PLAN[$nf]}" --flows "${FLOWS[$w]}" --packets "$PACKETS" --json "$json" \
          >"$OUT/$nf-$w-$p.txt" 2>&1; then r=PASS; else r=FAIL; fail=1; fi
      python3 - "$json" "$nf" "$w" "$p" "$r" <<'PY'
import json, sys
path, nf, w, p, r = sys.argv[1:]
try:
    j = json.load(open(path)); o = j["offloaded"]
    print(f"{nf:<12} {w:<11} {p:<8} {j['packets']:>9} {100*o['fast_path']/max(1,o['packets']):>9.2f} {o['via_server']:>9} {o['sync']['batches']:>8} {r}")
except Exception as e:
    print(f"{nf:<12} {w:<11} {p:<8} {'-':>9} {'-':>9} {'-':>9} {'-':>8} {r} (see {path[:-5]}.txt)")
PY
    done
  done
done
exit $fail
