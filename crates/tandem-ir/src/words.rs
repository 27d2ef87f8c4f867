//! [`Words`]: a short sequence of `u64`s (a map key or value, one word per layout field)
//! stored inline when it has at most [`Words::INLINE`] words, so that maps of such keys and
//! values allocate nothing per entry. It hashes, compares and orders exactly as `[u64]`, so a
//! map keyed by `Words` is looked up with a `&[u64]`.

use std::borrow::Borrow;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

/// A short sequence of words, inline up to [`Words::INLINE`] words.
#[derive(Clone)]
pub struct Words(Repr);

#[derive(Clone)]
enum Repr {
    Inline { len: u8, w: [u64; Words::INLINE] },
    Heap(Box<[u64]>),
}

impl Words {
    /// Sequences up to this long are stored inline.
    pub const INLINE: usize = 8;

    /// A copy of `v`.
    #[inline]
    pub fn new(v: &[u64]) -> Words {
        if v.len() <= Self::INLINE {
            let mut w = [0u64; Self::INLINE];
            w[..v.len()].copy_from_slice(v);
            Words(Repr::Inline {
                len: v.len() as u8,
                w,
            })
        } else {
            Words(Repr::Heap(v.into()))
        }
    }

    /// The words.
    #[inline]
    pub fn as_slice(&self) -> &[u64] {
        match &self.0 {
            Repr::Inline { len, w } => &w[..usize::from(*len)],
            Repr::Heap(b) => b,
        }
    }

    /// Replaces the contents with `v` (in place when both are inline or of equal length).
    #[inline]
    pub fn set(&mut self, v: &[u64]) {
        match &mut self.0 {
            Repr::Inline { len, w } if v.len() <= Self::INLINE => {
                w[..v.len()].copy_from_slice(v);
                *len = v.len() as u8;
            }
            Repr::Heap(b) if b.len() == v.len() => b.copy_from_slice(v),
            _ => *self = Words::new(v),
        }
    }
}

impl Deref for Words {
    type Target = [u64];
    #[inline]
    fn deref(&self) -> &[u64] {
        self.as_slice()
    }
}

impl Borrow<[u64]> for Words {
    #[inline]
    fn borrow(&self) -> &[u64] {
        self.as_slice()
    }
}

impl Hash for Words {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl PartialEq for Words {
    #[inline]
    fn eq(&self, other: &Words) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Words {}

impl PartialEq<[u64]> for Words {
    #[inline]
    fn eq(&self, other: &[u64]) -> bool {
        self.as_slice() == other
    }
}

impl PartialOrd for Words {
    fn partial_cmp(&self, other: &Words) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Words {
    fn cmp(&self, other: &Words) -> std::cmp::Ordering {
        self.as_slice().cmp(other.as_slice())
    }
}

impl std::fmt::Debug for Words {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.as_slice().fmt(f)
    }
}

impl From<&[u64]> for Words {
    fn from(v: &[u64]) -> Words {
        Words::new(v)
    }
}

impl From<Vec<u64>> for Words {
    fn from(v: Vec<u64>) -> Words {
        Words::new(&v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::FxBuildHasher;
    use std::hash::BuildHasher;

    #[test]
    fn behaves_as_a_slice() {
        let b = FxBuildHasher;
        for n in [0usize, 1, 5, 8, 9, 20] {
            let v: Vec<u64> = (0..n as u64).map(|i| i * 0x1_0001 + 7).collect();
            let w = Words::new(&v);
            assert_eq!(&*w, &v[..]);
            assert_eq!(b.hash_one(&w), b.hash_one(&v[..]));
            assert_eq!(format!("{w:?}"), format!("{v:?}"));
            let mut x = Words::new(&[1, 2, 3]);
            x.set(&v);
            assert_eq!(x, w);
            let mut m = crate::hash::FxHashMap::default();
            m.insert(w.clone(), n);
            assert_eq!(m.get(&v[..]), Some(&n));
        }
        assert!(Words::new(&[1, 2]) < Words::new(&[1, 2, 0]));
        assert!(Words::new(&[2]) > Words::new(&[1, 9]));
    }
}
