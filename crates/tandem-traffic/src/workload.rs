//! Workloads: flow-size distributions (CDFs) from published research, and user CDF files.
//!
//! A CDF is a list of `(size_bytes, cumulative_probability)` rows. Two text formats are read:
//! - `.cdf`-style: whitespace-separated `size prob` per line (tabs or spaces);
//! - `.csv`-style: `size,prob` per line (CRLF or LF line endings).
//!
//! Blank lines and lines starting with `#` are ignored. Sizes may use exponent notation
//! (`3.16e+06`). Validation: at least one row; sizes finite and `>= 0`; probabilities in
//! `0..=1`; both columns non-decreasing; the last probability is 1 (within 1e-6).
//!
//! Sampling is by inverse CDF with linear interpolation between rows: for `u` uniform in
//! `[0, 1]`, find the first row `i` with `p_i >= u`; if `i == 0` the size is `s_0` (the first row carries its probability as a point mass),
//! otherwise `s_{i-1} + (u - p_{i-1}) / (p_i - p_{i-1}) * (s_i - s_{i-1})`. The mean of that
//! distribution is [`Cdf::mean`].
//!
//! The embedded workloads (see `workloads/SOURCES.md` at the repository root for provenance)
//! are listed by [`builtin_workloads`] and resolved by [`Workload::resolve`].

use std::path::{Path, PathBuf};

/// Errors loading or validating a CDF. Each names its source (a workload name or a file).
#[derive(Debug, thiserror::Error)]
pub enum WorkloadError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{source_name}:{line}: {reason}")]
    Parse {
        source_name: String,
        line: usize,
        reason: String,
    },
    #[error("{source_name}: the CDF has no rows")]
    Empty { source_name: String },
    #[error("{source_name}:{line}: probability {prob} is outside 0..=1")]
    ProbabilityOutOfRange {
        source_name: String,
        line: usize,
        prob: f64,
    },
    #[error("{source_name}:{line}: not monotonic: {what} decreases ({prev} then {value})")]
    NonMonotonic {
        source_name: String,
        line: usize,
        what: &'static str,
        prev: f64,
        value: f64,
    },
    #[error("{source_name}: the last cumulative probability is {last}, expected 1")]
    DoesNotReachOne { source_name: String, last: f64 },
    #[error("unknown workload `{name}` (not a built-in and no such file); built-ins: {known}")]
    Unknown { name: String, known: String },
}

/// A validated cumulative distribution of flow sizes in bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct Cdf {
    /// `(size_bytes, cumulative_probability)`, both non-decreasing, last probability 1.
    points: Vec<(f64, f64)>,
}

impl Cdf {
    /// Parses and validates CDF text (either format; see the module docs).
    /// `source_name` is used in error messages.
    pub fn parse(text: &str, source_name: &str) -> Result<Cdf, WorkloadError> {
        let perr = |line: usize, reason: String| WorkloadError::Parse {
            source_name: source_name.to_owned(),
            line,
            reason,
        };
        let mut points: Vec<(f64, f64)> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line_no = i + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = line
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|f| !f.is_empty())
                .collect();
            if fields.len() != 2 {
                return Err(perr(
                    line_no,
                    format!(
                        "expected two fields `size prob`, found {}: `{line}`",
                        fields.len()
                    ),
                ));
            }
            let num = |f: &str, what: &str| -> Result<f64, WorkloadError> {
                let v: f64 = f
                    .parse()
                    .map_err(|_| perr(line_no, format!("{what} `{f}` is not a number")))?;
                if !v.is_finite() {
                    return Err(perr(line_no, format!("{what} `{f}` is not finite")));
                }
                Ok(v)
            };
            let size = num(fields[0], "size")?;
            let prob = num(fields[1], "probability")?;
            if size < 0.0 {
                return Err(perr(line_no, format!("size {size} is negative")));
            }
            if !(0.0..=1.0).contains(&prob) {
                return Err(WorkloadError::ProbabilityOutOfRange {
                    source_name: source_name.to_owned(),
                    line: line_no,
                    prob,
                });
            }
            if let Some(&(ps, pp)) = points.last() {
                let nm = |what, prev, value| WorkloadError::NonMonotonic {
                    source_name: source_name.to_owned(),
                    line: line_no,
                    what,
                    prev,
                    value,
                };
                if size < ps {
                    return Err(nm("size", ps, size));
                }
                if prob < pp {
                    return Err(nm("probability", pp, prob));
                }
            }
            points.push((size, prob));
        }
        let Some(&(_, last)) = points.last() else {
            return Err(WorkloadError::Empty {
                source_name: source_name.to_owned(),
            });
        };
        if (last - 1.0).abs() > 1e-6 {
            return Err(WorkloadError::DoesNotReachOne {
                source_name: source_name.to_owned(),
                last,
            });
        }
        Ok(Cdf { points })
    }

    /// The validated rows.
    pub fn points(&self) -> &[(f64, f64)] {
        &self.points
    }

    /// Inverse CDF with linear interpolation, `u` in `[0, 1]` (clamped).
    pub fn quantile(&self, u: f64) -> f64 {
        let u = if u.is_nan() { 0.0 } else { u.clamp(0.0, 1.0) };
        let i = self.points.partition_point(|&(_, p)| p < u);
        if i == 0 {
            return self.points[0].0;
        }
        let Some(&(s1, p1)) = self.points.get(i) else {
            return self.points[self.points.len() - 1].0;
        };
        let (s0, p0) = self.points[i - 1];
        if p1 <= p0 {
            return s1;
        }
        s0 + (u - p0) / (p1 - p0) * (s1 - s0)
    }

    /// Samples a flow size in bytes (at least 1) from a uniform `u` in `[0, 1)`.
    pub fn sample_bytes(&self, u: f64) -> u64 {
        (self.quantile(u).round() as u64).max(1)
    }

    /// The mean of the interpolated distribution, in bytes.
    pub fn mean(&self) -> f64 {
        let (s0, p0) = self.points[0];
        let mut m = s0 * p0;
        for w in self.points.windows(2) {
            let ((a, pa), (b, pb)) = (w[0], w[1]);
            m += (pb - pa) * (a + b) / 2.0;
        }
        m
    }

    /// The largest size in the CDF.
    pub fn max(&self) -> f64 {
        self.points[self.points.len() - 1].0
    }
}

/// A built-in workload: its CDF text is embedded in the binary.
#[derive(Clone, Copy, Debug)]
pub struct BuiltinWorkload {
    /// The name used on the command line.
    pub name: &'static str,
    /// Other accepted names.
    pub aliases: &'static [&'static str],
    /// What the distribution is.
    pub description: &'static str,
    /// Where the figures come from (repository @ commit, path).
    pub provenance: &'static str,
    /// The file name under `workloads/`.
    pub file: &'static str,
    text: &'static str,
}

macro_rules! wl {
    ($file:literal) => {
        include_str!(concat!("../../../workloads/", $file))
    };
}

const BUILTINS: &[BuiltinWorkload] = &[
    BuiltinWorkload {
        name: "enterprise",
        aliases: &[],
        description: "enterprise workload (CONGA, SIGCOMM'14), as used by Gallium §6",
        provenance: "jiaqing-phd/numfabric @ 741dae4, ENTERPRISE_CDF",
        file: "enterprise.cdf",
        text: wl!("enterprise.cdf"),
    },
    BuiltinWorkload {
        name: "datamining",
        aliases: &["vl2", "data-mining"],
        description:
            "VL2 data mining (SIGCOMM'09), the CONGA data-mining workload used by Gallium §6",
        provenance: "datacenter/empirical-traffic-gen @ b006be5, VL2_CDF",
        file: "datamining_vl2.cdf",
        text: wl!("datamining_vl2.cdf"),
    },
    BuiltinWorkload {
        name: "websearch",
        aliases: &["dctcp", "web-search"],
        description: "DCTCP web search (SIGCOMM'10)",
        provenance: "datacenter/empirical-traffic-gen @ b006be5, DCTCP_CDF",
        file: "websearch_dctcp.cdf",
        text: wl!("websearch_dctcp.cdf"),
    },
    BuiltinWorkload {
        name: "hadoop",
        aliases: &["fb-hadoop"],
        description: "Facebook Hadoop inter-rack flows (Roy et al., SIGCOMM'15)",
        provenance:
            "TritonNetworking/opera-sim @ c098613, Figure1_traffic/FB_Hadoop_Inter_Rack_FlowCDF.csv",
        file: "facebook_hadoop.csv",
        text: wl!("facebook_hadoop.csv"),
    },
    BuiltinWorkload {
        name: "cache",
        aliases: &["fb-cache"],
        description: "Facebook key-value/cache message sizes",
        provenance: "datacenter/empirical-traffic-gen @ b006be5, FB_CDF",
        file: "facebook_cache.cdf",
        text: wl!("facebook_cache.cdf"),
    },
    BuiltinWorkload {
        name: "datamining-opera",
        aliases: &[],
        description: "data mining, Opera (NSDI'20) variant",
        provenance: "TritonNetworking/opera-sim @ c098613, Figure1_traffic/datamining.csv",
        file: "datamining_opera.csv",
        text: wl!("datamining_opera.csv"),
    },
    BuiltinWorkload {
        name: "websearch-opera",
        aliases: &[],
        description: "web search, Opera (NSDI'20) variant",
        provenance: "TritonNetworking/opera-sim @ c098613, Figure1_traffic/websearch.csv",
        file: "websearch_opera.csv",
        text: wl!("websearch_opera.csv"),
    },
];

/// The embedded workloads, in display order.
pub fn builtin_workloads() -> &'static [BuiltinWorkload] {
    BUILTINS
}

impl BuiltinWorkload {
    /// Parses the embedded CDF.
    pub fn load(&self) -> Result<Workload, WorkloadError> {
        Ok(Workload {
            name: self.name.to_owned(),
            cdf: Cdf::parse(self.text, self.file)?,
        })
    }
}

/// A named flow-size distribution.
#[derive(Clone, Debug, PartialEq)]
pub struct Workload {
    /// The built-in name, or the file path for user CDFs.
    pub name: String,
    pub cdf: Cdf,
}

impl Workload {
    /// A built-in workload by name or alias (case-insensitive).
    pub fn builtin(name: &str) -> Option<Result<Workload, WorkloadError>> {
        let lower = name.to_ascii_lowercase();
        BUILTINS
            .iter()
            .find(|b| b.name == lower || b.aliases.contains(&lower.as_str()))
            .map(BuiltinWorkload::load)
    }

    /// Reads a user CDF file (either format).
    pub fn from_file(path: impl AsRef<Path>) -> Result<Workload, WorkloadError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|source| WorkloadError::Io {
            path: path.to_owned(),
            source,
        })?;
        let name = path.display().to_string();
        Ok(Workload {
            cdf: Cdf::parse(&text, &name)?,
            name,
        })
    }

    /// A built-in name, or else a path to a CDF file.
    pub fn resolve(spec: &str) -> Result<Workload, WorkloadError> {
        if let Some(w) = Workload::builtin(spec) {
            return w;
        }
        let path = Path::new(spec);
        if path.exists() {
            return Workload::from_file(path);
        }
        Err(WorkloadError::Unknown {
            name: spec.to_owned(),
            known: BUILTINS
                .iter()
                .map(|b| b.name)
                .collect::<Vec<_>>()
                .join(", "),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn all_builtins_parse() {
        for b in builtin_workloads() {
            let w = b.load().unwrap();
            assert!(w.cdf.mean() > 0.0, "{}", b.name);
        }
    }

    #[test]
    fn both_formats_and_interpolation() {
        let a = Cdf::parse("0 0\n100\t0.5\n# c\n\n300 1\n", "a").unwrap();
        let b = Cdf::parse("0,0\r\n100,0.5\r\n300,1\r\n", "b").unwrap();
        assert_eq!(a, b);
        assert_eq!(a.quantile(0.25), 50.0);
        assert_eq!(a.quantile(0.75), 200.0);
        assert_eq!(a.quantile(1.0), 300.0);
        assert_eq!(a.mean(), 0.5 * 50.0 + 0.5 * 200.0);
        // A first row with probability > 0 is a point mass.
        let c = Cdf::parse("52 0.5\n152 1\n", "c").unwrap();
        assert_eq!(c.quantile(0.1), 52.0);
        assert_eq!(c.mean(), 0.5 * 52.0 + 0.5 * 102.0);
    }

    #[test]
    fn sample_mean_matches_cdf_mean() {
        for name in ["websearch", "cache", "hadoop"] {
            let w = Workload::builtin(name).unwrap().unwrap();
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
            let n = 100_000;
            let sum: f64 = (0..n)
                .map(|_| w.cdf.quantile(rng.gen::<f64>()))
                .sum::<f64>();
            let mean = sum / n as f64;
            let rel = (mean - w.cdf.mean()).abs() / w.cdf.mean();
            assert!(rel < 0.05, "{name}: sample mean {mean} vs {}", w.cdf.mean());
        }
    }

    #[test]
    fn bad_cdfs_are_clear_errors() {
        let e = |t: &str| Cdf::parse(t, "f.cdf").unwrap_err().to_string();
        assert_eq!(e(""), "f.cdf: the CDF has no rows");
        assert_eq!(e("# only\n\n"), "f.cdf: the CDF has no rows");
        assert!(e("0 0\n10 1.5\n").contains("f.cdf:2: probability 1.5 is outside"));
        assert!(e("0 0\n10 -0.1\n").contains("outside 0..=1"));
        assert!(e("0 0\n10 0.6\n20 0.5\n30 1\n")
            .contains("f.cdf:3: not monotonic: probability decreases"));
        assert!(e("0 0\n10 0.5\n5 1\n").contains("f.cdf:3: not monotonic: size decreases"));
        assert!(e("0 0\n10 0.5\n").contains("last cumulative probability is 0.5"));
        assert!(e("0 0\nten 1\n").contains("f.cdf:2: size `ten` is not a number"));
        assert!(e("0 0 0\n").contains("expected two fields"));
        let err = Workload::resolve("no-such-workload")
            .unwrap_err()
            .to_string();
        assert!(err.contains("enterprise, datamining"), "{err}");
    }
}
