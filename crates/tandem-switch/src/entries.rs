//! A text format for table entries and register values, modelled on BMv2's
//! `simple_switch_CLI` commands. One command per line; `#` starts a comment.
//!
//! ```text
//! table_add     <table> <action> <key>... => <arg>... [<priority>]
//! table_modify  <table> <action> <key>... => <arg>... [<priority>]
//! table_delete  <table> <key>... [=> <priority>]
//! table_set_default <table> <action> <arg>...
//! table_clear   <table>
//! register_write <register> <index> <value>
//! meter_set_rates <meter> <index> <cir>:<cburst> <pir>:<pburst>
//! ```
//!
//! `meter_set_rates` configures one meter with full buckets (as a P4Runtime `MeterEntry`):
//! rates in units per second and bursts in units, integers (BMv2's CLI takes the same
//! command with rates per microsecond); `<index>` may be `*` for every meter of the array.
//!
//! Keys: `5`, `0x0a000001`, `10.0.0.1`, `aa:bb:cc:dd:ee:ff` (exact); `10.0.0.0/8`
//! (lpm); `0x0800&&&0xff00` (ternary); `10->20` (range); `*` (wildcard). A priority
//! is read after the action arguments for tables with ternary/range/optional keys.
//! Unlike BMv2, entries are modified and deleted by key, not by handle. The user-facing
//! description, with what [`parse_entries`] checks, is `docs/entries-format.md`.

use crate::program::MatchKind;
use crate::switch::{ControlOp, KeyMatch, Switch, TableEntry, TableInfo};

/// One parsed command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Control(ControlOp),
    RegisterWrite {
        name: String,
        index: u32,
        value: u64,
    },
    /// `meter_set_rates`: `index` `None` is every meter of the array.
    MeterSetRates {
        name: String,
        index: Option<u32>,
        cell: crate::MeterCell,
    },
}

/// A problem in an entries file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct EntriesError {
    pub line: usize,
    pub message: String,
}

/// Parses a number: decimal, `0x`/`0b` prefixed, dotted IPv4 or colon-separated MAC.
pub fn parse_value(s: &str) -> Option<u64> {
    let s = s.trim();
    if s.contains('.') {
        let parts: Vec<&str> = s.split('.').collect();
        if parts.len() != 4 {
            return None;
        }
        let mut v = 0u64;
        for p in parts {
            v = (v << 8) | p.parse::<u8>().ok()? as u64;
        }
        return Some(v);
    }
    if s.contains(':') {
        let parts: Vec<&str> = s.split(':').collect();
        if parts.len() > 8 {
            return None;
        }
        let mut v = 0u64;
        for p in parts {
            v = (v << 8) | u8::from_str_radix(p, 16).ok()? as u64;
        }
        return Some(v);
    }
    let t = s.replace('_', "");
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else if let Some(b) = t.strip_prefix("0b") {
        u64::from_str_radix(b, 2).ok()
    } else {
        t.parse().ok()
    }
}

fn parse_key(s: &str) -> Option<KeyMatch> {
    if s == "*" || s == "_" {
        return Some(KeyMatch::Any);
    }
    if let Some((v, m)) = s.split_once("&&&") {
        return Some(KeyMatch::Ternary(parse_value(v)?, parse_value(m)?));
    }
    if let Some((lo, hi)) = s.split_once("->") {
        return Some(KeyMatch::Range(parse_value(lo)?, parse_value(hi)?));
    }
    if let Some((v, l)) = s.split_once('/') {
        return Some(KeyMatch::Lpm(parse_value(v)?, l.parse().ok()?));
    }
    Some(KeyMatch::Exact(parse_value(s)?))
}

/// Parses an entries file. `sw` supplies table shapes (number of keys, action
/// parameter counts) needed to tell arguments from priorities.
pub fn parse_commands(text: &str, sw: &Switch) -> Result<Vec<Command>, EntriesError> {
    Ok(parse_entries(text, sw)?
        .into_iter()
        .map(|(_, c)| c)
        .collect())
}

/// Parses an entries file into commands with their line numbers, checked against the
/// program: key count and match kinds (an `lpm` key needs `VALUE/LEN`), values that fit their
/// key, parameter and register widths, action argument counts (a priority only for tables
/// with ternary, range or optional keys), register names and indices.
pub fn parse_entries(text: &str, sw: &Switch) -> Result<Vec<(usize, Command)>, EntriesError> {
    let tables = sw.tables();
    let registers = sw.registers();
    let mut out = Vec::new();
    for (ln, raw) in text.lines().enumerate() {
        let line = ln + 1;
        let err = |m: String| EntriesError { line, message: m };
        let l = raw.split('#').next().unwrap_or("").trim();
        if l.is_empty() {
            continue;
        }
        let toks: Vec<&str> = l.split_whitespace().collect();
        let find_table = |name: &str| {
            tables
                .iter()
                .find(|t| t.name == name || t.name.rsplit('.').next() == Some(name))
                .ok_or_else(|| err(format!("unknown table `{name}`")))
        };
        let value = |s: &str| parse_value(s).ok_or_else(|| err(format!("bad value `{s}`")));
        match toks[0] {
            "table_add" | "table_modify" => {
                if toks.len() < 3 {
                    return Err(err(
                        "usage: table_add <table> <action> <keys> => <args>".into()
                    ));
                }
                let t = find_table(toks[1])?;
                let action = toks[2].to_string();
                let arrow = toks.iter().position(|t| *t == "=>").unwrap_or(toks.len());
                let keys = toks
                    .get(3..arrow)
                    .ok_or_else(|| err("expected keys before `=>`".into()))?
                    .iter()
                    .map(|k| parse_key(k).ok_or_else(|| err(format!("bad key `{k}`"))))
                    .collect::<Result<Vec<_>, _>>()?;
                let rest: Vec<u64> = toks
                    .get(arrow + 1..)
                    .unwrap_or(&[])
                    .iter()
                    .map(|v| value(v))
                    .collect::<Result<_, _>>()?;
                check_keys(t, &keys).map_err(err)?;
                let widths = action_params(t, &action).map_err(err)?;
                let nparams = widths.len();
                let (args, priority) = if rest.len() == nparams + 1 && takes_priority(t) {
                    (rest[..nparams].to_vec(), Some(rest[nparams] as i64))
                } else if rest.len() == nparams {
                    (rest, None)
                } else {
                    return Err(err(arg_count_message(t, &action, nparams, rest.len())));
                };
                check_args(&action, &widths, &args).map_err(err)?;
                let entry = TableEntry {
                    matches: keys,
                    action,
                    args,
                    priority,
                };
                let table = t.name.clone();
                out.push((
                    line,
                    Command::Control(if toks[0] == "table_add" {
                        ControlOp::Insert { table, entry }
                    } else {
                        ControlOp::Modify { table, entry }
                    }),
                ));
            }
            "table_delete" => {
                if toks.len() < 2 {
                    return Err(err("usage: table_delete <table> <keys>".into()));
                }
                let t = find_table(toks[1])?;
                let arrow = toks.iter().position(|t| *t == "=>").unwrap_or(toks.len());
                let matches = toks
                    .get(2..arrow)
                    .ok_or_else(|| err("expected keys before `=>`".into()))?
                    .iter()
                    .map(|k| parse_key(k).ok_or_else(|| err(format!("bad key `{k}`"))))
                    .collect::<Result<Vec<_>, _>>()?;
                check_keys(t, &matches).map_err(err)?;
                let priority = match toks.get(arrow + 1) {
                    Some(p) if takes_priority(t) => Some(value(p)? as i64),
                    Some(p) => {
                        return Err(err(format!(
                            "table `{}` has no ternary, range or optional key: its entries \
                             have no priority (`=> {p}`)",
                            t.name
                        )))
                    }
                    None => None,
                };
                if toks.len() > arrow + 2 {
                    return Err(err(
                        "usage: table_delete <table> <keys> [=> <priority>]".into()
                    ));
                }
                out.push((
                    line,
                    Command::Control(ControlOp::Delete {
                        table: t.name.clone(),
                        matches,
                        priority,
                    }),
                ));
            }
            "table_set_default" => {
                if toks.len() < 3 {
                    return Err(err(
                        "usage: table_set_default <table> <action> <args>".into()
                    ));
                }
                let t = find_table(toks[1])?;
                let args: Vec<u64> = toks[3..]
                    .iter()
                    .filter(|t| **t != "=>")
                    .map(|v| value(v))
                    .collect::<Result<_, _>>()?;
                let widths = action_params(t, toks[2]).map_err(err)?;
                if args.len() != widths.len() {
                    return Err(err(arg_count_message(t, toks[2], widths.len(), args.len())));
                }
                check_args(toks[2], &widths, &args).map_err(err)?;
                out.push((
                    line,
                    Command::Control(ControlOp::SetDefault {
                        table: t.name.clone(),
                        action: toks[2].to_string(),
                        args,
                    }),
                ));
            }
            "table_clear" => {
                if toks.len() != 2 {
                    return Err(err("usage: table_clear <table>".into()));
                }
                let t = find_table(toks[1])?;
                out.push((
                    line,
                    Command::Control(ControlOp::Clear {
                        table: t.name.clone(),
                    }),
                ));
            }
            "register_write" => {
                if toks.len() != 4 {
                    return Err(err(
                        "usage: register_write <register> <index> <value>".into()
                    ));
                }
                let name = toks[1];
                let (_, size, width) = registers
                    .iter()
                    .find(|(n, _, _)| n == name || n.rsplit('.').next() == Some(name))
                    .ok_or_else(|| err(format!("unknown register `{name}`")))?;
                let index = value(toks[2])?;
                let index = u32::try_from(index)
                    .ok()
                    .filter(|i| i < size)
                    .ok_or_else(|| {
                        err(format!(
                            "register `{name}` has {size} cell(s): index {index} is out of range"
                        ))
                    })?;
                let v = value(toks[3])?;
                if !fits(v, *width) {
                    return Err(err(format!(
                        "register `{name}` holds bit<{width}>: {} does not fit",
                        toks[3]
                    )));
                }
                out.push((
                    line,
                    Command::RegisterWrite {
                        name: name.to_string(),
                        index,
                        value: v,
                    },
                ));
            }
            "meter_set_rates" => {
                let usage = || {
                    err(
                        "usage: meter_set_rates <meter> <index> <cir>:<cburst> <pir>:<pburst>"
                            .into(),
                    )
                };
                if toks.len() != 5 {
                    return Err(usage());
                }
                let index = match toks[2] {
                    "*" => None,
                    t => Some(u32::try_from(value(t)?).map_err(|_| err("index too large".into()))?),
                };
                let pair = |t: &str| -> Result<(u64, u64), EntriesError> {
                    let (r, b) = t.split_once(':').ok_or_else(usage)?;
                    Ok((value(r)?, value(b)?))
                };
                let ((cir, cburst), (pir, pburst)) = (pair(toks[3])?, pair(toks[4])?);
                out.push((
                    line,
                    Command::MeterSetRates {
                        name: toks[1].to_string(),
                        index,
                        cell: crate::MeterCell::with_rates(cir, cburst, pir, pburst),
                    },
                ));
            }
            other => return Err(err(format!("unknown command `{other}`"))),
        }
    }
    Ok(out)
}

/// Applies commands from [`parse_entries`] like [`apply_commands`]; an error names the line
/// of the command that failed (nothing of the table batch is applied then).
pub fn apply_entries(sw: &Switch, cmds: &[(usize, Command)]) -> Result<(), EntriesError> {
    let lines: Vec<usize> = cmds
        .iter()
        .filter(|(_, c)| matches!(c, Command::Control(_)))
        .map(|(l, _)| *l)
        .collect();
    let ops: Vec<ControlOp> = cmds
        .iter()
        .filter_map(|(_, c)| match c {
            Command::Control(op) => Some(op.clone()),
            _ => None,
        })
        .collect();
    sw.apply_batch_at(&ops).map_err(|(i, e)| EntriesError {
        line: lines.get(i).copied().unwrap_or(0),
        message: format!("{e} (no table entry of the file was applied)"),
    })?;
    for (line, c) in cmds {
        if matches!(c, Command::Control(_)) {
            continue;
        }
        apply_commands(sw, std::slice::from_ref(c)).map_err(|e| EntriesError {
            line: *line,
            message: e.to_string(),
        })?;
    }
    Ok(())
}

/// Applies parsed commands: all table operations as one atomic batch, then the
/// register writes and meter configurations.
pub fn apply_commands(sw: &Switch, cmds: &[Command]) -> Result<(), crate::ControlError> {
    let ops: Vec<ControlOp> = cmds
        .iter()
        .filter_map(|c| match c {
            Command::Control(op) => Some(op.clone()),
            _ => None,
        })
        .collect();
    sw.apply_batch(&ops)?;
    for c in cmds {
        match c {
            Command::RegisterWrite { name, index, value } => {
                sw.register_write(name, *index, *value)?;
            }
            Command::MeterSetRates { name, index, cell } => {
                let size = sw
                    .meters()
                    .into_iter()
                    .find(|(n, _, _)| n == name || n.rsplit('.').next() == Some(name))
                    .map_or(0, |m| m.1);
                match index {
                    Some(i) => sw.meter_write(name, *i, *cell)?,
                    None => {
                        for i in 0..size.max(1) {
                            sw.meter_write(name, i, *cell)?;
                        }
                    }
                }
            }
            Command::Control(_) => {}
        }
    }
    Ok(())
}

fn fits(v: u64, width: u32) -> bool {
    width >= 64 || v >> width == 0
}

/// Whether a table's entries carry a priority (a ternary, range or optional key).
fn takes_priority(t: &TableInfo) -> bool {
    t.keys.iter().any(|k| {
        matches!(
            k.1,
            MatchKind::Ternary | MatchKind::Range | MatchKind::Optional
        )
    })
}

/// The parameter widths of `action` in table `t`.
fn action_params(t: &TableInfo, action: &str) -> Result<Vec<u32>, String> {
    t.actions
        .iter()
        .find(|a| a.0 == action || action.rsplit('.').next() == Some(a.0.as_str()))
        .map(|a| a.1.clone())
        .ok_or_else(|| format!("table `{}` has no action `{action}`", t.name))
}

fn arg_count_message(t: &TableInfo, action: &str, want: usize, got: usize) -> String {
    let prio = if takes_priority(t) {
        format!(" (or {} with a priority last)", want + 1)
    } else {
        String::new()
    };
    format!(
        "action `{action}` of table `{}` takes {want} argument(s){prio}, {got} given",
        t.name
    )
}

fn check_args(action: &str, widths: &[u32], args: &[u64]) -> Result<(), String> {
    for (i, (&v, &w)) in args.iter().zip(widths).enumerate() {
        if !fits(v, w) {
            return Err(format!(
                "argument {} of action `{action}` is bit<{w}>: {v:#x} does not fit",
                i + 1
            ));
        }
    }
    Ok(())
}

/// The keys of an entry against the table's key fields: count, match kind, width.
fn check_keys(t: &TableInfo, keys: &[KeyMatch]) -> Result<(), String> {
    if keys.len() != t.keys.len() {
        let fields: Vec<String> = t
            .keys
            .iter()
            .map(|(n, k, w)| format!("{n}: {k:?} bit<{w}>"))
            .collect();
        return Err(format!(
            "table `{}` has {} key field(s) ({}), {} given",
            t.name,
            t.keys.len(),
            fields.join(", "),
            keys.len()
        ));
    }
    for (m, (name, kind, width)) in keys.iter().zip(&t.keys) {
        let w = *width;
        let too_wide = |v: u64| format!("key `{name}` is bit<{w}>: {v:#x} does not fit");
        let ok = match (kind, m) {
            (_, KeyMatch::Any) => !matches!(kind, MatchKind::Exact),
            (MatchKind::Lpm, KeyMatch::Lpm(v, len)) => {
                if *len > w {
                    return Err(format!(
                        "key `{name}` is bit<{w}>: prefix length {len} > {w}"
                    ));
                }
                if !fits(*v, w) {
                    return Err(too_wide(*v));
                }
                true
            }
            (MatchKind::Lpm, KeyMatch::Exact(_)) => {
                return Err(format!(
                    "key `{name}` is an lpm key: write VALUE/LEN (e.g. 10.0.0.0/8, or /{w} \
                     for one address)"
                ))
            }
            (MatchKind::Ternary, KeyMatch::Ternary(v, mk)) => {
                for x in [v, mk] {
                    if !fits(*x, w) {
                        return Err(too_wide(*x));
                    }
                }
                true
            }
            (MatchKind::Range, KeyMatch::Range(lo, hi)) => {
                for x in [lo, hi] {
                    if !fits(*x, w) {
                        return Err(too_wide(*x));
                    }
                }
                true
            }
            (_, KeyMatch::Exact(v)) => {
                if !fits(*v, w) {
                    return Err(too_wide(*v));
                }
                true
            }
            _ => false,
        };
        if !ok {
            return Err(format!(
                "key `{name}` is a {kind:?} key; `{}` does not apply (exact: VALUE, lpm: \
                 VALUE/LEN, ternary: VALUE&&&MASK, range: LO->HI, `*` for any but exact)",
                show(m)
            ));
        }
    }
    Ok(())
}

fn show(m: &KeyMatch) -> String {
    match m {
        KeyMatch::Exact(v) => format!("{v:#x}"),
        KeyMatch::Lpm(v, l) => format!("{v:#x}/{l}"),
        KeyMatch::Ternary(v, mk) => format!("{v:#x}&&&{mk:#x}"),
        KeyMatch::Range(lo, hi) => format!("{lo:#x}->{hi:#x}"),
        KeyMatch::Any => "*".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_keys() {
        assert_eq!(parse_value("10.0.0.1"), Some(0x0a00_0001));
        assert_eq!(parse_value("00:00:00:00:00:02"), Some(2));
        assert_eq!(parse_value("0x800"), Some(0x800));
        assert_eq!(parse_value("1.2.3"), None);
        assert_eq!(parse_key("10.0.0.0/8"), Some(KeyMatch::Lpm(0x0a00_0000, 8)));
        assert_eq!(parse_key("1&&&3"), Some(KeyMatch::Ternary(1, 3)));
        assert_eq!(parse_key("1->3"), Some(KeyMatch::Range(1, 3)));
        assert_eq!(parse_key("*"), Some(KeyMatch::Any));
    }

    #[test]
    fn arrow_before_keys_is_an_error() {
        // found by the no-panic property test: `=>` right after the action
        let sw = Switch::from_source(crate::bench::MINILB_P4).expect("load");
        assert!(parse_commands("table_add conn => 1", &sw).is_err());
        assert!(parse_commands("table_delete => 1", &sw).is_err());
    }
}
