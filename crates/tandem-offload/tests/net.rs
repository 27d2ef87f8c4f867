//! Switch and server as separate daemons over UNIX datagram sockets (in this process, on
//! threads): MazuNAT's outputs, packet by packet, against the native NF on the reference
//! host; and garbage on every socket does not stop them.
//!
//! Knob: `TANDEM_NET_PACKETS` (default 3000).

mod common;

use std::os::unix::net::UnixDatagram;
use std::path::Path;
use std::time::Duration;

use common::*;
use tandem_host::{Host, Verdict};
use tandem_offload::net::{
    control_socket, port_socket, server_socket, DataHeader, Kind, PortClient, RemoteControl,
    ServerConfig, ServerDaemon, SwitchConfig, SwitchDaemon,
};
use tandem_offload::ControlFailure;
use tandem_traffic::{ReplyRewriter, TracePacket};

const WAIT: Duration = Duration::from_secs(20);

struct Pair {
    switch: SwitchDaemon,
    server: ServerDaemon,
    host: Host,
}

fn start(dir: &Path) -> Pair {
    start_nf(dir, "mazunat", &[0, 1])
}

fn start_nf(dir: &Path, nf: &str, ports: &[u32]) -> Pair {
    let b = bundle(nf, "tofino1", &P4Options::default());
    let mut host = Host::new(native(nf));
    let initial = host.dump_state().unwrap();
    let switch = SwitchDaemon::start(
        &b,
        &SwitchConfig {
            dir: dir.to_path_buf(),
            ports: ports.to_vec(),
        },
    )
    .unwrap();
    let opts = RunOptions {
        cache_dir: cache(),
        ..RunOptions::default()
    };
    let server = ServerDaemon::start(&b, &initial, opts, &ServerConfig::new(dir)).unwrap();
    assert!(switch.info().server_attached);
    Pair {
        switch,
        server,
        host,
    }
}

fn client(dir: &Path) -> PortClient {
    client_on(dir, &[0, 1])
}

fn client_on(dir: &Path, ports: &[u32]) -> PortClient {
    let mut c = PortClient::connect(dir).unwrap();
    c.attach(ports, WAIT).unwrap();
    c
}

/// Feeds `packets` closed-loop through the reference and the daemons; returns the packets
/// that differed (index and both outcomes) and how many went through the server.
fn feed(
    pair: &mut Pair,
    c: &mut PortClient,
    replies: &mut ReplyRewriter,
    packets: impl Iterator<Item = TracePacket>,
) -> (u64, u64, Vec<String>) {
    let mut diffs = Vec::new();
    let (mut n, mut via_server) = (0u64, 0u64);
    for mut pkt in packets {
        replies.rewrite(&mut pkt);
        let want = pair.host.process(&pkt).unwrap();
        let got = c
            .process(pkt.port, &pkt.data, pkt.ts_ns, WAIT)
            .unwrap()
            .unwrap_or_else(|| panic!("packet {n}: no answer from the switch"));
        via_server += u64::from(got.via_server);
        let same = match &want {
            Verdict::Send { port, frame } => {
                got.egress == Some(*port) && got.outputs == vec![(*port, frame.clone())]
            }
            Verdict::Drop => got.egress.is_none() && got.outputs.is_empty() && !got.error,
        };
        if !same && diffs.len() < 5 {
            let want = match &want {
                Verdict::Send { port, frame } => format!("port {port}, {} bytes", frame.len()),
                Verdict::Drop => "drop".into(),
            };
            diffs.push(format!(
                "packet {n} (in port {}): want {want}, got {got:?}",
                pkt.port
            ));
        }
        if let Verdict::Send { port, frame } = &want {
            replies.observe(&pkt.data, pkt.port, &[(*port, frame.as_slice())]);
        }
        n += 1;
    }
    (n, via_server, diffs)
}

#[test]
fn mazunat_over_sockets_matches_the_reference() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mut pair = start(dir);
    let mut c = client(dir);
    let packets = env_or("TANDEM_NET_PACKETS", 3000);
    let (n, via_server, diffs) = feed(
        &mut pair,
        &mut c,
        &mut ReplyRewriter::new(),
        trace(Addr::Nat, "enterprise", 200, 7).take(packets),
    );
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
    assert_eq!(n, packets as u64);
    let sw = pair.switch.stats();
    let srv = pair.server.stats();
    eprintln!("mazunat over sockets: {n} packets, {via_server} via the server; switch {sw:?}; server {srv:?}");
    assert!(via_server > 0, "no packet visited the server");
    assert_eq!(srv.frames, via_server);
    assert_eq!(srv.errors, 0);
    assert_eq!(sw.malformed + sw.control_malformed + sw.unattached, 0);
    assert!(sw.control_requests > 0);

    // `shutdown` stops the switch, and the switch's `bye` stops the server.
    let mut rc = RemoteControl::connect(dir, Duration::from_secs(5)).unwrap();
    rc.shutdown().unwrap();
    pair.switch.wait();
    pair.server.wait().unwrap();
    assert!(!control_socket(dir).exists(), "socket files are removed");
}

/// An NF with on_timer over sockets: the switch sees every packet first, so it asks the
/// server to run each tick (and waits for its `tick done`) before the packet that passed it;
/// the server runs on_timer and resets the switch's counters through the control plane.
#[test]
fn timer_ticks_over_sockets_match_the_reference() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mut pair = start_nf(dir, "hhdetect", &[0, 1, 2]);
    let mut c = client_on(dir, &[0, 1, 2]);
    let packets = env_or("TANDEM_NET_PACKETS", 3000) * 10;
    let (n, via_server, diffs) = feed(
        &mut pair,
        &mut c,
        &mut ReplyRewriter::new(),
        trace(Addr::Plain, "datamining", 1500, 7).take(packets),
    );
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
    assert_eq!((n, via_server), (packets as u64, 0));
    let ticks = pair.host.summary().timer_ticks;
    let (sw, srv) = (pair.switch.stats(), pair.server.stats());
    eprintln!("hhdetect over sockets: {n} packets, {ticks} ticks; switch {sw:?}; server {srv:?}");
    assert!(ticks >= 2, "{ticks} ticks");
    assert_eq!((sw.ticks, srv.ticks), (ticks, ticks));
    assert_eq!(sw.ticks_lost + sw.tick_timeouts + srv.errors, 0);
    assert!(*pair.host.summary().out_per_port.get(&2).unwrap_or(&0) > 0);
}

#[test]
fn garbage_on_every_socket_is_counted_and_dropped() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mut pair = start(dir);
    let mut c = client(dir);

    // A few packets first, so the switch has state.
    let mut pkts = trace(Addr::Nat, "enterprise", 50, 3);
    let mut replies = ReplyRewriter::new();
    let (_, _, diffs) = feed(&mut pair, &mut c, &mut replies, pkts.by_ref().take(200));
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));

    let named = UnixDatagram::bind(dir.join("garbage.sock")).unwrap();
    let unnamed = UnixDatagram::unbound().unwrap();
    let mut frame_hdr = DataHeader::new(Kind::Frame);
    frame_hdr.port = 0;
    let mut huge_port = frame_hdr;
    huge_port.port = 1 << 20;
    let mut ctl_bad_json = b"TC\x01\x00".to_vec();
    ctl_bad_json.extend_from_slice(&7u64.to_be_bytes());
    ctl_bad_json.extend_from_slice(&[0, 0, 0, 1]);
    ctl_bad_json.extend_from_slice(b"{not json");
    let mut ctl_bad_request = ctl_bad_json[..16].to_vec();
    ctl_bad_request.extend_from_slice(br#"{"request":"explode"}"#);
    let mut ctl_missing_parts = ctl_bad_json[..16].to_vec();
    ctl_missing_parts[14..16].copy_from_slice(&3u16.to_be_bytes());
    ctl_missing_parts.extend_from_slice(b"{");
    let garbage: Vec<Vec<u8>> = vec![
        vec![],
        vec![0xff; 3],
        vec![0; 24],
        b"TD\x01\x63xxxxxxxxxxxxxxxxxxxx".to_vec(),
        DataHeader::new(Kind::Done).datagram(&[]),
        DataHeader::new(Kind::Consumed).datagram(&[]),
        frame_hdr.datagram(&[]),
        frame_hdr.datagram(&[0xab; 9]),
        frame_hdr.datagram(&[0x55; 1500]),
        huge_port.datagram(&[0; 64]),
        vec![0x42; 70_000],
        ctl_bad_json,
        ctl_bad_request,
        ctl_missing_parts,
        b"TC\x01\x01zzzzzzzzzzzz".to_vec(),
    ];
    let targets = [
        control_socket(dir),
        port_socket(dir, 0),
        port_socket(dir, 1),
        server_socket(dir),
        pair.server.data_path().to_path_buf(),
    ];
    for t in &targets {
        for g in &garbage {
            named.send_to(g, t).unwrap();
            unnamed.send_to(g, t).unwrap();
        }
    }
    // The control plane still answers (after the garbage in its queue).
    let mut rc = RemoteControl::connect(dir, Duration::from_secs(5)).unwrap();
    let info = rc.wait_for_switch(WAIT).unwrap();
    assert!(info.server_attached);
    let sw = rc.switch_stats().unwrap();
    assert!(sw.malformed > 0, "{sw:?}");
    assert!(sw.control_malformed > 0, "{sw:?}");
    assert!(sw.foreign > 0, "{sw:?}");
    assert!(pair.switch.is_running() && pair.server.is_running());

    // Traffic still flows and still matches the reference (the well-formed garbage frames
    // entered port 0 or 1 like any packet; MazuNAT drops them without touching its state,
    // as the reference would).
    let mut c = client(dir);
    let (_, via, diffs) = feed(&mut pair, &mut c, &mut replies, pkts.by_ref().take(300));
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
    assert!(via > 0);
    let srv = pair.server.stats();
    assert!(srv.foreign > 0 || srv.malformed > 0, "{srv:?}");
    assert_eq!(srv.errors, 0, "{srv:?}");

    pair.switch.shutdown();
    pair.switch.wait();
    pair.server.wait().unwrap();
}

/// A request that timed out is retried with the same id; the late reply answers the retry,
/// and a reply to an older id is never taken for the next request's.
#[test]
fn retries_reuse_the_id_and_stale_replies_are_ignored() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().canonicalize().unwrap();
    let fake = UnixDatagram::bind(control_socket(&dir)).unwrap();
    let mut rc = RemoteControl::connect(&dir, Duration::from_secs(1)).unwrap();
    let fake_switch = std::thread::spawn(move || {
        let mut buf = vec![0u8; 65536];
        let mut ids = Vec::new();
        let reply = |id: u64, json: &str, to: &Path| {
            for d in tandem_offload::net::control_datagrams(1, id, json.as_bytes()) {
                fake.send_to(&d, to).unwrap();
            }
        };
        for i in 0..3 {
            let (n, from) = fake.recv_from(&mut buf).unwrap();
            assert!(n >= 16 && &buf[..2] == b"TC" && buf[3] == 0);
            let id = u64::from_be_bytes(buf[4..12].try_into().unwrap());
            ids.push(id);
            let from = from.as_pathname().unwrap().to_path_buf();
            match i {
                // the first attempt: answered too late (after the retry was sent)
                0 => {}
                // the retry: answer the first attempt late, then the retry itself
                1 => {
                    reply(id, r#"{"value":{"value":7}}"#, &from);
                    reply(id, r#"{"value":{"value":7}}"#, &from);
                }
                // the next request: an answer for the old id first, then its own
                _ => {
                    reply(ids[1], r#"{"value":{"value":7}}"#, &from);
                    reply(id, r#"{"value":{"value":8}}"#, &from);
                }
            }
        }
        ids
    });
    // attempt 1 times out: transient, so the sync's retry policy would retry
    let e = rc.register_read("r", 0).unwrap_err();
    assert!(matches!(e, ControlFailure::Transient(_)), "{e}");
    // the retry (identical request) gets the answer
    assert_eq!(rc.register_read("r", 0).unwrap(), 7);
    // a different request gets its own answer, not the duplicate for the retry
    assert_eq!(rc.register_read("r", 1).unwrap(), 8);
    let ids = fake_switch.join().unwrap();
    assert_eq!(ids[0], ids[1], "the retry reuses the id");
    assert_ne!(ids[1], ids[2], "a new request gets a new id");
    let st = rc.stats();
    assert_eq!(st.timeouts, 1);
    assert!(st.stale_replies >= 2, "{st:?}");
}

/// The switch answers a repeated request id from its reply cache: a retried insert whose
/// first attempt was applied is not applied (and refused as a duplicate) again.
#[test]
fn the_switch_applies_a_repeated_request_once() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().canonicalize().unwrap();
    let b = bundle("mazunat", "tofino1", &P4Options::default());
    let sw = SwitchDaemon::start(
        &b,
        &SwitchConfig {
            dir: dir.clone(),
            ports: vec![0, 1],
        },
    )
    .unwrap();
    let t = b
        .manifest
        .tables
        .iter()
        .find(|t| !t.keys.is_empty())
        .expect("a table with keys");
    let op = tandem_offload::net::WireOp::Insert {
        table: t.name.clone(),
        entry: tandem_offload::net::WireEntry {
            matches: t
                .keys
                .iter()
                .map(|_| tandem_offload::net::WireMatch::Exact(1))
                .collect(),
            action: t.hit_action.name.rsplit('.').next().unwrap().to_string(),
            args: vec![0; t.hit_action.params.len()],
            priority: None,
        },
    };
    let req = serde_json::to_vec(&tandem_offload::net::Envelope {
        token: tandem_offload::net::load_token(&dir).expect("the switch wrote its token"),
        request: tandem_offload::net::Request::Write { ops: vec![op] },
    })
    .unwrap();
    let me = UnixDatagram::bind(dir.join("me.sock")).unwrap();
    me.set_read_timeout(Some(WAIT)).unwrap();
    let ask = |id: u64| -> String {
        for d in tandem_offload::net::control_datagrams(0, id, &req) {
            me.send_to(&d, control_socket(&dir)).unwrap();
        }
        let mut buf = vec![0u8; 65536];
        let n = me.recv(&mut buf).unwrap();
        assert_eq!(u64::from_be_bytes(buf[4..12].try_into().unwrap()), id);
        String::from_utf8_lossy(&buf[16..n]).into_owned()
    };
    assert_eq!(ask(100), r#""ok""#);
    assert_eq!(ask(100), r#""ok""#, "the repeat is answered from the cache");
    let third = ask(101);
    assert!(third.contains("already exists"), "{third}");
    let st = sw.stats();
    assert_eq!(st.control_duplicates, 1);
    assert_eq!(st.control_requests, 2);
    assert_eq!(sw.switch().entries(&t.name).unwrap().len(), 1);
}

/// A control-plane outage while a packet visits the server: the packet is held (no answer),
/// fast-path packets keep flowing, and once the switch is reachable again the server
/// rebuilds its copies and releases the packet; everything matches the reference.
#[test]
fn an_outage_holds_the_packet_until_the_switch_is_back() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use tandem_offload::{FaultyControl, RetryPolicy};

    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let b = bundle("mazunat", "tofino1", &P4Options::default());
    let mut host = Host::new(native("mazunat"));
    let initial = host.dump_state().unwrap();
    let switch = SwitchDaemon::start(
        &b,
        &SwitchConfig {
            dir: dir.to_path_buf(),
            ports: vec![0, 1],
        },
    )
    .unwrap();
    let outage = Arc::new(AtomicBool::new(false));
    let flag = outage.clone();
    let mut config = ServerConfig::new(dir);
    config.wrap = Some(Arc::new(move |rc| {
        let mut f = FaultyControl::new(rc);
        f.outage = flag.clone();
        Box::new(f)
    }));
    let opts = RunOptions {
        cache_dir: cache(),
        retry: RetryPolicy {
            attempts: 3,
            backoff: Duration::from_millis(1),
            max_backoff: Duration::from_millis(2),
        },
        ..RunOptions::default()
    };
    let server = ServerDaemon::start(&b, &initial, opts, &config).unwrap();
    let mut pair = Pair {
        switch,
        server,
        host,
    };
    let mut c = client(dir);
    let mut pkts = trace(Addr::Nat, "enterprise", 60, 5);
    let mut replies = ReplyRewriter::new();
    let (_, _, diffs) = feed(&mut pair, &mut c, &mut replies, pkts.by_ref().take(100));
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));

    // The outage: fast-path packets finish; the first one for the server is held.
    outage.store(true, Ordering::SeqCst);
    let mut fast = 0;
    let (held_pkt, held_id) = loop {
        let mut pkt = pkts.next().expect("a packet for the server");
        replies.rewrite(&mut pkt);
        let id = c.send(pkt.port, &pkt.data, pkt.ts_ns, true).unwrap();
        // No answer and the server holds a packet: this one. (No answer yet but nothing
        // held: a slow machine; wait on.)
        let t0 = std::time::Instant::now();
        let outcome = loop {
            match c.wait_for(id, Duration::from_millis(200)).unwrap() {
                Some(o) => break Some(o),
                None if pair.server.stats().held > 0 => break None,
                None => assert!(t0.elapsed() < WAIT, "packet {id}: no answer"),
            }
        };
        match outcome {
            Some(o) => {
                assert!(!o.via_server && !o.error, "{o:?}");
                let want = pair.host.process(&pkt).unwrap();
                let Verdict::Send { port, frame } = &want else {
                    panic!("MazuNAT drops nothing here")
                };
                assert_eq!(o.outputs, vec![(*port, frame.clone())]);
                replies.observe(&pkt.data, pkt.port, &[(*port, frame.as_slice())]);
                fast += 1;
            }
            None => break (pkt, id),
        }
    };
    assert_eq!(pair.server.stats().held, 1, "{:?}", pair.server.stats());

    // The switch is back: the held packet comes out, as the reference sends it.
    outage.store(false, Ordering::SeqCst);
    let got = c
        .wait_for(held_id, WAIT)
        .unwrap()
        .expect("the held packet is released");
    let want = pair.host.process(&held_pkt).unwrap();
    let Verdict::Send { port, frame } = &want else {
        panic!("MazuNAT drops nothing here")
    };
    assert!(got.via_server && !got.error, "{got:?}");
    assert_eq!(got.outputs, vec![(*port, frame.clone())]);
    eprintln!("outage: {fast} fast-path packets during the outage, then the held one released");
    assert_eq!(pair.server.stats().released, 1);
    replies.observe(&held_pkt.data, held_pkt.port, &[(*port, frame.as_slice())]);

    // And traffic goes on matching the reference.
    let (_, via, diffs) = feed(&mut pair, &mut c, &mut replies, pkts.by_ref().take(300));
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
    assert!(via > 0);
    pair.switch.shutdown();
    pair.switch.wait();
    pair.server.wait().unwrap();
}

/// Meters over sockets: the server installs the configured meters through `RemoteControl`
/// (whole cells), the switch executes them, and the colours match the reference.
#[test]
fn ratelimit_over_sockets_matches_the_reference() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mut pair = start_nf(dir, "ratelimit", &[0, 1]);
    let mut c = client(dir);
    let (n, via_server, diffs) = feed(
        &mut pair,
        &mut c,
        &mut ReplyRewriter::new(),
        trace(Addr::Plain, "datamining", 100, 7).take(3000),
    );
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
    assert_eq!((n, via_server), (3000, 0));
    let mut rc = RemoteControl::connect(dir, Duration::from_secs(5)).unwrap();
    // Meter 1 is 192.168.0.1's (ratelimit.toml), never used by this traffic: as installed.
    let cell = rc.meter_read("TandemIngress.meters", 1).unwrap();
    assert_eq!(
        cell,
        tandem_switch::MeterCell::with_rates(10_000, 200, 20_000, 400)
    );
    assert!(rc.meter_read("TandemIngress.meters", 5000).is_err());
    rc.shutdown().unwrap();
    pair.switch.wait();
    pair.server.wait().unwrap();
}

/// Only the deployment's server and control clients drive the switch: a process without the
/// token in `DIR/token` that says `hello` on the server socket is refused (it used to detach the
/// running server), and its control requests — even `shutdown` — are refused; the attached
/// server keeps working and the outputs still match the reference.
#[test]
fn only_the_deployment_token_attaches_a_server_or_drives_the_control_plane() {
    use tandem_offload::net::{control_datagrams, flags, token_file, Envelope, Reply, Request};
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mut pair = start(dir);
    let mut c = client(dir);
    let mut pkts = trace(Addr::Nat, "enterprise", 50, 5);
    let mut replies = ReplyRewriter::new();
    let (_, _, diffs) = feed(&mut pair, &mut c, &mut replies, pkts.by_ref().take(150));
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
    let token = std::fs::read_to_string(token_file(dir)).unwrap();
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(token_file(dir))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o077, 0, "the token is readable by its owner only");

    let imp = UnixDatagram::bind(dir.join("impostor.sock")).unwrap();
    imp.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut buf = vec![0u8; 70_000];
    // A server hello with a wrong token, and one with none.
    for guess in [&b"0123456789abcdef0123456789abcdef"[..], &b""[..]] {
        imp.send_to(
            &DataHeader::new(Kind::Hello).datagram(guess),
            server_socket(dir),
        )
        .unwrap();
        let n = imp.recv(&mut buf).unwrap();
        let (h, _) = DataHeader::parse(&buf[..n]).unwrap();
        assert_eq!(h.kind, Kind::Bye);
        assert_ne!(h.flags & flags::ERROR, 0);
    }
    // A control request without the token: refused, even `shutdown`.
    for (id, t) in [(1u64, String::new()), (2, "f".repeat(token.len()))] {
        let env = Envelope {
            token: t,
            request: Request::Shutdown,
        };
        for d in control_datagrams(0, id, &serde_json::to_vec(&env).unwrap()) {
            imp.send_to(&d, control_socket(dir)).unwrap();
        }
        let n = imp.recv(&mut buf).unwrap();
        // A one-part reply: the 16-byte control header, then the JSON.
        let reply: Reply = serde_json::from_slice(&buf[16..n]).unwrap();
        let text = format!("{reply:?}");
        assert!(text.contains("refused") && text.contains("token"), "{text}");
    }
    assert!(pair.switch.is_running() && pair.server.is_running());
    let sw = pair.switch.stats();
    assert_eq!(sw.refused, 4, "{sw:?}");
    assert!(pair.switch.info().server_attached);
    // The attached server still serves, and outputs still match the reference.
    let (_, via, diffs) = feed(&mut pair, &mut c, &mut replies, pkts.by_ref().take(300));
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
    assert!(via > 0, "no packet went through the server");
    // The deployment's own control client (token read from DIR/token) still works.
    let mut rc = RemoteControl::connect(dir, Duration::from_secs(5)).unwrap();
    rc.shutdown().unwrap();
    pair.switch.wait();
    pair.server.wait().unwrap();
    assert!(!token_file(dir).exists(), "the token goes with the switch");
}
