//! End to end: every example NF, compiled to switch.p4 + server.cc, runs on the software
//! switch and the compiled server partition against the native NF on the same traffic; every
//! packet must leave both on the same port with the same bytes.
//!
//! ```text
//!  trace ──▶ [tandem-switch: switch.p4] ──port 64, tag 1──▶ [this test's runtime: server.so]
//!                    ▲   └──▶ out                                   │ state ops on the
//!                    └────────────── tag 2 ◀────────────────────────┘ primary copy (IR store),
//!                                                                     table sync via the
//!  trace ──▶ [native NF (reference host)] ──▶ out                     write-back tables
//! ```
//!
//! The test's runtime plays Tandem's server host: it decodes the transfer header with the
//! manifest, calls `tandem_server_process`, and after each server packet brings the switch's
//! copies of replicated state up to date with the atomic-update protocol (the batch goes to
//! the write-back tables and becomes visible with the flag; it is merged into the main tables
//! before the next batch). State starts as the native NF's after `configure()`.
//!
//! Knobs for longer runs: `TANDEM_E2E_PACKETS` (default 3000), `TANDEM_E2E_FLOWS` (300),
//! `TANDEM_E2E_PROFILE` (tofino1; also bmv2, tofino2, tiny), `TANDEM_E2E_NOSPLIT=1`,
//! `TANDEM_E2E_WORKLOAD` (any built-in workload), `TANDEM_E2E_CASES` (random profiles, 4).

use std::collections::BTreeMap;
use std::ffi::{c_char, c_int, c_void, CStr};
use std::path::{Path, PathBuf};

use tandem_ir::interp::{DumpFormat, Machine, NoOpaque, OpaqueHandler, Packet, StateStore};
use tandem_ir::{Inst, InstKind, Module, StateKind, Value};
use tandem_p4::manifest::{Manifest, TableRole};
use tandem_p4::{generate, P4Options};
use tandem_partition::{partition_module, PartitionOptions, Placement, Plan, TargetProfile};
use tandem_runtime::irhost::load_native_state;
use tandem_runtime::{compile_native, BuildOptions, Host, NativeNf, NfConfig, Verdict};
use tandem_switch::{KeyMatch, Switch, TableEntry};
use tandem_traffic::{GenOptions, Generator, Plan as Addr, ReplyRewriter, TracePacket, Workload};

const SERVER_PORT: u32 = 64;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn cache() -> PathBuf {
    std::env::temp_dir().join("tandem-test-cache-p4")
}

// ----- the server ABI (include/tandem/server.h) -----

#[repr(C)]
struct Ops {
    ctx: *mut c_void,
    map_find: extern "C" fn(*mut c_void, u32, *const u64, *mut u64) -> c_int,
    map_insert: extern "C" fn(*mut c_void, u32, *const u64, *const u64) -> c_int,
    map_erase: extern "C" fn(*mut c_void, u32, *const u64),
    vec_get: extern "C" fn(*mut c_void, u32, u64, *mut u64),
    vec_set: extern "C" fn(*mut c_void, u32, u64, *const u64),
    scalar_load: extern "C" fn(*mut c_void, u32) -> u64,
    scalar_store: extern "C" fn(*mut c_void, u32, u64),
    #[allow(clippy::type_complexity)]
    opaque: extern "C" fn(*mut c_void, *const c_char, *const u64, u32, *mut u64, u32, *mut u8, u32),
}

#[repr(C)]
struct CPacket {
    data: *mut u8,
    len: u32,
    in_port: u16,
    now_ns: u64,
}

type ProcessFn = unsafe extern "C" fn(*const Ops, *mut CPacket, *const u64, *mut u64) -> c_int;

/// The server's primary copy of the NF state, and how the ops reach it: map operations run
/// the module's own instruction on the interpreter (exact IR semantics: capacity, expiry).
struct Rt<'m> {
    module: &'m Module,
    store: StateStore,
    now: u64,
    /// A `map.find`/`map.insert`/`map.erase` instruction per state, to run map operations.
    find: BTreeMap<u32, Inst>,
    insert: BTreeMap<u32, Inst>,
    erase: BTreeMap<u32, Inst>,
}

impl Rt<'_> {
    fn run(&mut self, inst: Inst, inputs: &[(Value, u64)]) -> Vec<u64> {
        let pkt = Packet {
            bytes: Vec::new(),
            in_port: 0,
            timestamp_ns: self.now,
        };
        let mut m = Machine::new(self.module, &mut self.store, &pkt);
        for &(v, x) in inputs {
            m.set_value(v, x).unwrap();
        }
        m.exec(inst, &mut self.store, &pkt, &mut NoOpaque).unwrap();
        let results = &self.module.process.insts[inst].results;
        results.iter().map(|&r| m.value(r).unwrap()).collect()
    }

    fn state_name(&self, s: u32) -> String {
        self.module.states[tandem_ir::StateId::from_u32(s)]
            .name
            .clone()
    }
}

fn rt<'a, 'm>(ctx: *mut c_void) -> &'a mut Rt<'m> {
    // SAFETY: ctx is the `Rt` the test passes in `Ops::ctx` for the duration of the call.
    unsafe { &mut *(ctx as *mut Rt<'m>) }
}

fn slice<'a>(p: *const u64, n: usize) -> &'a [u64] {
    if n == 0 {
        return &[];
    }
    // SAFETY: the generated code passes arrays of the layout's length.
    unsafe { std::slice::from_raw_parts(p, n) }
}

extern "C" fn map_find(ctx: *mut c_void, s: u32, key: *const u64, value: *mut u64) -> c_int {
    let rt = rt(ctx);
    let inst = rt.find[&s];
    let InstKind::MapFind { key: args, .. } = rt.module.process.insts[inst].kind.clone() else {
        unreachable!()
    };
    let inputs: Vec<_> = args
        .iter()
        .copied()
        .zip(slice(key, args.len()).iter().copied())
        .collect();
    let r = rt.run(inst, &inputs);
    if r[0] == 1 {
        for (i, v) in r[1..].iter().enumerate() {
            // SAFETY: value has one slot per value-layout field.
            unsafe { *value.add(i) = *v };
        }
    }
    r[0] as c_int
}

extern "C" fn map_insert(ctx: *mut c_void, s: u32, key: *const u64, value: *const u64) -> c_int {
    let rt = rt(ctx);
    let inst = rt.insert[&s];
    let InstKind::MapInsert {
        key: k, value: v, ..
    } = rt.module.process.insts[inst].kind.clone()
    else {
        unreachable!()
    };
    let mut inputs: Vec<_> = k
        .iter()
        .copied()
        .zip(slice(key, k.len()).iter().copied())
        .collect();
    inputs.extend(v.iter().copied().zip(slice(value, v.len()).iter().copied()));
    rt.run(inst, &inputs)[0] as c_int
}

extern "C" fn map_erase(ctx: *mut c_void, s: u32, key: *const u64) {
    let rt = rt(ctx);
    let inst = rt.erase[&s];
    let InstKind::MapErase { key: k, .. } = rt.module.process.insts[inst].kind.clone() else {
        unreachable!()
    };
    let inputs: Vec<_> = k
        .iter()
        .copied()
        .zip(slice(key, k.len()).iter().copied())
        .collect();
    rt.run(inst, &inputs);
}

extern "C" fn vec_get(ctx: *mut c_void, s: u32, index: u64, elem: *mut u64) {
    let rt = rt(ctx);
    let name = rt.state_name(s);
    let e = rt.store.vec_get(rt.module, &name, index).unwrap();
    for (i, v) in e.iter().enumerate() {
        // SAFETY: elem has one slot per element field.
        unsafe { *elem.add(i) = *v };
    }
}

extern "C" fn vec_set(ctx: *mut c_void, s: u32, index: u64, elem: *const u64) {
    let rt = rt(ctx);
    let name = rt.state_name(s);
    let n = match &rt.module.states[tandem_ir::StateId::from_u32(s)].kind {
        StateKind::Vector { elem, .. } => elem.fields.len(),
        _ => 0,
    };
    let e = slice(elem, n).to_vec();
    rt.store.vec_set(rt.module, &name, index, &e).unwrap();
}

extern "C" fn scalar_load(ctx: *mut c_void, s: u32) -> u64 {
    let rt = rt(ctx);
    let name = rt.state_name(s);
    rt.store.scalar_get(rt.module, &name).unwrap()
}

extern "C" fn scalar_store(ctx: *mut c_void, s: u32, v: u64) {
    let rt = rt(ctx);
    let name = rt.state_name(s);
    rt.store.scalar_set(rt.module, &name, v).unwrap();
}

#[allow(clippy::too_many_arguments)]
extern "C" fn opaque(
    ctx: *mut c_void,
    name: *const c_char,
    args: *const u64,
    nargs: u32,
    results: *mut u64,
    nresults: u32,
    pkt: *mut u8,
    len: u32,
) {
    let rt = rt(ctx);
    // SAFETY: the generated code passes a NUL-terminated literal and the packet buffer.
    let name = unsafe { CStr::from_ptr(name) }
        .to_str()
        .unwrap()
        .to_string();
    let types: Vec<_> = rt
        .module
        .process
        .insts
        .values()
        .find(|d| matches!(&d.kind, InstKind::Opaque { name: n, .. } if *n == name))
        .map(|d| {
            d.results
                .iter()
                .map(|&r| rt.module.process.value_type(r).unwrap())
                .collect()
        })
        .unwrap_or_default();
    // SAFETY: pkt points to len bytes owned by the caller.
    let bytes = unsafe { std::slice::from_raw_parts_mut(pkt, len as usize) };
    let mut frame = bytes.to_vec();
    let out = tandem_lift::PayloadOps
        .call(
            &name,
            slice(args, nargs as usize),
            &types,
            &mut frame,
            &mut rt.store,
        )
        .unwrap();
    bytes.copy_from_slice(&frame[..bytes.len()]);
    for (i, v) in out.iter().take(nresults as usize).enumerate() {
        // SAFETY: results has nresults slots.
        unsafe { *results.add(i) = *v };
    }
}

// ----- the offloaded system -----

struct Offloaded<'m> {
    sw: Switch,
    manifest: Manifest,
    plan: &'m Plan,
    rt: Rt<'m>,
    process: ProcessFn,
    _lib: libloading::Library,
    /// What the main tables hold, per state (every copy holds the same).
    main: BTreeMap<String, BTreeMap<Vec<u64>, Vec<u64>>>,
    /// What the write-back tables hold (None: deleted).
    pending: BTreeMap<String, BTreeMap<Vec<u64>, Option<Vec<u64>>>>,
    scalars: BTreeMap<String, u64>,
    server_packets: u64,
}

fn be_fields(hex: &str, layout: &tandem_ir::Layout) -> Vec<u64> {
    let bytes: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect();
    let mut at = 0;
    layout
        .fields
        .iter()
        .map(|f| {
            let n = f.ty.bytes() as usize;
            let v = bytes[at..at + n]
                .iter()
                .fold(0u64, |a, b| (a << 8) | u64::from(*b));
            at += n;
            v
        })
        .collect()
}

impl<'m> Offloaded<'m> {
    fn map_contents(&self, name: &str) -> BTreeMap<Vec<u64>, Vec<u64>> {
        let module = self.rt.module;
        let sid = module.state_by_name(name).unwrap();
        let (kl, vl) = module.states[sid].kind.map_layouts().unwrap();
        let mut store = self.rt.store.clone();
        store.clock_ns = self.rt.now;
        let dump = store.dump(module, DumpFormat::Canonical).unwrap();
        let d = dump.into_iter().find(|d| d.name == name).unwrap();
        d.entries
            .iter()
            .map(|e| (be_fields(&e.key, kl), be_fields(&e.value, vl)))
            .collect()
    }

    fn tables(&self, state: &str, role: TableRole) -> Vec<tandem_p4::manifest::Table> {
        self.manifest
            .tables
            .iter()
            .filter(|t| t.state == state && t.role == role)
            .cloned()
            .collect()
    }

    fn write(&self, t: &tandem_p4::manifest::Table, key: &[u64], action: Option<&[u64]>) {
        let name = |a: &tandem_p4::manifest::Action| a.name.rsplit('.').next().unwrap().to_string();
        let matches: Vec<_> = key.iter().map(|&k| KeyMatch::Exact(k)).collect();
        let _ = self.sw.delete(&t.name, matches.clone(), None);
        let entry = match action {
            Some(data) => TableEntry {
                matches,
                action: name(&t.hit_action),
                args: data.to_vec(),
                priority: None,
            },
            None => TableEntry {
                matches,
                action: name(t.delete_action.as_ref().unwrap()),
                args: Vec::new(),
                priority: None,
            },
        };
        self.sw.insert(&t.name, entry).unwrap();
    }

    fn synced_states(&self) -> Vec<(String, Placement, bool)> {
        self.plan
            .states
            .iter()
            .filter(|s| !s.switch_accesses.is_empty() && s.placement != Placement::Server)
            .map(|s| (s.name.clone(), s.placement, s.kind.ends_with("map")))
            .collect()
    }

    /// Everything from the primary copy straight into the main tables and registers.
    fn full_sync(&mut self) {
        let flag = self.manifest.visibility_flag.clone();
        if let Some(f) = &flag {
            self.sw.register_write(f, 0, 0).unwrap();
        }
        for (name, _, is_map) in self.synced_states() {
            if is_map {
                for t in self.tables(&name, TableRole::WriteBack) {
                    for (k, _) in self.pending.get(&name).cloned().unwrap_or_default() {
                        let m: Vec<_> = k.iter().map(|&x| KeyMatch::Exact(x)).collect();
                        let _ = self.sw.delete(&t.name, m, None);
                    }
                }
                self.pending.remove(&name);
                let want = self.map_contents(&name);
                let have = self.main.get(&name).cloned().unwrap_or_default();
                for t in self.tables(&name, TableRole::Main) {
                    for k in have.keys().filter(|k| !want.contains_key(*k)) {
                        let m: Vec<_> = k.iter().map(|&x| KeyMatch::Exact(x)).collect();
                        self.sw.delete(&t.name, m, None).unwrap();
                    }
                    for (k, v) in &want {
                        if have.get(k) != Some(v) {
                            self.write(&t, k, Some(v));
                        }
                    }
                }
                self.main.insert(name, want);
            } else {
                self.sync_registers(&name);
            }
        }
    }

    fn sync_registers(&mut self, name: &str) {
        let module = self.rt.module;
        let regs: Vec<_> = self
            .manifest
            .registers
            .iter()
            .filter(|r| r.state == name)
            .cloned()
            .collect();
        let sid = module.state_by_name(name).unwrap();
        match &module.states[sid].kind {
            StateKind::Scalar { .. } => {
                let v = self.rt.store.scalar_get(module, name).unwrap();
                if self.scalars.get(name) != Some(&v) {
                    for r in &regs {
                        self.sw.register_write(&r.name, 0, v).unwrap();
                    }
                    self.scalars.insert(name.to_string(), v);
                }
            }
            StateKind::Vector { len, .. } => {
                for i in 0..*len {
                    let e = self.rt.store.vec_get(module, name, i).unwrap();
                    for (r, v) in regs.iter().zip(e) {
                        self.sw.register_write(&r.name, i as u32, v).unwrap();
                    }
                }
            }
            _ => {}
        }
    }

    /// After a server packet: merge the previous batch into the main tables, then publish the
    /// new one through the write-back tables and the visibility flag.
    fn atomic_sync(&mut self) {
        let flag = self.manifest.visibility_flag.clone();
        for (name, placement, is_map) in self.synced_states() {
            if placement != Placement::Replicated {
                continue;
            }
            if !is_map {
                self.sync_registers(&name);
                continue;
            }
            let Some(flag) = &flag else {
                self.full_sync();
                return;
            };
            // 1. Merge the pending batch into the main tables; clear the write-back tables.
            let pending = self.pending.remove(&name).unwrap_or_default();
            let main = self.main.entry(name.clone()).or_default().clone();
            let mut merged = main.clone();
            for (k, v) in &pending {
                match v {
                    Some(v) => {
                        merged.insert(k.clone(), v.clone());
                    }
                    None => {
                        merged.remove(k);
                    }
                }
            }
            for t in self.tables(&name, TableRole::Main) {
                for (k, v) in &pending {
                    match v {
                        Some(v) => self.write(&t, k, Some(v)),
                        None => {
                            let m: Vec<_> = k.iter().map(|&x| KeyMatch::Exact(x)).collect();
                            let _ = self.sw.delete(&t.name, m, None);
                        }
                    }
                }
            }
            self.sw.register_write(flag, 0, 0).unwrap();
            for t in self.tables(&name, TableRole::WriteBack) {
                for k in pending.keys() {
                    let m: Vec<_> = k.iter().map(|&x| KeyMatch::Exact(x)).collect();
                    let _ = self.sw.delete(&t.name, m, None);
                }
            }
            // 2. The new batch into the write-back tables, then one flag write.
            let want = self.map_contents(&name);
            let mut batch = BTreeMap::new();
            for k in merged.keys().filter(|k| !want.contains_key(*k)) {
                batch.insert(k.clone(), None);
            }
            for (k, v) in &want {
                if merged.get(k) != Some(v) {
                    batch.insert(k.clone(), Some(v.clone()));
                }
            }
            for t in self.tables(&name, TableRole::WriteBack) {
                for (k, v) in &batch {
                    self.write(&t, k, v.as_deref());
                }
            }
            if !batch.is_empty() {
                self.sw.register_write(flag, 0, 1).unwrap();
            }
            self.main.insert(name.clone(), merged);
            self.pending.insert(name, batch);
        }
    }

    fn process(&mut self, pkt: &TracePacket) -> Verdict {
        let mut w = self.sw.worker();
        let Some((port, bytes)) = w.process(pkt.port, &pkt.data).map(|(p, b)| (p, b.to_vec()))
        else {
            return Verdict::Drop;
        };
        if port != SERVER_PORT {
            return Verdict::Send { port, frame: bytes };
        }
        self.server_packets += 1;
        // Decode the transfer header.
        let th = self.manifest.transfer_header.clone();
        let hlen = th.bytes as usize;
        let hdr = bytes[14..14 + hlen].to_vec();
        let get = |off: u32, bits: u32| -> u64 {
            (off..off + bits).fold(0u64, |acc, b| {
                (acc << 1) | u64::from((hdr[(b / 8) as usize] >> (7 - b % 8)) & 1)
            })
        };
        let input: Vec<u64> = th.fields.iter().map(|f| get(f.offset, f.bits)).collect();
        let mut frame = bytes[..12].to_vec();
        frame.extend_from_slice(&hdr[1..3]);
        frame.extend_from_slice(&bytes[14 + hlen..]);
        let mut output = vec![0u64; th.fields.len()];
        self.rt.now = pkt.ts_ns;
        self.rt.store.clock_ns = self.rt.store.clock_ns.max(pkt.ts_ns);
        let mut cpkt = CPacket {
            data: frame.as_mut_ptr(),
            len: frame.len() as u32,
            in_port: pkt.port as u16,
            now_ns: pkt.ts_ns,
        };
        let ops = Ops {
            ctx: &mut self.rt as *mut Rt as *mut c_void,
            map_find,
            map_insert,
            map_erase,
            vec_get,
            vec_set,
            scalar_load,
            scalar_store,
            opaque,
        };
        // SAFETY: the ABI of include/tandem/server.h; all pointers live across the call.
        let rc = unsafe { (self.process)(&ops, &mut cpkt, input.as_ptr(), output.as_mut_ptr()) };
        assert_eq!(rc, 0);
        self.atomic_sync();
        // Re-encode with tag 2 and send back to the switch.
        let mut back_hdr = vec![0u8; hlen];
        for (f, &v) in th.fields.iter().zip(&output) {
            let v = if f.name == "tag" {
                u64::from(th.tag_to_post)
            } else {
                v
            };
            for i in 0..f.bits {
                if (v >> (f.bits - 1 - i)) & 1 == 1 {
                    let b = f.offset + i;
                    back_hdr[(b / 8) as usize] |= 1 << (7 - b % 8);
                }
            }
        }
        let mut back = frame[..12].to_vec();
        back.extend_from_slice(&[0x88, 0xb5]);
        back.extend_from_slice(&back_hdr);
        back.extend_from_slice(&frame[14..]);
        match w.process(SERVER_PORT, &back) {
            Some((p, b)) => Verdict::Send {
                port: p,
                frame: b.to_vec(),
            },
            None => Verdict::Drop,
        }
    }
}

fn native(nf: &str) -> NativeNf {
    let src = repo().join(format!("examples/nfs/{nf}/{nf}.cc"));
    let cfg = NfConfig::load(&src.with_extension("toml")).unwrap();
    let opts = BuildOptions {
        cache_dir: cache(),
        ..BuildOptions::default()
    };
    NativeNf::load(&compile_native(&src, &opts).unwrap(), &cfg).unwrap()
}

fn end_to_end(nf: &str, addr: Addr, workload: &str, packets: usize) {
    let name = std::env::var("TANDEM_E2E_PROFILE").unwrap_or_else(|_| "tofino1".into());
    let profile = TargetProfile::builtin(&name).unwrap();
    let split = std::env::var_os("TANDEM_E2E_NOSPLIT").is_none();
    assert!(run_end_to_end(
        nf, addr, workload, packets, &profile, split, 300
    ));
}

/// Runs one NF end to end; `false` when no plan fits the profile.
fn run_end_to_end(
    nf: &str,
    addr: Addr,
    workload: &str,
    packets: usize,
    profile: &TargetProfile,
    split_joins: bool,
    flows: u64,
) -> bool {
    let text =
        std::fs::read_to_string(repo().join(format!("crates/tandem-lift/tests/golden/{nf}.nfir")))
            .unwrap();
    let original = tandem_ir::parse_module(&text).unwrap();
    let options = PartitionOptions {
        split_joins,
        ..Default::default()
    };
    let Ok(partitioned) = partition_module(&original, profile, &options) else {
        return false;
    };
    let plan = partitioned.plan;
    let module = plan.module().unwrap();
    let out = generate(&plan, &module, &P4Options::default()).unwrap();
    let sw = Switch::from_source(&tandem_p4_syntax::print_program(&out.program)).unwrap();

    // server.so
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("include/tandem")).unwrap();
    std::fs::write(
        dir.path().join("include/tandem/server.h"),
        tandem_cpp::SERVER_H,
    )
    .unwrap();
    let cc = dir.path().join("server.cc");
    std::fs::write(&cc, tandem_cpp::generate(&plan, &module).unwrap()).unwrap();
    let so = dir.path().join("server.so");
    let st = std::process::Command::new("clang++-16")
        .args(["-std=c++17", "-O1", "-shared", "-fPIC", "-I"])
        .arg(dir.path().join("include"))
        .arg(&cc)
        .arg("-o")
        .arg(&so)
        .status()
        .unwrap();
    assert!(st.success());
    // SAFETY: a library built just now from generated code with the expected ABI.
    let lib = unsafe { libloading::Library::new(&so) }.unwrap();
    // SAFETY: the symbol has the type of include/tandem/server.h.
    let process: ProcessFn = *unsafe { lib.get::<ProcessFn>(b"tandem_server_process") }.unwrap();

    let mut reference = Host::new(native(nf));
    let initial = reference.dump_state().unwrap();
    let mut store = StateStore::new(&module);
    load_native_state(&module, &mut store, &initial).unwrap();
    let ops_of = |pick: fn(&InstKind) -> Option<tandem_ir::StateId>| {
        let mut m = BTreeMap::new();
        for (i, d) in module.process.insts.iter() {
            if let Some(s) = pick(&d.kind) {
                m.entry(s.as_u32()).or_insert(i);
            }
        }
        m
    };
    let find = ops_of(|k| match k {
        InstKind::MapFind { state, .. } => Some(*state),
        _ => None,
    });
    let insert = ops_of(|k| match k {
        InstKind::MapInsert { state, .. } => Some(*state),
        _ => None,
    });
    let erase = ops_of(|k| match k {
        InstKind::MapErase { state, .. } => Some(*state),
        _ => None,
    });
    let mut sys = Offloaded {
        sw,
        manifest: out.manifest,
        plan: &plan,
        rt: Rt {
            module: &module,
            store,
            now: 0,
            find,
            insert,
            erase,
        },
        process,
        _lib: lib,
        main: BTreeMap::new(),
        pending: BTreeMap::new(),
        scalars: BTreeMap::new(),
        server_packets: 0,
    };
    // Switch registers start from configure's values too.
    for s in plan
        .states
        .iter()
        .filter(|s| s.placement == Placement::SwitchRegister)
    {
        sys.sync_registers(&s.name);
    }
    sys.full_sync();

    let workload = std::env::var("TANDEM_E2E_WORKLOAD").unwrap_or_else(|_| workload.to_string());
    let w = Workload::resolve(&workload).unwrap();
    let opts = GenOptions {
        flows: std::env::var("TANDEM_E2E_FLOWS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(flows),
        seed: 11,
        plan: addr,
        ..GenOptions::default()
    };
    let mut replies = ReplyRewriter::new();
    let (mut n, mut sent) = (0, 0);
    for mut pkt in Generator::new(&w, opts).unwrap().take(packets) {
        replies.rewrite(&mut pkt);
        if reference.fire_timers(pkt.ts_ns) > 0 {
            // on_timer is server-only: the runtime would run it on the primary copy.
            let dump = reference.dump_state().unwrap();
            let mut store = StateStore::new(&module);
            store.clock_ns = sys.rt.store.clock_ns;
            load_native_state(&module, &mut store, &dump).unwrap();
            sys.rt.store = store;
            sys.full_sync();
        }
        let want = reference.process(&pkt).unwrap();
        let got = sys.process(&pkt);
        assert!(
            got == want,
            "{nf}: packet {n} (port {}, {} bytes) differs:\n  reference {want:?}\n  offloaded {got:?}",
            pkt.port,
            pkt.data.len()
        );
        if let Verdict::Send { port, frame } = &want {
            replies.observe(&pkt.data, pkt.port, &[(*port, frame.as_slice())]);
            sent += 1;
        }
        n += 1;
    }
    eprintln!(
        "{nf}/{}: {n} packets identical ({sent} sent, {} through the server)",
        profile.name, sys.server_packets
    );
    true
}

#[test]
fn minilb_end_to_end() {
    end_to_end("minilb", Addr::Lb, "enterprise", packets());
}

#[test]
fn mazunat_end_to_end() {
    end_to_end("mazunat", Addr::Nat, "enterprise", packets());
}

#[test]
fn l4lb_end_to_end() {
    end_to_end("l4lb", Addr::Lb, "enterprise", packets());
}

#[test]
fn firewall_end_to_end() {
    end_to_end("firewall", Addr::Plain, "enterprise", packets());
}

#[test]
fn proxy_end_to_end() {
    end_to_end("proxy", Addr::Plain, "enterprise", packets());
}

#[test]
fn statefilter_end_to_end() {
    end_to_end("statefilter", Addr::Plain, "datamining", packets());
}

#[test]
fn trojan_end_to_end() {
    end_to_end("trojan", Addr::Endhosts, "enterprise", packets());
}

/// Packets per NF (`TANDEM_E2E_PACKETS`, default 3000).
fn packets() -> usize {
    std::env::var("TANDEM_E2E_PACKETS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3_000)
}

/// A random profile no more capable than bmv2 (some operations removed, tight budgets).
fn random_profile() -> impl proptest::strategy::Strategy<Value = TargetProfile> {
    use proptest::prelude::*;
    let bmv2 = TargetProfile::builtin("bmv2").unwrap();
    let ops: Vec<String> = bmv2.ops.iter().cloned().collect();
    let n = ops.len();
    (
        prop::option::of(2u32..16),
        prop::option::of(8u32..120),
        prop::option::of(4u32..32),
        any::<bool>(),
        prop::collection::vec(any::<bool>(), n),
    )
        .prop_map(move |(stages, meta, th, dup, keep)| {
            let mut p = TargetProfile::builtin("bmv2").unwrap();
            p.name = "random".into();
            p.stages = stages;
            p.metadata_bytes = meta;
            p.transfer_header_bytes = th;
            p.duplicate_readonly_tables = dup;
            p.ops = ops
                .iter()
                .zip(&keep)
                .enumerate()
                .filter(|(i, (_, k))| **k || i % 3 != 0)
                .map(|(_, (o, _))| o.clone())
                .collect();
            p
        })
}

proptest::proptest! {
    // TANDEM_E2E_CASES=100 for a longer run.
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: std::env::var("TANDEM_E2E_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(4),
        ..proptest::prelude::ProptestConfig::default()
    })]

    /// Any plan the partitioner makes for a random profile compiles and runs like the NF.
    #[test]
    fn random_profiles_end_to_end(nf in 0usize..7, profile in random_profile(), split in proptest::prelude::any::<bool>()) {
        let (name, addr, workload) = [
            ("minilb", Addr::Lb, "enterprise"),
            ("mazunat", Addr::Nat, "enterprise"),
            ("l4lb", Addr::Lb, "enterprise"),
            ("firewall", Addr::Plain, "enterprise"),
            ("proxy", Addr::Plain, "enterprise"),
            ("statefilter", Addr::Plain, "datamining"),
            ("trojan", Addr::Endhosts, "enterprise"),
        ][nf];
        run_end_to_end(name, addr, workload, 600, &profile, split, 60);
    }
}
