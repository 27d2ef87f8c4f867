//! The printer: [`Module`] → canonical text (see the crate docs, "Text form").

use crate::{
    BlockCall, Effect, Function, Inst, InstKind, Layout, Module, StateId, StateKind, Value,
};
use std::fmt::Write;

/// Prints a module in canonical text form. [`crate::parse_module`] reads it back to an equal
/// module, and printing that gives the same text.
pub fn print_module(module: &Module) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "nf {}", module.name);
    if !module.files.is_empty() {
        out.push('\n');
        for (id, path) in module.files.iter() {
            let _ = writeln!(out, "file {id} = {}", quote(path));
        }
    }
    if !module.headers.is_empty() || !module.parse_edges.is_empty() {
        out.push('\n');
        for h in &module.headers {
            let fields: Vec<String> = h
                .fields()
                .map(|f| format!("{}: {}", f.short_name(), f.ty()))
                .collect();
            let _ = writeln!(out, "header {h} {{{}}}", fields.join(", "));
        }
        for e in &module.parse_edges {
            match e.select {
                Some(f) => {
                    let _ = writeln!(out, "parse {f} == {:#x} -> {}", e.value, e.to);
                }
                None => {
                    let _ = writeln!(out, "parse {} -> {}", e.from, e.to);
                }
            }
        }
    }
    if !module.states.is_empty() {
        out.push('\n');
        for (_, s) in module.states.iter() {
            let _ = writeln!(out, "state {}: {}", s.name, state_kind(&s.kind));
        }
    }
    if !module.server_functions.is_empty() {
        out.push('\n');
        for name in &module.server_functions {
            let _ = writeln!(out, "server fn {name}");
        }
    }
    out.push('\n');
    print_function(&mut out, module, &module.process, "");
    if let Some(t) = &module.timer {
        out.push('\n');
        print_function(
            &mut out,
            module,
            &t.func,
            &format!(" every {}", t.interval_ns),
        );
    }
    out
}

/// Prints one instruction the way it appears in the module text (without indentation).
pub fn print_inst(module: &Module, func: &Function, inst: Inst) -> String {
    let mut out = String::new();
    match func.insts.get(inst) {
        Some(_) => write_inst(&mut out, module, func, inst),
        None => out.push_str("<no such instruction>"),
    }
    out
}

/// Prints a layout (`{name: iN @offset, ...} size N`).
pub fn print_layout(layout: &Layout) -> String {
    let mut out = String::from("{");
    for (i, f) in layout.fields.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{}: {}", f.name, f.ty);
        if let Some(off) = f.offset {
            let _ = write!(out, " @{off}");
        }
    }
    out.push('}');
    if let Some(size) = layout.size {
        let _ = write!(out, " size {size}");
    }
    out
}

fn state_kind(kind: &StateKind) -> String {
    match kind {
        StateKind::HashMap {
            key,
            value,
            capacity,
        } => {
            format!(
                "hashmap<{}, {}, {capacity}>",
                print_layout(key),
                print_layout(value)
            )
        }
        StateKind::LpmMap {
            key,
            value,
            capacity,
            prefix_fields,
        } if *prefix_fields > 1 => format!(
            "lpm_map<{}, {}, {capacity}, {prefix_fields}>",
            print_layout(key),
            print_layout(value)
        ),
        StateKind::LpmMap { key, value, .. }
        | StateKind::TernaryMap { key, value, .. }
        | StateKind::RangeMap { key, value, .. } => format!(
            "{}<{}, {}, {}>",
            kind.keyword(),
            print_layout(key),
            print_layout(value),
            kind.map_capacity().unwrap_or(0)
        ),
        StateKind::Vector { elem, len } => format!("vector<{}, {len}>", print_layout(elem)),
        StateKind::Scalar { ty } => format!("scalar<{ty}>"),
        StateKind::Meter { len, unit } => format!("meter<{len}, {}>", unit.name()),
        StateKind::ExpiringMap {
            key,
            value,
            capacity,
            idle_timeout_ns,
        } => format!(
            "expiring_map<{}, {}, {capacity}, {idle_timeout_ns}>",
            print_layout(key),
            print_layout(value)
        ),
    }
}

/// Quotes a string: `"` and `\` escaped, control characters as `\n`, `\t` or `\u{HEX}`.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `fn NAME{suffix} { blocks }` (the timer's suffix is ` every INTERVAL`).
fn print_function(out: &mut String, module: &Module, func: &Function, suffix: &str) {
    let _ = writeln!(out, "fn {}{suffix} {{", func.name);
    for (i, (block, data)) in func.blocks.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let _ = write!(out, "{block}");
        if !data.params.is_empty() {
            out.push('(');
            for (j, &p) in data.params.iter().enumerate() {
                if j > 0 {
                    out.push_str(", ");
                }
                write_typed_value(out, func, p);
            }
            out.push(')');
        }
        out.push_str(":\n");
        for &inst in &data.insts {
            out.push_str("    ");
            if func.insts.is_valid(inst) {
                write_inst(out, module, func, inst);
            } else {
                let _ = write!(out, "<missing {inst}>");
            }
            out.push('\n');
        }
    }
    out.push_str("}\n");
}

fn write_typed_value(out: &mut String, func: &Function, v: Value) {
    match func.value_type(v) {
        Some(ty) => {
            let _ = write!(out, "{v}:{ty}");
        }
        None => {
            let _ = write!(out, "{v}:?");
        }
    }
}

fn state_name(module: &Module, s: StateId) -> String {
    match module.states.get(s) {
        Some(obj) => obj.name.clone(),
        None => format!("<undeclared {s}>"),
    }
}

fn values(vs: &[Value]) -> String {
    vs.iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn block_call(c: &BlockCall) -> String {
    if c.args.is_empty() {
        c.block.to_string()
    } else {
        format!("{}({})", c.block, values(&c.args))
    }
}

fn effects(module: &Module, es: &[Effect]) -> String {
    let items: Vec<String> = es
        .iter()
        .map(|e| match e {
            Effect::Payload => "payload".to_string(),
            Effect::Layout => "layout".to_string(),
            Effect::Field(f) => f.name().to_string(),
            Effect::State(s) => format!("state {}", state_name(module, *s)),
            Effect::Action => "action".to_string(),
            Effect::All => "all".to_string(),
        })
        .collect();
    format!("[{}]", items.join(", "))
}

fn write_inst(out: &mut String, module: &Module, func: &Function, inst: Inst) {
    let data = &func.insts[inst];
    if !data.results.is_empty() {
        for (j, &r) in data.results.iter().enumerate() {
            if j > 0 {
                out.push_str(", ");
            }
            write_typed_value(out, func, r);
        }
        out.push_str(" = ");
    }
    let text = match &data.kind {
        InstKind::Const { imm } => format!("const {imm}"),
        InstKind::Binary { op, args } => format!("{op} {}, {}", args[0], args[1]),
        InstKind::Icmp { pred, args } => format!("icmp {pred} {}, {}", args[0], args[1]),
        InstKind::Cast { op, arg } => format!("{op} {arg}"),
        InstKind::Select {
            cond,
            if_true,
            if_false,
        } => {
            format!("select {cond}, {if_true}, {if_false}")
        }
        InstKind::Bswap { arg } => format!("bswap {arg}"),
        InstKind::Hash { algo, args } => format!("hash {algo}({})", values(args)),
        InstKind::HdrRead { field } => format!("hdr.read {field}"),
        InstKind::HdrWrite { field, value } => format!("hdr.write {field}, {value}"),
        InstKind::HdrValid { header } => format!("hdr.valid {header}"),
        InstKind::HdrPush { header } => format!("hdr.push {header}"),
        InstKind::HdrPop { header } => format!("hdr.pop {header}"),
        InstKind::MetaRead { meta } => format!("meta.read {meta}"),
        InstKind::MapFind { state, key } => {
            format!("map.find {}({})", state_name(module, *state), values(key))
        }
        InstKind::MapInsert { state, key, value } => format!(
            "map.insert {}({}) -> ({})",
            state_name(module, *state),
            values(key),
            values(value)
        ),
        InstKind::MapErase { state, key } => {
            format!("map.erase {}({})", state_name(module, *state), values(key))
        }
        InstKind::VecGet { state, index } => {
            format!("vec.get {}[{index}]", state_name(module, *state))
        }
        InstKind::VecSet {
            state,
            index,
            value,
        } => {
            format!(
                "vec.set {}[{index}]({})",
                state_name(module, *state),
                values(value)
            )
        }
        InstKind::MeterExecute { state, index } => {
            format!("meter.execute {}[{index}]", state_name(module, *state))
        }
        InstKind::ScalarLoad { state } => format!("scalar.load {}", state_name(module, *state)),
        InstKind::ScalarStore { state, value } => {
            format!("scalar.store {}, {value}", state_name(module, *state))
        }
        InstKind::Send { port } => format!("send {port}"),
        InstKind::Drop => "drop".to_string(),
        InstKind::Opaque {
            name,
            args,
            reads,
            writes,
        } => format!(
            "opaque {}({}) reads {} writes {}",
            quote(name),
            values(args),
            effects(module, reads),
            effects(module, writes)
        ),
        InstKind::Jump { dest } => format!("br {}", block_call(dest)),
        InstKind::Brif {
            cond,
            then_dest,
            else_dest,
        } => {
            format!(
                "brif {cond}, {}, {}",
                block_call(then_dest),
                block_call(else_dest)
            )
        }
        InstKind::Switch {
            arg,
            default,
            cases,
        } => {
            let cs: Vec<String> = cases
                .iter()
                .map(|(k, c)| format!("{k}: {}", block_call(c)))
                .collect();
            format!("switch {arg}, {}, [{}]", block_call(default), cs.join(", "))
        }
        InstKind::Return => "return".to_string(),
    };
    out.push_str(&text);
    if let Some(loc) = data.loc {
        let _ = write!(out, " at {}:{}:{}", loc.file, loc.line, loc.col);
        if let Some(s) = loc.site {
            let _ = write!(out, " from {}:{}:{}", s.file, s.line, s.col);
        }
    }
}

impl std::fmt::Display for Module {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&print_module(self))
    }
}
