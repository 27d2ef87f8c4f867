//! Running TNA programs: the passes of `check::tna` strung together by a model of Tofino's
//! traffic manager, with several pipes and loopback ports (pipeline folding).
//!
//! A packet arriving on port P runs pipe `P >> 7`'s ingress (pipe 0 = ports 0..127,
//! pipe 1 = 128..255, ...), then — unless `ig_dprsr_md.drop_ctl` bit 0 drops it — the
//! egress of pipe `ucast_egress_port >> 7` (skipped when `ig_tm_md.bypass_egress` is set),
//! whose `eg_dprsr_md.drop_ctl` bit 0 drops it too. Each pass parses the bytes the previous
//! deparser produced (unparsed bytes follow the emitted headers, as in v1model). A packet
//! leaving on a *loopback port* ([`PortSet`], [`crate::CompileOptions::loopback`]) re-enters
//! that port's pipe's ingress with `ingress_port` = that port; at most
//! [`MAX_INGRESS_PASSES`] ingress passes per packet, beyond which it is dropped and counted
//! ([`crate::Switch::loop_drops`]), so a looping program cannot hang the switch.
//!
//! ```text
//! before: Switch(pipe0, pipe1) main;  loopback ports {128}
//!         packet on port 1, ingress0 sets ucast_egress_port = 128, ingress1 sets 3
//! after:  ingress0(port 1) -> egress1(port 128) -> loopback -> ingress1(port 128)
//!         -> egress0(port 3) -> out on port 3
//! ```
//!
//! Intrinsic metadata the runner writes before each parser: `ingress_port` /
//! `egress_port`, `ingress_mac_tstamp` and `global_tstamp` (the packet's time in ns, 48
//! bits), `pkt_length` (egress: the frame's length), and `parser_err` after it
//! (`PARSER_ERROR_PARTIAL_HDR` for a too-short packet, `PARSER_ERROR_NO_MATCH`). A parser
//! error does not drop the packet (as in the v1model binding; hardware drops ingress
//! parser errors unless the program reads `parser_err`). Metadata start at zero in every
//! pass (`ucast_egress_port` too: a program that never sets it sends to port 0, where
//! hardware would drop). Not modelled: multicast, mirroring, resubmit, digests, the
//! port-metadata prefix, queueing. The native engine compiles each pass's parser, control
//! and deparser as blocks of their own; TNA programs are not optimised (`opt` knows
//! v1model's blocks only).

use crate::exec::Ctx;
use crate::program::*;

/// Ingress passes a packet may take before it is dropped as looping.
pub const MAX_INGRESS_PASSES: u32 = 4;

/// `PARSER_ERROR_NO_MATCH` / `PARSER_ERROR_PARTIAL_HDR` (`tofino1_base.p4`).
const PARSER_ERROR_NO_MATCH: u64 = 0x1;
const PARSER_ERROR_PARTIAL_HDR: u64 = 0x2;

/// A set of 9-bit switch ports (the loopback ports).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PortSet([u64; 8]);

impl PortSet {
    /// No ports.
    pub const NONE: PortSet = PortSet([0; 8]);

    /// The set of `ports` (values above 511 are ignored).
    pub fn of(ports: &[u16]) -> PortSet {
        let mut s = PortSet::default();
        for &p in ports {
            s.insert(p);
        }
        s
    }

    /// Adds `port`; false if it is not a 9-bit port.
    pub fn insert(&mut self, port: u16) -> bool {
        match self.0.get_mut(port as usize / 64) {
            Some(w) => {
                *w |= 1 << (port % 64);
                true
            }
            None => false,
        }
    }

    pub fn contains(&self, port: u32) -> bool {
        self.0
            .get(port as usize / 64)
            .is_some_and(|w| w & (1 << (port % 64)) != 0)
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }
}

/// What one pass decided (the traffic manager's inputs).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PassOut {
    pub drop: bool,
    /// ingress: `ucast_egress_port`
    pub egress_port: u32,
    /// ingress: `bypass_egress`
    pub bypass: bool,
}

/// Where a packet goes after the traffic manager.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Next {
    Drop,
    /// dropped for exceeding [`MAX_INGRESS_PASSES`]
    Looped,
    Out(u32),
    /// run ingress again on this (loopback) port
    Loop(u32),
}

/// Which pass runs next for a packet on `port`: the pipe's index, `None` if no pipe has it.
pub(crate) fn pipe_of(prog: &Compiled, port: u32) -> Option<&PipeDef> {
    prog.pipes.get((port >> 7) as usize)
}

impl Ctx<'_> {
    /// Runs pass `pass` of a TNA program on `self.pkt`, which arrived on (ingress) or leaves
    /// by (egress) `port`, at `ts_ns`. The output frame is left in the packet buffer
    /// (`in_place`) or in `out`. `None`: the frame does not fit the packet buffer.
    pub(crate) fn run_pass(&mut self, pass: usize, port: u32, ts_ns: u64) -> Option<PassOut> {
        let p = self.prog;
        let (def, code) = (p.passes.get(pass)?, *p.code.passes.get(pass)?);
        self.now_ns = ts_ns;
        let n = p.phv0.len().min(PHV_SLOTS);
        self.phv[..n].copy_from_slice(&p.phv0[..n]);
        let p0 = p.scratch_size;
        if p0 + self.pkt.len() > HB_SIZE {
            return None;
        }
        self.hb[..p0].fill(0);
        self.hb[p0..p0 + self.pkt.len()].copy_from_slice(self.pkt);
        self.extracted.clear();
        self.emitted.clear();
        self.in_place = false;
        self.cursor = 0;
        let i = def.intr;
        let ts = ts_ns & mask(48);
        let set = |phv: &mut Phv, s: Slot, v: u64| phv[s as usize & PHV_MASK] = v;
        set(self.phv, i.port, port as u64 & mask(9));
        set(self.phv, i.global_tstamp, ts);
        set(self.phv, p.std.packet_length, self.pkt.len() as u64);
        if let Some(s) = i.mac_tstamp {
            set(self.phv, s, ts);
        }
        if let Some(s) = i.pkt_length {
            set(self.phv, s, self.pkt.len() as u64 & mask(16));
        }
        self.exec(code.parser);
        let err = match self.phv[p.std.parser_error as usize & PHV_MASK] {
            ERR_PACKET_TOO_SHORT => PARSER_ERROR_PARTIAL_HDR,
            ERR_NO_MATCH => PARSER_ERROR_NO_MATCH,
            _ => 0,
        };
        set(self.phv, i.parser_err, err);
        self.exec(code.control);
        self.exec(code.deparser);
        self.finish_frame(self.extracted == self.emitted);
        let get = |s: Option<Slot>| s.map_or(0, |s| self.phv[s as usize & PHV_MASK]);
        Some(PassOut {
            drop: get(Some(i.drop_ctl)) & 1 != 0,
            egress_port: (get(i.ucast_egress_port) & mask(9)) as u32,
            bypass: get(i.bypass_egress) & 1 != 0,
        })
    }
}

/// The traffic manager after an ingress pass (`out`), then (`egress`) the egress pass's
/// verdict: drop, leave, or loop back. `ingress_passes` counts the ingress passes so far.
pub(crate) fn after_egress(
    out: PassOut,
    egress: Option<PassOut>,
    loopback: &PortSet,
    ingress_passes: u32,
) -> Next {
    if out.drop || egress.is_some_and(|e| e.drop) {
        return Next::Drop;
    }
    let port = out.egress_port;
    if loopback.contains(port) {
        if ingress_passes >= MAX_INGRESS_PASSES {
            return Next::Looped;
        }
        return Next::Loop(port);
    }
    Next::Out(port)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn port_sets() {
        let s = PortSet::of(&[0, 64, 128, 511, 600]);
        assert!(s.contains(0) && s.contains(64) && s.contains(128) && s.contains(511));
        assert!(!s.contains(1) && !s.contains(600) && !s.contains(127));
        assert!(PortSet::default().is_empty() && !s.is_empty());
    }

    #[test]
    fn traffic_manager() {
        let out = |drop, port| PassOut {
            drop,
            egress_port: port,
            bypass: false,
        };
        let lb = PortSet::of(&[128]);
        assert_eq!(after_egress(out(false, 3), None, &lb, 1), Next::Out(3));
        assert_eq!(after_egress(out(true, 3), None, &lb, 1), Next::Drop);
        assert_eq!(
            after_egress(out(false, 3), Some(out(true, 0)), &lb, 1),
            Next::Drop
        );
        assert_eq!(after_egress(out(false, 128), None, &lb, 1), Next::Loop(128));
        assert_eq!(
            after_egress(out(false, 128), None, &lb, MAX_INGRESS_PASSES),
            Next::Looped
        );
        assert_eq!(
            after_egress(out(false, 128), None, &PortSet::default(), 1),
            Next::Out(128)
        );
    }
}
