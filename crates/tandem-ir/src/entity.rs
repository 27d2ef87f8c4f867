//! Typed indices ("entity references") and the arena that hands them out.
//!
//! Every IR object that other objects refer to lives in an [`Arena`] and is named by a small
//! `Copy` handle ([`Block`], [`Value`], [`Inst`], [`StateId`], [`FileId`]). Handles are plain
//! indices: they are only meaningful together with the arena that created them, and they are
//! never invalidated (objects are never removed from an arena; passes detach them instead).

use std::fmt;
use std::marker::PhantomData;

/// A typed index into an [`Arena`].
pub trait EntityRef: Copy + Eq + Ord + std::hash::Hash + fmt::Debug {
    /// Builds the handle for arena slot `index`.
    fn new(index: usize) -> Self;
    /// The arena slot this handle names.
    fn index(self) -> usize;
}

macro_rules! entity {
    ($(#[$doc:meta])* $name:ident, $prefix:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(u32);

        impl EntityRef for $name {
            fn new(index: usize) -> Self {
                // Arenas never grow beyond u32::MAX entries (see `Arena::push`).
                $name(index as u32)
            }
            fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl $name {
            /// Builds the handle for arena slot `index` (as printed in the text form).
            pub fn from_u32(index: u32) -> Self {
                $name(index)
            }
            /// The numeric index, as printed in the text form.
            pub fn as_u32(self) -> u32 {
                self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(self, f)
            }
        }
    };
}

entity!(
    /// A basic block of a function; printed `blockN`.
    Block,
    "block"
);
entity!(
    /// An SSA value (a block parameter or an instruction result); printed `vN`.
    Value,
    "v"
);
entity!(
    /// An instruction of a function (not printed; instructions are named by their text).
    Inst,
    "inst"
);
entity!(
    /// A state object of a module; printed by its name.
    StateId,
    "state"
);
entity!(
    /// A source file in the module's file table; printed `fN`.
    FileId,
    "f"
);

/// A growable vector indexed by a typed handle `K`.
#[derive(Clone, PartialEq, Eq)]
pub struct Arena<K: EntityRef, V> {
    items: Vec<V>,
    _key: PhantomData<K>,
}

impl<K: EntityRef, V> Default for Arena<K, V> {
    fn default() -> Self {
        Arena {
            items: Vec::new(),
            _key: PhantomData,
        }
    }
}

impl<K: EntityRef, V: fmt::Debug> fmt::Debug for Arena<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<K: EntityRef, V> Arena<K, V> {
    /// An empty arena.
    pub fn new() -> Self {
        Self::default()
    }
    /// Appends `value` and returns its handle.
    pub fn push(&mut self, value: V) -> K {
        let k = K::new(self.items.len());
        self.items.push(value);
        k
    }
    /// The handle the next `push` will return.
    pub fn next_key(&self) -> K {
        K::new(self.items.len())
    }
    /// Number of entries.
    pub fn len(&self) -> usize {
        self.items.len()
    }
    /// True when the arena is empty.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
    /// True when `k` names an entry of this arena.
    pub fn is_valid(&self, k: K) -> bool {
        k.index() < self.items.len()
    }
    /// The entry for `k`, if it exists.
    pub fn get(&self, k: K) -> Option<&V> {
        self.items.get(k.index())
    }
    /// The entry for `k`, mutably, if it exists.
    pub fn get_mut(&mut self, k: K) -> Option<&mut V> {
        self.items.get_mut(k.index())
    }
    /// All handles in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = K> + ExactSizeIterator {
        (0..self.items.len()).map(K::new)
    }
    /// All entries with their handles, in order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (K, &V)> + ExactSizeIterator {
        self.items.iter().enumerate().map(|(i, v)| (K::new(i), v))
    }
    /// All entries, in order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator {
        self.items.iter()
    }
}

impl<K: EntityRef, V> std::ops::Index<K> for Arena<K, V> {
    type Output = V;
    /// Panics if `k` was not created by this arena (a programming error, never user input).
    fn index(&self, k: K) -> &V {
        &self.items[k.index()]
    }
}

impl<K: EntityRef, V> std::ops::IndexMut<K> for Arena<K, V> {
    fn index_mut(&mut self, k: K) -> &mut V {
        &mut self.items[k.index()]
    }
}
