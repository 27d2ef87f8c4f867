//! The plan in the NF's own terms: for each line of the user's C++ that does something, where it
//! runs and, when the packet must visit the server for it, why — the summary a network
//! engineer reads first, before the statement-level (NF IR) detail of the report.
//!
//! Before (report.txt started at the IR):
//! ```text
//! == pre ==
//!   s0    block0   v0:i1 = hdr.valid ipv4  ; minilb.cc:28:12
//!   ...
//!   s90   block3   v14:i32 = urem v7, v13  ; minilb.cc:40:29
//!            not on the switch: [unsupported] remainder by a value that is not ...
//! ```
//! After (this section first):
//! ```text
//! == by line of minilb.cc ==
//!   28  switch           if (ip == nullptr) return pkt.drop();
//!   40  server           uint32_t b = h % backends.size();
//!         why: [unsupported] remainder by a value that is not a constant power of two is not
//!         supported by tofino1
//!   41  switch + server  ...
//!         why: [R2] it depends on something that cannot run before the server (root cause:
//!         line 40)
//! ```

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::{Partition, Plan, Rule, Why};

/// Where one source line's statements run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinePlacement {
    /// Statements in pre, on the server, in post.
    pub pre: u32,
    pub server: u32,
    pub post: u32,
    /// Why the first server statement of the line is not on the switch.
    pub why: Option<Why>,
}

impl LinePlacement {
    /// `switch`, `server` or `switch + server`.
    pub fn place(&self) -> &'static str {
        match (self.pre + self.post > 0, self.server > 0) {
            (true, true) => "switch + server",
            (false, true) => "server",
            _ => "switch",
        }
    }
}

/// `path:line[:col]` → (path, line).
fn split_loc(loc: &str) -> Option<(&str, u32)> {
    let mut parts = loc.rsplitn(3, ':');
    let last = parts.next()?;
    let mid = parts.next()?;
    match (parts.next(), mid.parse::<u32>(), last.parse::<u32>()) {
        (Some(path), Ok(line), Ok(_col)) => Some((path, line)),
        _ => last.parse().ok().map(|line| (mid, line)),
    }
}

/// The plan's statements grouped by source file and line (files in first-use order).
pub fn placement_by_line(plan: &Plan) -> Vec<(String, BTreeMap<u32, LinePlacement>)> {
    let mut files: Vec<(String, BTreeMap<u32, LinePlacement>)> = Vec::new();
    for st in &plan.statements {
        // Line 0: code the compiler made up (no line of the source).
        let Some((path, line)) = st.loc.as_deref().and_then(split_loc).filter(|l| l.1 > 0) else {
            continue;
        };
        let i = match files.iter().position(|(f, _)| f == path) {
            Some(i) => i,
            None => {
                files.push((path.to_string(), BTreeMap::new()));
                files.len() - 1
            }
        };
        let l = files[i].1.entry(line).or_default();
        match st.partition {
            Partition::Pre => l.pre += 1,
            Partition::Post => l.post += 1,
            Partition::Server => {
                l.server += 1;
                if l.why.is_none() {
                    l.why = st.why.clone();
                }
            }
        }
    }
    files
}

/// The "by line" section: `read` gives a file's text (`None`: lines are shown without it).
pub fn by_line(plan: &Plan, read: impl Fn(&str) -> Option<String>) -> String {
    let mut o = String::new();
    for (file, lines) in placement_by_line(plan) {
        let text = read(&file);
        let source: Vec<&str> = text
            .as_deref()
            .map(|t| t.lines().collect())
            .unwrap_or_default();
        let (mut on_switch, mut on_server) = (0, 0);
        let _ = writeln!(o, "== by line of {file} ==");
        for (line, l) in &lines {
            let code = source
                .get((*line as usize).saturating_sub(1))
                .map(|s| s.trim())
                .unwrap_or("");
            let _ = writeln!(o, "  {line:>4}  {:<16} {code}", l.place());
            if l.server > 0 {
                on_server += 1;
            } else {
                on_switch += 1;
            }
            if let Some(w) = &l.why {
                let _ = writeln!(o, "        why: {}", why_text(w, &file, *line));
            }
        }
        let _ = writeln!(
            o,
            "  ({on_switch} line(s) only on the switch, {on_server} with work on the server; \
             `tandem explain CODE` says what a reason code means)\n"
        );
    }
    o
}

/// A reason in source terms: the rule's own words for derived rules (R1–R8), the specific
/// detail for root causes (`unsupported`, C1–C5), and the root cause's line when elsewhere.
pub(crate) fn why_text(w: &Why, file: &str, line: u32) -> String {
    let rule = Rule::parse(&w.rule);
    let derived = rule.is_some_and(|r| {
        matches!(
            r,
            Rule::R1 | Rule::R2 | Rule::R3 | Rule::R4 | Rule::R6 | Rule::R7
        )
    });
    let what = match rule {
        Some(r) if derived => r.title().to_string(),
        _ => w.reason.clone(),
    };
    let origin = w.origin_loc.as_deref().and_then(split_loc);
    let root = match origin {
        Some((f, l)) if l != line || f != file => {
            if f == file {
                format!(" (root cause: line {l})")
            } else {
                format!(" (root cause: {f}:{l})")
            }
        }
        _ => String::new(),
    };
    format!("[{}] {what}{root}", w.rule)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_split_with_and_without_columns() {
        assert_eq!(split_loc("a/b.cc:40:29"), Some(("a/b.cc", 40)));
        assert_eq!(split_loc("a/b.cc:40"), Some(("a/b.cc", 40)));
        assert_eq!(split_loc("c:/x.cc:7:1"), Some(("c:/x.cc", 7)));
        assert_eq!(split_loc("nolines"), None);
    }
}
