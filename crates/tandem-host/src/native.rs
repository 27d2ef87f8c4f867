//! Loading a natively compiled NF (a shared object built by [`crate::build`]) and calling it
//! through the C ABI of `nfapi/include/tandem/abi.hh`.

use std::ffi::{c_char, c_void, CStr};
use std::path::{Path, PathBuf};

use libloading::Library;

use crate::abi::{self, RawPkt};
use crate::config::NfConfig;
use crate::nfapi::ABI_VERSION;

/// Errors from loading or running a native NF.
#[derive(Debug, thiserror::Error)]
pub enum NfError {
    #[error("{path}: cannot load the NF: {reason}")]
    Load { path: PathBuf, reason: String },
    #[error("{path}: NF ABI version {found}, this tandem speaks {expected}; rebuild the NF")]
    AbiMismatch {
        path: PathBuf,
        found: u32,
        expected: u32,
    },
    #[error("configure() failed: {0}")]
    Configure(String),
    #[error("process() failed on packet {index}: {message}")]
    Process { index: u64, message: String },
    #[error("the NF's state dump is not valid JSON: {0}")]
    Dump(String),
}

struct Fns {
    destroy: abi::DestroyFn,
    process: abi::ProcessFn,
    timer: abi::TimerFn,
    dump: abi::DumpFn,
}

/// A loaded, configured NF instance.
pub struct NativeNf {
    handle: *mut c_void,
    fns: Fns,
    name: String,
    state_names: Vec<String>,
    timer_interval_ns: u64,
    packets: u64,
    /// process() calls, for the watchdog (a loop that never ends).
    watched: crate::watchdog::Watched,
    /// The error buffer process() writes a message into.
    err: Box<[u8; ERR_LEN]>,
    // Declared last: dropped after the instance is destroyed.
    _lib: Library,
}

const ERR_LEN: usize = 1024;

fn c_error(buf: &[u8]) -> String {
    CStr::from_bytes_until_nul(buf)
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|_| String::from_utf8_lossy(buf).into_owned())
}

impl NativeNf {
    /// Loads the shared object at `path` and runs the NF's configure() on `config`.
    pub fn load(path: &Path, config: &NfConfig) -> Result<Self, NfError> {
        let load_err = |reason: String| NfError::Load {
            path: path.to_owned(),
            reason,
        };
        // SAFETY: loading runs the object's static initialisers; the object was built by
        // `build::compile_native` from an NF written against our API, which is the contract.
        let lib = unsafe { Library::new(path) }.map_err(|e| load_err(e.to_string()))?;
        macro_rules! sym {
            ($name:literal, $ty:ty) => {{
                // SAFETY: the symbol types mirror abi.hh; the ABI version is checked below
                // before any function other than tandem_nf_abi_version is called.
                let s = unsafe { lib.get::<$ty>($name) }.map_err(|_| {
                    load_err(format!(
                        "missing symbol {} (did the NF use TANDEM_NF(...)?)",
                        String::from_utf8_lossy(&$name[..$name.len() - 1])
                    ))
                })?;
                *s
            }};
        }
        let version = sym!(b"tandem_nf_abi_version\0", abi::AbiVersionFn);
        // SAFETY: plain function without arguments.
        let found = unsafe { version() };
        if found != ABI_VERSION {
            return Err(NfError::AbiMismatch {
                path: path.to_owned(),
                found,
                expected: ABI_VERSION,
            });
        }
        let name_fn = sym!(b"tandem_nf_name\0", abi::NameFn);
        let names_fn = sym!(b"tandem_nf_state_names\0", abi::NameFn);
        let interval_fn = sym!(b"tandem_nf_timer_interval\0", abi::TimerIntervalFn);
        let create = sym!(b"tandem_nf_create\0", abi::CreateFn);
        let fns = Fns {
            destroy: sym!(b"tandem_nf_destroy\0", abi::DestroyFn),
            process: sym!(b"tandem_nf_process\0", abi::ProcessFn),
            timer: sym!(b"tandem_nf_timer\0", abi::TimerFn),
            dump: sym!(b"tandem_nf_dump_state\0", abi::DumpFn),
        };
        // SAFETY: these return pointers to static NUL-terminated strings.
        let (name, names) = unsafe {
            (
                CStr::from_ptr(name_fn()).to_string_lossy().into_owned(),
                CStr::from_ptr(names_fn()).to_string_lossy().into_owned(),
            )
        };
        // SAFETY: plain function without arguments.
        let timer_interval_ns = unsafe { interval_fn() };
        let holder = config.to_raw();
        let raw = holder.raw();
        let mut err = [0u8; ERR_LEN];
        // SAFETY: `raw` points into `holder`, alive for the call; err is ERR_LEN bytes.
        let handle = unsafe { create(&raw, err.as_mut_ptr().cast::<c_char>(), ERR_LEN) };
        if handle.is_null() {
            return Err(NfError::Configure(c_error(&err)));
        }
        if err[0] != 0 {
            // ABI v2: a warning from a configure() that succeeded (unread keys).
            log::warn!("{}", c_error(&err));
        }
        let watched = crate::watchdog::Watched::register(format!("process() of the NF `{name}`"));
        Ok(NativeNf {
            handle,
            fns,
            watched,
            err: Box::new([0; ERR_LEN]),
            name,
            state_names: names
                .split(',')
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect(),
            timer_interval_ns,
            packets: 0,
            _lib: lib,
        })
    }

    /// The registered element type name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The state members listed in `TANDEM_NF(...)`, in order.
    pub fn state_names(&self) -> &[String] {
        &self.state_names
    }

    /// The NF's timer period in ns (0: no on_timer()).
    pub fn timer_interval_ns(&self) -> u64 {
        self.timer_interval_ns
    }

    /// Runs process() on `frame` (rewritten in place, or replaced when the NF pushed or popped a
    /// header). Returns the egress port, or `None`
    /// when the NF dropped the packet.
    pub fn process(
        &mut self,
        frame: &mut Vec<u8>,
        in_port: u32,
        now_ns: u64,
    ) -> Result<Option<u32>, NfError> {
        let index = self.packets;
        self.packets += 1;
        let len = u32::try_from(frame.len()).map_err(|_| NfError::Process {
            index,
            message: "frame longer than 4 GiB".into(),
        })?;
        let mut pkt = RawPkt {
            data: frame.as_mut_ptr(),
            len,
            in_port,
            now_ns,
            out_port: -1,
            reserved: 0,
        };
        // Only the first byte need be 0 (the NF writes a C string on failure): no 1 KiB
        // memset per packet.
        let err = &mut self.err;
        err[0] = 0;
        self.watched.enter(index);
        // SAFETY: `pkt.data` points to `len` writable bytes for the duration of the call; the
        // NF API's accessors never reach beyond `len`.
        let rc = unsafe {
            (self.fns.process)(
                self.handle,
                &mut pkt,
                err.as_mut_ptr().cast::<c_char>(),
                ERR_LEN,
            )
        };
        self.watched.leave();
        if rc != 0 {
            return Err(NfError::Process {
                index,
                message: c_error(&err[..]),
            });
        }
        if pkt.data != frame.as_mut_ptr() || pkt.len != len {
            // ABI v2: a push or pop rebuilt the frame in a buffer of the NF's thread.
            // SAFETY: the NF points `data` at `len` valid bytes that stay until its next call.
            let rebuilt = unsafe { std::slice::from_raw_parts(pkt.data, pkt.len as usize) };
            *frame = rebuilt.to_vec();
        }
        Ok(u32::try_from(pkt.out_port).ok())
    }

    /// Runs on_timer(now) (a no-op for NFs without one).
    pub fn timer(&mut self, now_ns: u64) {
        // SAFETY: handle is a live instance.
        unsafe { (self.fns.timer)(self.handle, now_ns) }
    }

    /// The NF's state as of time `now_ns` (expiring maps hide entries idle for longer than
    /// their timeout): a JSON array of `{name, kind, ..., entries}` objects, entries sorted by
    /// key bytes, keys and values as hex of the C++ objects' bytes.
    pub fn dump_state(&mut self, now_ns: u64) -> Result<serde_json::Value, NfError> {
        // SAFETY: a null buffer only asks for the length.
        let len = unsafe { (self.fns.dump)(self.handle, now_ns, std::ptr::null_mut(), 0) };
        let mut buf = vec![0u8; len + 1];
        // SAFETY: buf has len+1 bytes.
        unsafe {
            (self.fns.dump)(
                self.handle,
                now_ns,
                buf.as_mut_ptr().cast::<c_char>(),
                buf.len(),
            )
        };
        buf.truncate(len);
        serde_json::from_slice(&buf).map_err(|e| NfError::Dump(e.to_string()))
    }
}

impl Drop for NativeNf {
    fn drop(&mut self) {
        // SAFETY: handle came from tandem_nf_create and is destroyed exactly once.
        unsafe { (self.fns.destroy)(self.handle) }
    }
}
