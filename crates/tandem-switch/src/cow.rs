//! A fixed-chunk array shared between table snapshots: cloning it copies at most 64
//! pointers, and a write copies only the 4,096-element chunk it lands in (and the two
//! small directory nodes above it) when an older snapshot still holds them.
//!
//! Before (a table's flat `Vec<u32>` of 2^24 slots, one per snapshot):
//!
//! ```text
//!   new snapshot -> copy 64 MB ; write slot i -> in place
//! ```
//!
//! After (`top[i >> 18] -> mid[(i >> 12) & 63] -> chunk[i & 4095]`, every level an `Arc`):
//!
//! ```text
//!   new snapshot -> copy ≤ 64 pointers ; write slot i -> copy its chunk (16 KB for u32)
//!                   and 2 × 64 pointers if shared, then write in place
//! ```
//!
//! A read is three dependent loads, the first two into at most 64 + 64 × 64 pointers that
//! stay in cache; only the last one touches the array's (large) data. Unwritten chunks are
//! all one shared chunk of the fill value, so an array of 2^24 slots costs memory only
//! where it was written.

use std::sync::Arc;

/// log2 of a directory node's fan-out.
const MID_BITS: u32 = 6;
const MID: usize = 1 << MID_BITS;

/// A chunk's slots inline after its reference counts: a read needs no header load.
type Chunk<T> = Arc<[T]>;
type Mid<T> = Arc<Vec<Chunk<T>>>;

/// An array of `T` in copy-on-write chunks of `2^CHUNK_BITS` slots (default 4,096),
/// growable by whole chunks.
#[derive(Clone, Debug)]
pub(crate) struct CowArray<T: Clone, const CHUNK_BITS: u32 = 12> {
    top: Vec<Mid<T>>,
    /// the shared chunk of `fill` values (what unwritten chunks point to)
    blank: Chunk<T>,
    len: usize,
    fill: T,
}

impl<T: Clone, const CHUNK_BITS: u32> CowArray<T, CHUNK_BITS> {
    const CHUNK: usize = 1 << CHUNK_BITS;

    /// An array of `len` copies of `fill` (rounded up to whole chunks), sharing one chunk.
    pub(crate) fn new(len: usize, fill: T) -> Self {
        let blank: Chunk<T> = vec![fill.clone(); Self::CHUNK].into();
        let mut a = CowArray {
            top: Vec::new(),
            blank,
            len: 0,
            fill,
        };
        a.grow(len);
        a
    }

    /// Slots in the array (a multiple of the chunk length).
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Grows the array to at least `len` slots of the fill value.
    pub(crate) fn grow(&mut self, len: usize) {
        while self.len < len {
            let c = self.len >> CHUNK_BITS;
            if c.is_multiple_of(MID) {
                self.top.push(Arc::new(Vec::with_capacity(MID)));
            }
            if let Some(m) = self.top.last_mut() {
                Arc::make_mut(m).push(self.blank.clone());
            }
            self.len += Self::CHUNK;
        }
    }

    /// Slot `i` (the fill value past the end).
    #[inline]
    pub(crate) fn get(&self, i: usize) -> &T {
        self.top
            .get(i >> (CHUNK_BITS + MID_BITS))
            .and_then(|m| m.get((i >> CHUNK_BITS) & (MID - 1)))
            .and_then(|c| c.get(i & (Self::CHUNK - 1)))
            .unwrap_or(&self.fill)
    }

    /// Calls `f` on every slot of `lo..hi` (clipped to the array), each chunk made private
    /// to this array first; `f` gets the slot's index.
    pub(crate) fn update(&mut self, lo: usize, hi: usize, mut f: impl FnMut(usize, &mut T)) {
        let hi = hi.min(self.len);
        let mut i = lo;
        while i < hi {
            let end = ((i | (Self::CHUNK - 1)) + 1).min(hi);
            let Some(m) = self.top.get_mut(i >> (CHUNK_BITS + MID_BITS)) else {
                return;
            };
            let Some(c) = Arc::make_mut(m).get_mut((i >> CHUNK_BITS) & (MID - 1)) else {
                return;
            };
            let c = Arc::make_mut(c);
            for (j, s) in c[i & (Self::CHUNK - 1)..=((end - 1) & (Self::CHUNK - 1))]
                .iter_mut()
                .enumerate()
            {
                f(i + j, s);
            }
            i = end;
        }
    }

    /// The `n` slots from `i`, when they lie in one chunk.
    #[inline]
    pub(crate) fn slice(&self, i: usize, n: usize) -> Option<&[T]> {
        let c = self
            .top
            .get(i >> (CHUNK_BITS + MID_BITS))?
            .get((i >> CHUNK_BITS) & (MID - 1))?;
        let o = i & (Self::CHUNK - 1);
        c.get(o..o + n)
    }

    /// Sets slot `i` (ignored past the end).
    pub(crate) fn set(&mut self, i: usize, v: T) {
        let mut v = Some(v);
        self.update(i, i + 1, |_, s| {
            if let Some(v) = v.take() {
                *s = v;
            }
        });
    }

    /// Chunks holding their own data (not the shared fill chunk).
    #[cfg(test)]
    pub(crate) fn own_chunks(&self) -> usize {
        self.top
            .iter()
            .flat_map(|m| m.iter())
            .filter(|c| !Arc::ptr_eq(c, &self.blank))
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapshots_keep_their_values_and_share_unwritten_chunks() {
        const CHUNK: usize = 4096;
        let mut a = CowArray::<u32>::new(1 << 20, 0);
        assert_eq!(a.len(), 1 << 20);
        assert_eq!(a.own_chunks(), 0);
        a.set(5, 7);
        a.update(CHUNK - 2, CHUNK + 3, |i, s| *s = i as u32);
        let old = a.clone();
        a.set(5, 8);
        a.update(0, 1 << 20, |_, s| *s += 1);
        assert_eq!((*old.get(5), *a.get(5)), (7, 9));
        assert_eq!(
            (*old.get(CHUNK), *a.get(CHUNK)),
            (CHUNK as u32, CHUNK as u32 + 1)
        );
        assert_eq!((*old.get(CHUNK + 3), *a.get(CHUNK + 3)), (0, 1));
        assert_eq!(old.own_chunks(), 2);
        assert_eq!(*a.get(1 << 30), 0, "past the end: the fill value");
        a.grow((1 << 20) + 1);
        assert_eq!(a.len(), (1 << 20) + CHUNK);
        assert_eq!(*a.get(1 << 20), 0);
    }
}
