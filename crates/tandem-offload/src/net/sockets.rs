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

pub(super) fn io_err(what: impl std::fmt::Display, e: io::Error) -> OffloadError {
    OffloadError::Io(format!("{what}: {e}"))
}

/// Creates `dir` if needed and returns its canonical path.
pub(super) fn prepare_dir(dir: &Path) -> Result<PathBuf, OffloadError> {
    std::fs::create_dir_all(dir).map_err(|e| io_err(dir.display(), e))?;
    std::fs::canonicalize(dir).map_err(|e| io_err(dir.display(), e))
}

/// An existing directory's canonical path.
pub(super) fn existing_dir(dir: &Path) -> Result<PathBuf, OffloadError> {
    std::fs::canonicalize(dir).map_err(|e| {
        io_err(
            format!(
                "{} (is the switch running with --sock there?)",
                dir.display()
            ),
            e,
        )
    })
}

/// Binds `path`, removing a stale socket file first; a socket somebody is bound to is an
/// error.
pub(super) fn bind_socket(path: &Path) -> Result<UnixDatagram, OffloadError> {
    // sun_path holds 108 bytes with the terminating NUL.
    if path.as_os_str().len() >= 108 {
        return Err(OffloadError::Io(format!(
            "{}: socket path too long ({} bytes, at most 107): use a shorter directory",
            path.display(),
            path.as_os_str().len()
        )));
    }
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_socket() => {
            let probe = UnixDatagram::unbound().map_err(|e| io_err("socket", e))?;
            if probe.connect(path).is_ok() {
                return Err(OffloadError::Io(format!(
                    "{}: in use by another process",
                    path.display()
                )));
            }
            std::fs::remove_file(path).map_err(|e| io_err(path.display(), e))?;
        }
        Ok(_) => {
            return Err(OffloadError::Io(format!(
                "{}: exists and is not a socket",
                path.display()
            )))
        }
        Err(_) => {}
    }
    let s = UnixDatagram::bind(path).map_err(|e| io_err(path.display(), e))?;
    s.set_write_timeout(Some(SEND_TIMEOUT))
        .map_err(|e| io_err(path.display(), e))?;
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
