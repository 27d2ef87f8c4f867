//! Table compression (crate::compress): the step table and placement for a gateway's tables
//! at Sailfish scale, lookup order kept by the folded placement (with a negative control),
//! pooling and ALPM decisions, and bad scales.

use tandem_partition::compress::{compress, place, report, report_for, Scale};
use tandem_partition::TargetProfile;

/// A VXLAN gateway's tables as the lifter declares them for examples/nfs/xgw: routes by
/// (VNI, IPv4) and (VNI, IPv6) LPM (the IPv6 prefix over two 64-bit fields), VM-NC
/// mappings exact; lookups in that order.
const XGW: &str = "nf gw

state routes4: lpm_map<{k0: i32, k4: i32}, {v0: i32}, 8192>
state vm_nc4: hashmap<{k0: i32, k4: i32}, {v0: i32, v4: i32, v8: i64, v16: i64}, 65536>
state routes6: lpm_map<{k0: i64, k8: i64, k16: i64}, {v0: i32}, 4096, 2>
state vm_nc6: hashmap<{k0: i32, k4: i32, k8: i64, k16: i64}, {v0: i32, v4: i32, v8: i64, v16: i64}, 65536>

fn process {
block0:
    v0:i32 = hdr.read ipv4.saddr
    v1:i32 = hdr.read ipv4.daddr
    v2:i1, v3:i32 = map.find routes4(v0, v1)
    v4:i1, v5:i32, v6:i32, v7:i64, v8:i64 = map.find vm_nc4(v0, v1)
    v9:i64 = zext v0
    v10:i64 = zext v1
    v11:i1, v12:i32 = map.find routes6(v9, v10, v10)
    v13:i1, v14:i32, v15:i32, v16:i64, v17:i64 = map.find vm_nc6(v0, v1, v10, v10)
    v18:i16 = const 1
    send v18
    return
}
";

fn module() -> tandem_ir::Module {
    let m = tandem_ir::parse_module(XGW).unwrap();
    tandem_ir::verify_module(&m).unwrap();
    m
}

fn sailfish_scale() -> Scale {
    // >= 1,000,000 VM-NC entries and >= 100,000 routes, 25% IPv6.
    Scale::parse("routes4=75000,routes6=25000,vm_nc4=750000,vm_nc6=250000").unwrap()
}

#[test]
fn sailfish_scale_fits_tofino1_after_folding_and_splitting() {
    let p = TargetProfile::builtin("tofino1").unwrap();
    let c = compress(&module(), &p, &sailfish_scale()).unwrap();
    let names: Vec<&str> = c.steps.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "baseline (one pipe)",
            "pipeline folding",
            "table splitting between pipelines",
            "key digests",
            "IPv4/IPv6 pooling",
            "ALPM"
        ]
    );
    let base = &c.steps[0];
    assert!(
        base.sram_pct > 100.0 && base.tcam_pct > 100.0,
        "{}",
        report(&c, &p)
    );
    // Folding doubles the memory a path sees, splitting halves the tables.
    assert!((c.steps[1].sram_pct * 2.0 - base.sram_pct).abs() < 0.1);
    assert!(c.steps[2].sram_pct < c.steps[1].sram_pct * 0.51);
    assert!(c.config.folded && c.config.split);
    assert!(c.placement.fits, "{}", report(&c, &p));
    assert!(c.placement.keeps_lookup_order(&c.config.tables));
    // Per pipe within budget.
    for u in &c.placement.pipe_used {
        assert!(u.sram_blocks <= c.placement.pipe_budget.sram_blocks);
        assert!(u.tcam_blocks <= c.placement.pipe_budget.tcam_blocks);
    }
    // Key digests: the 192-bit VM-NC IPv6 key becomes a 32-bit digest and SRAM shrinks; the
    // 64-bit IPv4 key stays exact; what is emitted is named.
    let d = &c.steps[3];
    assert!(
        d.chosen && d.sram_pct < c.steps[2].sram_pct,
        "{}",
        report(&c, &p)
    );
    assert_eq!(
        c.digests().into_iter().collect::<Vec<_>>(),
        [("vm_nc6".to_string(), 64)]
    );
    assert!(report(&c, &p).contains("emitted in the generated P4: key digests vm_nc6"));
}

/// The report says which chosen steps are in the generated P4 and which the memory model
/// only counts: at Sailfish scale folding and splitting are chosen and modelled only, key
/// digests emitted, pooling (not chosen) in neither list. Negative controls: at a small
/// scale nothing is modelled only (no line claims it), and with four times the routes ALPM
/// is listed as emitted.
/// For TNA the back end emits folding (`tandem_p4::fold`), so the report lists it as
/// emitted; for v1model it stays modelled only and says why; splitting stays modelled only
/// for both. Negative control: the architecture-free emission still lists folding as
/// modelled only.
#[test]
fn folding_is_emitted_for_tna_and_modelled_only_for_v1model() {
    let p = TargetProfile::builtin("tofino1").unwrap();
    let c = compress(&module(), &p, &sailfish_scale()).unwrap();
    let tna = c.emission_for(Some(true));
    assert!(
        tna.emitted[0].starts_with("pipeline folding (TNA"),
        "{tna:?}"
    );
    assert_eq!(tna.modelled_only, ["table splitting between pipelines"]);
    assert!(report_for(&c, &p, Some(true))
        .contains("emitted in the generated P4: pipeline folding (TNA"));
    let v1 = c.emission_for(Some(false));
    assert!(!v1.emitted.iter().any(|e| e.contains("folding")), "{v1:?}");
    assert_eq!(
        v1.modelled_only[0],
        "pipeline folding (v1model is one pipe; --target tna emits it)"
    );
    assert_eq!(c.emission().modelled_only[0], "pipeline folding");
    // Not chosen at a small scale: not listed for TNA either.
    let small = Scale::parse("routes4=1000,routes6=1000,vm_nc4=1000,vm_nc6=1000").unwrap();
    let c = compress(&module(), &p, &small).unwrap();
    assert!(!c
        .emission_for(Some(true))
        .emitted
        .iter()
        .any(|e| e.contains("folding")));
}

#[test]
fn the_report_says_what_is_emitted_and_what_is_modelled_only() {
    let p = TargetProfile::builtin("tofino1").unwrap();
    let c = compress(&module(), &p, &sailfish_scale()).unwrap();
    let e = c.emission();
    assert_eq!(e.emitted, ["key digests vm_nc6 (64 conflict entries)"]);
    assert_eq!(
        e.modelled_only,
        ["pipeline folding", "table splitting between pipelines"]
    );
    let r = report(&c, &p);
    assert!(
        r.contains(
            "modelled only, NOT in the generated P4: pipeline folding, table splitting between pipelines ("
        ),
        "{r}"
    );
    let small = Scale::parse("routes4=1000,routes6=1000,vm_nc4=1000,vm_nc6=1000").unwrap();
    let c = compress(&module(), &p, &small).unwrap();
    assert!(c.emission().modelled_only.is_empty());
    assert!(
        !report(&c, &p).contains("modelled only"),
        "{}",
        report(&c, &p)
    );
    let big = Scale::parse("routes4=300000,routes6=100000,vm_nc4=750000,vm_nc6=250000").unwrap();
    let c = compress(&module(), &p, &big).unwrap();
    assert!(
        c.emission()
            .emitted
            .iter()
            .any(|x| x.starts_with("ALPM routes4 (depth ")),
        "{:?}",
        c.emission()
    );
}

#[test]
fn alpm_is_chosen_when_tcam_is_the_scarce_resource() {
    let p = TargetProfile::builtin("tofino1").unwrap();
    // Four times the routes: TCAM, not SRAM, limits.
    let scale = Scale::parse("routes4=300000,routes6=100000,vm_nc4=750000,vm_nc6=250000").unwrap();
    let c = compress(&module(), &p, &scale).unwrap();
    let alpm = c.steps.iter().find(|s| s.name == "ALPM").unwrap();
    assert!(alpm.chosen, "{}", report(&c, &p));
    let before = &c.steps[c.steps.len() - 2];
    // routes4 (three quarters of the routes) leaves TCAM; routes6 stays a ternary table.
    assert!(alpm.tcam_pct < before.tcam_pct / 2.0);
    assert!(alpm.sram_pct > before.sram_pct, "ALPM trades TCAM for SRAM");
    // Every one-field LPM map is held as ALPM; routes6's prefix spans two fields (a
    // ternary table), which ALPM cannot hold.
    for t in c.config.tables.iter().filter(|t| t.lpm) {
        assert_eq!(t.alpm_depth.is_some(), t.name != "routes6", "{}", t.name);
    }
    assert_eq!(c.alpm_depths().keys().collect::<Vec<_>>(), ["routes4"]);
    assert!(c.placement.fits, "{}", report(&c, &p));
    assert!(c.placement.keeps_lookup_order(&c.config.tables));
}

#[test]
fn a_one_pipe_target_cannot_fold() {
    let p = TargetProfile::builtin("bmv2").unwrap();
    // bmv2 has unbounded memory.
    assert!(compress(&module(), &p, &sailfish_scale()).is_err());
    let mut tiny = TargetProfile::builtin("tofino1").unwrap();
    tiny.pipelines = 1;
    let c = compress(&module(), &tiny, &sailfish_scale()).unwrap();
    let fold = c
        .steps
        .iter()
        .find(|s| s.name == "pipeline folding")
        .unwrap();
    assert!(!fold.chosen && fold.note.contains("1 pipeline"));
    assert!(!c.config.folded);
    assert!(!c.placement.fits, "{}", report(&c, &tiny));
}

/// The folded placement follows lookup order; negative control: a placement with two tables
/// swapped across gresses is rejected by the same check.
#[test]
fn folded_placement_keeps_lookup_order() {
    let p = TargetProfile::builtin("tofino1").unwrap();
    let c = compress(&module(), &p, &sailfish_scale()).unwrap();
    let pl = place(&c.config, &p);
    assert!(pl.keeps_lookup_order(&c.config.tables));
    let slot_of = |name: &str| pl.pieces.iter().find(|x| x.table == name).unwrap().slot;
    assert!(slot_of("routes4") <= slot_of("vm_nc4"));
    assert!(slot_of("vm_nc4") <= slot_of("vm_nc6"));
    let mut bad = pl.clone();
    let last = bad.slots.len() - 1;
    for x in bad.pieces.iter_mut().filter(|x| x.table == "routes4") {
        x.slot = last;
    }
    assert!(!bad.keeps_lookup_order(&c.config.tables));
    // Bridged bytes grow along the path (results of earlier lookups travel on).
    assert!(pl.bridged_bytes.windows(2).all(|w| w[0] <= w[1]));
}

#[test]
fn pooling_keeps_tables_apart_when_it_would_grow_them() {
    let p = TargetProfile::builtin("tofino1").unwrap();
    let c = compress(&module(), &p, &sailfish_scale()).unwrap();
    let pool = c
        .steps
        .iter()
        .find(|s| s.name == "IPv4/IPv6 pooling")
        .unwrap();
    assert!(pool.note.contains("routes4+routes6"), "{}", pool.note);
    assert!(pool.note.contains("vm_nc4+vm_nc6"), "{}", pool.note);
    assert!(!pool.chosen);
}

/// Small route tables: pooling saves TCAM blocks (one 512-entry block row of the pooled
/// 193-bit key instead of one for each table), so the partitioner pools them and says it
/// emits the pool; negative control: at Sailfish scale it keeps them apart and lists no pool.
#[test]
fn pooling_is_chosen_and_emitted_when_it_saves_memory() {
    let p = TargetProfile::builtin("tofino1").unwrap();
    let small = Scale::parse("routes4=100,routes6=100,vm_nc4=1000,vm_nc6=1000").unwrap();
    let c = compress(&module(), &p, &small).unwrap();
    let pool = c
        .steps
        .iter()
        .find(|s| s.name == "IPv4/IPv6 pooling")
        .unwrap();
    assert!(pool.chosen, "{}", pool.note);
    assert_eq!(c.pools(), [("routes4".to_string(), "routes6".to_string())]);
    assert!(c
        .emission()
        .emitted
        .iter()
        .any(|e| e.starts_with("IPv4/IPv6 pooling routes4+routes6")));
    assert!(c.emission().modelled_only.is_empty());
    let c = compress(&module(), &p, &sailfish_scale()).unwrap();
    assert!(c.pools().is_empty());
    assert!(!c.emission().emitted.iter().any(|e| e.contains("pooling")));
}

#[test]
fn bad_scales_are_errors() {
    assert!(Scale::parse("routes4").is_err());
    assert!(Scale::parse("routes4=lots").is_err());
    let p = TargetProfile::builtin("tofino1").unwrap();
    let err = compress(&module(), &p, &Scale::parse("nope=5").unwrap()).unwrap_err();
    assert!(err.to_string().contains("`nope`"));
}

/// A folded profile (`tofino1:folded`) counts two gresses per partition: twice the stages,
/// half the pipelines; compression on it does not fold a second time (its baseline is the
/// folded path), and still splits across the two folded paths. A one-pipe or already
/// folded profile cannot fold.
#[test]
fn a_folded_profile_doubles_the_stages_once() {
    let p = TargetProfile::builtin("tofino1").unwrap();
    let f = p.folded().unwrap();
    assert_eq!((f.stages, f.pipelines, f.folded), (Some(24), 2, true));
    assert_eq!(
        f.total_sram_blocks(),
        Some(2 * p.total_sram_blocks().unwrap())
    );
    assert!(f.folded().is_none(), "folding twice");
    let mut one = p.clone();
    one.pipelines = 1;
    assert!(one.folded().is_none());
    let c = compress(&module(), &f, &sailfish_scale()).unwrap();
    let plain = compress(&module(), &p, &sailfish_scale()).unwrap();
    let fold = c
        .steps
        .iter()
        .find(|s| s.name == "pipeline folding")
        .unwrap();
    assert!(fold.chosen && fold.note.contains("folded path"));
    // The same occupancy after folding as the unfolded profile's folding step: not halved
    // twice.
    assert!(
        (fold.sram_pct - plain.steps[1].sram_pct).abs() < 0.1,
        "{}",
        report(&c, &f)
    );
    assert!(c
        .steps
        .iter()
        .any(|s| s.name.starts_with("table splitting") && s.chosen));
}

/// When the compression chooses pipeline folding (the tables need two pipes' memory), the
/// partitioner plans on the folded path, whose stage budget doubles too (tofino1: 12 -> 24
/// stages per partition); when the tables fit one pipe it keeps the profile (folding halves
/// the throughput). Negative control: the small scale's profile is not folded.
#[test]
fn compression_that_folds_plans_on_the_folded_profile() {
    let p = TargetProfile::builtin("tofino1").unwrap();
    let c = compress(&module(), &p, &sailfish_scale()).unwrap();
    let planned = c.profile(&p);
    assert!(planned.folded && planned.name == "tofino1:folded");
    assert_eq!(planned.stages, Some(24));
    let small = Scale::parse("routes4=1000,routes6=1000,vm_nc4=1000,vm_nc6=1000").unwrap();
    let c = compress(&module(), &p, &small).unwrap();
    assert!(!c.config.folded);
    assert_eq!(c.profile(&p), p);
    // An already folded profile stays itself.
    let f = p.folded().unwrap();
    let c = compress(&module(), &f, &sailfish_scale()).unwrap();
    assert_eq!(c.profile(&f), f);
}

/// The emitted fold at the compression's scale (`fold_scale`): whole tables per gress,
/// summed per pipe. At Sailfish scale one whole vm_nc4 (1,465 SRAM blocks) is more than a
/// pipe (960), so a cut holding it is OVER whatever gress holds it; a cut with only the
/// small tables fits. Negative control: the same tables counted in one gress of pipe 0
/// instead of spread over both pipes changes the pipe sums.
#[test]
fn emitted_fold_at_scale_counts_whole_tables_per_pipe() {
    use std::collections::BTreeMap;
    use tandem_partition::fold_scale::{emitted_memory, emitted_report, pipe_use};
    let p = TargetProfile::builtin("tofino1").unwrap();
    let c = compress(&module(), &p, &sailfish_scale()).unwrap();
    let held = |names: &[(&str, u64)]| -> BTreeMap<String, u64> {
        names.iter().map(|(n, k)| (n.to_string(), *k)).collect()
    };
    let copies = vec![
        held(&[("routes4", 1)]),
        held(&[("vm_nc4", 1), ("routes6", 1), ("vm_nc6", 1)]),
        BTreeMap::new(),
    ];
    let per = emitted_memory(&c, &p, &copies);
    let whole = |n: &str| {
        c.config
            .tables
            .iter()
            .find(|t| t.name == n)
            .unwrap()
            .mem(&p, 1)
    };
    assert_eq!(per[0].len(), 1);
    assert_eq!(per[0][0].2, whole("routes4"));
    let pipes = pipe_use(&per);
    assert_eq!(pipes[0], whole("routes4"));
    assert_eq!(
        pipes[1],
        whole("vm_nc4") + whole("routes6") + whole("vm_nc6")
    );
    assert!(pipes[1].sram_blocks > 960, "{pipes:?}");
    let text = emitted_report(&c, &p, &copies);
    assert!(text.contains("pipe 1: SRAM"), "{text}");
    assert!(text.contains("OVER"), "{text}");
    // Two copies cost twice one.
    let two = emitted_memory(&c, &p, &[held(&[("routes4", 2)])]);
    assert_eq!(two[0][0].2.tcam_blocks, 2 * whole("routes4").tcam_blocks);
    // Negative control: everything counted in ingress 0 (pipe 0).
    let wrong = vec![
        held(&[("routes4", 1), ("vm_nc4", 1), ("routes6", 1), ("vm_nc6", 1)]),
        BTreeMap::new(),
        BTreeMap::new(),
    ];
    assert_ne!(pipe_use(&emitted_memory(&c, &p, &wrong)), pipes);
}
