//! Running one random NF through the whole compiler and checking it.
//!
//! For a seed: generate the NF ([`crate::gen`]), write it to the work directory, compile its
//! analysis build and lift it once (a refusal with a diagnostic code ends the NF there), build
//! the native NF once; then for each profile: partition (no plan fitting the profile is a
//! refusal, not a failure), generate switch.p4 and server.cc, load both, and run
//! [`tandem_offload::check`] on a short random trace from `tandem-traffic`. Every panic is
//! caught and reported as a crash; everything after a successful partition that does not end
//! in an equal check is a failure.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use tandem_host::{compile_native, BuildOptions, NativeNf, NfConfig};
use tandem_offload::{check, Bundle, CheckOptions, OffloadError, RunOptions};
use tandem_p4::P4Options;
use tandem_traffic::{builtin_workloads, GenOptions as TrafficOptions, Generator, Plan};

use crate::gen::{generate, GenOptions};
use crate::profile::random_profile;
use crate::rng::Rng;

/// A deliberately wrong lowering for the negative control: rewrites the generated switch
/// program (`None`: leave it as it is).
pub type P4Mutation = fn(&str) -> Option<String>;

/// How to run the fuzzer.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// What the generator may produce.
    pub gen: GenOptions,
    /// Built-in profiles to partition for (each NF runs on each).
    pub profiles: Vec<String>,
    /// Vary the profiles' budgets and the partitioner's options at random.
    pub vary_profiles: bool,
    /// Where the NFs' sources and the analysis build's temporaries go.
    pub work_dir: PathBuf,
    /// Where native NFs and server partitions are cached.
    pub cache_dir: PathBuf,
    /// Packets per check, at most (each check uses between half of this and this).
    pub packets: usize,
    /// The negative control's wrong lowering.
    pub mutate_p4: Option<P4Mutation>,
}

impl RunConfig {
    /// tofino1, bmv2 and tiny, varied; 300 packets.
    pub fn new(work_dir: PathBuf, cache_dir: PathBuf) -> RunConfig {
        RunConfig {
            gen: GenOptions::default(),
            profiles: vec!["tofino1".into(), "bmv2".into(), "tiny".into()],
            vary_profiles: true,
            work_dir,
            cache_dir,
            packets: 300,
            mutate_p4: None,
        }
    }
}

/// What kind of failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FailKind {
    /// The generated C++ does not compile (a generator bug).
    InvalidCxx,
    /// A panic (or, under `tandem fuzz-nfs`, a worker killed by a signal).
    Crash,
    /// An internal error: the lifted module does not verify, a plan is inconsistent.
    Internal,
    /// switch.p4 or server.cc could not be generated, compiled or loaded after a
    /// successful partition.
    Compile,
    /// The offloaded run failed on a packet.
    Run,
    /// Outputs or final state differ from the native NF's.
    Mismatch,
}

impl FailKind {
    /// Its name in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            FailKind::InvalidCxx => "invalid-cxx",
            FailKind::Crash => "crash",
            FailKind::Internal => "internal",
            FailKind::Compile => "compile",
            FailKind::Run => "run",
            FailKind::Mismatch => "mismatch",
        }
    }
}

/// The outcome of one NF on one profile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum Outcome {
    /// Outputs and final state equal to the native NF's.
    Passed,
    /// Not a bug: the lifter refused the NF with a diagnostic code (`L009`), or no plan fits
    /// the profile (`no-plan`).
    Refused {
        /// The diagnostic code, or `no-plan`.
        code: String,
        /// The diagnostic.
        message: String,
    },
    /// A bug.
    Failed {
        /// What failed.
        kind: FailKind,
        /// The error or the difference.
        message: String,
    },
}

/// One NF on one profile.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ProfileRun {
    /// The built-in profile.
    pub profile: String,
    /// What was varied (empty: the built-in profile as is).
    pub variation: String,
    /// The trace: workload, address plan, flows.
    #[serde(default)]
    pub trace: String,
    /// Packets checked.
    pub packets: u64,
    /// The outcome.
    pub outcome: Outcome,
}

/// One NF on every profile.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NfRun {
    /// The seed.
    pub seed: u64,
    /// Where its source was written.
    pub source_path: PathBuf,
    /// The source.
    pub source: String,
    /// Known-bug constructs it contains.
    pub known_bug_tags: Vec<String>,
    /// Per profile, in the order asked.
    pub runs: Vec<ProfileRun>,
}

impl NfRun {
    /// Did any run fail?
    pub fn failed(&self) -> bool {
        self.runs
            .iter()
            .any(|r| matches!(r.outcome, Outcome::Failed { .. }))
    }
}

fn failed(kind: FailKind, message: impl Into<String>) -> Outcome {
    Outcome::Failed {
        kind,
        message: message.into(),
    }
}

/// The known, separately tracked bug a failure's message shows, if any.
pub fn known_bug(message: &str) -> Option<&'static str> {
    const SIGNATURES: &[(&str, &str)] = &[
        (
            "unaligned fields wider than 56 bits",
            "64-bit value at an unaligned transfer-header offset",
        ),
        (
            "tables may have at most 8 keys",
            "map key of more than 8 fields",
        ),
    ];
    SIGNATURES
        .iter()
        .find(|(s, _)| message.contains(s))
        .map(|(_, name)| *name)
}

/// The message of a caught panic.
pub fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".into()
    }
}

fn clip(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}\n[... {} bytes more]", &s[..end], s.len() - end)
}

/// Generates the NF for `seed` and runs it on every profile of `config`.
pub fn run_seed(seed: u64, config: &RunConfig) -> NfRun {
    let nf = generate(seed, &config.gen);
    let tags = nf.known_bug_tags.iter().map(|s| s.to_string()).collect();
    run_source(seed, &format!("fuzz{seed}"), &nf.source, tags, config)
}

/// Runs an NF's source (written to `<work_dir>/<stem>.cc`) on every profile of `config`;
/// `seed` draws the profile variations and traces.
pub fn run_source(
    seed: u64,
    stem: &str,
    source: &str,
    known_bug_tags: Vec<String>,
    config: &RunConfig,
) -> NfRun {
    let path = config.work_dir.join(format!("{stem}.cc"));
    let mut out = NfRun {
        seed,
        source_path: path.clone(),
        source: source.to_string(),
        known_bug_tags,
        runs: Vec::new(),
    };
    let all = |out: &mut NfRun, outcome: Outcome| {
        for p in &config.profiles {
            out.runs.push(ProfileRun {
                profile: p.clone(),
                variation: String::new(),
                trace: String::new(),
                packets: 0,
                outcome: outcome.clone(),
            });
        }
    };
    if let Err(e) =
        std::fs::create_dir_all(&config.work_dir).and_then(|()| std::fs::write(&path, source))
    {
        all(
            &mut out,
            failed(FailKind::Internal, format!("{}: {e}", path.display())),
        );
        return out;
    }
    let module = match catch_unwind(AssertUnwindSafe(|| lift(&path, config))) {
        Ok(Ok(m)) => m,
        Ok(Err(outcome)) => {
            all(&mut out, outcome);
            return out;
        }
        Err(p) => {
            all(
                &mut out,
                failed(
                    FailKind::Crash,
                    format!("lifting panicked: {}", panic_message(&*p)),
                ),
            );
            return out;
        }
    };
    let build = BuildOptions {
        cache_dir: config.cache_dir.clone(),
        ..BuildOptions::default()
    };
    let so = match compile_native(&path, &build) {
        Ok(so) => so,
        Err(e) => {
            all(
                &mut out,
                failed(FailKind::InvalidCxx, format!("native build: {e}")),
            );
            return out;
        }
    };
    let mut rng = Rng::new(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0xf00d);
    let plan = crate::gen::source_traffic_plan(source).and_then(|p| p.parse::<Plan>().ok());
    for base in &config.profiles {
        let run = catch_unwind(AssertUnwindSafe(|| {
            run_profile(&module, base, &so, config, plan, &mut rng)
        }))
        .unwrap_or_else(|p| ProfileRun {
            profile: base.clone(),
            variation: String::new(),
            trace: String::new(),
            packets: 0,
            outcome: failed(FailKind::Crash, format!("panicked: {}", panic_message(&*p))),
        });
        out.runs.push(run);
    }
    out
}

/// Analysis build and lift: the module, or the outcome that ends the NF.
fn lift(path: &Path, config: &RunConfig) -> Result<tandem_ir::Module, Outcome> {
    let include = tandem_host::nfapi::materialize(&config.cache_dir)
        .map_err(|e| failed(FailKind::Internal, format!("NF API headers: {e}")))?;
    let cxx = tandem_host::build::find_cxx();
    let ll =
        tandem_lift::driver::emit_llvm(&cxx, &include, path, &config.work_dir.join("analysis"))
            .map_err(|e| match e {
                tandem_lift::driver::DriverError::Compile { .. } => {
                    failed(FailKind::InvalidCxx, clip(&e.to_string(), 4000))
                }
                e => failed(FailKind::Internal, e.to_string()),
            })?;
    let lifted = tandem_lift::lift(&ll).map_err(|e| {
        let first = e
            .diagnostics
            .iter()
            .find(|d| d.code.severity() == tandem_lift::Severity::Error)
            .or(e.diagnostics.first());
        match first {
            Some(d) => Outcome::Refused {
                code: d.code.as_str().to_string(),
                message: d.to_string(),
            },
            None => failed(FailKind::Internal, "the lifter failed without a diagnostic"),
        }
    })?;
    tandem_ir::verify_module(&lifted.module).map_err(|e| {
        failed(
            FailKind::Internal,
            format!("the lifted module does not verify:\n{e}"),
        )
    })?;
    Ok(tandem_ir::renumber(&lifted.module))
}

/// One profile: `plan`, the plan the NF's declared headers match, is used for three traces
/// in four.
fn run_profile(
    module: &tandem_ir::Module,
    base: &str,
    so: &Path,
    config: &RunConfig,
    plan: Option<Plan>,
    rng: &mut Rng,
) -> ProfileRun {
    let mut run = ProfileRun {
        profile: base.to_string(),
        variation: String::new(),
        trace: String::new(),
        packets: 0,
        outcome: Outcome::Passed,
    };
    let fp = match random_profile(base, config.vary_profiles, rng) {
        Ok(p) => p,
        Err(e) => {
            run.outcome = failed(FailKind::Internal, e.to_string());
            return run;
        }
    };
    run.variation = fp.variation.clone();
    // The trace, drawn before anything can fail so that a profile's trace does not depend
    // on the other profiles' outcomes.
    let workloads = builtin_workloads();
    let workload = rng.pick(workloads);
    let mut topts = TrafficOptions {
        flows: rng.range(10, 60),
        seed: rng.next_u64(),
        plan: *rng.pick(&Plan::ALL),
        udp_share: *rng.pick(&[0.1, 0.3, 0.6]),
        rst_share: *rng.pick(&[0.0, 0.1, 0.5]),
        ..TrafficOptions::default()
    };
    let lo = (config.packets / 2).max(1) as u64;
    let n = rng.range(lo, config.packets.max(1) as u64) as usize;
    if let Some(p) = plan {
        if rng.chance(3, 4) {
            topts.plan = p;
        }
    }
    run.trace = format!(
        "workload {}, plan {}, {} flows, {n} packets",
        workload.name, topts.plan, topts.flows
    );
    let plan = match tandem_partition::partition_module(module, &fp.profile, &fp.options) {
        Ok(p) => p.plan,
        Err(e) => {
            run.outcome = Outcome::Refused {
                code: "no-plan".into(),
                message: e.to_string(),
            };
            return run;
        }
    };
    let bundle = match compile(plan, config) {
        Ok(b) => b,
        Err(o) => {
            run.outcome = o;
            return run;
        }
    };
    let w = match workload.load() {
        Ok(w) => w,
        Err(e) => {
            run.outcome = failed(FailKind::Internal, e.to_string());
            return run;
        }
    };
    let mut packets = match Generator::new(&w, topts) {
        Ok(g) => g.take(n),
        Err(e) => {
            run.outcome = failed(FailKind::Internal, e.to_string());
            return run;
        }
    };
    let native = match NativeNf::load(so, &NfConfig::default()) {
        Ok(nf) => nf,
        Err(e) => {
            run.outcome = failed(FailKind::InvalidCxx, format!("loading the native NF: {e}"));
            return run;
        }
    };
    let report = check(
        &bundle,
        native,
        &mut packets,
        CheckOptions {
            run: RunOptions {
                cache_dir: config.cache_dir.clone(),
                ..RunOptions::default()
            },
            ..CheckOptions::default()
        },
    );
    run.outcome = match report {
        Ok(r) => {
            run.packets = r.packets;
            if r.passed() {
                Outcome::Passed
            } else {
                let mut m = format!(
                    "{} of {} packets differ; per port (missing, extra): {:?}; state: {:?}\n",
                    r.differing_packets, r.packets, r.multiset_differences, r.state_differences
                );
                if let Some(f) = &r.first_difference {
                    m.push_str("first differing ");
                    m.push_str(f);
                }
                failed(FailKind::Mismatch, clip(&m, 8000))
            }
        }
        Err(e @ (OffloadError::ServerBuild(_) | OffloadError::Switch(_))) => {
            failed(FailKind::Compile, clip(&e.to_string(), 4000))
        }
        Err(e @ OffloadError::Manifest(_)) => failed(FailKind::Internal, e.to_string()),
        Err(e) => failed(FailKind::Run, clip(&e.to_string(), 4000)),
    };
    run
}

/// switch.p4 and server.cc for a plan (what `compile_bundle` does after partitioning), with
/// the negative control's mutation applied.
fn compile(plan: tandem_partition::Plan, config: &RunConfig) -> Result<Bundle, Outcome> {
    let m = plan
        .module()
        .map_err(|e| failed(FailKind::Internal, format!("plan's module: {e}")))?;
    let p4 = tandem_p4::generate(&plan, &m, &P4Options::default())
        .map_err(|e| failed(FailKind::Compile, format!("generating P4: {e}")))?;
    let cc = tandem_cpp::generate(&plan, &m)
        .map_err(|e| failed(FailKind::Compile, format!("generating C++: {e}")))?;
    let mut text = tandem_p4_syntax::print_program(&p4.program);
    if let Some(mutate) = config.mutate_p4 {
        if let Some(t) = mutate(&text) {
            text = t;
        }
    }
    Bundle::new(plan, p4.manifest, text, cc, None)
        .map_err(|e| failed(FailKind::Internal, e.to_string()))
}
