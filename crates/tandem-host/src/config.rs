//! NF configuration files (TOML or JSON), flattened for the C++ `tandem::Config`.
//!
//! Tables become dotted keys (`a.b`), arrays indexed keys (`a[0]`, `a[0].ip`); scalars keep
//! their type. The C++ side checks presence, type and range and names the key and the file.

use std::ffi::CString;
use std::path::{Path, PathBuf};

use crate::abi::{CfgItem, RawCfg, CFG_BOOL, CFG_FLOAT, CFG_INT, CFG_STRING};

/// Errors reading a configuration file.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Parse { path: PathBuf, message: String },
    #[error("{path}: key `{key}`: {message}")]
    Value {
        path: PathBuf,
        key: String,
        message: String,
    },
}

/// One flattened scalar.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Float(f64),
    String(String),
    Bool(bool),
}

/// A flattened configuration.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NfConfig {
    /// The file it came from (shown in errors); `None` for an empty configuration.
    pub file: Option<PathBuf>,
    pub items: Vec<(String, Value)>,
}

impl NfConfig {
    /// Reads `path`: JSON if it ends in `.json`, TOML otherwise.
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError::Io {
            path: path.to_owned(),
            source: e,
        })?;
        let is_json = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json"));
        let value: serde_json::Value = if is_json {
            serde_json::from_str(&text).map_err(|e| ConfigError::Parse {
                path: path.to_owned(),
                message: e.to_string(),
            })?
        } else {
            let t: toml::Value = toml::from_str(&text).map_err(|e| ConfigError::Parse {
                path: path.to_owned(),
                message: e.to_string().trim_end().to_owned(),
            })?;
            serde_json::to_value(t).map_err(|e| ConfigError::Parse {
                path: path.to_owned(),
                message: e.to_string(),
            })?
        };
        let mut cfg = NfConfig {
            file: Some(path.to_owned()),
            items: Vec::new(),
        };
        if !value.is_object() {
            return Err(ConfigError::Parse {
                path: path.to_owned(),
                message: "the top level must be a table/object".into(),
            });
        }
        cfg.flatten(String::new(), &value)?;
        Ok(cfg)
    }

    fn flatten(&mut self, prefix: String, v: &serde_json::Value) -> Result<(), ConfigError> {
        use serde_json::Value as J;
        let scalar = match v {
            J::Object(map) => {
                for (k, child) in map {
                    let key = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    self.flatten(key, child)?;
                }
                return Ok(());
            }
            J::Array(items) => {
                for (i, child) in items.iter().enumerate() {
                    self.flatten(format!("{prefix}[{i}]"), child)?;
                }
                return Ok(());
            }
            J::Null => return Ok(()),
            J::Bool(b) => Value::Bool(*b),
            J::Number(n) => match n.as_i64() {
                Some(i) => Value::Int(i),
                None if n.is_u64() => {
                    return Err(ConfigError::Value {
                        path: self.file.clone().unwrap_or_default(),
                        key: prefix,
                        message: format!("integer {n} is larger than 2^63-1"),
                    })
                }
                None => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
            },
            J::String(s) => {
                if s.contains('\0') {
                    return Err(ConfigError::Value {
                        path: self.file.clone().unwrap_or_default(),
                        key: prefix,
                        message: "strings may not contain NUL".into(),
                    });
                }
                Value::String(s.clone())
            }
        };
        self.items.push((prefix, scalar));
        Ok(())
    }

    /// The C view of this configuration; valid while the returned value lives.
    pub(crate) fn to_raw(&self) -> RawConfigHolder {
        // Keys and strings cannot contain NUL: keys come from TOML/JSON keys, which may, so
        // NULs are replaced rather than failing here (the C++ side would never find them).
        let cstr = |s: &str| CString::new(s.replace('\0', "\u{fffd}")).unwrap_or_default();
        let file = cstr(
            &self
                .file
                .as_deref()
                .unwrap_or(Path::new("<no config>"))
                .display()
                .to_string(),
        );
        let keys: Vec<CString> = self.items.iter().map(|(k, _)| cstr(k)).collect();
        let strings: Vec<Option<CString>> = self
            .items
            .iter()
            .map(|(_, v)| match v {
                Value::String(s) => Some(cstr(s)),
                _ => None,
            })
            .collect();
        let items = self
            .items
            .iter()
            .enumerate()
            .map(|(i, (_, v))| {
                let (kind, int, float) = match v {
                    Value::Int(x) => (CFG_INT, *x, 0.0),
                    Value::Float(x) => (CFG_FLOAT, 0, *x),
                    Value::String(_) => (CFG_STRING, 0, 0.0),
                    Value::Bool(b) => (CFG_BOOL, i64::from(*b), 0.0),
                };
                CfgItem {
                    key: keys[i].as_ptr(),
                    kind,
                    i: int,
                    f: float,
                    s: strings[i].as_ref().map_or(std::ptr::null(), |s| s.as_ptr()),
                }
            })
            .collect();
        RawConfigHolder {
            _file: file,
            _keys: keys,
            _strings: strings,
            items,
        }
    }
}

/// Owns the C strings behind a [`RawCfg`].
pub(crate) struct RawConfigHolder {
    _file: CString,
    _keys: Vec<CString>,
    _strings: Vec<Option<CString>>,
    items: Vec<CfgItem>,
}

impl RawConfigHolder {
    pub(crate) fn raw(&self) -> RawCfg {
        RawCfg {
            file: self._file.as_ptr(),
            items: self.items.as_ptr(),
            n_items: self.items.len(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flattens_tables_and_arrays() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("c.toml");
        std::fs::write(
            &p,
            "a = 1\nname = \"x\"\nips = [\"1.2.3.4\", \"5.6.7.8\"]\n[t]\nb = true\n[[rules]]\nport = 80\n",
        )
        .unwrap();
        let c = NfConfig::load(&p).unwrap();
        let keys: Vec<_> = c.items.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            keys,
            ["a", "ips[0]", "ips[1]", "name", "rules[0].port", "t.b"]
        );
        assert_eq!(c.items[4].1, Value::Int(80));
    }

    #[test]
    fn json_works_and_syntax_errors_name_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("c.json");
        std::fs::write(&p, r#"{"x": {"y": [1.5]}}"#).unwrap();
        assert_eq!(
            NfConfig::load(&p).unwrap().items,
            vec![("x.y[0]".into(), Value::Float(1.5))]
        );
        let bad = dir.path().join("bad.toml");
        std::fs::write(&bad, "a = = 1").unwrap();
        let e = NfConfig::load(&bad).unwrap_err().to_string();
        assert!(e.contains("bad.toml"), "{e}");
    }
}
