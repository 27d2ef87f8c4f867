//! The multi-tenant VXLAN plan (`xgw`): a cloud region of tenants and VMs behind a Sailfish-
//! style gateway (examples/nfs/xgw), and the gateway's configuration for that region.
//!
//! # Region
//! Tenant `t` (`0..tenants`) has VNI `10000 + t`, the VPC `10.(t mod 256).0.0/16` and
//! `fd00:0:t::/48`, and is peered with tenant `t xor 1` (when that tenant exists). VM `j`
//! (`0..vms_per_tenant`) has `10.(t mod 256).(1 + j/250).(1 + j mod 250)` and
//! `fd00:0:t:1::(j+1)` and lives on NC (physical server) `n = 1 + hash(t, j) mod ncs`:
//! `192.168.(n/256).(n mod 256)` / `fc00::n`, reached on port `n mod 2`. The gateway is
//! 100.64.0.1 (`fd00:ffff::1`), the Internet gateway's VTEP 100.64.255.1 (`fd00:ffff::ff`) in
//! VNI 1, the SNAT address 100.65.0.1 with ports from 1024. [`region_config`] writes this as
//! the NF's TOML configuration: per tenant a Local route for each VPC block, a Peer route for
//! the peer's blocks, an Internet default route (IPv4 and IPv6), and every VM's mapping.
//!
//! # Traffic
//! The generator's `nat`-plan flows (sizes from the workload, applications, TCP/UDP
//! behaviour) get, per flow, a tenant and a VM by Zipf popularity (`zipf_s`; with the default
//! 1.2 and 64 x 64 VMs the busiest 5% of the VMs send about 76% of the packets, with 2.0
//! about 95%, Sailfish's figure — BENCHMARKS.md, xgw), an inner
//! family (IPv6 with probability `ipv6_share`) and a destination: the Internet (the flow's
//! own server address; IPv4 only, `internet_share`), a VM of the peered tenant
//! (`peer_share`), or another VM of the same tenant. Each frame's inner addresses become the
//! VMs' (an IPv6 flow's IPv4 header is replaced by an IPv6 one, TCP/UDP checksums
//! recomputed), then it is wrapped in outer Ethernet / IPv4 / UDP 4789 / VXLAN from the
//! sender's NC (or the Internet gateway) to the gateway. Internet replies are addressed to
//! the SNAT address and the public port the gateway gives the session: the plan allocates
//! ports as the NF does (in packet order, one per new (VNI, VM, port, protocol), from 1024),
//! so the traffic is closed-loop without a reply rewriter.

use std::collections::HashMap;
use std::fmt::Write as _;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Zipf};

use crate::gen::{GenError, NF_MAC_PORT0, NF_MAC_PORT1, VXLAN_PORT};

/// The gateway's underlay address.
pub const XGW_GATEWAY: [u8; 4] = [100, 64, 0, 1];
/// The Internet gateway's VTEP.
pub const XGW_IGW: [u8; 4] = [100, 64, 255, 1];
/// The SNAT address.
pub const XGW_PUBLIC_IP: [u8; 4] = [100, 65, 0, 1];
/// The VNI of traffic to and from the Internet gateway.
pub const XGW_INTERNET_VNI: u32 = 1;
/// The first SNAT port.
pub const XGW_FIRST_PORT: u16 = 1024;

/// Region and traffic-mix settings of plan `xgw`.
#[derive(Clone, Debug, PartialEq)]
pub struct XgwOptions {
    /// Tenants (VPCs), 1..=65535.
    pub tenants: u32,
    /// VMs per tenant, 1..=62500.
    pub vms_per_tenant: u32,
    /// Physical servers (NCs), 1..=65535.
    pub ncs: u32,
    /// Zipf exponent of tenant and VM popularity (> 0).
    pub zipf_s: f64,
    /// Share of flows with IPv6 inner addresses, 0..=1.
    pub ipv6_share: f64,
    /// Share of (IPv4) flows to the Internet through SNAT, 0..=1.
    pub internet_share: f64,
    /// Share of flows to a VM of the peered tenant, 0..=1.
    pub peer_share: f64,
}

impl Default for XgwOptions {
    fn default() -> Self {
        XgwOptions {
            tenants: 64,
            vms_per_tenant: 64,
            ncs: 256,
            zipf_s: 1.2,
            ipv6_share: 0.0,
            internet_share: 0.3,
            peer_share: 0.2,
        }
    }
}

impl XgwOptions {
    /// Checks the ranges documented on the fields.
    pub fn validate(&self) -> Result<(), GenError> {
        let bad =
            |name: &'static str, reason: String| Err(GenError::InvalidOption { name, reason });
        for (name, v) in [
            ("ipv6-share", self.ipv6_share),
            ("internet-share", self.internet_share),
            ("peer-share", self.peer_share),
        ] {
            if !(0.0..=1.0).contains(&v) {
                return bad(name, format!("{v} is outside 0..=1"));
            }
        }
        if self.internet_share + self.peer_share > 1.0 {
            return bad(
                "peer-share",
                "internet-share + peer-share is more than 1".into(),
            );
        }
        if !(1..=65535).contains(&self.tenants) {
            return bad("tenants", format!("{} is outside 1..=65535", self.tenants));
        }
        if !(1..=62500).contains(&self.vms_per_tenant) {
            return bad(
                "vms-per-tenant",
                format!("{} is outside 1..=62500", self.vms_per_tenant),
            );
        }
        if !(1..=65535).contains(&self.ncs) {
            return bad("ncs", format!("{} is outside 1..=65535", self.ncs));
        }
        if !(self.zipf_s.is_finite() && self.zipf_s > 0.0) {
            return bad(
                "zipf-s",
                format!("{} is not a positive number", self.zipf_s),
            );
        }
        Ok(())
    }

    /// Tenant `t`'s VNI.
    pub fn vni(&self, t: u32) -> u32 {
        10_000 + t
    }

    /// The tenant peered with `t`, if any.
    pub fn peer(&self, t: u32) -> Option<u32> {
        Some(t ^ 1).filter(|&p| p < self.tenants)
    }

    /// VM `j` of tenant `t`: IPv4 address.
    pub fn vm4(&self, t: u32, j: u32) -> [u8; 4] {
        [10, t as u8, 1 + (j / 250) as u8, 1 + (j % 250) as u8]
    }

    /// VM `j` of tenant `t`: IPv6 address.
    pub fn vm6(&self, t: u32, j: u32) -> [u8; 16] {
        let hi: u64 = 0xfd00_0000_0000_0001 | (u64::from(t) << 16);
        let lo = u64::from(j) + 1;
        v6(hi, lo)
    }

    /// The NC hosting VM `j` of tenant `t` (1..=ncs).
    pub fn nc(&self, t: u32, j: u32) -> u32 {
        1 + (mix((u64::from(t) << 32) | u64::from(j)) % u64::from(self.ncs)) as u32
    }
}

fn v6(hi: u64, lo: u64) -> [u8; 16] {
    let mut a = [0u8; 16];
    a[..8].copy_from_slice(&hi.to_be_bytes());
    a[8..].copy_from_slice(&lo.to_be_bytes());
    a
}

fn v6_text(a: [u8; 16]) -> String {
    std::net::Ipv6Addr::from(a).to_string()
}

fn v4_text(a: [u8; 4]) -> String {
    std::net::Ipv4Addr::from(a).to_string()
}

fn nc4(n: u32) -> [u8; 4] {
    [192, 168, (n >> 8) as u8, n as u8]
}

fn nc6(n: u32) -> [u8; 16] {
    v6(0xfc00_0000_0000_0000, u64::from(n))
}

fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The xgw NF's configuration (TOML) for the region of `o`.
pub fn region_config(o: &XgwOptions) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# xgw region: {} tenants x {} VMs on {} NCs (generated: tandem traffic xgw-config)",
        o.tenants, o.vms_per_tenant, o.ncs
    );
    let _ = writeln!(s, "gateway = \"{}\"", v4_text(XGW_GATEWAY));
    let _ = writeln!(s, "gateway6 = [\"fd00:ffff::1\"]");
    let _ = writeln!(s, "internet_vni = {XGW_INTERNET_VNI}");
    let _ = writeln!(s, "igw = \"{}\"", v4_text(XGW_IGW));
    let _ = writeln!(s, "igw6 = \"fd00:ffff::ff\"");
    let _ = writeln!(s, "igw_port = 1");
    let _ = writeln!(s, "public_ip = \"{}\"", v4_text(XGW_PUBLIC_IP));
    let _ = writeln!(s, "first_port = {XGW_FIRST_PORT}");
    let route = |s: &mut String, vni: u32, block: &str, len: u32, scope: &str| {
        let _ = writeln!(
            s,
            "[[routes]]\nvni = {vni}\n{block}\nlen = {len}\nscope = \"{scope}\""
        );
    };
    for t in 0..o.tenants {
        let vni = o.vni(t);
        let p4 = |t: u32| format!("prefix = \"10.{}.0.0\"", t as u8);
        let p6 = |t: u32| format!("prefix6 = \"fd00:0:{t:x}::\"");
        route(&mut s, vni, &p4(t), 16, "local");
        route(&mut s, vni, &p6(t), 48, "local");
        if let Some(p) = o.peer(t) {
            for (block, len) in [(p4(p), 16), (p6(p), 48)] {
                route(&mut s, vni, &block, len, "peer");
                let _ = writeln!(s, "peer_vni = {}", o.vni(p));
            }
        }
        route(&mut s, vni, "prefix = \"0.0.0.0\"", 0, "internet");
        route(&mut s, vni, "prefix6 = \"::\"", 0, "internet");
    }
    for t in 0..o.tenants {
        for j in 0..o.vms_per_tenant {
            let n = o.nc(t, j);
            for addr in [
                format!("addr = \"{}\"", v4_text(o.vm4(t, j))),
                format!("addr6 = \"{}\"", v6_text(o.vm6(t, j))),
            ] {
                let _ = writeln!(
                    s,
                    "[[vms]]\nvni = {}\n{addr}\nnc = \"{}\"\nnc6 = \"{}\"\nport = {}",
                    o.vni(t),
                    v4_text(nc4(n)),
                    v6_text(nc6(n)),
                    n % 2
                );
            }
        }
    }
    s
}

/// Where a flow goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dest {
    Local,
    Peer,
    Internet,
}

/// A flow's place in the region.
#[derive(Clone, Copy, Debug)]
struct FlowMap {
    tenant: u32,
    vm: u32,
    v6: bool,
    dest: Dest,
    /// The destination VM's tenant and index (Local, Peer).
    dst_tenant: u32,
    dst_vm: u32,
}

/// Turns the generator's inner frames into the region's VXLAN frames (in packet order, which
/// the SNAT port allocation follows).
pub(crate) struct XgwWrap {
    o: XgwOptions,
    seed: u64,
    tenant_zipf: Zipf<f64>,
    vm_zipf: Zipf<f64>,
    flows: HashMap<u64, FlowMap>,
    snat: HashMap<(u32, [u8; 4], u16, u8), u16>,
    next_port: u32,
}

impl XgwWrap {
    pub(crate) fn new(o: &XgwOptions, seed: u64) -> Result<XgwWrap, GenError> {
        o.validate()?;
        let zipf = |n: u32| {
            Zipf::new(u64::from(n), o.zipf_s).map_err(|e| GenError::InvalidOption {
                name: "zipf-s",
                reason: e.to_string(),
            })
        };
        Ok(XgwWrap {
            o: o.clone(),
            seed,
            tenant_zipf: zipf(o.tenants)?,
            vm_zipf: zipf(o.vms_per_tenant)?,
            flows: HashMap::new(),
            snat: HashMap::new(),
            next_port: u32::from(XGW_FIRST_PORT),
        })
    }

    fn flow(&mut self, id: u64) -> FlowMap {
        if let Some(f) = self.flows.get(&id) {
            return *f;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(mix(self.seed ^ 0x7867_7700));
        rng.set_stream(id + 1);
        let o = &self.o;
        // Zipf ranks are 1..=n; rank r is tenant/VM r-1 scrambled, so popularity does not
        // follow the numbering.
        let rank = |z: &Zipf<f64>, rng: &mut ChaCha8Rng, n: u32, salt: u64| {
            let r = (z.sample(rng) as u64).clamp(1, u64::from(n)) - 1;
            ((r + mix(salt) % u64::from(n)) % u64::from(n)) as u32
        };
        let tenant = rank(&self.tenant_zipf, &mut rng, o.tenants, 1);
        let vm = rank(
            &self.vm_zipf,
            &mut rng,
            o.vms_per_tenant,
            2 + u64::from(tenant),
        );
        let v6 = rng.gen_bool(o.ipv6_share);
        let x: f64 = rng.gen();
        let peer = o.peer(tenant);
        let dest = if !v6 && x < o.internet_share {
            Dest::Internet
        } else if peer.is_some() && x >= 1.0 - o.peer_share {
            Dest::Peer
        } else {
            Dest::Local
        };
        let dst_tenant = if dest == Dest::Peer {
            peer.unwrap_or(tenant)
        } else {
            tenant
        };
        let mut dst_vm = rank(
            &self.vm_zipf,
            &mut rng,
            o.vms_per_tenant,
            2 + u64::from(dst_tenant),
        );
        if dst_tenant == tenant && dst_vm == vm && o.vms_per_tenant > 1 {
            dst_vm = (vm + 1) % o.vms_per_tenant;
        }
        let f = FlowMap {
            tenant,
            vm,
            v6,
            dest,
            dst_tenant,
            dst_vm,
        };
        self.flows.insert(id, f);
        f
    }

    /// Forgets a finished flow.
    pub(crate) fn finish(&mut self, id: u64) {
        self.flows.remove(&id);
    }

    /// The VXLAN frame for the generator's (IPv4) `inner` frame of flow `id`.
    pub(crate) fn wrap(&mut self, id: u64, inner: &[u8], from_client: bool) -> Vec<u8> {
        let f = self.flow(id);
        let Some(l) = Inner::parse(inner) else {
            return inner.to_vec();
        };
        let o = self.o.clone();
        // Inner addresses and ports, and the sender's VTEP and VNI.
        let (client4, client6) = (o.vm4(f.tenant, f.vm), o.vm6(f.tenant, f.vm));
        let (server4, server6) = (o.vm4(f.dst_tenant, f.dst_vm), o.vm6(f.dst_tenant, f.dst_vm));
        let client_nc = o.nc(f.tenant, f.vm);
        let inner_frame = match (f.dest, from_client) {
            (Dest::Internet, true) => l.rebuild4(client4, l.dst4(inner), None, inner),
            (Dest::Internet, false) => {
                let key = (o.vni(f.tenant), client4, l.dport(inner), l.proto);
                let port = self.snat.get(&key).copied().unwrap_or(0);
                l.rebuild4(l.src4(inner), XGW_PUBLIC_IP, Some(port), inner)
            }
            (_, true) if f.v6 => l.rebuild6(client6, server6, inner),
            (_, false) if f.v6 => l.rebuild6(server6, client6, inner),
            (_, true) => l.rebuild4(client4, server4, None, inner),
            (_, false) => l.rebuild4(server4, client4, None, inner),
        };
        if f.dest == Dest::Internet && from_client {
            let key = (o.vni(f.tenant), client4, l.sport(inner), l.proto);
            if !self.snat.contains_key(&key) && self.next_port <= 65535 {
                self.snat.insert(key, self.next_port as u16);
                self.next_port += 1;
            }
        }
        let (vtep, vni) = match (f.dest, from_client) {
            (_, true) => (nc4(client_nc), o.vni(f.tenant)),
            (Dest::Internet, false) => (XGW_IGW, XGW_INTERNET_VNI),
            (_, false) => (nc4(o.nc(f.dst_tenant, f.dst_vm)), o.vni(f.dst_tenant)),
        };
        let dmac = if from_client {
            NF_MAC_PORT0
        } else {
            NF_MAC_PORT1
        };
        let smac = [0x02, 0x00, vtep[0], vtep[1], vtep[2], vtep[3]];
        vxlan4(&inner_frame, smac, dmac, vtep, vni, l.sport(inner))
    }
}

/// Outer Ethernet / IPv4 / UDP (checksum 0) / VXLAN around `inner`, to the gateway.
fn vxlan4(
    inner: &[u8],
    smac: [u8; 6],
    dmac: [u8; 6],
    vtep: [u8; 4],
    vni: u32,
    sport: u16,
) -> Vec<u8> {
    let udp_len = 16 + inner.len();
    let mut out = Vec::with_capacity(34 + udp_len);
    out.extend_from_slice(&dmac);
    out.extend_from_slice(&smac);
    out.extend_from_slice(&[0x08, 0x00]);
    let mut ip = [0u8; 20];
    ip[0] = 0x45;
    ip[2..4].copy_from_slice(&((20 + udp_len) as u16).to_be_bytes());
    ip[8] = 64;
    ip[9] = 17;
    ip[12..16].copy_from_slice(&vtep);
    ip[16..20].copy_from_slice(&XGW_GATEWAY);
    let c = !fold(sum(&ip, 0));
    ip[10..12].copy_from_slice(&c.to_be_bytes());
    out.extend_from_slice(&ip);
    out.extend_from_slice(&(49152 | (sport & 0x3fff)).to_be_bytes());
    out.extend_from_slice(&VXLAN_PORT.to_be_bytes());
    out.extend_from_slice(&(udp_len as u16).to_be_bytes());
    out.extend_from_slice(&[0, 0, 0x08, 0, 0, 0]);
    out.extend_from_slice(&(vni << 8).to_be_bytes());
    out.extend_from_slice(inner);
    out
}

fn sum(bytes: &[u8], mut acc: u64) -> u64 {
    let mut it = bytes.chunks_exact(2);
    for w in &mut it {
        acc += u64::from(u16::from_be_bytes([w[0], w[1]]));
    }
    if let [b] = it.remainder() {
        acc += u64::from(*b) << 8;
    }
    acc
}

fn fold(mut acc: u64) -> u16 {
    while acc >> 16 != 0 {
        acc = (acc & 0xffff) + (acc >> 16);
    }
    acc as u16
}

/// Where the generator's inner Ethernet / IPv4 / TCP-or-UDP frame has its parts.
struct Inner {
    ip: usize,
    l4: usize,
    proto: u8,
}

impl Inner {
    fn parse(f: &[u8]) -> Option<Inner> {
        if f.len() < 34 || f[12..14] != [0x08, 0x00] {
            return None;
        }
        let ihl = usize::from(f[14] & 0x0f) * 4;
        let proto = f[23];
        let need = if proto == 6 { 20 } else { 8 };
        if !(proto == 6 || proto == 17) || f.len() < 14 + ihl + need {
            return None;
        }
        Some(Inner {
            ip: 14,
            l4: 14 + ihl,
            proto,
        })
    }
    fn src4(&self, f: &[u8]) -> [u8; 4] {
        [
            f[self.ip + 12],
            f[self.ip + 13],
            f[self.ip + 14],
            f[self.ip + 15],
        ]
    }
    fn dst4(&self, f: &[u8]) -> [u8; 4] {
        [
            f[self.ip + 16],
            f[self.ip + 17],
            f[self.ip + 18],
            f[self.ip + 19],
        ]
    }
    fn sport(&self, f: &[u8]) -> u16 {
        u16::from_be_bytes([f[self.l4], f[self.l4 + 1]])
    }
    fn dport(&self, f: &[u8]) -> u16 {
        u16::from_be_bytes([f[self.l4 + 2], f[self.l4 + 3]])
    }
    fn check_at(&self) -> usize {
        self.l4 + if self.proto == 6 { 16 } else { 6 }
    }

    /// The frame with new IPv4 addresses (and destination port), checksums recomputed.
    fn rebuild4(&self, src: [u8; 4], dst: [u8; 4], dport: Option<u16>, f: &[u8]) -> Vec<u8> {
        let mut out = f.to_vec();
        out[self.ip + 12..self.ip + 16].copy_from_slice(&src);
        out[self.ip + 16..self.ip + 20].copy_from_slice(&dst);
        if let Some(p) = dport {
            out[self.l4 + 2..self.l4 + 4].copy_from_slice(&p.to_be_bytes());
        }
        out[self.ip + 10..self.ip + 12].fill(0);
        let c = !fold(sum(&out[self.ip..self.l4], 0));
        out[self.ip + 10..self.ip + 12].copy_from_slice(&c.to_be_bytes());
        let ck = self.check_at();
        let udp_none = self.proto == 17 && f[ck..ck + 2] == [0, 0];
        if !udp_none {
            out[ck..ck + 2].fill(0);
            let seg_len = (out.len() - self.l4) as u64;
            let mut acc = sum(&src, 0);
            acc = sum(&dst, acc) + u64::from(self.proto) + seg_len;
            let c = l4_check(self.proto, sum(&out[self.l4..], acc));
            out[ck..ck + 2].copy_from_slice(&c.to_be_bytes());
        }
        out
    }

    /// The frame with its IPv4 header replaced by an IPv6 one (traffic class and flow label
    /// 0, hop limit the TTL), TCP/UDP checksum recomputed.
    fn rebuild6(&self, src: [u8; 16], dst: [u8; 16], f: &[u8]) -> Vec<u8> {
        let seg = &f[self.l4..];
        let mut out = Vec::with_capacity(54 + seg.len());
        out.extend_from_slice(&f[..12]);
        out.extend_from_slice(&[0x86, 0xdd]);
        out.extend_from_slice(&[0x60, 0, 0, 0]);
        out.extend_from_slice(&(seg.len() as u16).to_be_bytes());
        out.push(self.proto);
        out.push(f[self.ip + 8]);
        out.extend_from_slice(&src);
        out.extend_from_slice(&dst);
        let l4 = out.len();
        out.extend_from_slice(seg);
        let ck = l4 + if self.proto == 6 { 16 } else { 6 };
        out[ck..ck + 2].fill(0);
        let mut acc = sum(&src, 0);
        acc = sum(&dst, acc) + u64::from(self.proto) + seg.len() as u64;
        let c = l4_check(self.proto, sum(&out[l4..], acc));
        out[ck..ck + 2].copy_from_slice(&c.to_be_bytes());
        out
    }
}

/// A computed TCP/UDP checksum (UDP sends a computed 0 as 0xffff).
fn l4_check(proto: u8, acc: u64) -> u16 {
    let c = !fold(acc);
    if proto == 17 && c == 0 {
        0xffff
    } else {
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_names_every_vm_and_route() {
        let o = XgwOptions {
            tenants: 3,
            vms_per_tenant: 2,
            ..XgwOptions::default()
        };
        let c = region_config(&o);
        assert_eq!(c.matches("[[vms]]").count(), 3 * 2 * 2);
        // Tenants 0 and 1 are peered (4 peer routes), tenant 2 is not.
        assert_eq!(c.matches("scope = \"peer\"").count(), 4);
        assert_eq!(c.matches("scope = \"local\"").count(), 6);
        assert!(c.contains("prefix6 = \"fd00:0:2::\""));
    }

    fn trace(ipv6_share: f64) -> Vec<crate::TracePacket> {
        let opts = crate::GenOptions {
            flows: 300,
            plan: crate::Plan::Xgw,
            xgw: XgwOptions {
                ipv6_share,
                ..XgwOptions::default()
            },
            ..crate::GenOptions::default()
        };
        let w = crate::Workload::builtin("enterprise").unwrap().unwrap();
        crate::generate(&w, &opts).unwrap()
    }

    #[test]
    fn frames_are_vxlan_to_the_gateway_with_the_asked_ipv6_share() {
        let pkts = trace(0.25);
        assert_eq!(pkts, trace(0.25), "deterministic");
        let (mut v6, mut replies_to_snat, mut vms) = (0usize, 0usize, HashMap::new());
        for p in &pkts {
            let d = &p.data;
            assert_eq!(&d[12..14], &[0x08, 0x00]);
            assert_eq!(&d[30..34], &XGW_GATEWAY, "outer destination");
            assert_eq!(u16::from_be_bytes([d[36], d[37]]), VXLAN_PORT);
            assert_eq!(d[42], 0x08, "VNI valid");
            let inner = &d[50..];
            match &inner[12..14] {
                [0x86, 0xdd] => v6 += 1,
                [0x08, 0x00] => {
                    if inner[30..34] == XGW_PUBLIC_IP {
                        replies_to_snat += 1;
                        let dport = u16::from_be_bytes([inner[36], inner[37]]);
                        assert!(dport >= XGW_FIRST_PORT, "a public port");
                    }
                    if p.port == 0 {
                        *vms.entry(inner[26..30].to_vec()).or_insert(0usize) += 1;
                    }
                }
                other => panic!("inner ethertype {other:?}"),
            }
        }
        let share = v6 as f64 / pkts.len() as f64;
        assert!((0.1..0.45).contains(&share), "IPv6 share {share}");
        assert!(
            replies_to_snat > 0,
            "Internet replies come back to the SNAT address"
        );
        assert_eq!(
            trace(0.0)
                .iter()
                .filter(|p| p.data[62..64] == [0x86, 0xdd])
                .count(),
            0
        );
        // Zipf: the busiest 5% of the sending VMs carry most of their packets.
        let mut counts: Vec<usize> = vms.values().copied().collect();
        counts.sort_unstable_by(|a, b| b.cmp(a));
        let top = counts.len().div_ceil(20);
        let busiest: usize = counts[..top].iter().sum();
        assert!(busiest * 3 > counts.iter().sum::<usize>(), "{counts:?}");
    }

    #[test]
    fn validate_rejects_bad_shares() {
        let o = XgwOptions {
            internet_share: 0.8,
            peer_share: 0.5,
            ..XgwOptions::default()
        };
        assert!(o.validate().is_err());
        let o = XgwOptions {
            ipv6_share: 1.5,
            ..XgwOptions::default()
        };
        assert!(o.validate().is_err());
    }
}
