//! Paths and sockets: where each socket lives in the directory, binding, receiving.

use super::*;

/// `DIR/control.sock`.
pub fn control_socket(dir: &Path) -> PathBuf {
    dir.join("control.sock")
}

/// `DIR/port<N>.sock`.
pub fn port_socket(dir: &Path, port: u32) -> PathBuf {
    dir.join(format!("port{port}.sock"))
}

/// `DIR/server.sock`.
pub fn server_socket(dir: &Path) -> PathBuf {
    dir.join("server.sock")
}

/// An I/O error on `path`.
pub(super) fn path_err(path: &Path, e: io::Error) -> OffloadError {
    OffloadError::Io {
        path: path.to_owned(),
        source: e,
    }
}

/// An I/O error on no file, while doing `what`.
pub(super) fn os_err(what: &str, e: io::Error) -> OffloadError {
    OffloadError::Os {
        what: what.into(),
        source: e,
    }
}

/// An error on `path` that the OS did not report (`message` says what is wrong).
fn path_problem(path: &Path, kind: io::ErrorKind, message: String) -> OffloadError {
    path_err(path, io::Error::new(kind, message))
}

/// Creates `dir` if needed and returns its canonical path.
pub(super) fn prepare_dir(dir: &Path) -> Result<PathBuf, OffloadError> {
    std::fs::create_dir_all(dir).map_err(|e| path_err(dir, e))?;
    std::fs::canonicalize(dir).map_err(|e| path_err(dir, e))
}

/// An existing directory's canonical path.
pub(super) fn existing_dir(dir: &Path) -> Result<PathBuf, OffloadError> {
    std::fs::canonicalize(dir).map_err(|e| {
        path_problem(
            dir,
            e.kind(),
            format!("{e} (is the switch running with --sock there?)"),
        )
    })
}

/// Binds `path`, removing a stale socket file first; a socket somebody is bound to is an
/// error.
pub(super) fn bind_socket(path: &Path) -> Result<UnixDatagram, OffloadError> {
    // sun_path holds 108 bytes with the terminating NUL.
    if path.as_os_str().len() >= 108 {
        return Err(path_problem(
            path,
            io::ErrorKind::InvalidInput,
            format!(
                "socket path too long ({} bytes, at most 107): use a shorter directory",
                path.as_os_str().len()
            ),
        ));
    }
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_socket() => {
            let probe = UnixDatagram::unbound().map_err(|e| os_err("socket", e))?;
            if probe.connect(path).is_ok() {
                return Err(path_problem(
                    path,
                    io::ErrorKind::AddrInUse,
                    "in use by another process".into(),
                ));
            }
            std::fs::remove_file(path).map_err(|e| path_err(path, e))?;
        }
        Ok(_) => {
            return Err(path_problem(
                path,
                io::ErrorKind::AlreadyExists,
                "exists and is not a socket".into(),
            ))
        }
        Err(_) => {}
    }
    let s = UnixDatagram::bind(path).map_err(|e| path_err(path, e))?;
    s.set_write_timeout(Some(SEND_TIMEOUT))
        .map_err(|e| path_err(path, e))?;
    Ok(s)
}

pub(super) static UNIQUE: AtomicU64 = AtomicU64::new(0);

/// `DIR/<prefix>-<pid>-<n>.sock`.
pub(super) fn unique_path(dir: &Path, prefix: &str) -> PathBuf {
    let n = UNIQUE.fetch_add(1, Ordering::Relaxed);
    dir.join(format!("{prefix}-{}-{n}.sock", std::process::id()))
}

/// Removes the socket files it holds when dropped.
#[derive(Default)]
pub(super) struct Files(pub(super) Vec<PathBuf>);

impl Drop for Files {
    fn drop(&mut self) {
        for p in &self.0 {
            let _ = std::fs::remove_file(p);
        }
    }
}

pub(super) fn is_timeout(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut | io::ErrorKind::Interrupted
    )
}

/// Whether a send failed because nobody is bound at the address any more.
pub(super) fn is_gone(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::NotFound | io::ErrorKind::ConnectionRefused
    )
}

/// Receives one datagram; `Ok(None)` on timeout. Oversized datagrams come back as empty
/// (which every parser rejects).
pub(super) fn recv(
    sock: &UnixDatagram,
    buf: &mut [u8],
) -> io::Result<Option<(usize, Option<PathBuf>)>> {
    match sock.recv_from(buf) {
        Ok((n, addr)) => {
            let n = if n >= buf.len() { 0 } else { n };
            Ok(Some((n, addr.as_pathname().map(Path::to_path_buf))))
        }
        Err(e) if is_timeout(&e) => Ok(None),
        Err(e) => Err(e),
    }
}
