//! The server partition: compiling the generated `server.cc` and calling it.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::primary::{Ops, Primary};
use crate::OffloadError;

/// `tandem_packet` (include/tandem/server.h).
#[repr(C)]
struct CPacket {
    data: *mut u8,
    len: u32,
    in_port: u16,
    now_ns: u64,
}

type ProcessFn = unsafe extern "C" fn(*const Ops, *mut CPacket, *const u64, *mut u64) -> i32;
type VersionFn = unsafe extern "C" fn() -> u32;
type TimerFn = unsafe extern "C" fn(*const Ops, u64) -> i32;

/// Flags the server partition is built with.
pub const SERVER_FLAGS: &[&str] = &["-std=c++17", "-O2", "-shared", "-fPIC", "-Wall"];

/// Compiles `server.cc` text to a shared object under `cache_dir` (reused when the text, the
/// ABI header and the flags are unchanged) and returns its path.
pub fn compile_server(cc: &str, cache_dir: &Path) -> Result<PathBuf, OffloadError> {
    let h = tandem_ir::hash::FieldDigest::default()
        .field(cc.as_bytes())
        .field(tandem_cpp::SERVER_H.as_bytes())
        .field(SERVER_FLAGS.concat().as_bytes())
        .finish();
    let dir = cache_dir.join("server");
    let io = |p: &Path, e: std::io::Error| OffloadError::Io {
        path: p.to_owned(),
        source: e,
    };
    std::fs::create_dir_all(dir.join("include/tandem")).map_err(|e| io(&dir, e))?;
    let so = dir.join(format!("server-{h:016x}.so"));
    if so.is_file() {
        return Ok(so);
    }
    static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    // The header is shared by concurrent builds: replace it atomically, never truncate it
    // under a running compiler.
    let header = dir.join(tandem_cpp::SERVER_H_PATH.replace("tandem/", "include/tandem/"));
    if std::fs::read_to_string(&header).ok().as_deref() != Some(tandem_cpp::SERVER_H) {
        let tmp = header.with_extension(format!("h.{}.{seq}.tmp", std::process::id()));
        std::fs::write(&tmp, tandem_cpp::SERVER_H).map_err(|e| io(&tmp, e))?;
        std::fs::rename(&tmp, &header).map_err(|e| io(&header, e))?;
    }
    let src = dir.join(format!("server-{h:016x}.{}.{seq}.cc", std::process::id()));
    std::fs::write(&src, cc).map_err(|e| io(&src, e))?;
    let tmp = so.with_extension(format!("so.{}.{seq}.tmp", std::process::id()));
    let cxx = tandem_host::build::find_cxx();
    let out = Command::new(&cxx)
        .args(SERVER_FLAGS)
        .arg("-I")
        .arg(dir.join("include"))
        .arg(&src)
        .arg("-o")
        .arg(&tmp)
        .output()
        .map_err(|e| OffloadError::Os {
            what: format!("running {}", cxx.display()),
            source: e,
        })?;
    let _ = std::fs::remove_file(&src);
    if !out.status.success() {
        let _ = std::fs::remove_file(&tmp);
        return Err(OffloadError::ServerBuild(
            String::from_utf8_lossy(&out.stderr).into_owned(),
        ));
    }
    std::fs::rename(&tmp, &so).map_err(|e| io(&so, e))?;
    Ok(so)
}

/// A loaded server partition.
pub struct ServerLib {
    process: ProcessFn,
    /// `tandem_server_timer`, when the NF has on_timer().
    timer: Option<TimerFn>,
    /// Calls of `tandem_server_process`, for the watchdog (a loop that never ends).
    watched: tandem_host::watchdog::Watched,
    calls: std::sync::atomic::AtomicU64,
    _lib: libloading::Library,
}

impl ServerLib {
    /// Loads a compiled server partition and checks its ABI version.
    pub fn load(so: &Path) -> Result<ServerLib, OffloadError> {
        let err = |e: libloading::Error| OffloadError::ServerLoad(format!("{}: {e}", so.display()));
        // SAFETY: loading a library runs its initialisers; server.so is generated code
        // with none beyond the C++ runtime's.
        let lib = unsafe { libloading::Library::new(so) }.map_err(err)?;
        // SAFETY: the symbol's type is the one include/tandem/server.h declares.
        let version: VersionFn =
            *unsafe { lib.get::<VersionFn>(b"tandem_server_abi_version") }.map_err(err)?;
        // SAFETY: a function without arguments returning a constant.
        let v = unsafe { version() };
        if v != tandem_cpp::SERVER_ABI_VERSION {
            return Err(OffloadError::ServerLoad(format!(
                "{}: server ABI version {v}, this Tandem speaks {}",
                so.display(),
                tandem_cpp::SERVER_ABI_VERSION
            )));
        }
        // SAFETY: as above.
        let process: ProcessFn =
            *unsafe { lib.get::<ProcessFn>(b"tandem_server_process") }.map_err(err)?;
        // SAFETY: as above; absent unless the NF has on_timer().
        let timer = unsafe { lib.get::<TimerFn>(b"tandem_server_timer") }
            .ok()
            .map(|f| *f);
        Ok(ServerLib {
            process,
            timer,
            watched: tandem_host::watchdog::Watched::register(format!(
                "the server partition {} (its server-bound packets counted from 0)",
                so.display()
            )),
            calls: std::sync::atomic::AtomicU64::new(0),
            _lib: lib,
        })
    }

    /// Whether the library has the NF's timer (`tandem_server_timer`).
    pub fn has_timer(&self) -> bool {
        self.timer.is_some()
    }

    /// Runs the NF's `on_timer` for the tick at `now_ns` on the primary copy (what it writes
    /// is recorded in [`Primary::touched`]).
    pub fn call_timer(&self, primary: &mut Primary, now_ns: u64) -> Result<(), OffloadError> {
        let Some(timer) = self.timer else {
            return Err(OffloadError::ServerLoad(
                "server.so has no tandem_server_timer (compiled without the NF's on_timer?)".into(),
            ));
        };
        primary.set_now(now_ns);
        let ops = primary.ops();
        // SAFETY: the ABI of include/tandem/server.h: `ops` (whose context is `primary`,
        // exclusively borrowed here) lives across the call.
        let rc = unsafe { timer(&ops, now_ns) };
        if let Some(e) = primary.take_error() {
            return Err(OffloadError::Server(format!(
                "on_timer at {now_ns} ns: {e}"
            )));
        }
        if rc != 0 {
            return Err(OffloadError::Server(format!(
                "tandem_server_timer returned {rc}"
            )));
        }
        Ok(())
    }

    /// Runs the server partition on the packet `buf[start..]` (as the NF sees it; rewritten
    /// in place, or replaced — still from `start` — when the partition pushes or pops
    /// headers) with the transfer-header values `input`; the output values go to `output`
    /// (one per input). `buf[..start]` is head-room the call leaves alone (the transfer
    /// header's bytes, [`crate::codec::TransferCodec::decode_in_place`]).
    #[allow(clippy::too_many_arguments)]
    pub fn call(
        &self,
        primary: &mut Primary,
        buf: &mut Vec<u8>,
        start: usize,
        in_port: u16,
        now_ns: u64,
        input: &[u64],
        output: &mut Vec<u64>,
    ) -> Result<(), OffloadError> {
        primary.set_now(now_ns);
        output.clear();
        output.resize(input.len(), 0);
        let pkt = &mut buf[start..];
        let mut cpkt = CPacket {
            data: pkt.as_mut_ptr(),
            len: pkt.len() as u32,
            in_port,
            now_ns,
        };
        let ops = primary.ops();
        let call = self
            .calls
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.watched.enter(call);
        // SAFETY: the ABI of include/tandem/server.h: `ops` (whose context is `primary`,
        // exclusively borrowed here), the packet buffer and both value arrays (one slot per
        // transfer-header field) live across the call.
        let rc = unsafe { (self.process)(&ops, &mut cpkt, input.as_ptr(), output.as_mut_ptr()) };
        self.watched.leave();
        if let Some(e) = primary.take_error() {
            return Err(OffloadError::Server(e));
        }
        if rc != 0 {
            return Err(OffloadError::Server(format!(
                "tandem_server_process returned {rc}"
            )));
        }
        if cpkt.data != pkt.as_mut_ptr() || cpkt.len as usize != pkt.len() {
            // ABI v2: a push or pop rebuilt the frame in a buffer of the partition's thread.
            // SAFETY: server.h's tandem_deparse points `data` at `len` valid bytes that stay
            // until the next call on this thread.
            let rebuilt = unsafe { std::slice::from_raw_parts(cpkt.data, cpkt.len as usize) };
            // (Copied out first: it may not alias `buf`, but `buf` is resized.)
            let rebuilt = rebuilt.to_vec();
            buf.truncate(start);
            buf.extend_from_slice(&rebuilt);
        }
        Ok(())
    }
}
