//! The only unsafe code of the switch: owning JIT memory, entering compiled code, and the
//! run-time calls compiled code makes back into Rust.
//!
//! # Invariants
//! 1. **Memory the compiled code touches.** Compiled code receives one pointer, to an
//!    [`Rt`] that the worker owns (boxed, one per worker, refilled by [`enter`]; blocks are
//!    entered only from the pipeline loop, never nested, so one `Rt` serves them all). From
//!    it, it reads the PHV pointer (a `[u64; PHV_SLOTS]`) and the packet-buffer pointer
//!    (a `[u8; HB_SIZE + 8]`),
//!    both taken from the [`Ctx`] the call runs for. `codegen` emits PHV accesses only at
//!    constant slot indices masked with `PHV_MASK`, and packet-buffer accesses only at
//!    `(phv[base] + off) & HB_MASK` for 8-byte windows, which the 8 bytes of slack keep in
//!    bounds; `Rt::keys` and `Rt::ext` are written at constant indices or indices checked
//!    against their length; `Rt::cursor`, `pkt_len`, `n_ext` are plain fields.
//!    `Rt::lookups` is the packet's snapshot's table of compiled lookups, read at constant
//!    indices below the number of tables (every snapshot has one entry per table). Register cells
//!    are read and written in place: the address of each register's `[AtomicU64]` is a
//!    constant in the code, indices are checked against its length (out of range reads 0
//!    and writes nothing), and the cells live in the switch's `Stateful`, which is created
//!    before the code and dropped with it. A cell is an aligned 64-bit word, so a plain
//!    load or store of it is single-copy atomic on the targets Cranelift supports, which
//!    is what the interpreter's `Relaxed` loads and stores compile to. Nothing else is
//!    read or written by compiled code except through the run-time calls below.
//! 2. **Run-time calls.** Compiled code calls the `extern "C"` functions of this module with
//!    the `Rt` pointer it was given. While compiled code runs, the `&mut Ctx` it was entered
//!    with is not used by anyone else, so turning `Rt::ctx` back into `&mut Ctx` for the
//!    duration of one run-time call is the only live mutable reference to it; compiled code
//!    keeps no value of PHV or packet memory in registers across a call (calls clobber
//!    memory in Cranelift's alias analysis), so what the call writes is seen afterwards.
//! 3. **Code lifetime.** Function pointers are taken from a finalised [`JITModule`] that a
//!    [`JitCode`] owns; it frees the memory only when dropped, and every function pointer
//!    lives in the same `NativeProgram` as its `JitCode`, which the switch keeps as long as
//!    any worker can run it. Compiled code never unwinds (it has no panics; run-time calls
//!    do not panic: they use checked indexing and return defaults).
//!    A compiled table lookup (`tables`) belongs to the snapshot whose `lookups` point to
//!    it, and the packet holds that snapshot for as long as it runs.
//! 4. **Types.** Every compiled function (blocks, actions, table lookups) has the signature `extern "C" fn(*mut Rt) -> u32`
//!    (`codegen::fn_signature`), and the run-time calls have the signature
//!    `extern "C" fn(*mut Rt, u32) -> u32` (`codegen::call_signature`), both in the host's
//!    default calling convention.

use super::Rt;
use crate::exec::Ctx;
use cranelift_jit::JITModule;
use cranelift_module::FuncId;

/// A compiled block or action: `fn(rt) -> 1 if the block ended by `exit`, 0 otherwise`.
pub(crate) type CodeFn = unsafe extern "C" fn(*mut Rt) -> u32;

/// A finalised JIT module: the memory of every function in it.
pub(crate) struct JitCode(Option<JITModule>);

// SAFETY: the module is finalised before it is wrapped and never mutated afterwards (only
// freed, in `Drop`, when no function pointer into it can be called any more: invariant 3).
unsafe impl Send for JitCode {}
// SAFETY: as for `Send`: shared references give no access to the module at all.
unsafe impl Sync for JitCode {}

impl JitCode {
    /// Wraps a module whose definitions are finalised, returning the entry points of `ids`.
    pub(crate) fn new(module: JITModule, ids: &[FuncId]) -> (JitCode, Vec<CodeFn>) {
        let fns = ids
            .iter()
            .map(|&id| {
                let p = module.get_finalized_function(id);
                // SAFETY: `p` is the finalised code of a function compiled with
                // `codegen::fn_signature` (invariant 4).
                unsafe { std::mem::transmute::<*const u8, CodeFn>(p) }
            })
            .collect();
        (JitCode(Some(module)), fns)
    }
}

impl Drop for JitCode {
    fn drop(&mut self) {
        if let Some(m) = self.0.take() {
            // SAFETY: no function pointer into this module outlives it (invariant 3).
            unsafe { m.free_memory() };
        }
    }
}

/// Runs compiled block `f` for `ctx`; true if it ended by `exit`.
///
/// The `Rt` is the worker's own (`Ctx::rt`), allocated once: only the fields that change
/// per packet are set here, the key and extraction buffers are not cleared (compiled code
/// writes a key before any lookup reads it, and reads `ext` only below `n_ext`).
pub(crate) fn enter(f: CodeFn, ctx: &mut Ctx<'_>) -> bool {
    let rtp = ctx.rt.as_ptr();
    {
        // SAFETY: `ctx.rt` points to the worker's boxed `Rt`, which only the packet this
        // `ctx` runs uses (invariant 1); no other reference to it is live here.
        let rt = unsafe { &mut *rtp };
        rt.phv = ctx.phv.as_mut_ptr();
        rt.hb = ctx.hb.as_mut_ptr();
        rt.lookups = ctx.snap.lookups.as_ptr();
        rt.cursor = ctx.cursor as u64;
        rt.pkt_len = ctx.pkt.len() as u64;
        rt.n_ext = 0;
        rt.ctx = (ctx as *mut Ctx<'_>).cast();
    }
    // SAFETY: invariants 1–4: `rt` and the memory it points to are valid for the call.
    let exited = unsafe { f(rtp) != 0 };
    // SAFETY: as above; the call has returned, so this is the only reference to it.
    sync_extracted(ctx, unsafe { &*rtp });
    exited
}

impl Rt {
    /// A worker's run-time block, pointing nowhere until [`enter`] fills it in.
    pub(crate) fn empty() -> Rt {
        Rt {
            phv: std::ptr::null_mut(),
            hb: std::ptr::null_mut(),
            ctx: std::ptr::null_mut(),
            keys: [0; crate::table::MAX_KEYS],
            lookups: std::ptr::null(),
            cursor: 0,
            pkt_len: 0,
            n_ext: 0,
            ext: [0; super::EXT_MAX],
        }
    }
}

// SAFETY: a worker's `Rt` holds pointers only while [`enter`] runs on the worker's own
// thread; between packets they are stale and never dereferenced (`enter` sets them first).
unsafe impl Send for Rt {}

/// Hands what compiled code extracted back to `ctx`: the cursor and the headers, in order
/// (past [`super::EXT_MAX`], a marker no emit list has, so the deparser rebuilds the frame).
fn sync_extracted(ctx: &mut Ctx<'_>, rt: &Rt) {
    ctx.cursor = rt.cursor as usize;
    let n = rt.n_ext as usize;
    ctx.extracted
        .extend_from_slice(&rt.ext[..n.min(super::EXT_MAX)]);
    if n > super::EXT_MAX {
        ctx.extracted.push(u32::MAX);
    }
}

/// The `Ctx` and key buffer of a run-time call.
///
/// # Safety
/// `rt` is the pointer compiled code was entered with by [`enter`] (invariant 2).
unsafe fn parts<'r>(rt: *mut Rt) -> (&'r mut Ctx<'r>, &'r [u64; crate::table::MAX_KEYS]) {
    // SAFETY: `rt` points to the live `Rt` built by `enter`, whose `ctx` is the `&mut Ctx`
    // `enter` was given, unused elsewhere during the call (invariant 2).
    let (ctx, rt) = unsafe {
        let rt = &*rt;
        (&mut *rt.ctx.cast::<Ctx<'r>>(), rt)
    };
    // the effects that read the payload see the parser's cursor
    ctx.cursor = rt.cursor as usize;
    (ctx, &rt.keys)
}

/// Run-time call: looks table `table` up on the keys in `Rt::keys`, writes hit, action run
/// and the action's parameters, returns the action to run.
pub(crate) extern "C" fn rt_apply(rt: *mut Rt, table: u32) -> u32 {
    // SAFETY: called only from compiled code (invariant 2).
    let (ctx, keys) = unsafe { parts(rt) };
    ctx.apply_table(table, keys)
}

/// Run-time call: [`rt_apply`] for a single-`lpm`-key table without direct counter or
/// ageing (the leaf's packed record instead of the entry; other tables the general path).
pub(crate) extern "C" fn rt_apply_lpm(rt: *mut Rt, table: u32) -> u32 {
    // SAFETY: called only from compiled code (invariant 2).
    let (ctx, keys) = unsafe { parts(rt) };
    ctx.apply_lpm(table, keys)
}

/// Run-time call: runs the effect op at `pc` (register, counter, meter, hash, checksum,
/// emit, copy); returns 0.
pub(crate) extern "C" fn rt_op(rt: *mut Rt, pc: u32) -> u32 {
    // SAFETY: called only from compiled code (invariant 2).
    let (ctx, _) = unsafe { parts(rt) };
    ctx.exec_effect(pc);
    0
}

/// Run-time call: runs action `a` (parameters already set) in the interpreter; 1 if it
/// ended by `exit`.
pub(crate) extern "C" fn rt_action(rt: *mut Rt, a: u32) -> u32 {
    // SAFETY: called only from compiled code (invariant 2).
    let (ctx, _) = unsafe { parts(rt) };
    u32::from(ctx.run_action_interpreted(a))
}

/// Frees a module that was not finalised (code generation is retried without a function).
pub(crate) fn discard(module: JITModule) {
    // SAFETY: nothing was taken from an unfinalised module, so no pointer into it exists.
    unsafe { module.free_memory() };
}
