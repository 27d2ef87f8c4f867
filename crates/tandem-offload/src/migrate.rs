//! Flow migration: a server leaving a cluster hands its flows' state to their new servers
//! (CLIP §III-D) instead of draining them.
//!
//! Without migration a removed server keeps every flow it holds state for pinned to it until
//! the flow ends ([`crate::membership`]). With it, [`crate::Cluster::remove_server`] — between
//! two packets, as one step —
//!
//! 1. changes the group with [`Membership::change_migrating`]: the new group's slot table as
//!    usual, and the old group's slots that named the removed server now name the new
//!    group's server for that slot, so no packet goes to the removed server any more and
//!    each of its flows goes where the new group sends it;
//! 2. flushes the removed server's synchronisation engine (its staged batch into the main
//!    tables, [`crate::sync::SyncEngine::flush`]);
//! 3. moves each flow's flow-local map entries — value and last-use time — out of the
//!    removed server's primary copy and mirror into its new server's
//!    ([`move_flow`]). The switch already holds the entries (the servers share its
//!    tables), so nothing is written for them: the new server's later batches modify or
//!    delete them as their own;
//! 4. writes the dispatch registers (both slot tables, the cleared filter, `cur`, the pins)
//!    into the switch.
//!
//! A flow whose entries cannot all move (a full map on the new server, a map in
//! hash-indexed registers) stays on the removed server, pinned — the draining of before,
//! for that flow alone.
//!
//! ```text
//!  before: remove 1 → group [0, 2]; server 1 keeps flows f, g pinned, drains
//!  after:  remove 1 → group [0, 2]; f's entries 1 → 0, g's 1 → 2; server 1 holds nothing
//! ```

use crate::membership::{Flow, Membership};
use crate::{OffloadError, ServerHost};

/// Flushes `host`'s staged batch into the switch's main tables (before its entries move).
pub(crate) fn flush(host: &mut ServerHost) -> Result<(), OffloadError> {
    let (_, sync, cp) = host.parts();
    sync.flush(cp)
}

/// An entry on its way: map, key, value, last use, what the mirror held of it.
struct Moving {
    state: u32,
    key: Vec<u64>,
    value: Vec<u64>,
    last_used: u64,
    mirror: Option<crate::sync::MirrorEntry>,
}

/// Moves the map entries `keys` (state, key) of one flow from `from` to `to`, all or
/// nothing; false (nothing moved) when one is missing or does not fit. `from` is flushed.
pub(crate) fn move_flow(
    from: &mut ServerHost,
    to: &mut ServerHost,
    keys: &[(u32, Vec<u64>)],
) -> Result<bool, OffloadError> {
    let mut moving = Vec::new();
    let (primary, sync, _) = from.parts();
    let mut ok = true;
    for (state, key) in keys {
        let Some((value, last_used)) = primary.take_entry(*state, key) else {
            ok = false;
            break;
        };
        let mirror = match sync.take_mirror(*state, key) {
            Ok(m) => m,
            Err(_) => {
                primary.put_entry(*state, key, &value, last_used);
                ok = false;
                break;
            }
        };
        moving.push(Moving {
            state: *state,
            key: key.clone(),
            value,
            last_used,
            mirror,
        });
    }
    if ok {
        let (primary, _, _) = to.parts();
        let mut put = 0;
        for m in &moving {
            if !primary.put_entry(m.state, &m.key, &m.value, m.last_used) {
                ok = false;
                break;
            }
            put += 1;
        }
        if !ok {
            for m in &moving[..put] {
                primary.take_entry(m.state, &m.key);
            }
        }
    }
    if !ok {
        // Back where they were.
        let (primary, sync, _) = from.parts();
        for m in &moving {
            primary.put_entry(m.state, &m.key, &m.value, m.last_used);
            if let Some(e) = &m.mirror {
                sync.put_mirror(m.state, &m.key, e);
            }
        }
        return Ok(false);
    }
    let (_, sync, _) = to.parts();
    for m in &moving {
        if let Some(e) = &m.mirror {
            sync.put_mirror(m.state, &m.key, e);
        }
    }
    Ok(true)
}

/// Moves every flow of `moves` (flow, new server) held by server `removed` — its entries
/// `keys` (flow, state, key) — to its new server; a flow that cannot move is pinned back to
/// `removed` in `membership`. Returns the flows moved.
pub(crate) fn migrate(
    hosts: &mut [ServerHost],
    removed: usize,
    moves: &[(Flow, usize)],
    keys: &[(Flow, u32, Vec<u64>)],
    membership: &mut Membership,
) -> Result<usize, OffloadError> {
    flush(&mut hosts[removed])?;
    let mut by_flow: std::collections::HashMap<Flow, Vec<(u32, Vec<u64>)>> = Default::default();
    for (f, s, k) in keys {
        by_flow.entry(*f).or_default().push((*s, k.clone()));
    }
    let mut moved = 0;
    for (flow, to) in moves {
        let flow_keys = by_flow.get(flow).map_or(&[][..], |v| &v[..]);
        let ok = *to != removed && {
            let (from, to) = pair(hosts, removed, *to);
            move_flow(from, to, flow_keys)?
        };
        if ok {
            moved += 1;
        } else {
            membership.pin(*flow, removed);
        }
    }
    Ok(moved)
}

/// Two distinct hosts, mutably.
fn pair(hosts: &mut [ServerHost], a: usize, b: usize) -> (&mut ServerHost, &mut ServerHost) {
    assert_ne!(a, b);
    if a < b {
        let (l, r) = hosts.split_at_mut(b);
        (&mut l[a], &mut r[0])
    } else {
        let (l, r) = hosts.split_at_mut(a);
        (&mut r[0], &mut l[b])
    }
}
