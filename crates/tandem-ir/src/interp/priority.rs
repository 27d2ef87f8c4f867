//! Ternary and range maps in the [`StateStore`](super::StateStore): an entry is stored under
//! its name — `[key..., mask..., priority]` (the key masked field by field) or `[lo, hi,
//! priority]` — and a lookup takes the matching entry with the highest priority. Priorities
//! are distinct within a map, so that answer never depends on the order of entries.

use super::store::MapEntry;
use crate::hash::FxHashMap;
use crate::words::Words;
use crate::{MapMatch, MAX_PRIORITY};

/// The entry name `map.insert`/`map.erase` operands give on a ternary or range map,
/// normalised (the key masked), or `None` when no entry can have it (priority 0 or above
/// [`MAX_PRIORITY`], an empty range, operands of the wrong count, another kind of map).
pub fn entry_name(m: MapMatch, ops: &[u64]) -> Option<Vec<u64>> {
    let (&prio, rest) = ops.split_last()?;
    if prio == 0 || prio > MAX_PRIORITY {
        return None;
    }
    match m {
        MapMatch::Ternary => {
            if rest.len() % 2 != 0 {
                return None;
            }
            let (key, mask) = rest.split_at(rest.len() / 2);
            let mut out: Vec<u64> = key.iter().zip(mask).map(|(k, m)| k & m).collect();
            out.extend_from_slice(mask);
            out.push(prio);
            Some(out)
        }
        MapMatch::Range => match rest {
            &[lo, hi] if lo <= hi => Some(vec![lo, hi, prio]),
            _ => None,
        },
        MapMatch::Exact | MapMatch::Lpm => None,
    }
}

/// Whether the entry named `name` matches the looked-up key.
fn matches(m: MapMatch, name: &[u64], key: &[u64]) -> bool {
    let Some((_, rest)) = name.split_last() else {
        return false;
    };
    match m {
        MapMatch::Ternary => {
            let (k, mask) = rest.split_at(rest.len() / 2);
            k.len() == key.len() && key.iter().zip(k).zip(mask).all(|((x, k), m)| x & m == *k)
        }
        MapMatch::Range => matches!((rest, key), (&[lo, hi], &[x]) if lo <= x && x <= hi),
        MapMatch::Exact | MapMatch::Lpm => false,
    }
}

/// The matching entry with the highest priority.
pub(super) fn best<'a>(
    map: &'a FxHashMap<Words, MapEntry>,
    m: MapMatch,
    key: &[u64],
) -> Option<&'a MapEntry> {
    map.iter()
        .filter(|(name, _)| matches(m, name, key))
        .max_by_key(|(name, _)| name.last().copied().unwrap_or(0))
        .map(|(_, e)| e)
}

/// `map.insert` on a ternary or range map: overwrite the entry of that name; else refuse a
/// priority another entry has, and a new entry when the map holds `capacity`; else add.
pub(super) fn insert(
    map: &mut FxHashMap<Words, MapEntry>,
    m: MapMatch,
    capacity: u64,
    ops: &[u64],
    value: &[u64],
    now: u64,
) -> bool {
    let Some(name) = entry_name(m, ops) else {
        return false;
    };
    if let Some(e) = map.get_mut(&name[..]) {
        e.value.set(value);
        e.last_used = now;
        return true;
    }
    let prio = name.last().copied();
    if map.len() as u64 >= capacity || map.keys().any(|n| n.last().copied() == prio) {
        return false;
    }
    map.insert(
        Words::new(&name),
        MapEntry {
            value: Words::new(value),
            last_used: now,
        },
    );
    true
}

/// `map.erase` on a ternary or range map: removes the entry of that name, if any.
pub(super) fn erase(map: &mut FxHashMap<Words, MapEntry>, m: MapMatch, ops: &[u64]) {
    if let Some(name) = entry_name(m, ops) {
        map.remove(&name[..]);
    }
}
