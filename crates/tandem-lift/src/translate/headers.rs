//! Declared headers and the parse graph (`TANDEM_HEADER`, `TANDEM_PARSE`) → the module's
//! `headers` and `parse_edges`, and `pkt.header<H>()` → a header pointer.
//!
//! The analysis build leaves, per declared header `H`, `tandem_hdr_H = {sizeof(H), field
//! sizes..., 0}` and `tandem_hdrf_H = ",f1,f2"`, and per NF `tandem_nf_parse_edges`, an array
//! of `{from name, select offset, select bytes, value, to name, to size}`. Before:
//!
//! ```text
//! @tandem_hdr_VlanHdr = constant [4 x i64] [i64 4, i64 2, i64 2, i64 0]
//! @tandem_hdrf_VlanHdr = constant [15 x i8] c",tci,ethertype\00"
//! @tandem_nf_parse_edges = constant [2 x %"struct.tandem::detail::EdgeDesc"]
//!   [{ ptr @.str.eth, i32 12, i32 2, i64 33024, ptr @.str.VlanHdr, i32 4 }, ...]
//! %v = call ptr @tandem_api_pkt_header(ptr %pkt, ptr @tandem_hdr_VlanHdr)
//! ```
//!
//! After: `header VlanHdr {tci: i16, ethertype: i16}`, `parse eth.ethertype == 0x8100 ->
//! VlanHdr`, and `%v` is a pointer to the `VlanHdr` header (its loads and stores become
//! `hdr.read`/`hdr.write VlanHdr.tci`, its null test `hdr.valid VlanHdr`).

use llvm_ir::{Constant, Module as LModule, Operand};
use tandem_ir::{Header, HeaderDecl, Module, ParseEdge};

use super::helpers::{global_string, global_u64s};
use super::name_str;
use crate::diag::{Code, Diagnostic};

/// The C++ name a `HeaderTraits<H>::name` gives a built-in header.
fn builtin(name: &str) -> Option<Header> {
    Header::from_name(name)
}

/// The string a constant pointer operand points at (a global's initializer).
fn pointed_string(m: &LModule, c: &Constant) -> Option<String> {
    match c {
        Constant::GlobalReference { name, .. } => global_string(m, &name_str(name)),
        Constant::GetElementPtr(g) => pointed_string(m, g.address.as_ref()),
        _ => None,
    }
}

fn int(c: &Constant) -> Option<u64> {
    match c {
        Constant::Int { value, .. } => Some(*value),
        _ => None,
    }
}

/// The declared header named `name` (`tandem_hdr_<name>` / `tandem_hdrf_<name>`).
fn declare(m: &LModule, name: &str) -> Result<Header, String> {
    let sizes = global_u64s(m, &format!("tandem_hdr_{name}"))
        .ok_or_else(|| format!("header `{name}` is not declared with TANDEM_HEADER"))?;
    let names = global_string(m, &format!("tandem_hdrf_{name}")).unwrap_or_default();
    let fields: Vec<&str> = names.split(',').filter(|f| !f.is_empty()).collect();
    let widths = sizes.get(1..=fields.len()).unwrap_or_default();
    let mut decl = HeaderDecl {
        name: name.to_string(),
        fields: Vec::new(),
    };
    for (f, &bytes) in fields.iter().zip(widths) {
        if !(1..=8).contains(&bytes) {
            return Err(format!(
                "field `{name}::{f}` is {bytes} bytes wide; a header field is 1 to 8 bytes"
            ));
        }
        decl.fields.push((f.to_string(), (bytes * 8) as u32));
    }
    Header::declare(&decl).map_err(|e| e.to_string())
}

/// Reads the NF's parse graph into `module` (nothing when the NF has no `TANDEM_PARSE`).
pub(crate) fn read_parse_graph(m: &LModule, module: &mut Module) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let Some(g) = m
        .global_vars
        .iter()
        .find(|g| name_str(&g.name) == "tandem_nf_parse_edges")
    else {
        return diags;
    };
    let elements = match g.initializer.as_ref().map(|c| c.as_ref()) {
        Some(Constant::Array { elements, .. }) => elements.clone(),
        Some(Constant::Struct { .. }) => g.initializer.iter().cloned().collect(),
        _ => Vec::new(),
    };
    let resolve = |module: &mut Module, name: &str| -> Result<Header, String> {
        if let Some(h) = builtin(name).or_else(|| module.header_by_name(name)) {
            return Ok(h);
        }
        let h = declare(m, name)?;
        module.headers.push(h);
        Ok(h)
    };
    for e in elements {
        let Constant::Struct { values, .. } = e.as_ref() else {
            continue;
        };
        let get = |i: usize| values.get(i).map(|v| v.as_ref());
        let (Some(from), Some(to)) = (
            get(0).and_then(|c| pointed_string(m, c)),
            get(4).and_then(|c| pointed_string(m, c)),
        ) else {
            diags.push(Diagnostic::new(
                Code::HeaderDecl,
                "TANDEM_PARSE: an edge's header names are not constants",
                None,
            ));
            continue;
        };
        let (sel_at, sel_bytes, value) = (
            get(1).and_then(int).unwrap_or(0),
            get(2).and_then(int).unwrap_or(0),
            get(3).and_then(int).unwrap_or(0),
        );
        let edge = resolve(module, &from).and_then(|f| {
            let t = resolve(module, &to)?;
            let select = if sel_bytes == 0 {
                None
            } else {
                let field = f
                    .fields()
                    .find(|x| x.byte_offset() as u64 == sel_at && u64::from(x.bits()) == sel_bytes * 8)
                    .ok_or_else(|| format!("the select field of `{from}` -> `{to}` is not one whole field of `{from}`"))?;
                Some(field)
            };
            Ok(ParseEdge {
                from: f,
                select,
                value,
                to: t,
            })
        });
        match edge {
            Ok(e) => module.parse_edges.push(e),
            Err(msg) => diags.push(Diagnostic::new(Code::HeaderDecl, msg, None)),
        }
    }
    if diags.is_empty() {
        if let Err(errs) = tandem_ir::verify::verify_parse_graph(module) {
            for e in errs.0 {
                diags.push(Diagnostic::new(
                    Code::HeaderDecl,
                    format!("TANDEM_PARSE: {}", e.message),
                    None,
                ));
            }
        }
    }
    diags
}

/// The header `pkt.push<H>()`/`pkt.pop<H>()` names: the built-in index when it is one
/// (`builtin >= 0`), else the tag `@tandem_hdr_<H>`.
pub(crate) fn header_of_push(
    module: &Module,
    tag: &Operand,
    builtin: Option<u64>,
) -> Result<Header, String> {
    match builtin {
        Some(i) if i < 4 => Ok(Header::ALL[i as usize]),
        _ => header_of_tag(module, tag),
    }
}

/// The header `pkt.header<H>()` names: its argument is `@tandem_hdr_<H>`.
pub(crate) fn header_of_tag(module: &Module, tag: &Operand) -> Result<Header, String> {
    let Operand::ConstantOperand(c) = tag else {
        return Err("pkt.header<H>() with a header tag that is not a constant".into());
    };
    let Constant::GlobalReference { name, .. } = c.as_ref() else {
        return Err("pkt.header<H>() with a header tag that is not a constant".into());
    };
    let g = name_str(name);
    let h = g.strip_prefix("tandem_hdr_").unwrap_or(&g);
    module.header_by_name(h).ok_or_else(|| {
        format!("pkt.header<{h}>(): no TANDEM_EDGE in TANDEM_PARSE leads to `{h}`, so it is never present")
    })
}
