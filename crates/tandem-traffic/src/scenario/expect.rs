//! Expectations: what a step expects the NF to do with its packet (drop, or send on a port
//! with listed field values), resolved from the file, and the check of an actual outcome —
//! only listed fields are compared, and every sent IPv4 packet must carry valid checksums.

use super::frame::{extract, summarize, validate_checksums};
use super::packet::{ferr, FieldError};
use super::parse::{flags_text, hex, parse_flags, parse_ip, parse_mac, unhex};
use super::spec::ExpectSpec;

/// The expected reaction to a packet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    Drop,
    Send {
        port: u32,
        /// Header fields to compare, as (field name, expected value).
        fields: Vec<(String, FieldValue)>,
        unchanged: bool,
    },
}

/// A comparable field value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldValue {
    Int(u64),
    Bytes(Vec<u8>),
}

impl FieldValue {
    pub(super) fn show(&self, field: &str) -> String {
        match self {
            FieldValue::Int(v) if field == "tcp.flags" => format!("\"{}\"", flags_text(*v as u8)),
            FieldValue::Int(v) if field == "eth.type" => format!("0x{v:04x}"),
            FieldValue::Int(v) => v.to_string(),
            FieldValue::Bytes(b) if field.starts_with("ipv4.") && b.len() == 4 => {
                format!("{}.{}.{}.{}", b[0], b[1], b[2], b[3])
            }
            FieldValue::Bytes(b) if field.starts_with("eth.") && b.len() == 6 => b
                .iter()
                .map(|x| format!("{x:02x}"))
                .collect::<Vec<_>>()
                .join(":"),
            FieldValue::Bytes(b) => match std::str::from_utf8(b) {
                Ok(s) if s.chars().all(|c| !c.is_control() || c == '\n' || c == '\r') => {
                    format!("{s:?}")
                }
                _ => format!("hex {}", hex(b)),
            },
        }
    }
}

impl Expect {
    /// Checks what the NF did with `input`: `None` (dropped) or `Some((port, frame))` (sent).
    /// The error describes every difference, with both frames summarised.
    pub fn check(&self, input: &[u8], output: Option<(u32, &[u8])>) -> Result<(), String> {
        match (self, output) {
            (Expect::Drop, None) => Ok(()),
            (Expect::Drop, Some((port, frame))) => Err(format!(
                "expected: drop\n  actual: sent on port {port}: {}",
                summarize(frame)
            )),
            (Expect::Send { port, .. }, None) => Err(format!(
                "expected: send on port {port}\n  actual: dropped\n  input: {}",
                summarize(input)
            )),
            (
                Expect::Send {
                    port,
                    fields,
                    unchanged,
                },
                Some((got, frame)),
            ) => {
                let mut errors = Vec::new();
                if *port != got {
                    errors.push(format!("port: expected {port}, actual {got}"));
                }
                if *unchanged && frame != input {
                    errors.push(format!(
                        "frame: expected unchanged\n    input:  {}\n    output: {}",
                        summarize(input),
                        summarize(frame)
                    ));
                }
                let mut actual = extract(frame);
                actual.insert("frame", FieldValue::Bytes(frame.to_vec()));
                for (name, want) in fields {
                    match actual.get(name.as_str()) {
                        Some(v) if v == want => {}
                        Some(v) => errors.push(format!(
                            "{name}: expected {}, actual {}",
                            want.show(name),
                            v.show(name)
                        )),
                        None => errors.push(format!(
                            "{name}: expected {}, actual: the frame has no such field",
                            want.show(name)
                        )),
                    }
                }
                if let Err(e) = validate_checksums(frame) {
                    errors.push(e);
                }
                if errors.is_empty() {
                    Ok(())
                } else {
                    Err(format!(
                        "sent packet differs from the expectation:\n  {}\n  output: {}",
                        errors.join("\n  "),
                        summarize(frame)
                    ))
                }
            }
        }
    }
}

impl ExpectSpec {
    /// The expectation the file describes, fields parsed.
    pub(super) fn resolve(&self) -> Result<Expect, FieldError> {
        let has_fields = self.unchanged.is_some()
            || self.len.is_some()
            || self.eth.is_some()
            || self.ipv4.is_some()
            || self.tcp.is_some()
            || self.udp.is_some()
            || self.payload.is_some()
            || self.payload_hex.is_some()
            || self.frame_hex.is_some();
        match (self.drop, self.send) {
            (Some(true), None) => {
                if has_fields {
                    return ferr("expect", "a dropped packet has no fields to compare");
                }
                Ok(Expect::Drop)
            }
            (Some(false), _) | (None, None) => {
                ferr("expect", "needs `drop = true` or `send = PORT`")
            }
            (Some(true), Some(_)) => ferr("expect", "`drop` and `send` exclude each other"),
            (None, Some(port)) => {
                let mut f: Vec<(String, FieldValue)> = Vec::new();
                let mut int = |name: &str, v: Option<u64>| {
                    if let Some(v) = v {
                        f.push((name.to_owned(), FieldValue::Int(v)));
                    }
                };
                if let Some(e) = &self.eth {
                    int("eth.type", e.ethertype.map(u64::from));
                }
                if let Some(ip) = &self.ipv4 {
                    int("ipv4.ttl", ip.ttl.map(u64::from));
                    int("ipv4.tos", ip.tos.map(u64::from));
                    int("ipv4.proto", ip.proto.map(u64::from));
                    int("ipv4.id", ip.id.map(u64::from));
                }
                if let Some(t) = &self.tcp {
                    int("tcp.sport", t.sport.map(u64::from));
                    int("tcp.dport", t.dport.map(u64::from));
                    int("tcp.seq", t.seq.map(u64::from));
                    int("tcp.ack", t.ack.map(u64::from));
                    int("tcp.window", t.window.map(u64::from));
                    if let Some(fl) = &t.flags {
                        int(
                            "tcp.flags",
                            Some(u64::from(parse_flags(fl, "expect.tcp.flags")?)),
                        );
                    }
                }
                if let Some(u) = &self.udp {
                    int("udp.sport", u.sport.map(u64::from));
                    int("udp.dport", u.dport.map(u64::from));
                }
                int("len", self.len.map(|l| l as u64));
                if let Some(e) = &self.eth {
                    if let Some(s) = &e.src {
                        f.push((
                            "eth.src".into(),
                            FieldValue::Bytes(parse_mac(s, "expect.eth.src")?.to_vec()),
                        ));
                    }
                    if let Some(s) = &e.dst {
                        f.push((
                            "eth.dst".into(),
                            FieldValue::Bytes(parse_mac(s, "expect.eth.dst")?.to_vec()),
                        ));
                    }
                }
                if let Some(ip) = &self.ipv4 {
                    if let Some(s) = &ip.src {
                        f.push((
                            "ipv4.src".into(),
                            FieldValue::Bytes(parse_ip(s, "expect.ipv4.src")?.to_vec()),
                        ));
                    }
                    if let Some(s) = &ip.dst {
                        f.push((
                            "ipv4.dst".into(),
                            FieldValue::Bytes(parse_ip(s, "expect.ipv4.dst")?.to_vec()),
                        ));
                    }
                }
                match (&self.payload, &self.payload_hex) {
                    (Some(_), Some(_)) => {
                        return ferr("expect.payload_hex", "give payload or payload_hex")
                    }
                    (Some(t), None) => {
                        f.push(("payload".into(), FieldValue::Bytes(t.as_bytes().to_vec())))
                    }
                    (None, Some(h)) => f.push((
                        "payload".into(),
                        FieldValue::Bytes(unhex(h).or_else(|m| ferr("expect.payload_hex", m))?),
                    )),
                    (None, None) => {}
                }
                if let Some(h) = &self.frame_hex {
                    f.push((
                        "frame".into(),
                        FieldValue::Bytes(unhex(h).or_else(|m| ferr("expect.frame_hex", m))?),
                    ));
                }
                Ok(Expect::Send {
                    port,
                    fields: f,
                    unchanged: self.unchanged == Some(true),
                })
            }
        }
    }
}
