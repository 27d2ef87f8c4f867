//! The HTML report (`report.html`, written by every `tandem compile`) for every example NF,
//! rendered by a real headless browser (Chromium from Debian, installed by
//! scripts/bootstrap.sh): the screenshot must show the NF's source with its lines coloured by
//! where they run — a page that does not render, or renders without the partition, fails.

mod common;

use common::*;
use std::path::Path;
use std::process::Command;

/// The pixels of `png` with exactly this colour.
fn count_colour(png: &Path, rgb: [u8; 3]) -> (u32, u32, usize) {
    let decoder = png::Decoder::new(std::fs::File::open(png).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let n = buf[..info.buffer_size()]
        .chunks(channels)
        .filter(|p| p[..3] == rgb)
        .count();
    (info.width, info.height, n)
}

fn chromium() -> String {
    std::env::var("TANDEM_CHROMIUM").unwrap_or_else(|_| "chromium".into())
}

#[test]
fn every_example_nf_gets_an_html_report_a_browser_renders() {
    let dir = tempfile::tempdir().unwrap();
    let mut nfs: Vec<String> = std::fs::read_dir(repo_root().join("examples/nfs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    nfs.sort();
    assert!(nfs.len() >= 10, "{nfs:?}");
    for nf in &nfs {
        let out = dir.path().join(nf);
        let src = format!("examples/nfs/{nf}/{nf}.cc");
        ok(&tandem(&["compile", &src, "-o", out.to_str().unwrap()]));
        let html = std::fs::read_to_string(out.join("report.html")).unwrap();
        for section in [
            &format!("<h2>{src} by line</h2>"),
            "<h2>Transfer header</h2>",
            "<h2>State</h2>",
            "<h2>Resources on tofino1</h2>",
        ] {
            assert!(html.contains(section), "{nf}: no `{section}`");
        }
        assert!(
            html.contains("<tr class=\"switch\">"),
            "{nf}: no line on the switch"
        );
        // A real browser renders it: the switch-green rows are on the screenshot.
        let shot = dir.path().join(format!("{nf}.png"));
        let profile = dir.path().join(format!("chromium-{nf}"));
        let o = Command::new(chromium())
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                &format!("--user-data-dir={}", profile.display()),
                &format!("--screenshot={}", shot.display()),
                "--window-size=1280,8000",
            ])
            .arg(format!("file://{}", out.join("report.html").display()))
            .output()
            .unwrap_or_else(|e| {
                panic!("cannot run {} ({e}): run scripts/bootstrap.sh", chromium())
            });
        assert!(
            shot.exists(),
            "{nf}: no screenshot; chromium said: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let (w, h, green) = count_colour(&shot, [0xd9, 0xf2, 0xd9]);
        assert_eq!((w, h), (1280, 8000), "{nf}");
        // More than the legend swatch (~2,000 pixels): at least one whole source row.
        assert!(
            green > 12_000,
            "{nf}: {green} switch-green pixels on the screenshot"
        );
    }
}
