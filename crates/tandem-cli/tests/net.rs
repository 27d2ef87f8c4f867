//! The compiled pair as two processes: `tandem switch serve` and `tandem server serve`
//! joined by UNIX datagram sockets, fed by `tandem switch feed`; its per-port pcaps must be
//! byte-identical to the reference host's (`tandem host`) on the same closed-loop traffic.

mod common;

use common::*;

use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// A daemon process, killed if the test ends before it exits; its output goes to a file.
struct Daemon {
    child: Child,
    log: PathBuf,
}

impl Daemon {
    fn spawn(args: &[&str], log: PathBuf) -> Daemon {
        let f = std::fs::File::create(&log).unwrap();
        let child = command(args)
            .stdout(f.try_clone().unwrap())
            .stderr(f)
            .stdin(Stdio::null())
            .spawn()
            .unwrap();
        Daemon { child, log }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Waits for the process to exit by itself; its log.
    fn wait(mut self, patience: Duration) -> String {
        let t0 = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "exited with {status}:\n{}", self.log());
                return self.log();
            }
            assert!(
                t0.elapsed() < patience,
                "still running after {patience:?}:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

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
