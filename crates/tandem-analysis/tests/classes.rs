//! Derived state classes: hand-written state machines with known answers, a negative
//! control, and the lifted `statefilter`.

use tandem_analysis::{
    compute_all_state_classes, compute_state_classes, ClassFallback, ClassOptions,
};
use tandem_ir::{parse_module, verify_module, Module};

fn golden(name: &str) -> Module {
    let path = format!(
        "{}/../tandem-lift/tests/golden/{name}.nfir",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("golden file");
    parse_module(&text).expect("golden parses")
}

/// A door-lock state machine (not connection-shaped): `locks` maps a user id (ipv4.saddr) to
/// `{mode, tries}`. mode 1 LOCKED, 2 OPEN, 3 HELD-OPEN, 4 ALARM. A packet with
/// `tcp.flags == 0` is a plain "use" request: on OPEN or HELD-OPEN it is sent to port 1,
/// on LOCKED or ALARM dropped, and on no entry dropped. Any other flags ("control") set
/// `mode` from the flags (a state write). `tries` (1..=2) is stored but only ALARM reads it:
/// in ALARM with tries == 2 a use request is sent to port 2 (the guard), else dropped.
/// `held_open_rewrites` swaps in a variant where HELD-OPEN rewrites the TTL (behaves
/// differently from OPEN).
fn door(held_open_rewrites: bool) -> Module {
    let held = if held_open_rewrites {
        "    v30:i8 = const 1\n    hdr.write ipv4.ttl, v30\n"
    } else {
        ""
    };
    let text = include_str!("classes/door.nfir.in").replace("HELD\n", held);
    let m = parse_module(&text).expect("parses");
    verify_module(&m).expect("verifies");
    m
}

fn classes_text(m: &Module) -> Vec<String> {
    let s = m.state_by_name("locks").unwrap();
    let c = compute_state_classes(m, s, &ClassOptions::default()).expect("classes");
    c.describe()
}

#[test]
fn door_state_machine_has_the_known_classes() {
    let m = door(false);
    let s = m.state_by_name("locks").unwrap();
    let c = compute_state_classes(&m, s, &ClassOptions::default()).expect("classes");
    // mode is (flags & 3) + 1 = 1..=4; tries starts at 1 (0 + 1) and saturates at 2.
    assert_eq!(c.fields[0].values.as_deref(), Some(&[1, 2, 3, 4][..]));
    assert_eq!(c.fields[1].values.as_deref(), Some(&[1, 2][..]));
    let text = c.describe();
    // Absent, LOCKED and ALARM below 2 tries behave alike (use dropped, control to the
    // server); OPEN and HELD-OPEN merge; ALARM with 2 tries sends use requests to the guard.
    assert_eq!(
        text,
        vec![
            "c0  absent; (mode, tries) in (1, 1) (1, 2) (4, 1)",
            "c1  mode in {2, 3}, tries any",
            "c2  mode in {4}, tries in {2}",
        ],
        "{text:#?}"
    );
    assert_eq!(c.class_bits(), 2);
    assert_eq!(c.value_bits, 16);
    assert_eq!(c.class_of(&[3, 1]), Some(1));
    assert_eq!(c.class_of(&[2, 2]), Some(1));
    assert_eq!(c.class_of(&[4, 2]), Some(2));
    assert_eq!(c.class_of(&[4, 1]), Some(0));
    assert_eq!(c.class_of(&[9, 1]), None, "outside the domain");
    assert_eq!(c.absent_class(), Some(0));
}

#[test]
fn a_state_that_behaves_differently_is_not_merged() {
    // Negative control: HELD-OPEN now also rewrites the TTL, so it may not merge with OPEN.
    let text = classes_text(&door(true));
    assert_eq!(
        text,
        vec![
            "c0  absent; (mode, tries) in (1, 1) (1, 2) (4, 1)",
            "c1  mode in {2}, tries any",
            "c2  mode in {3}, tries any",
            "c3  mode in {4}, tries in {2}",
        ],
        "{text:#?}"
    );
}

#[test]
fn an_unbounded_field_the_switch_reads_falls_back() {
    // `tries` now counts without bound (add 1 always), and ALARM still reads it.
    let m = door(false);
    let text = tandem_ir::print_module(&m)
        .replace("v16:i8 = select v13, v15, v3", "v16:i8 = add v15, v14");
    let m = parse_module(&text).unwrap();
    let s = m.state_by_name("locks").unwrap();
    let err = compute_state_classes(&m, s, &ClassOptions::default()).unwrap_err();
    assert_eq!(
        err,
        ClassFallback::Unbounded {
            field: "tries".into()
        }
    );
    assert!(err.to_string().contains("`tries`"));
}

#[test]
fn statefilter_connection_states_collapse() {
    let m = golden("statefilter");
    let all = compute_all_state_classes(&m, &ClassOptions::default());
    for (s, r) in &all {
        match r {
            Ok(c) => {
                println!(
                    "{}: {} classes, {} -> {} bits",
                    c.name,
                    c.classes.len(),
                    c.value_bits,
                    c.class_bits()
                );
                for l in c.describe() {
                    println!("  {l}");
                }
            }
            Err(e) => println!("{s}: fallback: {e}"),
        }
    }
    let conns = m.state_by_name("conns").unwrap();
    let c = all
        .iter()
        .find(|(s, _)| *s == conns)
        .and_then(|(_, r)| r.as_ref().ok())
        .expect("conns gets classes");
    assert!(c.class_bits() < c.value_bits);
}
