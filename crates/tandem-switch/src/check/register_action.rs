//! TNA's `RegisterAction`: a register's stateful-ALU program, run by `execute(index)`.
//!
//! `tna.p4` declares `RegisterAction<T, I, U>(Register<T, I> reg)` with the abstract method
//! `void apply(inout T value, @optional out U rv)` and `U execute(in I index)`. The
//! instantiation's body is the program; Tofino runs it as one read-modify-write of the
//! element. The parser keeps the declaration as raw text (`DeclKind::Extern`); this module
//! reads it back and, at each `execute`, lowers the read, the body over two local slots and
//! the write-back:
//!
//! ```text
//! before (P4):
//!   RegisterAction<bit<32>, bit<32>, bit<1>>(t0) touch = {
//!       void apply(inout bit<32> t, out bit<1> fresh) {
//!           if (meta.now - t <= TTL) { t = meta.now; fresh = 1w1; } else { fresh = 1w0; } } };
//!   ... meta.fresh = touch.execute(meta.i);
//! after (statement trees):
//!   RegRead t0[meta.i] -> $t; $fresh = 0;
//!   If(meta.now - $t <= TTL, [$t = meta.now; $fresh = 1], [$fresh = 0]);
//!   RegWrite t0[meta.i] = $t;  Set(meta.fresh, $fresh)
//! ```
//!
//! The index is evaluated once into a slot, so the write goes to the element that was read.

use super::*;

/// A parsed `RegisterAction` instance.
#[derive(Debug)]
pub(super) struct RegAction {
    /// The register it runs on.
    reg: u32,
    /// `apply`'s parameters: the element (`inout T`) and, optionally, the result (`out U`).
    params: Vec<Param>,
    /// `apply`'s body.
    body: Block,
}

/// Splits `RegisterAction < ... > ( reg ) name = { void apply ( params ) { body } } ;`
/// (tokens joined by spaces) into the type-and-register head, the parameters and the body.
fn split(text: &str) -> Option<(&str, &str, &str)> {
    let eq = text.find(" = {")?;
    let head = &text[..eq];
    let rest = text[eq + 4..].trim_start();
    let rest = rest.strip_prefix("void apply")?.trim_start();
    let rest = rest.strip_prefix('(')?;
    // the parameter list ends at the matching `)`
    let mut depth = 1;
    let mut close = None;
    for (i, c) in rest.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    close = Some(i);
                    break;
                }
            }
            _ => {}
        }
    }
    let close = close?;
    let params = &rest[..close];
    let body = rest[close + 1..].trim_start().strip_prefix('{')?;
    // drop the trailing `} } ;`: apply's `}`, the initializer's `}` and `;`
    let body = body.trim_end().strip_suffix(';')?.trim_end();
    let body = body.strip_suffix('}')?.trim_end().strip_suffix('}')?;
    Some((head, params, body))
}

impl Cx<'_> {
    /// A control-local `RegisterAction<T, I, U>(reg) name = { void apply(...) {...} };`.
    pub(super) fn register_action(&mut self, span: Span, name: &str, text: &str) -> Option<Obj> {
        let Some((head, params, body)) = split(text) else {
            self.err(
                span,
                format!("RegisterAction `{name}`: expected `= {{ void apply(...) {{ ... }} }};`"),
            );
            return None;
        };
        let reg_name = head
            .rfind('(')
            .and_then(|o| head[o + 1..].split(')').next())
            .map(str::trim)
            .unwrap_or_default();
        let reg = match self.lookup(reg_name) {
            Some(Obj::Register(r)) => r,
            _ => {
                self.err(
                    span,
                    format!("RegisterAction `{name}`: `{reg_name}` is not a Register"),
                );
                return None;
            }
        };
        let src = format!("control __register_action({params}) {{ apply {{ {body} }} }}");
        let parsed = match tandem_p4_syntax::parse_program(&src) {
            Ok(p) => p,
            Err(e) => {
                self.err(
                    span,
                    format!("RegisterAction `{name}`: its apply method: {}", e.message),
                );
                return None;
            }
        };
        let Some(DeclKind::Control { params, apply, .. }) =
            parsed.items.into_iter().next().map(|d| d.kind)
        else {
            return None;
        };
        if params.is_empty() || params.len() > 2 {
            self.err(
                span,
                format!("RegisterAction `{name}`: apply takes (inout T value[, out U result])"),
            );
            return None;
        }
        Some(Obj::RegisterAction(Rc::new(RegAction {
            reg,
            params,
            body: apply,
        })))
    }

    /// `ra.execute(index)`: read, the body, write back; the result's expression.
    pub(super) fn execute_register_action(
        &mut self,
        span: Span,
        ra: &RegAction,
        args: &[Expr],
    ) -> R<(Ex, Ty)> {
        if args.len() != 1 {
            self.err(span, "`execute` takes one argument (the index)");
            return Err(());
        }
        let (idx, it) = self.expr(&args[0])?;
        let idx = self.loose(args[0].span, idx, &it, &Ty::Bit(32))?;
        let width = self.c.registers[ra.reg as usize].width;
        let n = self.c.nslots;
        let at = self.new_slot(format!("$ra_index{n}"));
        let value = self.new_slot(format!("$ra_value{n}"));
        let mut pre = std::mem::take(&mut self.pre);
        pre.push(St::Set(Dst::Slot(at), idx));
        pre.push(St::RegRead {
            reg: ra.reg,
            dst: Dst::Slot(value),
            idx: Ex::Slot(at),
        });
        let mut scope = HashMap::new();
        let vty = self.resolve_type(span, &ra.params[0].ty)?;
        scope.insert(
            ra.params[0].name.clone(),
            Obj::Val {
                slot: value,
                ty: vty,
            },
        );
        let result = match ra.params.get(1) {
            Some(p) => {
                let ty = self.resolve_type(span, &p.ty)?;
                let slot = self.new_slot(format!("$ra_result{n}"));
                pre.push(St::Set(Dst::Slot(slot), Ex::Const(0)));
                scope.insert(
                    p.name.clone(),
                    Obj::Val {
                        slot,
                        ty: ty.clone(),
                    },
                );
                Some((slot, ty))
            }
            None => None,
        };
        self.scopes.push(scope);
        let body = self.stmts(&ra.body.stmts);
        self.scopes.pop();
        pre.extend(body);
        pre.push(St::RegWrite {
            reg: ra.reg,
            idx: Ex::Slot(at),
            val: Ex::Slot(value),
            m: mask(width),
        });
        self.pre = pre;
        Ok(match result {
            Some((slot, ty)) => (Ex::Slot(slot), ty),
            None => (Ex::Const(0), Ty::Bit(1)),
        })
    }
}
