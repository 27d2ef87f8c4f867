//! `tandem check --concurrent`: the concurrent run ([`crate::concurrent`]) against the
//! reference NF run in the same serial order.
//!
//! ```text
//! before (serial check):  reference(arrival order)  vs  offloaded(arrival order), per port
//! after (here):           1. reference A (arrival order, closed loop) → the input trace
//!                         2. offloaded, switch and server at once → verdicts, order π, emissions
//!                         3. reference B in order π → per-packet verdicts, final state
//!                         compare: every packet's verdict; π and the emission order are
//!                         arrival order within every flow; final states equal
//! ```
//!
//! Run-to-completion permits exactly this: the outputs are those of *some* serial run of the
//! NF, in an order that may interleave flows differently from arrival but keeps each flow's
//! packets in arrival order, and each flow's outputs leave in that order.

use std::collections::{BTreeMap, HashMap};

use tandem_host::irhost::{diff_states, normalize_native};
use tandem_host::{Host, NativeNf, Verdict};
use tandem_traffic::{FiveTuple, ReplyRewriter, TracePacket};

use crate::check::{explain, frame_hash, CheckOptions, CheckReport};
use crate::concurrent::{flow_of, run_concurrent, ConcurrentOptions};
use crate::system::Bundle;
use crate::OffloadError;

/// Descriptions kept of the order violations (all are counted by the check failing).
const SHOWN: usize = 8;

/// Checks the concurrent run of `bundle` against the NF. `trace_ref` and `order_ref` are two
/// instances of the native NF, both configured: the first makes the closed-loop trace, the
/// second runs it in the concurrent run's serial order.
pub fn check_concurrent(
    bundle: &Bundle,
    trace_ref: NativeNf,
    order_ref: NativeNf,
    packets: &mut dyn Iterator<Item = TracePacket>,
    mut options: CheckOptions,
    concurrent: &ConcurrentOptions,
) -> Result<CheckReport, OffloadError> {
    if options.control.is_some() {
        return Err(OffloadError::Switch(
            "a concurrent check runs its own control channel (with latency); fault injection is not supported".into(),
        ));
    }
    if bundle.manifest.server_meter.is_some() {
        return Err(OffloadError::Manifest(
            "--server-rate: the server meter is checked serially (without --concurrent)".into(),
        ));
    }
    if options.servers > 1 || !options.changes.is_empty() {
        return Err(OffloadError::Switch(
            "a concurrent check runs one server host; several servers and membership changes (--servers, --change) run serially".into(),
        ));
    }
    let native = |e: tandem_host::HostError| OffloadError::Native(e.to_string());
    let mut host = Host::new(trace_ref);
    let initial = host.dump_state().map_err(native)?;
    // 1. The trace as the closed loop makes it.
    let mut replies = ReplyRewriter::new();
    let mut inputs = Vec::new();
    for mut pkt in packets {
        if options.closed_loop {
            replies.rewrite(&mut pkt);
            let want = host.process(&pkt).map_err(native)?;
            if let Verdict::Send { port, frame } = &want {
                replies.observe(&pkt.data, pkt.port, &[(*port, frame.as_slice())]);
            }
        }
        inputs.push(pkt);
    }
    drop(host);
    // 2. The concurrent run.
    let (run, stats, offloaded_state) =
        run_concurrent(bundle, &initial, &options.run, concurrent, &inputs)?;
    // 3. The reference in order π.
    let mut host = Host::new(order_ref);
    let mut balance: HashMap<(u32, u64, usize), i64> = HashMap::new();
    let mut reference_out = BTreeMap::new();
    let mut reference_dropped = 0;
    let mut differing = 0u64;
    let mut first = None;
    for (n, &idx) in run.order.iter().enumerate() {
        let pkt = &inputs[idx];
        let want = host.process(pkt).map_err(native)?;
        let got = &run.verdicts[idx];
        match &want {
            Verdict::Send { port, frame } => {
                *reference_out.entry(*port).or_insert(0u64) += 1;
                *balance.entry(frame_hash(*port, frame)).or_default() += 1;
            }
            Verdict::Drop => reference_dropped += 1,
        }
        if let Verdict::Send { port, frame } = got {
            *balance.entry(frame_hash(*port, frame)).or_default() -= 1;
        }
        if want != *got {
            differing += 1;
            if first.is_none() {
                let history: Vec<TracePacket> =
                    run.order[..n].iter().map(|&i| inputs[i].clone()).collect();
                first = Some(explain(
                    bundle, &initial, &history, pkt, idx as u64, &want, got,
                ));
            }
        }
        if let Some(p) = options.progress.as_mut() {
            p(n as u64 + 1);
        }
    }
    let mut multiset_differences: BTreeMap<u32, (u64, u64)> = BTreeMap::new();
    for ((port, _, _), b) in balance {
        if b != 0 {
            let e = multiset_differences.entry(port).or_default();
            if b > 0 {
                e.0 += b as u64;
            } else {
                e.1 += (-b) as u64;
            }
        }
    }
    let mut order_violations = per_flow_order(&inputs, &run.order, "take effect");
    order_violations.extend(per_flow_order(&inputs, &run.emitted, "leave"));
    order_violations.truncate(SHOWN);
    let last_ts = host.summary().last_ts_ns;
    let reference_state = normalize_native(
        &host
            .nf()
            .dump_state(last_ts)
            .map_err(|e| OffloadError::Native(e.to_string()))?,
    );
    let mut offloaded_state = offloaded_state;
    for (name, rows) in normalize_native(&initial) {
        offloaded_state.entry(name).or_insert(rows);
    }
    Ok(CheckReport {
        packets: inputs.len() as u64,
        metered: None,
        reference_out,
        reference_dropped,
        offloaded: stats,
        differing_packets: differing,
        multiset_differences,
        first_difference: first,
        state_differences: diff_states(&reference_state, &offloaded_state),
        concurrent: Some(run),
        order_violations,
        per_server: Vec::new(),
        membership: None,
        sharding: None,
        partial_keys: Vec::new(),
    })
}

/// The places where `sequence` (input indices) puts a packet of a flow before an earlier
/// packet of the same flow: the reorderings run-to-completion forbids.
pub fn per_flow_order(inputs: &[TracePacket], sequence: &[usize], what: &str) -> Vec<String> {
    let mut last: HashMap<Option<FiveTuple>, usize> = HashMap::new();
    let mut out = Vec::new();
    for &idx in sequence {
        let flow = flow_of(&inputs[idx].data);
        if let Some(&prev) = last.get(&flow) {
            if prev > idx && out.len() < SHOWN {
                out.push(format!(
                    "packets {idx} and {prev} of flow {} {what} out of arrival order ({prev} first)",
                    show_flow(flow)
                ));
            }
        }
        let e = last.entry(flow).or_insert(idx);
        *e = (*e).max(idx);
    }
    out
}

fn show_flow(flow: Option<FiveTuple>) -> String {
    match flow {
        None => "(not IPv4 TCP/UDP)".into(),
        Some(f) => format!(
            "{}:{} → {}:{} proto {}",
            std::net::Ipv4Addr::from(f.src),
            f.sport,
            std::net::Ipv4Addr::from(f.dst),
            f.dport,
            f.proto
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn udp(sport: u16) -> TracePacket {
        let mut f = vec![0u8; 42];
        f[12] = 0x08;
        f[14] = 0x45;
        f[16..18].copy_from_slice(&28u16.to_be_bytes());
        f[22] = 64;
        f[23] = 17;
        f[26..30].copy_from_slice(&[10, 0, 0, 1]);
        f[30..34].copy_from_slice(&[10, 0, 0, 2]);
        f[34..36].copy_from_slice(&sport.to_be_bytes());
        f[36..38].copy_from_slice(&53u16.to_be_bytes());
        TracePacket {
            ts_ns: 0,
            port: 0,
            data: f,
        }
    }

    #[test]
    fn cross_flow_reordering_is_allowed_within_a_flow_it_is_caught() {
        let inputs = vec![udp(1), udp(2), udp(1), udp(2)];
        assert!(flow_of(&inputs[0].data).is_some());
        // Flows interleaved differently: allowed.
        assert!(per_flow_order(&inputs, &[1, 3, 0, 2], "leave").is_empty());
        // Packet 2 of flow 1 before packet 0: forbidden (negative control).
        let v = per_flow_order(&inputs, &[2, 1, 0, 3], "leave");
        assert_eq!(v.len(), 1, "{v:?}");
        assert!(v[0].contains("packets 0 and 2"), "{v:?}");
    }
}
