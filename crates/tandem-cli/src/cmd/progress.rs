//! Progress bars: drawn on a terminal, hidden otherwise (CI logs stay clean).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A counter for a stream of unknown length.
pub fn spinner(unit: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template(&format!("{{spinner}} {{pos}} {unit} ({{per_sec}})"))
        .unwrap_or_else(|_| ProgressStyle::default_spinner());
    bar.set_style(style);
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar
}

/// A bar for `len` items.
pub fn bar(len: u64, unit: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template(&format!(
        "{{bar:40}} {{pos}}/{{len}} {unit} ({{per_sec}}, eta {{eta}})"
    ))
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar
}
