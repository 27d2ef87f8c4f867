//! Hash-indexed register storage for a map (CoFilter §III-C, Fig. 4 and 6): the storage
//! model and the server's slot allocator.
//!
//! An exact-match table spends SRAM on every key it holds. A map stored *hashed* keeps each
//! entry in register arrays instead, at a slot chosen by a hash of the key, with a check
//! word (the full key, or a fingerprint of it) beside the value so that a different key in
//! the slot is never taken for this one. `ways` register arrays (one per stage) each offer a
//! key one candidate slot (the low bits of `crc32` over the key's bytes, rotated by a
//! per-way amount: CRC is affine, so a per-way tag would not decorrelate the ways); the switch reads the ways in order
//! and takes the first slot whose check word matches. A key whose candidates are all taken
//! gets an entry in the **collision table** (exact on the full key → an alternative way and
//! slot, any free slot), which the server fills when it inserts the key; a key with no free
//! slot at all, or when the collision table is full, stays on the server (its packets take
//! the server path; the server keeps the state, nothing is lost).
//!
//! ```text
//! before (exact table)                          after (hashed; 2 ways, fingerprint check)
//! table conns {                                 table conns_col {            // stage k-1
//!   key = { meta.k0: exact; meta.k1: exact; }     key = { meta.k0: exact; meta.k1: exact; }
//!   actions = { conns_hit; conns_miss; }          actions = { conns_alt; NoAction; }
//!   size = 0x100000;                              size = 1024; }
//! }                                             register<bit<8>>(0x40000) conns_w0_check;
//! conns.apply();                                register<bit<4>>(0x40000) conns_w0_value;  // stage k
//!                                               ... conns_w1_check, conns_w1_value ...     // stage k+1
//!                                               hash(meta.h0, crc32, 32w0, {k0, k1}, 2^32);
//!                                               meta.i0 = meta.h0[17:0]; meta.fp = meta.h0[31:24];
//!                                               hash(meta.h1, crc32, 32w0, {k1, k0}, 2^32);
//!                                               if (meta.fp == 0) { meta.fp = 1; }
//!                                               if (conns_col.apply().hit) { ...read the
//!                                                   alternative slot, hit = check == fp... }
//!                                               else { conns_w0_check.read(c0, meta.i0);
//!                                                      if (c0 == meta.fp) { hit; value } else
//!                                                      { ...way 1... } }
//! ```
//!
//! [`HashedLayout`] is the geometry (hashes, check, bits per slot, SRAM) and
//! [`HashedLayout::fit`] sizes it for an SRAM budget; [`SlotAllocator`] is what the server
//! runs when it inserts or erases a key: it returns where the key lives ([`Slot`]) so the
//! runtime can write the check and value registers and the collision entry in the same atomic
//! batch as the map's other updates. [`SwitchModel`] is the switch's side (what the generated
//! program does on a lookup), used by the tests and by `tandem capacity`.
//!
//! The guarantee: a key the server holds is always found at its own slot, never at another
//! key's. With a full-key check an absent key never matches; with an `f`-bit fingerprint an
//! absent key matches a slot of its candidates with probability at most `ways · 2^-f`, the
//! price of fitting more keys (reported by `tandem capacity`). Ways are read in order, so a
//! key placed at way `w` would be shadowed by a later key with the same fingerprint placed at
//! one of its earlier candidates: the allocator remembers, per slot, the fingerprints of the
//! keys that passed over it and never places a key with one of them there.

use tandem_ir::crc32_iter;
use tandem_ir::hash::FxHashMap;

/// Key bytes hashed without allocating ([`HashedLayout::key_bytes`]); longer keys use the heap.
const KEY_BYTES_INLINE: usize = 64;

/// How a slot tells its key from another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyCheck {
    /// The slot holds the whole key: an absent key never matches.
    FullKey,
    /// The slot holds an `n`-bit fingerprint (1..=32; 0 means "empty").
    Fingerprint(u32),
}

/// Errors of the hashed layout.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum HashedError {
    /// Bad geometry.
    #[error("hashed layout: {0}")]
    Layout(String),
    /// A key whose fields do not match the layout.
    #[error("hashed layout: a key of {got} fields for a layout of {want}")]
    KeyShape {
        /// Fields given.
        got: usize,
        /// Fields of the layout.
        want: usize,
    },
}

/// The geometry of one hashed map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HashedLayout {
    /// Register arrays (one per stage), read in order.
    pub ways: u32,
    /// Slots per way (any count: a key's candidate is the way's hash modulo this; the
    /// generated P4 takes powers of two only, where the modulo is the hash's low bits).
    pub slots_per_way: u64,
    /// The check word.
    pub check: KeyCheck,
    /// Widths of the key fields (each hashed at its width rounded up to whole bytes).
    pub key_bits: Vec<u32>,
    /// Bits of the value a slot holds (for a class map: the class).
    pub value_bits: u32,
    /// Collision-table entries.
    pub collision_entries: u64,
    /// Fingerprint check only: slots packed `k = 32 / (fingerprint + value)` to a 32-bit
    /// register word (a slot takes exactly its bits, not a whole 8/16/32-bit cell). Slot `s`
    /// is bits `[(s % k)·b, (s % k)·b + b)` of word `s / k` (`b` = fingerprint + value); a
    /// key's candidate picks the word and the position from separate hash bits
    /// ([`HashedLayout::index_of`]), so the switch reads one word and selects its slot by a
    /// constant shift (`tandem_p4::lower::hashed`).
    pub packed: bool,
}

/// The bit of a way's hash where the byte choosing a packed slot's position in its word
/// starts ([`HashedLayout::index_of`]).
pub const POSITION_SHIFT: u32 = 24;

/// A register's width on the switch: Tofino's stateful ALUs take 8, 16 or 32-bit cells.
pub(crate) fn register_width(bits: u32) -> u64 {
    match bits {
        0 => 0,
        1..=8 => 8,
        9..=16 => 16,
        _ => 32 * u64::from(bits.div_ceil(32)),
    }
}

impl HashedLayout {
    /// A layout; errors on a zero or non-power-of-two geometry or a bad fingerprint width.
    pub fn new(
        ways: u32,
        slots_per_way: u64,
        check: KeyCheck,
        key_bits: Vec<u32>,
        value_bits: u32,
        collision_entries: u64,
    ) -> Result<HashedLayout, HashedError> {
        if ways == 0 || ways > 255 {
            return Err(HashedError::Layout(format!("{ways} ways (1..=255)")));
        }
        if slots_per_way == 0 || slots_per_way > 1 << 32 {
            return Err(HashedError::Layout(format!(
                "{slots_per_way} slots per way (1..=2^32)"
            )));
        }
        if let KeyCheck::Fingerprint(f) = check {
            if !(1..=32).contains(&f) {
                return Err(HashedError::Layout(format!("{f}-bit fingerprint (1..=32)")));
            }
        }
        if key_bits.is_empty() || key_bits.iter().any(|&b| b == 0 || b > 64) {
            return Err(HashedError::Layout(format!(
                "key fields {key_bits:?} (1..=64 bits each)"
            )));
        }
        Ok(HashedLayout {
            ways,
            slots_per_way,
            check,
            key_bits,
            value_bits,
            collision_entries,
            packed: false,
        })
    }

    /// The largest layout with `ways` ways that fits `sram_bits`, keeping `collision_entries`
    /// collision-table entries: a power of two slots per way, one register cell per slot
    /// (what the P4 back end lowers). [`HashedLayout::fit_with`] lifts both limits.
    pub fn fit(
        sram_bits: u64,
        ways: u32,
        check: KeyCheck,
        key_bits: Vec<u32>,
        value_bits: u32,
        collision_entries: u64,
    ) -> Result<HashedLayout, HashedError> {
        HashedLayout::fit_with(
            sram_bits,
            ways,
            check,
            key_bits,
            value_bits,
            collision_entries,
            Fit::default(),
        )
    }

    /// [`HashedLayout::fit`] with the model's other choices: any slot count per way
    /// (`fit.any_count`), slots packed into 32-bit words (`fit.packed`, fingerprint check).
    pub fn fit_with(
        sram_bits: u64,
        ways: u32,
        check: KeyCheck,
        key_bits: Vec<u32>,
        value_bits: u32,
        collision_entries: u64,
        fit: Fit,
    ) -> Result<HashedLayout, HashedError> {
        let mut l = HashedLayout::new(ways, 1, check, key_bits, value_bits, collision_entries)?;
        l.packed = fit.packed && matches!(check, KeyCheck::Fingerprint(_));
        // Counted in words of `k` slots (a packed layout holds whole words).
        let k = l.slots_per_word();
        let fits = |n: u64| {
            let mut t = l.clone();
            t.slots_per_way = n * k;
            t.sram_bits() <= sram_bits
        };
        if !fits(1) {
            return Err(HashedError::Layout(format!(
                "{sram_bits} bits of SRAM do not hold one slot per way and the collision table"
            )));
        }
        let mut slots = 1u64;
        while slots < 1 << 32 && fits(slots * 2) {
            slots *= 2;
        }
        if fit.any_count {
            // The largest count in [slots, 2·slots) that fits (binary search).
            let (mut lo, mut hi) = (slots, (slots * 2).min(1 << 32));
            while lo + 1 < hi {
                let mid = lo + (hi - lo) / 2;
                if fits(mid) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            slots = lo;
        }
        l.slots_per_way = slots * k;
        Ok(l)
    }

    /// This layout with slots packed into 32-bit words (fingerprint check; a no-op when a
    /// slot needs more than 16 bits): the slot count is rounded down to whole words.
    pub fn with_packing(mut self) -> Result<HashedLayout, HashedError> {
        if !matches!(self.check, KeyCheck::Fingerprint(_)) {
            return Err(HashedError::Layout(
                "packed slots need a fingerprint check".into(),
            ));
        }
        self.packed = true;
        let k = self.slots_per_word();
        if self.slots_per_way < k {
            return Err(HashedError::Layout(format!(
                "{} slots per way do not fill one word of {k} packed slots",
                self.slots_per_way
            )));
        }
        self.slots_per_way -= self.slots_per_way % k;
        Ok(self)
    }

    /// 32-bit words per way of a packed layout (the slots of an unpacked one).
    pub fn words_per_way(&self) -> u64 {
        (self.slots_per_way / self.slots_per_word()).max(1)
    }

    /// The slot a way's hash `h` names. Unpacked: `h` modulo the slots per way (its low bits
    /// for a power of two). Packed, `k` slots a word: word `h mod words` (low bits) and
    /// position `⌊h[31:24] · k / 256⌋` (another byte of the hash, reduced by a multiply and a
    /// shift — on the switch shifts and adds), slot `word · k + position`.
    pub fn index_of(&self, h: u64) -> u64 {
        let k = self.slots_per_word();
        if k <= 1 {
            return h % self.slots_per_way.max(1);
        }
        let word = h % self.words_per_way();
        let pos = (((h >> POSITION_SHIFT) & 0xff) * k) >> 8;
        word * k + pos
    }

    /// Slots a 32-bit register word holds (1 unless packed).
    pub fn slots_per_word(&self) -> u64 {
        match self.check {
            KeyCheck::Fingerprint(f) if self.packed && f + self.value_bits <= 16 => {
                u64::from(32 / (f + self.value_bits))
            }
            _ => 1,
        }
    }

    /// SRAM bits of the ways with `slots_per_way` slots each (no collision table).
    fn sram_bits_for(&self, slots_per_way: u64) -> u64 {
        let per_word = self.slots_per_word();
        if per_word > 1 {
            u64::from(self.ways) * slots_per_way.div_ceil(per_word) * 32
        } else {
            self.slot_bits() * u64::from(self.ways) * slots_per_way
        }
    }

    /// Bits of the key.
    pub fn key_width(&self) -> u64 {
        self.key_bits.iter().map(|&b| u64::from(b)).sum()
    }

    /// SRAM bits one slot takes. Full key: one 32-bit register per key word, and the value
    /// with a valid bit in one register cell; fingerprint: fingerprint and value in one cell
    /// (one stateful-ALU access reads both), 8, 16 or 32 bits wide.
    pub fn slot_bits(&self) -> u64 {
        match self.check {
            KeyCheck::FullKey => {
                32 * self.key_width().div_ceil(32) + register_width(self.value_bits + 1)
            }
            KeyCheck::Fingerprint(f) if self.slots_per_word() > 1 => u64::from(f + self.value_bits),
            KeyCheck::Fingerprint(f) => register_width(f + self.value_bits),
        }
    }

    /// Bits of the index an alternative slot needs (way and slot).
    pub fn index_bits(&self) -> u64 {
        u64::from(
            (u64::from(self.ways) * self.slots_per_way)
                .next_power_of_two()
                .trailing_zeros(),
        )
    }

    /// SRAM bits the collision table takes: per entry the key, the alternative index and 16
    /// bits of overhead (action and entry bookkeeping), rounded up to whole bytes.
    pub fn collision_bits(&self) -> u64 {
        let entry = (self.key_width() + self.index_bits() + 16).div_ceil(8) * 8;
        entry * self.collision_entries
    }

    /// Total SRAM bits.
    pub fn sram_bits(&self) -> u64 {
        self.sram_bits_for(self.slots_per_way) + self.collision_bits()
    }

    /// Total slots.
    pub fn slots(&self) -> u64 {
        u64::from(self.ways) * self.slots_per_way
    }

    /// The key as the hash sees it: each field big-endian at its width rounded up to whole
    /// bytes.
    pub fn key_bytes(&self, key: &[u64]) -> Result<Vec<u8>, HashedError> {
        self.with_key_bytes(key, <[u8]>::to_vec)
    }

    /// Runs `f` on the key's bytes ([`HashedLayout::key_bytes`]), built on the stack when
    /// they fit [`KEY_BYTES_INLINE`] bytes: the runtime hashes every key it writes, so the
    /// bytes are built once per key and never allocated.
    fn with_key_bytes<R>(&self, key: &[u64], f: impl FnOnce(&[u8]) -> R) -> Result<R, HashedError> {
        if key.len() != self.key_bits.len() {
            return Err(HashedError::KeyShape {
                got: key.len(),
                want: self.key_bits.len(),
            });
        }
        let n: usize = self.key_bits.iter().map(|b| b.div_ceil(8) as usize).sum();
        if n <= KEY_BYTES_INLINE {
            // Eight spare bytes: each field of up to 64 bits is one 8-byte big-endian store of
            // its value shifted to the top (the next field overwrites the spare bytes).
            let mut buf = [0u8; KEY_BYTES_INLINE + 8];
            let mut at = 0;
            for (&v, &b) in key.iter().zip(&self.key_bits) {
                let nb = b.div_ceil(8) as usize;
                if nb == 0 {
                    continue;
                }
                if nb <= 8 {
                    let top = v << (8 * (8 - nb) as u32);
                    buf[at..at + 8].copy_from_slice(&top.to_be_bytes());
                } else {
                    for i in 0..nb {
                        buf[at + i] = (v >> (8 * (nb - 1 - i))) as u8;
                    }
                }
                at += nb;
            }
            return Ok(f(&buf[..n]));
        }
        let mut out = Vec::with_capacity(n);
        for (&v, &b) in key.iter().zip(&self.key_bits) {
            for i in (0..b.div_ceil(8)).rev() {
                out.push((v >> (8 * i)) as u8);
            }
        }
        Ok(f(&out))
    }

    /// How far way `w` rotates the key's bytes before hashing. CRC is affine, so hashing a
    /// tag before the key would give every way the same collisions; rotating the input gives
    /// each way a different linear map (ways beyond the key's byte count repeat rotations).
    pub fn rotation(&self, way: u32) -> usize {
        let len = self
            .key_bits
            .iter()
            .map(|b| b.div_ceil(8) as usize)
            .sum::<usize>();
        self.rotation_of(way, len)
    }

    fn rotation_of(&self, way: u32, len: usize) -> usize {
        (way as usize * len.div_ceil(self.ways as usize)) % len.max(1)
    }

    /// `crc32` over `bytes` rotated left by way `way`'s rotation (no copy: the two halves
    /// chained).
    fn way_hash_of(&self, way: u32, bytes: &[u8]) -> u64 {
        let n = bytes.len();
        let r = self.rotation_of(way, n);
        if r == 0 {
            return crc32_iter(bytes.iter().copied());
        }
        if n <= KEY_BYTES_INLINE {
            let mut rot = [0u8; KEY_BYTES_INLINE];
            rot[..n - r].copy_from_slice(&bytes[r..]);
            rot[n - r..n].copy_from_slice(&bytes[..r]);
            return crc32_iter(rot[..n].iter().copied());
        }
        crc32_iter(bytes[r..].iter().chain(&bytes[..r]).copied())
    }

    /// The key's candidate slot at `way`: `crc32` over the key's bytes rotated left by
    /// [`HashedLayout::rotation`], reduced to a slot by [`HashedLayout::index_of`].
    pub fn candidate(&self, way: u32, key: &[u64]) -> Result<u64, HashedError> {
        self.with_key_bytes(key, |b| self.index_of(self.way_hash_of(way, b)))
    }

    /// Every candidate, way 0 first (the key's bytes built once for all ways).
    pub fn candidates(&self, key: &[u64]) -> Result<Vec<u64>, HashedError> {
        self.with_key_bytes(key, |b| {
            (0..self.ways)
                .map(|w| self.index_of(self.way_hash_of(w, b)))
                .collect()
        })
    }

    /// The key's fingerprint: the top `f` bits of `crc32` over the key's bytes in reverse
    /// order (another linear map than any way's, so keys sharing a slot have independent
    /// fingerprints), 0 replaced by 1 (0 marks an empty slot); `None` with a full-key check.
    pub fn fingerprint(&self, key: &[u64]) -> Result<Option<u64>, HashedError> {
        match self.check {
            KeyCheck::FullKey => self.with_key_bytes(key, |_| None),
            KeyCheck::Fingerprint(f) => self.with_key_bytes(key, |b| {
                let h = crc32_iter(b.iter().rev().copied()) >> (32 - f);
                Some(if h == 0 { 1 } else { h })
            }),
        }
    }
}

/// [`HashedLayout::fit_with`]'s choices beyond the P4 back end's (both off by default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fit {
    /// Any slot count per way, not only powers of two.
    pub any_count: bool,
    /// Slots packed into 32-bit register words ([`HashedLayout::packed`]).
    pub packed: bool,
}

/// How to hold one map hashed, before its key and value are known (`--state-layout
/// MAP=hashed:ways=4,slots=1024,fp=8,col=64`); every part has a default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HashedSpec {
    /// Ways (default 4).
    pub ways: Option<u32>,
    /// Slots per way (default: the map's capacity over the ways, doubled, to a power of two).
    pub slots_per_way: Option<u64>,
    /// Fingerprint bits (default: 16, or what a 32-bit cell leaves beside the value).
    pub fingerprint_bits: Option<u32>,
    /// Collision-table entries (default: a thousandth of the capacity, at least 64).
    pub collision_entries: Option<u64>,
    /// Slots packed into 32-bit words (`packed`; [`HashedLayout::packed`]).
    pub packed: bool,
}

impl HashedSpec {
    /// Parses `ways=W,slots=S,fp=F,col=C` (any subset, any order; empty for all defaults).
    pub fn parse(text: &str) -> Result<HashedSpec, HashedError> {
        let mut s = HashedSpec::default();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            if part == "packed" {
                s.packed = true;
                continue;
            }
            let (k, v) = part.split_once('=').ok_or_else(|| {
                HashedError::Layout(format!(
                    "`{part}`: expected NAME=VALUE (ways, slots, fp, col) or `packed`"
                ))
            })?;
            let n: u64 = v
                .parse()
                .map_err(|_| HashedError::Layout(format!("`{part}`: `{v}` is not a number")))?;
            let small = || {
                u32::try_from(n)
                    .map_err(|_| HashedError::Layout(format!("`{part}`: {n} is too large")))
            };
            match k {
                "ways" => s.ways = Some(small()?),
                "slots" => s.slots_per_way = Some(n),
                "fp" => s.fingerprint_bits = Some(small()?),
                "col" => s.collision_entries = Some(n),
                _ => {
                    return Err(HashedError::Layout(format!(
                        "`{part}`: unknown part `{k}` (ways, slots, fp, col)"
                    )))
                }
            }
        }
        Ok(s)
    }

    /// The layout for a map with these key fields, value bits and capacity.
    pub fn layout(
        &self,
        key_bits: Vec<u32>,
        value_bits: u32,
        capacity: u64,
    ) -> Result<HashedLayout, HashedError> {
        let ways = self.ways.unwrap_or(4);
        let slots = match self.slots_per_way {
            Some(s) => s,
            None => (capacity.max(1).saturating_mul(2) / u64::from(ways.max(1)))
                .max(1)
                .next_power_of_two(),
        };
        let fp = match self.fingerprint_bits {
            Some(f) => f,
            None => 16.min(32u32.saturating_sub(value_bits)),
        };
        let col = self
            .collision_entries
            .unwrap_or_else(|| (capacity / 1000).max(64));
        let l = HashedLayout::new(
            ways,
            slots,
            KeyCheck::Fingerprint(fp),
            key_bits,
            value_bits,
            col,
        )?;
        if self.packed {
            l.with_packing()
        } else {
            Ok(l)
        }
    }
}

/// Where a key lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Slot {
    /// At its candidate slot of `way`.
    Home {
        /// The way.
        way: u32,
        /// The slot.
        slot: u64,
    },
    /// At another slot, through a collision-table entry.
    Collision {
        /// The way.
        way: u32,
        /// The slot.
        slot: u64,
    },
    /// No room: the key stays on the server.
    Server,
}

impl Slot {
    /// The (way, slot) on the switch, if any.
    pub fn at(self) -> Option<(u32, u64)> {
        match self {
            Slot::Home { way, slot } | Slot::Collision { way, slot } => Some((way, slot)),
            Slot::Server => None,
        }
    }
}

const EMPTY: u32 = u32::MAX;

/// The server's allocator for one hashed map: which slot each key holds.
#[derive(Clone, Debug)]
pub struct SlotAllocator {
    layout: HashedLayout,
    /// Occupant (key id) per way and slot, `EMPTY` when free.
    occupant: Vec<Vec<u32>>,
    /// Fingerprint per way and slot (fingerprint check only).
    fp: Vec<Vec<u32>>,
    /// Per way and slot: the fingerprints (mod 64) of keys placed at a later way that passed
    /// over this slot, and how many such keys there are (the mask is cleared at zero).
    passed_mask: Vec<Vec<u64>>,
    passed_count: Vec<Vec<u16>>,
    /// Keys by id, and ids by key.
    keys: Vec<Option<(Box<[u64]>, Slot)>>,
    free_ids: Vec<u32>,
    /// Keys are remembered (off for [`measure_capacity`]'s fresh random keys: no erase,
    /// no lookup, a tenth of the memory).
    track: bool,
    /// Keys inserted when not tracked.
    untracked: u64,
    ids: FxHashMap<Box<[u64]>, u32>,
    collisions: u64,
    on_server: u64,
    /// Where the search for a free slot for a collision entry resumes.
    cursor: u64,
    /// Relocation depth ([`SlotAllocator::relocating`]; 0: greedy placement only).
    relocate: u32,
    /// With relocation, per key id: its candidates (`ways` each), fingerprint and way
    /// ([`COLLISION_WAY`] through the collision table).
    cand_of: Vec<u32>,
    fp_of: Vec<u32>,
    way_of: Vec<u8>,
    /// Next id of an untracked allocator that relocates.
    next_id: u32,
    /// Keys moved by the inserts since [`SlotAllocator::take_moves`], in the order the
    /// switch must be written.
    moves: Vec<Move>,
    /// The relocation in progress: (key id, from way, to way), in the order made.
    journal: Vec<(u32, u8, u8)>,
}

/// A key the allocator moved to make room for another (cuckoo relocation): the runtime
/// writes the key's cell at `to` before it clears `from`, in the batch of the insert that
/// caused it, so the key is readable at every step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    /// The key (empty for an untracked allocator).
    pub key: Vec<u64>,
    /// Way and slot it left.
    pub from: (u32, u64),
    /// Way and slot it now holds (its own candidate there).
    pub to: (u32, u64),
}

/// [`SlotAllocator::way_of`] of a key placed through the collision table.
const COLLISION_WAY: u8 = u8::MAX;
/// An occupant id that closes a slot while its key looks for another.
const BLOCKED: u32 = u32::MAX - 1;
/// Moves an untracked allocator keeps for [`SlotAllocator::take_moves`] (it has no keys to
/// report; the count is what a caller may look at).
const MAX_UNTRACKED_MOVES: usize = 1 << 16;

/// Counts of a [`SlotAllocator`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AllocatorStats {
    /// Keys held.
    pub keys: u64,
    /// Keys at their own candidate slot.
    pub home: u64,
    /// Keys through a collision-table entry.
    pub collisions: u64,
    /// Keys on the server only.
    pub on_server: u64,
}

impl SlotAllocator {
    /// An empty allocator.
    pub fn new(layout: HashedLayout) -> SlotAllocator {
        SlotAllocator::with_tracking(layout, true)
    }

    /// An allocator for keys known to be distinct that is never asked to erase or find one.
    pub fn untracked(layout: HashedLayout) -> SlotAllocator {
        SlotAllocator::with_tracking(layout, false)
    }

    fn with_tracking(layout: HashedLayout, track: bool) -> SlotAllocator {
        let n = layout.slots_per_way as usize;
        let ways = layout.ways as usize;
        let fpc = matches!(layout.check, KeyCheck::Fingerprint(_));
        SlotAllocator {
            occupant: vec![vec![EMPTY; n]; ways],
            fp: if fpc {
                vec![vec![0; n]; ways]
            } else {
                Vec::new()
            },
            passed_mask: if fpc {
                vec![vec![0; n]; ways]
            } else {
                Vec::new()
            },
            passed_count: if fpc {
                vec![vec![0; n]; ways]
            } else {
                Vec::new()
            },
            keys: Vec::new(),
            free_ids: Vec::new(),
            track,
            untracked: 0,
            ids: FxHashMap::default(),
            collisions: 0,
            on_server: 0,
            cursor: 0,
            relocate: 0,
            cand_of: Vec::new(),
            fp_of: Vec::new(),
            way_of: Vec::new(),
            next_id: 0,
            moves: Vec::new(),
            journal: Vec::new(),
            layout,
        }
    }

    /// Lets [`SlotAllocator::insert`] move placed keys (cuckoo relocation, up to `depth`
    /// keys deep) when the new key has no free candidate it may take: a key at one of its
    /// candidates moves to another of its own candidates (checked as a fresh placement:
    /// free, not shadowing a key that passed over it, not behind a slot holding its
    /// fingerprint), and the new key takes its place. The moves are reported
    /// ([`SlotAllocator::take_moves`]) for the runtime to write in the same batch. Keys
    /// placed through the collision table never move. Call on an empty allocator.
    pub fn relocating(mut self, depth: u32) -> SlotAllocator {
        self.relocate = depth;
        self
    }

    /// The moves made since the last call, in write order (see [`Move`]).
    pub fn take_moves(&mut self) -> Vec<Move> {
        std::mem::take(&mut self.moves)
    }

    /// The layout.
    pub fn layout(&self) -> &HashedLayout {
        &self.layout
    }

    /// Counts.
    pub fn stats(&self) -> AllocatorStats {
        let keys = self.ids.len() as u64 + self.untracked;
        AllocatorStats {
            keys,
            home: keys - self.collisions - self.on_server,
            collisions: self.collisions,
            on_server: self.on_server,
        }
    }

    /// Where `key` lives, if held.
    pub fn get(&self, key: &[u64]) -> Option<Slot> {
        let id = *self.ids.get(key)?;
        self.keys[id as usize].as_ref().map(|(_, s)| *s)
    }

    /// The key at a slot, if any.
    pub fn occupant(&self, way: u32, slot: u64) -> Option<&[u64]> {
        let id = *self.occupant.get(way as usize)?.get(slot as usize)?;
        if id == EMPTY {
            return None;
        }
        self.keys.get(id as usize)?.as_ref().map(|(k, _)| &k[..])
    }

    /// Every occupied (way, slot).
    pub fn occupied(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        self.occupant.iter().enumerate().flat_map(|(w, slots)| {
            slots
                .iter()
                .enumerate()
                .filter(|(_, &id)| id != EMPTY)
                .map(move |(s, _)| (w as u32, s as u64))
        })
    }

    /// Places `key` (a key already held keeps its slot): its own candidate at the first way
    /// where it is free and no key that passed over it has the same fingerprint (with
    /// relocation, moving placed keys to make such a candidate free); otherwise any free slot
    /// through a collision entry while the table has room; otherwise the server.
    pub fn insert(&mut self, key: &[u64]) -> Result<Slot, HashedError> {
        if let Some(s) = self.get(key) {
            return Ok(s);
        }
        let cands = self.layout.candidates(key)?;
        let fp = self.layout.fingerprint(key)?;
        let id = if let Some(id) = self.track.then(|| self.free_ids.pop()).flatten() {
            id
        } else if self.track {
            self.keys.push(None);
            (self.keys.len() - 1) as u32
        } else if self.relocate > 0 {
            self.next_id += 1;
            self.next_id - 1
        } else {
            0
        };
        if self.relocate > 0 {
            let n = self.layout.ways as usize;
            let at = id as usize * n;
            if self.cand_of.len() < at + n {
                self.cand_of.resize(at + n, 0);
                self.fp_of.resize(id as usize + 1, 0);
                self.way_of.resize(id as usize + 1, COLLISION_WAY);
            }
            for (c, &v) in self.cand_of[at..at + n].iter_mut().zip(&cands) {
                *c = v as u32;
            }
            self.fp_of[id as usize] = fp.unwrap_or(0) as u32;
            self.way_of[id as usize] = COLLISION_WAY;
        }
        let mut placed = None;
        if let Some(w) = self.greedy(&cands, fp) {
            self.occupy(id, &cands, fp, w);
            placed = Some(Slot::Home {
                way: w as u32,
                slot: cands[w],
            });
        } else if self.relocate > 0 {
            let mut path = vec![id];
            if let Some(w) = self.kick(id, &cands, fp, self.relocate, &mut path) {
                self.commit_journal();
                placed = Some(Slot::Home {
                    way: w as u32,
                    slot: cands[w],
                });
            }
        }
        if placed.is_none() && self.collisions < self.layout.collision_entries {
            placed = self.free_slot().map(|(way, slot)| {
                self.collisions += 1;
                Slot::Collision { way, slot }
            });
            if let Some(Slot::Collision { way, slot }) = placed {
                // (A failed relocation may have left the key's way set: it never moves now.)
                if let Some(x) = self.way_of.get_mut(id as usize) {
                    *x = COLLISION_WAY;
                }
                self.occupant[way as usize][slot as usize] = id;
                if let Some(f) = fp {
                    self.fp[way as usize][slot as usize] = f as u32;
                }
            }
        }
        let slot = placed.unwrap_or_else(|| {
            self.on_server += 1;
            Slot::Server
        });
        if self.track {
            let k: Box<[u64]> = key.into();
            self.keys[id as usize] = Some((k.clone(), slot));
            self.ids.insert(k, id);
        } else {
            self.untracked += 1;
        }
        Ok(slot)
    }

    /// The first way whose candidate the key may take as it is (free, not shadowing a key
    /// that passed over it), stopping at an occupied candidate holding the key's fingerprint
    /// (the switch would stop there).
    fn greedy(&self, cands: &[u64], fp: Option<u64>) -> Option<usize> {
        for (w, &s) in cands.iter().enumerate() {
            if self.occupant[w][s as usize] != EMPTY {
                match fp {
                    Some(f) if u64::from(self.fp[w][s as usize]) == f => return None,
                    _ => continue,
                }
            }
            if !self.shadows(w, s, fp) {
                return Some(w);
            }
        }
        None
    }

    /// Puts key `id` at its candidate of way `w` (it passes over the earlier ones).
    fn occupy(&mut self, id: u32, cands: &[u64], fp: Option<u64>, w: usize) {
        let s = cands[w] as usize;
        self.occupant[w][s] = id;
        if let Some(f) = fp {
            self.fp[w][s] = f as u32;
            for (j, &c) in cands.iter().enumerate().take(w) {
                self.passed_mask[j][c as usize] |= 1 << (f % 64);
                self.passed_count[j][c as usize] += 1;
            }
        }
        if let Some(x) = self.way_of.get_mut(id as usize) {
            *x = w as u8;
        }
    }

    /// Takes the key at its candidate of way `w` out (the inverse of `occupy`).
    fn vacate(&mut self, cands: &[u64], fp: Option<u64>, w: usize) {
        let s = cands[w] as usize;
        self.occupant[w][s] = EMPTY;
        if fp.is_some() {
            self.fp[w][s] = 0;
            for (j, &c) in cands.iter().enumerate().take(w) {
                let n = &mut self.passed_count[j][c as usize];
                *n -= 1;
                if *n == 0 {
                    self.passed_mask[j][c as usize] = 0;
                }
            }
        }
    }

    /// Candidates and fingerprint of key `id` (relocating allocators keep them).
    fn placed_key(&self, id: u32) -> (Vec<u64>, Option<u64>) {
        let n = self.layout.ways as usize;
        let at = id as usize * n;
        let cands = self.cand_of[at..at + n]
            .iter()
            .map(|&c| u64::from(c))
            .collect();
        let fp = (!self.fp.is_empty()).then(|| u64::from(self.fp_of[id as usize]));
        (cands, fp)
    }

    /// Whether the key at (way, slot) may be moved (a key at its own candidate, not on the
    /// path of the relocation in progress).
    fn movable(&self, way: usize, slot: u64, path: &[u32]) -> Option<u32> {
        let occ = self.occupant[way][slot as usize];
        (occ != EMPTY
            && occ != BLOCKED
            && self.way_of[occ as usize] != COLLISION_WAY
            && !path.contains(&occ))
        .then_some(occ)
    }

    /// Cuckoo relocation for key `id` (candidates `cands`, fingerprint `fp`), which has no
    /// candidate it may take: for each of its candidates held by a movable key, move that
    /// key to another of its own candidates (recursively, `depth` keys deep) and try the new
    /// key again — at the freed slot, or at a later way when the moved key's fingerprint,
    /// passing over the freed slot, keeps it from there. The way taken (the key placed, the
    /// moves journaled) or `None` with everything as it was.
    fn kick(
        &mut self,
        id: u32,
        cands: &[u64],
        fp: Option<u64>,
        depth: u32,
        path: &mut Vec<u32>,
    ) -> Option<usize> {
        for (j, &s) in cands.iter().enumerate() {
            let Some(occ) = self.movable(j, s, path) else {
                continue;
            };
            let mark = self.journal.len();
            path.push(occ);
            let moved = self.relocate_key(occ, depth, path);
            path.pop();
            if moved {
                if let Some(w) = self.greedy(cands, fp) {
                    self.occupy(id, cands, fp, w);
                    return Some(w);
                }
            }
            self.undo_to(mark);
        }
        None
    }

    /// Moves the placed key `occ` to another of its candidates, moving others out of the way
    /// up to `depth − 1` keys deep; false with everything as it was.
    fn relocate_key(&mut self, occ: u32, depth: u32, path: &mut Vec<u32>) -> bool {
        let (oc, ofp) = self.placed_key(occ);
        let j = usize::from(self.way_of[occ as usize]);
        let s = oc[j] as usize;
        self.vacate(&oc, ofp, j);
        // Its own slot is closed while it looks for another (the switch would read past it).
        self.occupant[j][s] = BLOCKED;
        let mut to = self.greedy(&oc, ofp);
        if to.is_none() && depth > 1 {
            for (k, &c) in oc.iter().enumerate() {
                let Some(next) = (k != j).then(|| self.movable(k, c, path)).flatten() else {
                    continue;
                };
                let mark = self.journal.len();
                path.push(next);
                let moved = self.relocate_key(next, depth - 1, path);
                path.pop();
                if moved {
                    to = self.greedy(&oc, ofp);
                    if to.is_some() {
                        break;
                    }
                }
                self.undo_to(mark);
            }
        }
        self.occupant[j][s] = EMPTY;
        match to {
            Some(w) => {
                self.occupy(occ, &oc, ofp, w);
                self.journal.push((occ, j as u8, w as u8));
                true
            }
            None => {
                self.occupy(occ, &oc, ofp, j);
                false
            }
        }
    }

    /// Reverts the journaled moves past `mark`, last first.
    fn undo_to(&mut self, mark: usize) {
        while self.journal.len() > mark {
            let Some((id, from, to)) = self.journal.pop() else {
                break;
            };
            let (c, f) = self.placed_key(id);
            self.vacate(&c, f, usize::from(to));
            self.occupy(id, &c, f, usize::from(from));
        }
    }

    /// Turns the journal of a successful insert into [`Move`]s (write order) and updates
    /// the moved keys' slots.
    fn commit_journal(&mut self) {
        for (id, from, to) in std::mem::take(&mut self.journal) {
            let (c, _) = self.placed_key(id);
            let (from, to) = (
                (u32::from(from), c[usize::from(from)]),
                (u32::from(to), c[usize::from(to)]),
            );
            let mut key = Vec::new();
            if let Some((k, sl)) = self.keys.get_mut(id as usize).and_then(|k| k.as_mut()) {
                *sl = Slot::Home {
                    way: to.0,
                    slot: to.1,
                };
                key = k.to_vec();
            }
            if self.track || self.moves.len() < MAX_UNTRACKED_MOVES {
                self.moves.push(Move { key, from, to });
            }
        }
    }

    /// Would a key with fingerprint `fp` at (way, slot) shadow a key that passed over it?
    fn shadows(&self, way: usize, slot: u64, fp: Option<u64>) -> bool {
        match fp {
            Some(f) => self.passed_mask[way][slot as usize] & (1 << (f % 64)) != 0,
            None => false,
        }
    }

    /// A free slot for a collision entry (round robin from where the last search ended).
    fn free_slot(&mut self) -> Option<(u32, u64)> {
        let total = self.layout.slots();
        for _ in 0..total {
            let c = self.cursor;
            self.cursor = (self.cursor + 1) % total;
            let (w, s) = (
                (c / self.layout.slots_per_way) as usize,
                c % self.layout.slots_per_way,
            );
            // A slot someone passed over with a fingerprint stays usable: the collision
            // entry is read first, and a lookup reaching this slot through the ways must
            // not match it — so skip slots with any passers (a fingerprint could collide).
            if self.occupant[w][s as usize] == EMPTY
                && (self.passed_count.is_empty() || self.passed_count[w][s as usize] == 0)
            {
                return Some((w as u32, s));
            }
        }
        None
    }

    /// Erases `key`; where it was.
    pub fn remove(&mut self, key: &[u64]) -> Result<Option<Slot>, HashedError> {
        let Some(id) = self.ids.remove(key) else {
            return Ok(None);
        };
        let Some((_, slot)) = self.keys[id as usize].take() else {
            return Ok(None);
        };
        self.free_ids.push(id);
        match slot {
            Slot::Home { way, .. } => {
                if !self.passed_count.is_empty() {
                    let cands = self.layout.candidates(key)?;
                    for (j, &c) in cands.iter().enumerate().take(way as usize) {
                        let n = &mut self.passed_count[j][c as usize];
                        *n -= 1;
                        if *n == 0 {
                            self.passed_mask[j][c as usize] = 0;
                        }
                    }
                }
            }
            Slot::Collision { .. } => self.collisions -= 1,
            Slot::Server => self.on_server -= 1,
        }
        if let Some((w, s)) = slot.at() {
            self.occupant[w as usize][s as usize] = EMPTY;
            if !self.fp.is_empty() {
                self.fp[w as usize][s as usize] = 0;
            }
        }
        Ok(Some(slot))
    }
}

/// What the switch holds of a hashed map and how the generated program looks a key up: the
/// collision table first, then the ways in order, the first slot whose check word matches.
#[derive(Clone, Debug)]
pub struct SwitchModel {
    layout: HashedLayout,
    /// Check word per way and slot (`None`: empty).
    check: Vec<Vec<Option<Box<[u64]>>>>,
    value: Vec<Vec<u64>>,
    collision: FxHashMap<Box<[u64]>, (u32, u64)>,
    /// Compare check words (off only in the negative-control tests).
    pub compare_check: bool,
}

impl SwitchModel {
    /// Empty registers and collision table.
    pub fn new(layout: HashedLayout) -> SwitchModel {
        let n = layout.slots_per_way as usize;
        SwitchModel {
            check: vec![vec![None; n]; layout.ways as usize],
            value: vec![vec![0; n]; layout.ways as usize],
            collision: FxHashMap::default(),
            compare_check: true,
            layout,
        }
    }

    fn check_word(&self, key: &[u64]) -> Result<Box<[u64]>, HashedError> {
        Ok(match self.layout.fingerprint(key)? {
            Some(f) => vec![f].into(),
            None => key.into(),
        })
    }

    /// The runtime's writes for a key placed at `slot` with `value`: the slot's check and
    /// value registers, and the collision entry when it has one.
    pub fn write(&mut self, key: &[u64], slot: Slot, value: u64) -> Result<(), HashedError> {
        let check = self.check_word(key)?;
        if let Some((w, s)) = slot.at() {
            self.check[w as usize][s as usize] = Some(check);
            self.value[w as usize][s as usize] = value;
        }
        if let Slot::Collision { way, slot } = slot {
            self.collision.insert(key.into(), (way, slot));
        }
        Ok(())
    }

    /// The runtime's writes for an erased key: the slot cleared, the collision entry removed.
    pub fn clear(&mut self, key: &[u64], slot: Slot) {
        if let Some((w, s)) = slot.at() {
            self.check[w as usize][s as usize] = None;
            self.value[w as usize][s as usize] = 0;
        }
        self.collision.remove(key);
    }

    /// The lookup the switch program does: `Some(value)` on a hit.
    pub fn lookup(&self, key: &[u64]) -> Result<Option<u64>, HashedError> {
        let check = self.check_word(key)?;
        let matches = |w: usize, s: u64| match &self.check[w][s as usize] {
            Some(c) => !self.compare_check || *c == check,
            None => false,
        };
        if let Some(&(w, s)) = self.collision.get(key) {
            return Ok(matches(w as usize, s).then(|| self.value[w as usize][s as usize]));
        }
        for w in 0..self.layout.ways {
            let s = self.layout.candidate(w, key)?;
            if matches(w as usize, s) {
                return Ok(Some(self.value[w as usize][s as usize]));
            }
        }
        Ok(None)
    }
}

/// The result of [`measure_capacity`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Capacity {
    /// Keys inserted before the collision rate passed the goal, the collision table filled
    /// or a key found no room.
    pub connections: u64,
    /// Collision-table entries at that point.
    pub collision_entries: u64,
    /// `collision_entries / connections`.
    pub collision_rate: f64,
    /// Why the run stopped.
    pub stop: CapacityStop,
}

/// Why [`measure_capacity`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CapacityStop {
    /// The collision rate would pass the goal.
    Rate,
    /// A key found no room (collision table full or no free slot).
    Full,
    /// The requested number of keys was inserted.
    Limit,
}

/// Inserts keys from `next_key` into a fresh allocator until the collision rate (collision
/// entries per key) passes `max_rate` (checked once at least `1/max_rate` keys are in), a key
/// has no room, or `limit` keys are in; the capacity is the last count within the rate.
pub fn measure_capacity(
    layout: HashedLayout,
    max_rate: f64,
    limit: u64,
    next_key: impl FnMut() -> Vec<u64>,
) -> Result<Capacity, HashedError> {
    measure_capacity_with(SlotAllocator::untracked(layout), max_rate, limit, next_key)
}

/// [`measure_capacity`] through a given (empty, untracked) allocator: e.g. one that
/// relocates ([`SlotAllocator::relocating`]).
pub fn measure_capacity_with(
    mut a: SlotAllocator,
    max_rate: f64,
    limit: u64,
    mut next_key: impl FnMut() -> Vec<u64>,
) -> Result<Capacity, HashedError> {
    let warmup = (1.0 / max_rate.max(1e-12)).ceil() as u64;
    let mut last_ok = (0u64, 0u64);
    let mut n = 0u64;
    let stop = loop {
        if n >= limit {
            break CapacityStop::Limit;
        }
        let key = next_key();
        let slot = a.insert(&key)?;
        a.moves.clear();
        n += 1;
        if slot == Slot::Server {
            break CapacityStop::Full;
        }
        let col = a.stats().collisions;
        if col as f64 <= max_rate * n as f64 {
            last_ok = (n, col);
        } else if n >= warmup {
            break CapacityStop::Rate;
        }
    };
    let (connections, collision_entries) = if stop == CapacityStop::Limit {
        (n, a.stats().collisions)
    } else {
        last_ok
    };
    Ok(Capacity {
        connections,
        collision_entries,
        collision_rate: if connections == 0 {
            0.0
        } else {
            collision_entries as f64 / connections as f64
        },
        stop,
    })
}
