//! Packet traces on disk: reading pcap/pcapng, writing pcapng traces with ports and
//! per-port classic pcap files.
//!
//! A *trace* is a time-ordered sequence of [`TracePacket`]s, each with the switch port it
//! arrives on. On disk:
//! - **pcapng** (what `tandem traffic gen` writes): one Interface Description Block per port,
//!   named `port<N>`, nanosecond timestamps (`if_tsresol = 9`); a packet's interface id is its
//!   port.
//! - **classic pcap** (what BMv2 and the reference host write per egress port): every packet
//!   gets the port the caller supplies (`TraceReader::with_default_port`). Both microsecond
//!   and nanosecond pcap files are read; nanosecond files are written.
//!
//! Both formats open with `tcpdump -r` and Wireshark.

use std::borrow::Cow;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use pcap_file::pcap::{PcapHeader, PcapPacket, PcapReader, PcapWriter};
use pcap_file::pcapng::blocks::enhanced_packet::EnhancedPacketBlock;
use pcap_file::pcapng::blocks::interface_description::{
    InterfaceDescriptionBlock, InterfaceDescriptionOption,
};
use pcap_file::pcapng::{Block, PcapNgReader, PcapNgWriter};
use pcap_file::{DataLink, TsResolution};

/// One packet of a trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TracePacket {
    /// Arrival time in nanoseconds since the trace's epoch.
    pub ts_ns: u64,
    /// Ingress port.
    pub port: u32,
    /// The frame, starting with the Ethernet header.
    pub data: Vec<u8>,
}

/// Errors reading or writing trace files. Each names the file.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: not a pcap or pcapng file (first bytes {magic})")]
    NotPcap { path: PathBuf, magic: String },
    #[error("{path}: packet {index}: {reason}")]
    Malformed {
        path: PathBuf,
        index: usize,
        reason: String,
    },
    #[error("{path}: link type {linktype} is not Ethernet")]
    LinkType { path: PathBuf, linktype: String },
}

impl TraceError {
    fn io(path: &Path, source: std::io::Error) -> Self {
        TraceError::Io {
            path: path.to_owned(),
            source,
        }
    }
}

enum Inner {
    Pcap(PcapReader<BufReader<File>>),
    PcapNg(PcapNgReader<BufReader<File>>),
}

/// Streaming reader for pcap and pcapng files (format detected from the magic number).
pub struct TraceReader {
    path: PathBuf,
    inner: Inner,
    default_port: u32,
    index: usize,
    done: bool,
}

const PCAP_MAGICS: [[u8; 4]; 4] = [
    [0xd4, 0xc3, 0xb2, 0xa1],
    [0xa1, 0xb2, 0xc3, 0xd4],
    [0x4d, 0x3c, 0xb2, 0xa1],
    [0xa1, 0xb2, 0x3c, 0x4d],
];
const PCAPNG_MAGIC: [u8; 4] = [0x0a, 0x0d, 0x0d, 0x0a];

impl TraceReader {
    /// Opens `path`, detecting pcap or pcapng.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, TraceError> {
        let path = path.as_ref();
        let mut file = File::open(path).map_err(|e| TraceError::io(path, e))?;
        let mut magic = [0u8; 4];
        let n = read_up_to(&mut file, &mut magic).map_err(|e| TraceError::io(path, e))?;
        let file = File::open(path).map_err(|e| TraceError::io(path, e))?;
        let reader = BufReader::with_capacity(1 << 16, file);
        let malformed = |reason: String| TraceError::Malformed {
            path: path.to_owned(),
            index: 0,
            reason,
        };
        let inner = if n == 4 && PCAP_MAGICS.contains(&magic) {
            let r = PcapReader::new(reader).map_err(|e| malformed(e.to_string()))?;
            if r.header().datalink != DataLink::ETHERNET {
                return Err(TraceError::LinkType {
                    path: path.to_owned(),
                    linktype: format!("{:?}", r.header().datalink),
                });
            }
            Inner::Pcap(r)
        } else if n == 4 && magic == PCAPNG_MAGIC {
            Inner::PcapNg(PcapNgReader::new(reader).map_err(|e| malformed(e.to_string()))?)
        } else {
            return Err(TraceError::NotPcap {
                path: path.to_owned(),
                magic: magic[..n].iter().map(|b| format!("{b:02x}")).collect(),
            });
        };
        Ok(TraceReader {
            path: path.to_owned(),
            inner,
            default_port: 0,
            index: 0,
            done: false,
        })
    }

    /// The port given to packets of classic pcap files (which carry no port).
    pub fn with_default_port(mut self, port: u32) -> Self {
        self.default_port = port;
        self
    }

    /// Reads the whole trace into memory.
    pub fn read_all(path: impl AsRef<Path>) -> Result<Vec<TracePacket>, TraceError> {
        TraceReader::open(path)?.collect()
    }

    fn malformed(&self, reason: impl ToString) -> TraceError {
        TraceError::Malformed {
            path: self.path.clone(),
            index: self.index,
            reason: reason.to_string(),
        }
    }

    fn next_packet(&mut self) -> Option<Result<TracePacket, TraceError>> {
        match &mut self.inner {
            Inner::Pcap(r) => {
                let res = r.next_packet()?;
                Some(match res {
                    Ok(p) => Ok(TracePacket {
                        ts_ns: duration_ns(p.timestamp),
                        port: self.default_port,
                        data: p.data.into_owned(),
                    }),
                    Err(e) => Err(self.malformed(describe(&e))),
                })
            }
            Inner::PcapNg(r) => loop {
                let block = match r.next_block()? {
                    Ok(b) => b,
                    Err(e) => {
                        let reason = describe(&e);
                        return Some(Err(self.malformed(reason)));
                    }
                };
                let (iface, ts_raw, data) = match block {
                    Block::EnhancedPacket(p) => (p.interface_id, p.timestamp, p.data.into_owned()),
                    Block::SimplePacket(p) => (0, Duration::ZERO, p.data.into_owned()),
                    _ => continue,
                };
                let Some(desc) = r.interfaces().get(iface as usize) else {
                    return Some(Err(
                        self.malformed(format!("interface {iface} was never described"))
                    ));
                };
                if desc.linktype != DataLink::ETHERNET {
                    return Some(Err(TraceError::LinkType {
                        path: self.path.clone(),
                        linktype: format!("{:?}", desc.linktype),
                    }));
                }
                // pcap-file hands back raw timestamp units as nanoseconds; scale by if_tsresol.
                let resol = desc
                    .options
                    .iter()
                    .find_map(|o| match o {
                        InterfaceDescriptionOption::IfTsResol(r) => Some(*r),
                        _ => None,
                    })
                    .unwrap_or(6);
                let raw = ts_raw.as_nanos() as u64;
                let ts_ns = scale_to_ns(raw, resol);
                return Some(Ok(TracePacket {
                    ts_ns,
                    port: iface,
                    data,
                }));
            },
        }
    }
}

fn describe(e: &pcap_file::PcapError) -> String {
    match e {
        // A block (or record) longer than what is left: the file was cut short, or a length
        // field is corrupt; the reader cannot tell which.
        pcap_file::PcapError::IncompleteBuffer => {
            "file is truncated, or a block length in it is corrupt (it ends inside a block)"
                .to_string()
        }
        pcap_file::PcapError::IoError(io) if io.kind() == std::io::ErrorKind::UnexpectedEof => {
            "file is truncated, or a block length in it is corrupt (it ends inside a block)"
                .to_string()
        }
        pcap_file::PcapError::InvalidField(what) if what.contains("initial_length") => {
            format!("the file is damaged: a block's two length fields disagree ({what})")
        }
        pcap_file::PcapError::InvalidField(what) => {
            format!("the file is damaged or not a capture: {what}")
        }
        other => other.to_string(),
    }
}

fn scale_to_ns(raw: u64, resol: u8) -> u64 {
    if resol & 0x80 != 0 {
        // Power-of-two resolution: raw units of 2^-n seconds.
        let n = u32::from(resol & 0x7f).min(63);
        ((u128::from(raw) * 1_000_000_000u128) >> n) as u64
    } else if resol <= 9 {
        raw.saturating_mul(10u64.pow(9 - u32::from(resol)))
    } else {
        raw / 10u64.pow(u32::from(resol).min(19) - 9)
    }
}

fn duration_ns(d: Duration) -> u64 {
    d.as_nanos().min(u128::from(u64::MAX)) as u64
}

fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
}

impl Iterator for TraceReader {
    type Item = Result<TracePacket, TraceError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let item = self.next_packet();
        match &item {
            Some(Ok(_)) => self.index += 1,
            _ => self.done = true,
        }
        item
    }
}

/// Writes a classic nanosecond pcap file (Ethernet), as used for per-port outputs.
pub struct PcapFileWriter {
    path: PathBuf,
    inner: PcapWriter<BufWriter<File>>,
}

impl PcapFileWriter {
    pub fn create(path: impl AsRef<Path>) -> Result<Self, TraceError> {
        let path = path.as_ref();
        let file = File::create(path).map_err(|e| TraceError::io(path, e))?;
        let header = PcapHeader {
            ts_resolution: TsResolution::NanoSecond,
            snaplen: 262_144,
            ..PcapHeader::default()
        };
        let inner = PcapWriter::with_header(BufWriter::new(file), header)
            .map_err(|e| TraceError::io(path, std::io::Error::other(e.to_string())))?;
        Ok(PcapFileWriter {
            path: path.to_owned(),
            inner,
        })
    }

    pub fn write(&mut self, ts_ns: u64, data: &[u8]) -> Result<(), TraceError> {
        let pkt = PcapPacket::new(Duration::from_nanos(ts_ns), data.len() as u32, data);
        self.inner
            .write_packet(&pkt)
            .map(|_| ())
            .map_err(|e| TraceError::io(&self.path, std::io::Error::other(e.to_string())))
    }

    /// Flushes the file.
    pub fn finish(self) -> Result<(), TraceError> {
        let path = self.path;
        let mut w = self.inner.into_writer();
        w.flush().map_err(|e| TraceError::io(&path, e))
    }
}

/// Writes a pcapng trace whose packets carry their ingress port as the interface id.
pub struct TraceWriter {
    path: PathBuf,
    inner: PcapNgWriter<BufWriter<File>>,
    ports: u32,
}

impl TraceWriter {
    /// Creates `path` with interfaces `port0 .. port{ports-1}`.
    pub fn create(path: impl AsRef<Path>, ports: u32) -> Result<Self, TraceError> {
        let path = path.as_ref();
        let file = File::create(path).map_err(|e| TraceError::io(path, e))?;
        let err =
            |e: pcap_file::PcapError| TraceError::io(path, std::io::Error::other(e.to_string()));
        let mut inner = PcapNgWriter::new(BufWriter::new(file)).map_err(err)?;
        for p in 0..ports {
            let idb = InterfaceDescriptionBlock {
                linktype: DataLink::ETHERNET,
                snaplen: 262_144,
                options: vec![
                    InterfaceDescriptionOption::IfName(Cow::Owned(format!("port{p}"))),
                    InterfaceDescriptionOption::IfTsResol(9),
                ],
            };
            inner.write_pcapng_block(idb).map_err(err)?;
        }
        Ok(TraceWriter {
            path: path.to_owned(),
            inner,
            ports,
        })
    }

    pub fn write(&mut self, pkt: &TracePacket) -> Result<(), TraceError> {
        if pkt.port >= self.ports {
            return Err(TraceError::Malformed {
                path: self.path.clone(),
                index: 0,
                reason: format!("port {} but the trace has {} ports", pkt.port, self.ports),
            });
        }
        let epb = EnhancedPacketBlock {
            interface_id: pkt.port,
            timestamp: Duration::from_nanos(pkt.ts_ns),
            original_len: pkt.data.len() as u32,
            data: Cow::Borrowed(&pkt.data),
            options: vec![],
        };
        self.inner
            .write_pcapng_block(epb)
            .map(|_| ())
            .map_err(|e| TraceError::io(&self.path, std::io::Error::other(e.to_string())))
    }

    pub fn finish(self) -> Result<(), TraceError> {
        let path = self.path;
        let mut w = self.inner.into_inner();
        w.flush().map_err(|e| TraceError::io(&path, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkt(ts_ns: u64, port: u32, len: usize) -> TracePacket {
        TracePacket {
            ts_ns,
            port,
            data: (0..len).map(|i| i as u8).collect(),
        }
    }

    #[test]
    fn pcapng_round_trip_keeps_ports_and_ns_timestamps() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.pcapng");
        let pkts = vec![
            pkt(1_000_000_123, 0, 60),
            pkt(1_000_000_999, 1, 1514),
            pkt(2, 2, 14),
        ];
        let mut w = TraceWriter::create(&path, 3).unwrap();
        for p in &pkts {
            w.write(p).unwrap();
        }
        w.finish().unwrap();
        assert_eq!(TraceReader::read_all(&path).unwrap(), pkts);
    }

    #[test]
    fn pcap_round_trip_uses_default_port() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.pcap");
        let mut w = PcapFileWriter::create(&path).unwrap();
        w.write(5, &[1, 2, 3]).unwrap();
        w.finish().unwrap();
        let got: Vec<_> = TraceReader::open(&path)
            .unwrap()
            .with_default_port(7)
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(
            got,
            vec![TracePacket {
                ts_ns: 5,
                port: 7,
                data: vec![1, 2, 3]
            }]
        );
    }

    #[test]
    fn non_pcap_and_truncated_files_are_clear_errors() {
        let dir = tempfile::tempdir().unwrap();
        let text = dir.path().join("notes.txt");
        std::fs::write(&text, b"hello world").unwrap();
        let err = TraceReader::open(&text).err().unwrap().to_string();
        assert!(err.contains("not a pcap or pcapng file"), "{err}");

        let path = dir.path().join("t.pcap");
        let mut w = PcapFileWriter::create(&path).unwrap();
        w.write(5, &[0u8; 100]).unwrap();
        w.write(6, &[0u8; 100]).unwrap();
        w.finish().unwrap();
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 30]).unwrap();
        let res: Result<Vec<_>, _> = TraceReader::open(&path).unwrap().collect();
        let err = res.unwrap_err().to_string();
        assert!(
            err.contains("packet 1") && err.contains("truncated"),
            "{err}"
        );
    }
}
