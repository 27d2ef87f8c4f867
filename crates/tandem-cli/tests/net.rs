//! The compiled pair as two processes: `tandem switch serve` and `tandem server serve`
//! joined by UNIX datagram sockets, fed by `tandem switch feed`; its per-port pcaps must be
//! byte-identical to the reference host's (`tandem host`) on the same closed-loop traffic.

mod common;

use common::*;

use std::path::Path;
use std::time::{Duration, Instant};

#[test]
fn switch_and_server_processes_match_the_reference_host() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let nf = repo_root().join("examples/nfs/mazunat/mazunat.cc");
    let (out, sock, feed, host) = (d.join("out"), d.join("s"), d.join("feed"), d.join("host"));
    ok(&command(&["compile", &s(&nf), "-o", &s(&out)])
        .output()
        .unwrap());

    // The server may start first: it waits for the switch.
    let server = Daemon::spawn(
        &["server", "serve", &s(&out), "--sock", &s(&sock)],
        d.join("server.log"),
    );
    let switch = Daemon::spawn(
        &["switch", "serve", &s(&out), "--sock", &s(&sock)],
        d.join("switch.log"),
    );
    let traffic = [
        "--workload",
        "enterprise",
        "-p",
        "nat",
        "-n",
        "150",
        "--seed",
        "5",
    ];
    let mut args = vec!["switch", "feed", "--sock"];
    let sock_s = s(&sock);
    let feed_s = s(&feed);
    args.extend([sock_s.as_str(), "--out-dir", feed_s.as_str(), "--shutdown"]);
    args.extend(traffic);
    let fed = command(&args).output().unwrap();
    if !fed.status.success() {
        panic!(
            "feed failed:\n{}\n{}\nswitch:\n{}\nserver:\n{}",
            String::from_utf8_lossy(&fed.stdout),
            String::from_utf8_lossy(&fed.stderr),
            switch.log(),
            server.log()
        );
    }
    let fed = String::from_utf8_lossy(&fed.stdout).into_owned();
    assert!(fed.contains("stopped the switch"), "{fed}");

    // `--shutdown` stopped both processes.
    let switch_log = switch.wait(Duration::from_secs(30));
    let server_log = server.wait(Duration::from_secs(30));
    assert!(switch_log.contains("switch stopped"), "{switch_log}");
    assert!(server_log.contains("server stopped"), "{server_log}");
    assert!(
        std::fs::read_dir(&sock).unwrap().next().is_none(),
        "socket files are removed"
    );

    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(feed.join("summary.json")).unwrap()).unwrap();
    assert!(summary["via_server"].as_u64().unwrap() > 0, "{summary}");
    assert_eq!(summary["timeouts"], 0, "{summary}");
    assert_eq!(summary["errors"], 0, "{summary}");

    let mut args = vec!["host", nf.to_str().unwrap(), "--out-dir"];
    let host_s = s(&host);
    args.push(&host_s);
    args.extend(traffic);
    ok(&command(&args).output().unwrap());
    let mut compared = 0;
    for e in std::fs::read_dir(&host).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        if !name.ends_with(".pcap") {
            continue;
        }
        let want = std::fs::read(host.join(&name)).unwrap();
        let got = std::fs::read(feed.join(&name)).unwrap_or_default();
        assert!(want == got, "{name} differs from the reference host's");
        compared += 1;
    }
    assert_eq!(compared, 2, "MazuNAT sends on ports 0 and 1");
}

/// Waits until `daemon`'s log contains `text`.
fn wait_for_log(daemon: &Daemon, text: &str, patience: Duration) {
    let t0 = Instant::now();
    while !daemon.log().contains(text) {
        assert!(t0.elapsed() < patience, "no `{text}` in:\n{}", daemon.log());
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A cluster as processes (docs/cluster.md): one `tandem switch serve --servers 1` running a
/// program compiled with `--cluster`, three `tandem server serve --server-id K`, and a feed
/// whose `--change`s take the group 1 → 2 → 3 → 2 servers mid-trace (server 1 leaves and
/// drains). The switch picks each packet's server; flows keep theirs across the changes, so
/// the ports' pcaps equal the reference host's byte for byte and no packet is lost.
#[test]
fn a_cluster_of_server_processes_changes_membership_mid_trace() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let nf = repo_root().join("examples/nfs/trd/trd.cc");
    let (out, sock, feed, host) = (d.join("out"), d.join("s"), d.join("feed"), d.join("host"));
    ok(&command(&["compile", &s(&nf), "-o", &s(&out), "--cluster"])
        .output()
        .unwrap());
    let switch = Daemon::spawn(
        &[
            "switch",
            "serve",
            &s(&out),
            "--sock",
            &s(&sock),
            "--servers",
            "1",
        ],
        d.join("switch.log"),
    );
    let patience = Duration::from_secs(120);
    let mut servers = Vec::new();
    for k in 0..3 {
        let id = k.to_string();
        let server = Daemon::spawn(
            &[
                "server",
                "serve",
                &s(&out),
                "--sock",
                &s(&sock),
                "--server-id",
                &id,
            ],
            d.join(format!("server{k}.log")),
        );
        // Server 0 resets the switch and installs the state; the others join after it.
        wait_for_log(&server, "attached to the switch", patience);
        servers.push(server);
    }
    // A server that never attached cannot join: a clear error, the group unchanged.
    let absent = command(&["switch", "member", "--sock", &s(&sock), "--add", "7"])
        .output()
        .unwrap();
    assert!(!absent.status.success());
    let err = String::from_utf8_lossy(&absent.stderr);
    assert!(err.contains("server 7 is not attached"), "{err}");
    let traffic = ["--workload", "enterprise", "-n", "300", "--seed", "3"];
    let mut args = vec!["switch", "feed", "--sock"];
    let (sock_s, feed_s) = (s(&sock), s(&feed));
    args.extend([sock_s.as_str(), "--out-dir", feed_s.as_str(), "--shutdown"]);
    args.extend(["--change", "400:add=1", "--change", "900:add=2"]);
    args.extend(["--change", "1400:remove=1"]);
    args.extend(traffic);
    let fed = command(&args).output().unwrap();
    let logs = |servers: &[Daemon]| {
        servers
            .iter()
            .map(|s| s.log())
            .collect::<Vec<_>>()
            .join("\n---\n")
    };
    if !fed.status.success() {
        panic!(
            "feed failed:\n{}\n{}\nswitch:\n{}\nservers:\n{}",
            String::from_utf8_lossy(&fed.stdout),
            String::from_utf8_lossy(&fed.stderr),
            switch.log(),
            logs(&servers)
        );
    }
    let fed = String::from_utf8_lossy(&fed.stdout).into_owned();
    eprintln!("{fed}");
    for line in [
        "before packet 400: group [0, 1]",
        "before packet 900: group [0, 1, 2]",
        "before packet 1400: group [0, 2]",
    ] {
        assert!(fed.contains(line), "{line}: {fed}");
    }
    // The switch picked the server the runtime's mirror computes, at every change.
    for line in fed.lines().filter(|l| l.contains("disagreements")) {
        let n = line
            .split(", ")
            .find_map(|p| p.strip_suffix(" switch/runtime disagreements)"))
            .unwrap_or_else(|| panic!("{line}"));
        assert_eq!(n, "0", "{line}");
    }
    switch.wait(Duration::from_secs(30));
    let mut handled = Vec::new();
    for server in servers {
        let log = server.wait(Duration::from_secs(30));
        let n: u64 = log
            .lines()
            .find_map(|l| l.trim().strip_prefix("packets handled"))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("{log}"));
        handled.push(n);
    }
    eprintln!("packets per server: {handled:?}");
    assert!(
        handled.iter().all(|&n| n > 0),
        "every server worked: {handled:?}"
    );

    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(feed.join("summary.json")).unwrap()).unwrap();
    assert!(summary["packets"].as_u64().unwrap() > 1400, "{summary}");
    assert_eq!(summary["timeouts"], 0, "{summary}");
    assert_eq!(summary["errors"], 0, "{summary}");
    let mut args = vec!["host", nf.to_str().unwrap(), "--out-dir"];
    let host_s = s(&host);
    args.push(&host_s);
    args.extend(traffic);
    ok(&command(&args).output().unwrap());
    let mut compared = 0;
    for e in std::fs::read_dir(&host).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        if !name.ends_with(".pcap") {
            continue;
        }
        let want = std::fs::read(host.join(&name)).unwrap();
        let got = std::fs::read(feed.join(&name)).unwrap_or_default();
        assert!(want == got, "{name} differs from the reference host's");
        compared += 1;
    }
    assert!(compared >= 2, "TRD sends on ports 0 and 1");
}
