//! Source positions in the user's terms, read from the debug metadata of the LLVM IR text
//! (the `llvm-ir` crate keeps only an instruction's innermost location, without the chain of
//! inlined calls that leads to it).
//!
//! A diagnostic about code inlined from a library header (`std::vector::push_back`, an NF API
//! helper) is placed at the line of the NF's own source that called it, and names the call it
//! went through. The element's member names (for members TANDEM_NF does not list) come from
//! the element struct's debug description.

use std::collections::HashMap;

use crate::diag::SrcLoc;

/// Where one instruction of `tandem_nf_process_entry` is, in the user's source.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct UserLoc {
    /// The innermost position in the NF's own source (not a system or NF API header).
    pub loc: Option<SrcLoc>,
    /// The (demangled) function that position calls into, when the instruction came from a
    /// library function inlined there.
    pub inside: Option<String>,
}

/// A data member of the element struct: byte offset, size in bytes, name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DebugMember {
    pub offset: i64,
    pub size: i64,
    pub name: String,
    /// The member's type as the source names it (`std::vector<unsigned int, ...>`), when it
    /// is a class.
    pub ty: Option<String>,
}

impl DebugMember {
    /// Whether the member's type is a standard-library class that owns heap memory.
    pub(crate) fn allocating_std_type(&self) -> bool {
        const ALLOCATING: &[&str] = &[
            "vector<",
            "basic_string<",
            "deque<",
            "list<",
            "forward_list<",
            "map<",
            "multimap<",
            "set<",
            "multiset<",
            "unordered_map<",
            "unordered_multimap<",
            "unordered_set<",
            "unordered_multiset<",
            "unique_ptr<",
            "shared_ptr<",
            "function<",
        ];
        self.ty.as_deref().is_some_and(|t| {
            t.strip_prefix("std::")
                .is_some_and(|r| ALLOCATING.iter().any(|a| r.starts_with(a)))
        })
    }
}

/// What the lifter needs from the debug metadata.
#[derive(Debug, Default)]
pub(crate) struct SrcMap {
    /// Per block of the entry function (in order), per instruction then the terminator.
    pub blocks: Vec<Vec<UserLoc>>,
    pub members: Vec<DebugMember>,
}

struct Node<'a> {
    kind: &'a str,
    body: &'a str,
}

/// The value of field `key` in a metadata body (`line: 3, scope: !7, name: "x"`).
fn field<'a>(body: &'a str, key: &str) -> Option<&'a str> {
    let bytes = body.as_bytes();
    let (mut depth, mut quoted, mut start) = (0i32, false, 0usize);
    let mut i = 0;
    while i <= bytes.len() {
        let c = bytes.get(i).copied();
        match c {
            Some(b'"') => quoted = !quoted,
            Some(b'\\') if quoted => i += 1,
            Some(b'(' | b'{') if !quoted => depth += 1,
            Some(b')' | b'}') if !quoted => depth -= 1,
            Some(b',') | None if !quoted && depth == 0 => {
                let item = body.get(start..i)?.trim();
                if let Some(v) = item.strip_prefix(key).and_then(|r| r.strip_prefix(':')) {
                    return Some(v.trim());
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

fn md_ref(v: &str) -> Option<u32> {
    v.strip_prefix('!')?.parse().ok()
}

fn md_string(v: &str) -> Option<&str> {
    v.strip_prefix('"')?.strip_suffix('"')
}

/// The C++ name of a mangled symbol (the name itself when it is not a mangled one).
pub(crate) fn demangle(name: &str) -> String {
    cpp_demangle::Symbol::new(name)
        .ok()
        .and_then(|s| {
            s.demangle_with_options(&cpp_demangle::DemangleOptions::new().no_return_type())
                .ok()
        })
        .unwrap_or_else(|| name.to_string())
}

/// Whether a source file is the user's (not a system header nor an NF API header).
pub(crate) fn is_user_file(display: &str) -> bool {
    !(display.starts_with("/usr/") || display.starts_with("tandem/") || display.is_empty())
}

impl SrcMap {
    /// Reads the metadata of `ll` for the function `entry` and the element type `nf_type`.
    /// Anything it cannot read is left out (positions fall back to the innermost location).
    pub(crate) fn read(ll: &str, entry: &str, nf_type: Option<&str>) -> SrcMap {
        let mut nodes: HashMap<u32, Node<'_>> = HashMap::new();
        let mut tuples: HashMap<u32, &str> = HashMap::new();
        for line in ll.lines() {
            let Some(rest) = line.strip_prefix('!') else {
                continue;
            };
            let Some((id, def)) = rest.split_once(" = ") else {
                continue;
            };
            let Ok(id) = id.parse::<u32>() else { continue };
            let def = def.strip_prefix("distinct ").unwrap_or(def);
            if let Some(t) = def.strip_prefix("!{").and_then(|t| t.strip_suffix('}')) {
                tuples.insert(id, t);
                continue;
            }
            let Some(def) = def.strip_prefix('!') else {
                continue;
            };
            let Some((kind, body)) = def.split_once('(') else {
                continue;
            };
            let body = body.strip_suffix(')').unwrap_or(body);
            nodes.insert(id, Node { kind, body });
        }
        let mut map = SrcMap {
            members: nf_type
                .map(|t| element_members(&nodes, &tuples, t))
                .unwrap_or_default(),
            ..SrcMap::default()
        };
        let Some(body) = function_body(ll, entry) else {
            return map;
        };
        let r = Resolver { nodes: &nodes };
        let mut cache: HashMap<u32, UserLoc> = HashMap::new();
        let mut block: Vec<UserLoc> = Vec::new();
        for line in body {
            if line.starts_with(' ') {
                let code = line.trim_start();
                if code.is_empty() || code.starts_with(';') {
                    continue;
                }
                let loc = dbg_of(line)
                    .map(|id| cache.entry(id).or_insert_with(|| r.user_loc(id)).clone())
                    .unwrap_or_default();
                block.push(loc);
            } else if !line.is_empty() && !line.starts_with(';') && !block.is_empty() {
                map.blocks.push(std::mem::take(&mut block));
            }
        }
        if !block.is_empty() {
            map.blocks.push(block);
        }
        map
    }

    /// The position of instruction `i` (the terminator is `instrs.len()`) of block `b`, if the
    /// text had the same shape as the parsed module.
    pub(crate) fn at(&self, b: usize, i: usize) -> Option<&UserLoc> {
        self.blocks.get(b)?.get(i)
    }

    /// The member at element byte offset `off`.
    pub(crate) fn member_at(&self, off: i64) -> Option<&DebugMember> {
        self.members
            .iter()
            .find(|m| off >= m.offset && off < m.offset + m.size.max(1))
    }
}

/// The lines between `define ... @entry(` and its closing `}`.
fn function_body<'a>(ll: &'a str, entry: &str) -> Option<Vec<&'a str>> {
    let needle = format!("@{entry}(");
    let mut lines = ll.lines();
    lines.find(|l| l.starts_with("define ") && l.contains(&needle))?;
    Some(lines.take_while(|l| !l.starts_with('}')).collect())
}

fn dbg_of(line: &str) -> Option<u32> {
    let at = line.rfind("!dbg !")?;
    let digits: String = line[at + 6..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

struct Resolver<'a, 'b> {
    nodes: &'b HashMap<u32, Node<'a>>,
}

impl Resolver<'_, '_> {
    fn node(&self, id: u32) -> Option<&Node<'_>> {
        self.nodes.get(&id)
    }

    /// The displayed file of a scope (walking up lexical blocks).
    fn file_of_scope(&self, mut scope: u32) -> Option<String> {
        for _ in 0..64 {
            let n = self.node(scope)?;
            if let Some(f) = field(n.body, "file").and_then(md_ref) {
                let file = self.node(f)?;
                let name = field(file.body, "filename").and_then(md_string)?;
                return Some(crate::translate::display_path(name, None));
            }
            scope = field(n.body, "scope").and_then(md_ref)?;
        }
        None
    }

    /// The function a scope belongs to, demangled.
    fn function_of_scope(&self, mut scope: u32) -> Option<String> {
        for _ in 0..64 {
            let n = self.node(scope)?;
            if n.kind == "DISubprogram" {
                let name = field(n.body, "linkageName")
                    .or_else(|| field(n.body, "name"))
                    .and_then(md_string)?;
                return Some(demangle(name));
            }
            scope = field(n.body, "scope").and_then(md_ref)?;
        }
        None
    }

    fn user_loc(&self, id: u32) -> UserLoc {
        let mut cur = Some(id);
        let mut inner_scope: Option<u32> = None;
        for _ in 0..256 {
            let Some(n) = cur.and_then(|c| self.node(c)) else {
                break;
            };
            if n.kind != "DILocation" {
                break;
            }
            let line = field(n.body, "line").and_then(|v| v.parse::<u32>().ok());
            let col = field(n.body, "column").and_then(|v| v.parse::<u32>().ok());
            let scope = field(n.body, "scope").and_then(md_ref);
            let file = scope.and_then(|s| self.file_of_scope(s));
            if let (Some(line), Some(file)) = (line, &file) {
                if line > 0 && is_user_file(file) {
                    return UserLoc {
                        loc: Some(SrcLoc {
                            file: file.clone(),
                            line,
                            col: col.unwrap_or(0),
                        }),
                        inside: inner_scope.and_then(|s| self.function_of_scope(s)),
                    };
                }
            }
            inner_scope = scope;
            cur = field(n.body, "inlinedAt").and_then(md_ref);
        }
        UserLoc::default()
    }
}

/// The data members of the struct named `nf_type` (byte offsets; base classes' members are
/// not included).
fn element_members(
    nodes: &HashMap<u32, Node<'_>>,
    tuples: &HashMap<u32, &str>,
    nf_type: &str,
) -> Vec<DebugMember> {
    let quoted = format!("\"{nf_type}\"");
    let Some(elements) = nodes
        .values()
        .filter(|n| n.kind == "DICompositeType")
        .filter(|n| {
            field(n.body, "tag") == Some("DW_TAG_structure_type")
                || field(n.body, "tag") == Some("DW_TAG_class_type")
        })
        .filter(|n| field(n.body, "name") == Some(quoted.as_str()))
        .find_map(|n| field(n.body, "elements").and_then(md_ref))
    else {
        return Vec::new();
    };
    let Some(list) = tuples.get(&elements) else {
        return Vec::new();
    };
    let mut out: Vec<DebugMember> = list
        .split(',')
        .filter_map(|e| md_ref(e.trim()))
        .filter_map(|id| nodes.get(&id))
        .filter(|n| n.kind == "DIDerivedType" && field(n.body, "tag") == Some("DW_TAG_member"))
        .filter(|n| !field(n.body, "flags").is_some_and(|f| f.contains("DIFlagStaticMember")))
        .filter_map(|n| {
            let name = field(n.body, "name").and_then(md_string)?.to_string();
            let bits = |k| field(n.body, k).and_then(|v| v.parse::<i64>().ok());
            Some(DebugMember {
                offset: bits("offset").unwrap_or(0) / 8,
                size: bits("size").unwrap_or(0).div_euclid(8),
                name,
                ty: field(n.body, "baseType")
                    .and_then(md_ref)
                    .and_then(|t| class_name(nodes, t)),
            })
        })
        .collect();
    out.sort_by_key(|m| m.offset);
    out
}

/// The qualified name of a class type (through typedefs and qualifiers).
fn class_name(nodes: &HashMap<u32, Node<'_>>, mut ty: u32) -> Option<String> {
    for _ in 0..16 {
        let n = nodes.get(&ty)?;
        match n.kind {
            "DICompositeType" => {
                let mut name = field(n.body, "name").and_then(md_string)?.to_string();
                let mut scope = field(n.body, "scope").and_then(md_ref);
                for _ in 0..16 {
                    let Some(sn) = scope.and_then(|s| nodes.get(&s)) else {
                        break;
                    };
                    if let Some(ns) = field(sn.body, "name").and_then(md_string) {
                        // Inline namespaces (`std::__cxx11`) are not part of the spelling.
                        if !ns.starts_with("__") {
                            name = format!("{ns}::{name}");
                        }
                    }
                    scope = field(sn.body, "scope").and_then(md_ref);
                }
                return Some(name);
            }
            "DIDerivedType" => ty = field(n.body, "baseType").and_then(md_ref)?,
            _ => return None,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_of_a_metadata_body() {
        let b = r#"tag: DW_TAG_member, name: "a, b", scope: !3, flags: A | B, size: 32"#;
        assert_eq!(field(b, "name"), Some("\"a, b\""));
        assert_eq!(field(b, "scope"), Some("!3"));
        assert_eq!(field(b, "size"), Some("32"));
        assert_eq!(field(b, "flags"), Some("A | B"));
        assert_eq!(field(b, "line"), None);
    }

    #[test]
    fn demangles_cpp_names() {
        assert_eq!(demangle("_Znwm"), "operator new(unsigned long)");
        assert_eq!(demangle("memcmp"), "memcmp");
    }
}
