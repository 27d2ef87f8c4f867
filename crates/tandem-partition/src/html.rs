//! The HTML report (`tandem compile ... --html`): one self-contained page (no scripts, no
//! external files) a network engineer opens in a browser — the NF's source coloured by where
//! each line runs with the reason beside it, the transfer-header layout, the switch tables and
//! registers with their memory, resource use against the profile's budgets, and any extra
//! sections the caller adds (`tandem bench` adds its figures).
//!
//! Before: report.txt only — 23 KB of NF IR for a 47-line NF.
//! After: report.html — `minilb.cc` line by line, green on the switch, amber partly on the
//! server, red on the server, `why: [R2] ... (root cause: line 40)` beside the line.

use std::fmt::Write;

use crate::by_line::{placement_by_line, LinePlacement};
use crate::{Placement, Plan, Use};

/// Text made safe for HTML element content and attribute values.
pub fn escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

/// A section the caller adds after the plan's own: a title and HTML body (trusted: the
/// caller's own markup, e.g. an inline SVG figure).
pub struct Section {
    pub title: String,
    pub html: String,
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:1200px}\
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}\
table{border-collapse:collapse}td,th{padding:2px 8px;text-align:left;vertical-align:top}\
th{background:#eee}.src td{font-family:ui-monospace,monospace;font-size:13px;white-space:pre}\
.src td.n{color:#888;text-align:right}.switch{background:#d9f2d9}.mixed{background:#ffe9b3}\
.server{background:#f8c9c4}.src td.why{color:#7a2a00;font-family:system-ui,sans-serif;white-space:normal;min-width:360px}\
.legend span{padding:2px 8px;margin-right:8px}.bar{background:#eee;width:240px;height:12px}\
.bar div{height:12px;background:#4a90d9}.bar div.over{background:#d9534f}\
.num{text-align:right;font-variant-numeric:tabular-nums}";

/// The page. `read` gives a source file's text (the compiler crates never touch files).
pub fn html_report(
    plan: &Plan,
    read: impl Fn(&str) -> Option<String>,
    extra: &[Section],
) -> String {
    let mut o = String::new();
    let s = &plan.summary;
    let _ = write!(
        o,
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{nf} on {t} — \
         Tandem</title><style>{STYLE}</style></head><body><h1>{nf} on {t}</h1><p>{} \
         statements: <b>{}</b> in the switch before the server (pre), <b>{}</b> on the server, \
         <b>{}</b> in the switch after it (post). Reason codes: <code>tandem explain \
         CODE</code>.</p>",
        plan.statements.len(),
        s.pre,
        s.server,
        s.post,
        nf = escape(&plan.nf),
        t = escape(&plan.target),
    );
    source_sections(&mut o, plan, &read);
    transfer_header(&mut o, plan);
    state_table(&mut o, plan);
    resources(&mut o, plan);
    for x in extra {
        let _ = write!(o, "<h2>{}</h2>{}", escape(&x.title), x.html);
    }
    o.push_str("</body></html>\n");
    o
}

fn class_of(l: &LinePlacement) -> &'static str {
    match l.place() {
        "switch" => "switch",
        "server" => "server",
        _ => "mixed",
    }
}

fn source_sections(o: &mut String, plan: &Plan, read: &impl Fn(&str) -> Option<String>) {
    for (file, lines) in placement_by_line(plan) {
        let Some(text) = read(&file) else {
            continue;
        };
        let _ = write!(
            o,
            "<h2>{} by line</h2><p class=\"legend\"><span class=\"switch\">on the switch</span>\
             <span class=\"mixed\">switch and server</span><span class=\"server\">on the \
             server</span></p><table class=\"src\">",
            escape(&file)
        );
        for (i, code) in text.lines().enumerate() {
            let n = i as u32 + 1;
            let (class, why) = match lines.get(&n) {
                Some(l) => (
                    class_of(l),
                    l.why
                        .as_ref()
                        .map(|w| escape(&crate::by_line::why_text(w, &file, n)))
                        .unwrap_or_default(),
                ),
                None => ("", String::new()),
            };
            let _ = write!(
                o,
                "<tr class=\"{class}\"><td class=\"n\">{n}</td><td>{}</td><td class=\"why\">{why}</td></tr>",
                escape(code)
            );
        }
        o.push_str("</table>");
    }
}

fn transfer_header(o: &mut String, plan: &Plan) {
    let h = &plan.transfer_header;
    let _ = write!(
        o,
        "<h2>Transfer header</h2><p>EtherType {}, {} bytes, between Ethernet and the original \
         payload of every packet that visits the server.</p><table><tr><th>field</th>\
         <th class=\"num\">bit offset</th><th class=\"num\">bits</th><th>carries</th>\
         <th>written by</th><th>read by</th></tr>",
        escape(&h.ethertype),
        h.bytes
    );
    for f in &h.fields {
        let to: Vec<&str> = f.to.iter().map(|p| p.name()).collect();
        let _ = write!(
            o,
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td>\
             <td>{}</td><td>{}</td></tr>",
            escape(&f.name),
            f.offset,
            f.bits,
            escape(f.value.as_deref().unwrap_or("")),
            f.from.map(|p| p.name()).unwrap_or(""),
            to.join(", ")
        );
    }
    o.push_str("</table>");
}

fn state_table(o: &mut String, plan: &Plan) {
    o.push_str(
        "<h2>State</h2><table><tr><th>object</th><th>kind</th><th>placement</th>\
         <th class=\"num\">copies</th><th class=\"num\">SRAM blocks</th>\
         <th class=\"num\">TCAM blocks</th></tr>",
    );
    for st in &plan.states {
        let place = match st.placement {
            Placement::Server => "server only",
            Placement::SwitchTable => "switch table",
            Placement::SwitchRegister => "switch register",
            Placement::Replicated => "replicated: server primary, switch copy",
        };
        let _ = write!(
            o,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
            escape(&st.name),
            escape(&st.kind),
            place,
            st.copies,
            st.sram_blocks,
            st.tcam_blocks
        );
    }
    o.push_str("</table>");
}

fn resources(o: &mut String, plan: &Plan) {
    let r = &plan.resources;
    let rows: [(&str, &Use); 9] = [
        ("stages, pre (ingress)", &r.stages_pre),
        ("stages, post (egress)", &r.stages_post),
        ("SRAM blocks", &r.sram_blocks),
        ("TCAM blocks", &r.tcam_blocks),
        ("tables", &r.tables),
        ("stateful ALUs", &r.stateful_alus),
        ("metadata bytes, pre", &r.metadata_pre),
        ("metadata bytes, post", &r.metadata_post),
        ("transfer-header bytes", &r.transfer_header),
    ];
    let _ = write!(
        o,
        "<h2>Resources on {}</h2><table><tr><th>resource</th><th class=\"num\">used</th>\
         <th class=\"num\">budget</th><th></th></tr>",
        escape(&plan.target)
    );
    for (name, u) in rows {
        let (budget, bar) = match u.budget {
            Some(b) if b > 0 => {
                let pct = (u.used as f64 / b as f64 * 100.0).min(100.0);
                let over = if u.used > b { " class=\"over\"" } else { "" };
                (
                    b.to_string(),
                    format!("<div class=\"bar\"><div{over} style=\"width:{pct:.1}%\"></div></div>"),
                )
            }
            _ => ("—".to_string(), String::new()),
        };
        let _ = write!(
            o,
            "<tr><td>{name}</td><td class=\"num\">{}</td><td class=\"num\">{budget}</td><td>{bar}</td></tr>",
            u.used
        );
    }
    o.push_str("</table>");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_covers_markup_and_quotes() {
        assert_eq!(
            escape("if (a < b && c > \"d\") 'e'"),
            "if (a &lt; b &amp;&amp; c &gt; &quot;d&quot;) &#39;e&#39;"
        );
    }
}
