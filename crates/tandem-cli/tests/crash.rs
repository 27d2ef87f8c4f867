//! Crash recovery of the two-process deployment (docs/runtime.md "Crash recovery"): MazuNAT
//! served by `tandem switch serve` and `tandem server serve`, fed by `tandem switch feed
//! --pause-at`, and mid-trace one process is killed with SIGKILL (`kill -9`) and started
//! again before the rest of the trace:
//!
//! - the server: the new one replays its journal over configure() and reads the port counter
//!   back from the running switch;
//! - the switch: the running server sees the new switch, re-installs its primary copy on it
//!   and attaches again.
//!
//! Every NAT mapping made before the crash must survive — the port pcaps of the whole run
//! (return traffic of connections opened before the kill included) equal the reference
//! host's byte for byte. The negative control restarts the server without its journal
//! (`--no-journal`): the mappings are gone and the pcaps differ.

mod common;

use common::*;

use std::path::Path;
use std::time::{Duration, Instant};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Crash {
    Server,
    /// The server, restarted without its journal (the negative control).
    ServerNoJournal,
    Switch,
}

/// The packet before which the feed pauses (of about 5,700: 200 flows).
const PAUSE_AT: &str = "3000";

const TRAFFIC: [&str; 8] = [
    "--workload",
    "enterprise",
    "-p",
    "nat",
    "-n",
    "200",
    "--seed",
    "5",
];

/// Runs the deployment over the trace with `crash` before packet `PAUSE_AT`; whether the port
/// pcaps equal the reference host's, and the logs of the restarted process and the server.
fn run(crash: Crash) -> (bool, String, String) {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let nf = repo_root().join("examples/nfs/mazunat/mazunat.cc");
    let (out, sock, feed, host) = (d.join("out"), d.join("s"), d.join("feed"), d.join("host"));
    let pause = d.join("pause");
    ok(&command(&["compile", &s(&nf), "-o", &s(&out)])
        .output()
        .unwrap());
    let server_args = ["server", "serve", &s(&out), "--sock", &s(&sock)];
    let switch_args = ["switch", "serve", &s(&out), "--sock", &s(&sock)];
    let mut server = Daemon::spawn(&server_args, d.join("server.log"));
    let mut switch = Daemon::spawn(&switch_args, d.join("switch.log"));
    let mut args = vec!["switch", "feed", "--sock"];
    let (sock_s, feed_s, pause_s) = (s(&sock), s(&feed), s(&pause));
    args.extend([sock_s.as_str(), "--out-dir", feed_s.as_str(), "--shutdown"]);
    args.extend(["--pause-at", PAUSE_AT, "--pause-file", pause_s.as_str()]);
    args.extend(TRAFFIC);
    let feeder = Daemon::spawn(&args, d.join("feed.log"));
    let patience = Duration::from_secs(120);
    let t0 = Instant::now();
    while !pause.exists() {
        assert!(
            t0.elapsed() < patience,
            "feed never paused:\n{}",
            feeder.log()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let restarted = match crash {
        Crash::Server | Crash::ServerNoJournal => {
            server.kill9();
            assert!(
                sock.join("server0.journal").is_file(),
                "a killed server leaves its journal"
            );
            let mut a = server_args.to_vec();
            if crash == Crash::ServerNoJournal {
                a.push("--no-journal");
            }
            server = Daemon::spawn(&a, d.join("server2.log"));
            server.wait_for_log("attached to the switch", patience);
            "server2.log"
        }
        Crash::Switch => {
            switch.kill9();
            switch = Daemon::spawn(&switch_args, d.join("switch2.log"));
            switch.wait_for_log("serving", patience);
            "switch2.log"
        }
    };
    std::fs::remove_file(&pause).unwrap();
    let fed = feeder.wait(patience);
    assert!(
        fed.contains(&format!("resumed at packet {PAUSE_AT}")),
        "{fed}"
    );
    switch.wait(Duration::from_secs(30));
    let server_log = server.wait(Duration::from_secs(30));
    let restarted_log = std::fs::read_to_string(d.join(restarted)).unwrap_or_default();
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(feed.join("summary.json")).unwrap()).unwrap();
    assert!(summary["packets"].as_u64().unwrap() > 5000, "{summary}");
    assert_eq!(summary["timeouts"], 0, "{summary}");
    assert_eq!(summary["errors"], 0, "{summary}");

    let mut args = vec!["host", nf.to_str().unwrap(), "--out-dir"];
    let host_s = s(&host);
    args.push(&host_s);
    args.extend(TRAFFIC);
    ok(&command(&args).output().unwrap());
    let mut same = true;
    let mut compared = 0;
    for e in std::fs::read_dir(&host).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        if !name.ends_with(".pcap") {
            continue;
        }
        let want = std::fs::read(host.join(&name)).unwrap();
        let got = std::fs::read(feed.join(&name)).unwrap_or_default();
        same &= want == got;
        compared += 1;
    }
    assert_eq!(compared, 2, "MazuNAT sends on ports 0 and 1");
    (same, restarted_log, server_log)
}

#[test]
fn a_killed_server_restarts_from_its_journal_and_no_mapping_is_lost() {
    let (same, log, _) = run(Crash::Server);
    assert!(log.contains("recovered from"), "{log}");
    let replayed: u64 = log
        .split("recovered from")
        .nth(1)
        .and_then(|t| t.split(": ").nth(1))
        .and_then(|t| t.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(replayed > 0, "no journal records replayed:\n{log}");
    eprintln!("server killed before packet {PAUSE_AT}: {replayed} journal records replayed, pcaps equal the reference: {same}");
    assert!(
        same,
        "the port pcaps differ from the reference host's:\n{log}"
    );
    // The negative control: without the journal the restarted server starts from
    // configure() (and resets the switch): the mappings are lost and the outputs differ.
    let (same, log, _) = run(Crash::ServerNoJournal);
    assert!(!log.contains("recovered from"), "{log}");
    assert!(
        !same,
        "a server restarted without its journal matched the reference"
    );
    eprintln!("server restarted without its journal: pcaps equal the reference: {same}");
}

#[test]
fn a_killed_switch_is_reinstalled_by_the_running_server() {
    let (same, _, server_log) = run(Crash::Switch);
    assert!(server_log.contains("switch restarts"), "{server_log}");
    assert!(
        same,
        "the port pcaps differ from the reference host's:\n{server_log}"
    );
    eprintln!(
        "switch killed before packet {PAUSE_AT}: re-installed, pcaps equal the reference: {same}"
    );
}
