//! The scenario file as written: what `toml` deserialises, before anything is resolved.
//! Unknown keys are errors (`deny_unknown_fields`), so a typo never weakens a test.

use std::collections::BTreeMap;

use serde::Deserialize;

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct EthSpec {
    pub(super) src: Option<String>,
    pub(super) dst: Option<String>,
    #[serde(rename = "type")]
    pub(super) ethertype: Option<u16>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Ipv4Spec {
    pub(super) src: Option<String>,
    pub(super) dst: Option<String>,
    pub(super) ttl: Option<u8>,
    pub(super) tos: Option<u8>,
    pub(super) proto: Option<u8>,
    pub(super) id: Option<u16>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TcpSpec {
    pub(super) sport: Option<u16>,
    pub(super) dport: Option<u16>,
    pub(super) flags: Option<String>,
    pub(super) seq: Option<u32>,
    pub(super) ack: Option<u32>,
    pub(super) window: Option<u16>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct UdpSpec {
    pub(super) sport: Option<u16>,
    pub(super) dport: Option<u16>,
}

/// A packet description (a flow template, or the packet fields of a step).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PacketSpec {
    pub(super) eth: Option<EthSpec>,
    pub(super) ipv4: Option<Ipv4Spec>,
    pub(super) tcp: Option<TcpSpec>,
    pub(super) udp: Option<UdpSpec>,
    pub(super) payload: Option<String>,
    pub(super) payload_hex: Option<String>,
    pub(super) frame_hex: Option<String>,
    pub(super) truncate: Option<usize>,
}

/// `expect = {...}`: the packet fields (as in [`PacketSpec`]) plus the verdict. The field
/// lists repeat [`PacketSpec`]'s because serde's `flatten` does not support
/// `deny_unknown_fields`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ExpectSpec {
    pub(super) drop: Option<bool>,
    pub(super) send: Option<u32>,
    pub(super) unchanged: Option<bool>,
    pub(super) len: Option<usize>,
    pub(super) eth: Option<EthSpec>,
    pub(super) ipv4: Option<Ipv4Spec>,
    pub(super) tcp: Option<TcpSpec>,
    pub(super) udp: Option<UdpSpec>,
    pub(super) payload: Option<String>,
    pub(super) payload_hex: Option<String>,
    /// The whole frame that leaves, byte for byte (tags, tunnels, anything).
    pub(super) frame_hex: Option<String>,
}

/// `[[step]]`: timing, ingress port, template, the packet fields of [`PacketSpec`] (repeated:
/// see [`ExpectSpec`]), the expectation and state assertions.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct StepSpec {
    pub(super) name: Option<String>,
    pub(super) at: Option<toml::Value>,
    pub(super) port: Option<u32>,
    pub(super) flow: Option<String>,
    #[serde(default)]
    pub(super) reply: bool,
    pub(super) eth: Option<EthSpec>,
    pub(super) ipv4: Option<Ipv4Spec>,
    pub(super) tcp: Option<TcpSpec>,
    pub(super) udp: Option<UdpSpec>,
    pub(super) payload: Option<String>,
    pub(super) payload_hex: Option<String>,
    pub(super) frame_hex: Option<String>,
    pub(super) truncate: Option<usize>,
    pub(super) expect: Option<ExpectSpec>,
    #[serde(default)]
    pub(super) state: BTreeMap<String, i64>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct FileSpec {
    pub(super) description: Option<String>,
    pub(super) nf: Option<String>,
    pub(super) config: Option<toml::Table>,
    #[serde(default)]
    pub(super) flow: BTreeMap<String, PacketSpec>,
    #[serde(default)]
    pub(super) step: Vec<StepSpec>,
    #[serde(default)]
    pub(super) final_state: BTreeMap<String, i64>,
}
