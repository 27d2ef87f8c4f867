//! The deployment token: only the configured server and control clients drive the switch.
//!
//! `SwitchDaemon::start` writes a fresh random token to `DIR/token` (mode 0600, before it binds
//! any socket). The server's `hello` on `DIR/server.sock` carries it as its payload, and every
//! control request travels in an [`Envelope`] with it; the switch refuses both without it (a
//! refused hello gets a `bye` flagged [`super::flags::ERROR`], a refused request a `failed`
//! reply) and counts them in `SwitchStats::refused`, while the attached server keeps working.
//! Traffic clients on the NF ports need no token: frames entering a switch port may come from
//! anyone, as on a real switch.
//!
//! The model is the file system's: whoever can read `DIR/token` — the user who started the
//! switch (and root) — may attach a server and send control requests. Before, any local process
//! that sent `hello` to `server.sock` detached the running server.

use super::*;
use std::io::Read;

/// `DIR/token`.
pub fn token_file(dir: &Path) -> PathBuf {
    dir.join("token")
}

/// A control request with the token that authorises it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Envelope {
    /// The deployment's token (`DIR/token`).
    pub token: String,
    /// The request.
    pub request: Request,
}

/// Writes a fresh random token to `DIR/token`, readable by its owner only.
pub fn create_token(dir: &Path) -> Result<String, OffloadError> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| path_err(Path::new("/dev/urandom"), e))?;
    let token: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let path = token_file(dir);
    let tmp = dir.join(format!(".token-{}", std::process::id()));
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(&tmp)
        .map_err(|e| path_err(&tmp, e))?;
    f.write_all(token.as_bytes())
        .and_then(|()| f.sync_all())
        .map_err(|e| path_err(&tmp, e))?;
    std::fs::rename(&tmp, &path).map_err(|e| path_err(&path, e))?;
    Ok(token)
}

/// The token in `DIR/token`, if the file is there and readable.
pub fn load_token(dir: &Path) -> Option<String> {
    let t = std::fs::read_to_string(token_file(dir)).ok()?;
    let t = t.trim().to_string();
    (!t.is_empty()).then_some(t)
}

/// Compares two tokens in time independent of where they differ.
pub(super) fn same_token(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
