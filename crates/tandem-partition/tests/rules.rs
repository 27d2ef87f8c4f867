//! The label rules and resource constraints on small hand-written modules.

use tandem_analysis::compute_deps;
use tandem_ir::{parse_module, verify_module, Module};
use tandem_partition::*;

fn module(text: &str) -> Module {
    let m = parse_module(text).unwrap();
    verify_module(&m).unwrap();
    m
}

fn run(m: &Module, p: &TargetProfile) -> Plan {
    let info = compute_deps(m);
    let plan = partition(m, &info, p).unwrap();
    if let Err(e) = verify_plan(m, &info, p, &plan) {
        panic!("{e:#?}\n{}", report(m, &info, &plan));
    }
    plan
}

fn stmt<'a>(plan: &'a Plan, text: &str) -> &'a PlanStmt {
    plan.statements
        .iter()
        .find(|s| s.text.contains(text))
        .unwrap_or_else(|| panic!("no statement `{text}`"))
}

fn tofino() -> TargetProfile {
    TargetProfile::builtin("tofino1").unwrap()
}

/// A port counter: read-modify-write on the switch, its value to the server for the insert.
const COUNTER: &str = "nf counter

state ports: hashmap<{k: i32}, {p: i16}, 1024>
state next: scalar<i16>

fn process {
block0:
    v0:i32 = hdr.read ipv4.saddr
    v1:i1, v2:i16 = map.find ports(v0)
    brif v1, block1, block2

block1:
    hdr.write tcp.sport, v2
    br block3

block2:
    v3:i16 = scalar.load next
    v4:i16 = const 1
    v5:i16 = add v3, v4
    scalar.store next, v5
    v6:i1 = map.insert ports(v0) -> (v3)
    hdr.write tcp.sport, v3
    br block3

block3:
    v7:i16 = const 1
    send v7
    return
}
";

#[test]
fn register_read_modify_write_stays_on_the_switch() {
    let m = module(COUNTER);
    let plan = run(&m, &tofino());
    assert_eq!(stmt(&plan, "scalar.load next").partition, Partition::Pre);
    assert_eq!(stmt(&plan, "scalar.store next").partition, Partition::Pre);
    assert_eq!(stmt(&plan, "map.insert").partition, Partition::Server);
    let next = plan.states.iter().find(|s| s.name == "next").unwrap();
    assert_eq!(next.placement, Placement::SwitchRegister);
    assert_eq!(plan.states[0].placement, Placement::Replicated);
    let sent: Vec<&str> = plan
        .cuts
        .pre_to_server
        .iter()
        .map(|c| c.value.as_str())
        .collect();
    assert!(sent.contains(&"v3"), "{sent:?}");
    // The insert's key is a header field nobody writes: the server re-reads it.
    assert!(plan.remat.server.contains(&"v0".to_string()));
    assert_eq!(plan.resources.stateful_alus.used, 1);
}

#[test]
fn state_the_server_touches_is_not_written_on_the_switch() {
    // The same counter, but opaque server code also reads it (R6).
    let text = COUNTER.replace(
        "    v6:i1 = map.insert ports(v0) -> (v3)\n",
        "    v6:i1 = map.insert ports(v0) -> (v3)\n    v8:i16 = opaque \"peek\"() reads [state next] writes []\n",
    );
    let m = module(&text);
    let plan = run(&m, &tofino());
    let store = stmt(&plan, "scalar.store next");
    assert_eq!(store.partition, Partition::Server);
    assert_eq!(store.why.as_ref().unwrap().rule, "R6");
    let load = stmt(&plan, "scalar.load next");
    assert_eq!(
        load.partition,
        Partition::Server,
        "the load goes with its store (R7)"
    );
    let next = plan.states.iter().find(|s| s.name == "next").unwrap();
    assert_eq!(next.placement, Placement::Server);
}

#[test]
fn loops_stay_on_the_server() {
    let text = "nf loop

fn process {
block0:
    v0:i8 = hdr.read ipv4.ttl
    br block1(v0)

block1(v1:i8):
    v2:i8 = const 1
    v3:i8 = sub v1, v2
    v4:i8 = const 5
    v5:i1 = icmp ugt v3, v4
    brif v5, block1(v3), block2

block2:
    hdr.write ipv4.ttl, v3
    v6:i16 = const 1
    send v6
    return
}
";
    let plan = run(&module(text), &tofino());
    let sub = stmt(&plan, "sub v1, v2");
    assert_eq!(sub.partition, Partition::Server);
    assert_eq!(sub.why.as_ref().unwrap().rule, "R5");
    assert_eq!(stmt(&plan, "hdr.read ipv4.ttl").partition, Partition::Pre);
    assert_eq!(stmt(&plan, "hdr.write ipv4.ttl").partition, Partition::Post);
}

/// Two lookups of one table in sequence.
const TWO_LOOKUPS: &str = "nf twice

state t: hashmap<{k: i32}, {v: i32}, 1024>

fn process {
block0:
    v0:i32 = hdr.read ipv4.saddr
    v1:i1, v2:i32 = map.find t(v0)
    brif v1, block2, block1

block1:
    v3:i32 = hdr.read ipv4.daddr
    v4:i1, v5:i32 = map.find t(v3)
    brif v4, block2, block3

block2:
    v6:i16 = const 1
    send v6
    return

block3:
    drop
    return
}
";

#[test]
fn one_access_per_table_without_duplicates() {
    let m = module(TWO_LOOKUPS);
    // With duplicate read-only tables (Tofino profile): both lookups on the switch.
    let plan = run(&m, &tofino());
    assert_eq!(plan.summary.server, 0);
    assert_eq!(plan.states[0].copies, 2);
    // The tiny profile allows one access per state object: exactly one stays.
    let tiny = TargetProfile::builtin("tiny").unwrap();
    let plan = run(&m, &tiny);
    let finds: Vec<&PlanStmt> = plan
        .statements
        .iter()
        .filter(|s| s.text.contains("map.find"))
        .collect();
    let on_switch = finds
        .iter()
        .filter(|s| s.partition != Partition::Server)
        .count();
    assert_eq!(on_switch, 1);
    let off = finds
        .iter()
        .find(|s| s.partition == Partition::Server)
        .unwrap();
    let rule = off.why.as_ref().unwrap().rule.as_str();
    assert!(["R3", "R4", "C3"].contains(&rule), "{rule}");
}

#[test]
fn long_chains_leave_pre_and_big_headers_move_work_to_the_server() {
    // Six dependent adds: more than tiny's 4 stages.
    let text = "nf chain

state s: hashmap<{k: i32}, {v: i32}, 16>

fn process {
block0:
    v0:i32 = hdr.read ipv4.saddr
    v1:i32 = add v0, v0
    v2:i32 = add v1, v0
    v3:i32 = add v2, v0
    v4:i32 = add v3, v0
    v5:i32 = add v4, v0
    v6:i32 = add v5, v0
    hdr.write ipv4.daddr, v6
    v7:i1 = map.insert s(v0) -> (v6)
    v8:i16 = const 1
    send v8
    return
}
";
    let m = module(text);
    let tiny = TargetProfile::builtin("tiny").unwrap();
    let plan = run(&m, &tiny);
    assert!(plan.resources.stages_pre.used <= 4);
    let last = stmt(&plan, "v6:i32 = add v5, v0");
    assert_eq!(last.partition, Partition::Server);
    let rules: Vec<&str> = plan
        .statements
        .iter()
        .filter_map(|s| s.why.as_ref())
        .map(|w| w.rule.as_str())
        .collect();
    assert!(rules.contains(&"C2") || rules.contains(&"R1"), "{rules:?}");
    // A 3-byte header budget leaves room for nothing but the tag and EtherType.
    let mut small = tiny.clone();
    small.transfer_header_bytes = Some(3);
    let plan = run(&m, &small);
    assert!(plan.resources.transfer_header.used <= 3);
    assert_eq!(
        plan.summary.pre, 0,
        "everything pre would send moved to the server"
    );
    assert!(plan
        .statements
        .iter()
        .any(|s| s.why.as_ref().is_some_and(|w| w.rule == "C5")));
}

#[test]
fn memory_evicts_the_largest_table() {
    let m = module(&TWO_LOOKUPS.replace("1024>", "4000000>"));
    let plan = run(&m, &TargetProfile::builtin("tiny").unwrap());
    assert_eq!(plan.states[0].placement, Placement::Server);
    let find = stmt(&plan, "map.find");
    assert_eq!(find.why.as_ref().unwrap().rule, "C1");
}

/// A payload scan with an early exit: whether the TTL rewrite after the loop runs depends on
/// how the loop exits, which only the server knows. The P4 back end walks a switch partition
/// as nested branches and cannot follow a loop, so the statements after the loop stay on the
/// server (R5), and `verify_plan` refuses a plan whose switch partition follows a loop block.
const SCAN: &str = "nf scan

fn process {
block0:
    v0:i32 = opaque \"tandem.payload_len\"() reads [payload] writes []
    v1:i32 = const 0
    br block1(v1)

block1(v2:i32):
    v3:i1 = icmp ult v2, v0
    brif v3, block2, block4

block2:
    v4:i8 = opaque \"tandem.payload_load\"(v2) reads [payload] writes []
    v5:i8 = const 88
    v6:i1 = icmp eq v4, v5
    brif v6, block3, block5

block5:
    v7:i32 = const 1
    v8:i32 = add v2, v7
    br block1(v8)

block3:
    drop
    return

block4:
    v9:i8 = hdr.read ipv4.ttl
    v10:i8 = const 1
    v11:i8 = sub v9, v10
    hdr.write ipv4.ttl, v11
    v12:i16 = const 1
    send v12
    return
}
";

#[test]
fn statements_after_a_server_loop_exit_stay_on_the_server() {
    let m = module(SCAN);
    for p in [tofino(), TargetProfile::builtin("bmv2").unwrap()] {
        let plan = run(&m, &p);
        let ttl = stmt(&plan, "hdr.write ipv4.ttl");
        assert_eq!(ttl.partition, Partition::Server, "{}", p.name);
        assert_eq!(ttl.why.as_ref().unwrap().rule, "R5");
        assert!(plan.follows.post.is_empty(), "{:?}", plan.follows.post);
    }
}

#[test]
fn verify_plan_refuses_a_switch_partition_that_follows_a_loop() {
    let m = module(SCAN);
    let info = compute_deps(&m);
    let p = tofino();
    let mut plan = partition(&m, &info, &p).unwrap();
    plan.follows.post.push(1);
    let errs = verify_plan(&m, &info, &p, &plan).unwrap_err();
    assert!(
        errs.iter()
            .any(|e| e.contains("block1, which is in a loop")),
        "{errs:#?}"
    );
}

/// `counts[port] += 1` as the lifter writes it: the bounds-checked get, the add, and the set
/// of the same element under the bounds check (32-bit index and size).
const VEC_COUNTER: &str = "nf veccounter

state counts: vector<{e0: i32 @0} size 4, 512>
state counts_size: scalar<i32>

fn process {
block0:
    v0:i16 = meta.read in_port
    v1:i32 = zext v0
    v2:i32 = scalar.load counts_size
    v3:i1 = icmp ult v1, v2
    v4:i32 = const 0
    v5:i32 = select v3, v1, v4
    v6:i32 = vec.get counts[v5]
    v7:i32 = const 0
    v8:i32 = select v3, v6, v7
    v9:i32 = const 1
    v10:i32 = add v8, v9
    v11:i32 = scalar.load counts_size
    v12:i1 = icmp ult v1, v11
    brif v12, block1, block2

block1:
    vec.set counts[SETINDEX](v10)
    br block2

block2:
    v13:i16 = const 1
    send v13
    return
}
";

#[test]
fn vector_element_read_modify_write_is_one_access_on_the_switch() {
    let m = module(&VEC_COUNTER.replace("SETINDEX", "v1"));
    let plan = run(&m, &tofino());
    assert_eq!(stmt(&plan, "vec.get counts").partition, Partition::Pre);
    assert_eq!(stmt(&plan, "vec.set counts").partition, Partition::Pre);
    let counts = plan.states.iter().find(|s| s.name == "counts").unwrap();
    assert_eq!(counts.placement, Placement::SwitchRegister);
    assert_eq!(counts.copies, 1);
}

/// `counts[3] += 1`: the lifter reads at `select ok, const 3, 0` and writes at another
/// `const 3` — the same element, one access (was "a vector write that is not a
/// read-modify-write", every such counter on the server); a write at `const 2` is another
/// element (negative control).
#[test]
fn constant_index_counter_is_one_access_on_the_switch() {
    let text = |set: u64| {
        VEC_COUNTER
            .replace("    v1:i32 = zext v0\n", "    v1:i32 = const 3\n")
            .replace("SETINDEX", "v15")
            .replace(
                "block1:\n",
                &format!("block1:\n    v15:i32 = const {set}\n"),
            )
    };
    let plan = run(&module(&text(3)), &tofino());
    assert_eq!(stmt(&plan, "vec.get counts").partition, Partition::Pre);
    assert_eq!(stmt(&plan, "vec.set counts").partition, Partition::Pre);
    let plan = run(&module(&text(2)), &tofino());
    assert_eq!(stmt(&plan, "vec.set counts").partition, Partition::Server);
}

/// A Bloom filter's test-and-set as the front end lifts `seen = bloom[h & 8191]; ...;
/// bloom[h & 8191] = 1;` with the `if` between: the write's block recomputes the index
/// (`and (zext h), 8191` again) and stores a constant. It is one register access — read the old
/// element, write 1 — so both stay on the switch.
const BLOOM: &str = "nf bloom

state bloom: vector<{e0: i8 @0} size 1, 8192>
state bloom_size: scalar<i32>
state other: vector<{e0: i8 @0} size 1, 8192>
state other_size: scalar<i32>

fn process {
block0:
    v0:i16 = meta.read in_port
    v1:i32 = zext v0
    v2:i32 = const 8191
    v3:i32 = and v1, v2
    v4:i32 = scalar.load bloom_size
    v5:i1 = icmp ult v3, v4
    v6:i32 = const 0
    v7:i32 = select v5, v3, v6
    v8:i8 = vec.get bloom[v7]
    v20:i32 = scalar.load other_size
    v21:i1 = icmp ult v3, v20
    v22:i32 = select v21, v3, v6
    v23:i8 = vec.get other[v22]
    v9:i1 = icmp ult v3, v4
    brif v9, block1, block2

block1:
    br block2

block2:
    v10:i32 = zext v0
    v11:i32 = const INDEXMASK
    v12:i32 = and v10, v11
    v13:i32 = scalar.load bloom_size
    v14:i1 = icmp ult v12, v13
    brif v14, block3, block4

block3:
    v15:i8 = const 1
    vec.set bloom[v12](STORED)
    br block4

block4:
    v16:i16 = const 1
    send v16
    return
}
";

#[test]
fn bloom_test_and_set_is_one_access_on_the_switch() {
    let text = |mask: u32, stored: &str| {
        BLOOM
            .replace("INDEXMASK", &mask.to_string())
            .replace("STORED", stored)
    };
    // The constant 1 at the recomputed index: one read-modify-write, on the switch.
    let plan = run(&module(&text(8191, "v15")), &tofino());
    assert_eq!(stmt(&plan, "vec.get bloom").partition, Partition::Pre);
    assert_eq!(stmt(&plan, "vec.set bloom").partition, Partition::Pre);
    let bloom = plan.states.iter().find(|s| s.name == "bloom").unwrap();
    assert_eq!(bloom.placement, Placement::SwitchRegister);
    // Negative control: the index computed another way (mask 4095) is another element.
    let plan = run(&module(&text(4095, "v15")), &tofino());
    assert_eq!(stmt(&plan, "vec.set bloom").partition, Partition::Server);
    // Negative control: the stored value is read from another register after the load, so it
    // is not ready when the element is read: a second access, kept off the switch.
    let plan = run(&module(&text(8191, "v23")), &tofino());
    assert_eq!(stmt(&plan, "vec.set bloom").partition, Partition::Server);
}

#[test]
fn vector_get_and_set_of_different_elements_are_two_accesses() {
    // Negative control: the set writes another element (v0 + 1), so get and set are two
    // accesses of one register, which Tofino cannot do in one pass: the server keeps them.
    let text = VEC_COUNTER.replace("SETINDEX", "v15").replace(
        "block1:\n",
        "block1:\n    v14:i32 = const 1\n    v15:i32 = add v1, v14\n",
    );
    let m = module(&text);
    let plan = run(&m, &tofino());
    assert_eq!(stmt(&plan, "vec.set counts").partition, Partition::Server);
    let counts = plan.states.iter().find(|s| s.name == "counts").unwrap();
    assert_ne!(counts.placement, Placement::SwitchRegister);
}

/// A 48-bit equality (`memcmp(eth->dst, my_mac, 6) == 0` lifted to `icmp ne`) is decided
/// piece by piece, so it runs on tofino1's 32-bit ALUs; an order comparison of the same
/// values carries and stays on the server (negative control).
const MAC_EQ: &str = "nf maceq

fn process {
block0:
    v0:i48 = hdr.read eth.dst
    v1:i48 = hdr.read eth.src
    v2:i1 = icmp PRED v0, v1
    brif v2, block1, block2

block1:
    v3:i16 = const 1
    send v3
    return

block2:
    drop
    return
}
";

#[test]
fn wide_equality_runs_on_the_switch_and_wide_order_does_not() {
    let plan = run(&module(&MAC_EQ.replace("PRED", "ne")), &tofino());
    assert_ne!(stmt(&plan, "icmp ne").partition, Partition::Server);
    let plan = run(&module(&MAC_EQ.replace("PRED", "ult")), &tofino());
    assert_eq!(stmt(&plan, "icmp ult").partition, Partition::Server);
}

/// A MAC address copied byte by byte: shifts by constants, masks and ors on a 48-bit header
/// field move bits without a carry, so they run on tofino1's 32-bit ALUs piece by piece
/// (PHV containers); a 48-bit addition carries across pieces and stays on the server.
const MAC_BYTES: &str = "nf macbytes

fn process {
block0:
    v0:i48 = hdr.read eth.src
    v1:i48 = const 8
    v2:i48 = lshr v0, v1
    v3:i8 = trunc v2
    v4:i48 = hdr.read eth.dst
    v5:i48 = const 281474976645375
    v6:i48 = and v4, v5
    v7:i48 = zext v3
    v8:i48 = shl v7, v1
    v9:i48 = or v6, v8
    hdr.write eth.dst, v9
    v10:i48 = const 1
    v11:i48 = add v0, v10
    hdr.write eth.src, v11
    v12:i16 = const 1
    send v12
    return
}
";

#[test]
fn bitwise_operations_on_wide_fields_run_on_the_switch_and_carries_do_not() {
    let m = module(MAC_BYTES);
    let plan = run(&m, &tofino());
    for carry_free in ["lshr v0", "and v4", "shl v7", "or v6", "hdr.write eth.dst"] {
        assert_eq!(
            stmt(&plan, carry_free).partition,
            Partition::Pre,
            "{carry_free}"
        );
    }
    // The negative control: a carry needs the whole width in one ALU.
    let add = stmt(&plan, "add v0");
    assert_eq!(add.partition, Partition::Server);
    // A shift by a run-time amount is not a bit move either.
    let by_value = MAC_BYTES.replace("v2:i48 = lshr v0, v1", "v2:i48 = lshr v0, v0");
    let plan = run(&module(&by_value), &tofino());
    assert_eq!(stmt(&plan, "lshr v0").partition, Partition::Server);
}

/// `crc32(addr) % 4099` (a Maglev table of prime size): v1model's hash extern reduces modulo
/// any constant, so on a profile with `hash_mod` (bmv2) the remainder runs on the switch
/// (`tandem_ir::hash_mod`); tofino1 has no such extern and keeps it on the server. Negative
/// control: when the hash is also read by something else, its value must stay whole, so the
/// remainder is a run-time `%` again and leaves the switch even on bmv2.
const HASH_MOD: &str = "nf hashmod

fn process {
block0:
    v0:i16 = meta.read in_port
    v1:i32 = zext v0
    v2:i32 = hash crc32(v1)
    v3:i32 = const 4099
    v4:i32 = urem v2, v3
    v5:i16 = trunc v4
    EXTRA
    send v5
    return
}
";

#[test]
fn a_hash_reduced_by_a_constant_runs_in_the_hash_extern() {
    let bmv2 = TargetProfile::builtin("bmv2").unwrap();
    let plan = run(&module(&HASH_MOD.replace("EXTRA", "")), &bmv2);
    assert_ne!(stmt(&plan, "urem").partition, Partition::Server);
    let plan = run(&module(&HASH_MOD.replace("EXTRA", "")), &tofino());
    assert_eq!(stmt(&plan, "urem").partition, Partition::Server);
    // Negative control: the hash is also sent on its own.
    let extra = "v6:i16 = trunc v2\n    send v6";
    let plan = run(&module(&HASH_MOD.replace("EXTRA", extra)), &bmv2);
    assert_eq!(stmt(&plan, "urem").partition, Partition::Server);
}
