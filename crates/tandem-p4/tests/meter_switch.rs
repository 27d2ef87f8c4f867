//! Meters lowered to v1model and executed on tandem-switch, against the NF IR interpreter:
//! the colour of every packet (written into the TTL) and, at the end, every meter's rates,
//! buckets and last refill time, for byte and packet meters and for indices that are always
//! in range (no bounds check in P4), that may be out of range (the `if (index < N)` guard)
//! and that are narrower than the array.

use tandem_ir::{
    Action, InterpOptions, Interpreter, MeterCell, Module, Packet, StateId, StateStore,
};
use tandem_p4::{generate, P4Options};
use tandem_partition::{partition_module, PartitionOptions, TargetProfile};
use tandem_switch::Switch;

/// `meter<len, unit>` indexed by `index` (IR text computing `v2` from `v1 = ipv4.saddr`); the
/// colour goes into the TTL.
fn module(len: u64, unit: &str, index: &str) -> Module {
    let text = format!(
        "nf M\n\nstate m: meter<{len}, {unit}>\n\nfn process {{\nblock0:\n    v1:i32 = hdr.read ipv4.saddr\n{index}    v3:i8 = meter.execute m[v2]\n    hdr.write ipv4.ttl, v3\n    v9:i16 = const 1\n    send v9\n    return\n}}\n"
    );
    let m = tandem_ir::parse_module(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    tandem_ir::verify_module(&m).unwrap_or_else(|e| panic!("{e}\n{text}"));
    m
}

fn frame(saddr: u32, len: usize) -> Vec<u8> {
    let mut f = vec![0u8; len.max(34)];
    f[12..14].copy_from_slice(&[0x08, 0x00]);
    f[14] = 0x45;
    f[16..18].copy_from_slice(&((len.max(34) - 14) as u16).to_be_bytes());
    f[22] = 64;
    f[23] = 17;
    f[26..30].copy_from_slice(&saddr.to_be_bytes());
    f
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn to_switch(c: &MeterCell) -> tandem_switch::MeterCell {
    tandem_switch::MeterCell::from_words(&c.words())
}

fn run(len: u64, unit: &str, index: &str, guarded: bool) {
    let module = module(len, unit, index);
    let profile = TargetProfile::builtin("bmv2").unwrap();
    let plan = partition_module(&module, &profile, &PartitionOptions::default())
        .unwrap()
        .plan;
    assert_eq!(plan.summary.server, 0, "everything on the switch");
    let module = plan.module().unwrap();
    let out = generate(&plan, &module, &P4Options::default()).unwrap();
    let p4 = tandem_p4_syntax::print_program(&out.program);
    let guard = format!("< 32w{len})");
    assert_eq!(p4.contains(&guard), guarded, "bounds check or not:\n{p4}");
    let sw = Switch::from_source(&p4).unwrap_or_else(|e| panic!("{e}\n{p4}"));
    let meter = &out.manifest.meters[0].name;
    let interp = Interpreter::new(&module, InterpOptions::default()).unwrap();
    let mut store = StateStore::new(&module);
    let sid = StateId::from_u32(0);
    // Most meters configured with rates that give every colour; a few left unconfigured.
    let mut rng = Rng(0x51f1_5eed ^ len);
    let bytes = unit == "bytes";
    for i in 0..len {
        if rng.below(5) == 0 {
            continue;
        }
        let u = if bytes { 1000 } else { 1 };
        let cir = u * (1 + rng.below(50_000));
        let pir = cir + u * rng.below(50_000);
        let cburst = u * rng.below(4);
        let pburst = cburst + u * rng.below(4);
        let c = MeterCell::configured(cir, cburst, pir, pburst);
        store.meter_set_at(sid, i, c).unwrap();
        sw.meter_write(meter, i as u32, to_switch(&c)).unwrap();
    }
    let mut w = sw.worker();
    let mut t = 1_700_000_000_000_000_000u64;
    let mut colours = [0u32; 3];
    for k in 0..4000 {
        t += rng.below(40_000);
        let saddr = if rng.below(2) == 0 {
            rng.below(len + 8) as u32
        } else {
            rng.next() as u32
        };
        let f = frame(saddr, 60 + rng.below(1400) as usize);
        let want = interp
            .run(
                &mut store,
                &Packet {
                    bytes: f.clone(),
                    in_port: 1,
                    timestamp_ns: t,
                },
            )
            .unwrap();
        assert_eq!(want.action, Action::Send(1));
        let (port, got) = w.process_at(1, &f, t).expect("sent");
        assert_eq!(port, 1);
        assert_eq!(
            got[22], want.packet[22],
            "packet {k}: colour, saddr {saddr:#x}"
        );
        colours[usize::from(want.packet[22])] += 1;
    }
    assert!(colours.iter().all(|&n| n > 50), "every colour: {colours:?}");
    for i in 0..len {
        let want = store.meter_at(sid, i).unwrap().unwrap_or_default();
        let got = sw.meter_read(meter, i as u32).unwrap();
        assert_eq!(got.words(), want.words(), "meter {i}");
    }
}

#[test]
fn byte_meter_indexed_by_a_mask() {
    run(
        64,
        "bytes",
        "    v0:i32 = const 63\n    v2:i32 = and v1, v0\n",
        false,
    );
}

#[test]
fn packet_meter_indexed_by_a_remainder() {
    run(
        16,
        "packets",
        "    v0:i32 = const 16\n    v2:i32 = urem v1, v0\n",
        false,
    );
}

#[test]
fn meter_index_out_of_range_is_green() {
    // saddr itself: mostly out of range (green, nothing changes) — the P4 bounds check.
    run(40, "bytes", "    v2:i32 = add v1, v1\n", true);
}

#[test]
fn narrow_index_into_a_larger_array() {
    run(
        300,
        "packets",
        "    v0:i8 = trunc v1\n    v2:i16 = zext v0\n",
        false,
    );
}
