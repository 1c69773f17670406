//! Compact storage of search states for BFS, DFS and A*: states live once in a `Vec` arena,
//! found again through a map from a 64-bit state hash to the first index with that hash
//! (further states with the same hash are chained through the nodes), and every node links to
//! its parent by index. Per state this costs the state itself, a 16-byte node, the incoming
//! action and about 16 bytes of hash map, which is what lets a Sokoban solver hold millions of
//! states.

use crate::{FxHashMap, FxLikeHasher};
use std::hash::{Hash, Hasher};

/// "No index" (the root's parent, the end of a hash chain).
pub const NONE: u32 = u32::MAX;

/// The bookkeeping of one stored state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    /// Index of the parent ([`NONE`] for the root).
    pub parent: u32,
    /// Cost of the best known path from the root.
    pub g: u32,
    /// Depth (steps from the root) along that path.
    pub depth: u32,
    /// Next index whose state has the same 64-bit hash ([`NONE`] at the end).
    next_same_hash: u32,
}

/// States, their parent links and a hash index over them.
///
/// ```
/// use puzzle_engine::classic::arena::{StateArena, NONE};
/// let mut arena: StateArena<(i32, i32), char> = StateArena::new();
/// let root = arena.insert((0, 0), NONE, None, 0).unwrap();
/// let a = arena.insert((1, 0), root, Some('R'), 1).unwrap();
/// assert_eq!(arena.find(&(1, 0)), Some(a));
/// assert_eq!(arena.path_to(a), vec!['R']);
/// ```
#[derive(Clone, Debug)]
pub struct StateArena<S, A> {
    states: Vec<S>,
    nodes: Vec<Node>,
    /// `actions[i - 1]` led to state `i` (the root has none).
    actions: Vec<A>,
    index: FxHashMap<u64, u32>,
}

impl<S: Eq + Hash, A: Clone> Default for StateArena<S, A> {
    fn default() -> Self {
        Self::new()
    }
}

/// The 64-bit hash the arena indexes states by.
#[inline]
pub fn state_hash<S: Hash>(state: &S) -> u64 {
    let mut h = FxLikeHasher::default();
    state.hash(&mut h);
    // One more mixing round so that the low bits used by the map depend on every input bit.
    let x = h.finish();
    (x ^ (x >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9) ^ (x >> 32)
}

impl<S: Eq + Hash, A: Clone> StateArena<S, A> {
    /// An empty arena.
    pub fn new() -> Self {
        StateArena {
            states: Vec::new(),
            nodes: Vec::new(),
            actions: Vec::new(),
            index: FxHashMap::default(),
        }
    }

    /// An empty arena with room for `n` states.
    pub fn with_capacity(n: usize) -> Self {
        StateArena {
            states: Vec::with_capacity(n),
            nodes: Vec::with_capacity(n),
            actions: Vec::with_capacity(n),
            index: FxHashMap::with_capacity_and_hasher(n, Default::default()),
        }
    }

    /// Number of states stored.
    #[inline]
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// No state stored.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// Forget every state (keeps the allocations).
    pub fn clear(&mut self) {
        self.states.clear();
        self.nodes.clear();
        self.actions.clear();
        self.index.clear();
    }

    /// The state at `index`.
    #[inline]
    pub fn state(&self, index: u32) -> &S {
        &self.states[index as usize]
    }

    /// The node (parent, cost, depth) at `index`.
    #[inline]
    pub fn node(&self, index: u32) -> &Node {
        &self.nodes[index as usize]
    }

    /// Index of `state`, if stored.
    #[inline]
    pub fn find(&self, state: &S) -> Option<u32> {
        self.find_hashed(state, state_hash(state))
    }

    /// Index of `state` whose [`state_hash`] is `hash`, if stored.
    pub fn find_hashed(&self, state: &S, hash: u64) -> Option<u32> {
        let mut i = *self.index.get(&hash)?;
        while i != NONE {
            if self.states[i as usize] == *state {
                return Some(i);
            }
            i = self.nodes[i as usize].next_same_hash;
        }
        None
    }

    /// Store `state` (which must not be stored yet) reached from `parent` by `action` at cost
    /// `g`. `action` is `None` for the first state (the root) and only for it. Returns the new index, or
    /// `None` if the arena is full (2^32 − 1 states).
    pub fn insert(&mut self, state: S, parent: u32, action: Option<A>, g: u32) -> Option<u32> {
        let hash = state_hash(&state);
        self.insert_hashed(state, hash, parent, action, g)
    }

    /// [`StateArena::insert`] with the state's precomputed [`state_hash`].
    pub fn insert_hashed(
        &mut self,
        state: S,
        hash: u64,
        parent: u32,
        action: Option<A>,
        g: u32,
    ) -> Option<u32> {
        let index = u32::try_from(self.states.len())
            .ok()
            .filter(|&i| i != NONE)?;
        assert_eq!(
            action.is_none(),
            index == 0,
            "StateArena: the first state, and only it, is inserted without an action"
        );
        let depth = if parent == NONE {
            0
        } else {
            self.nodes[parent as usize].depth + 1
        };
        let slot = self.index.entry(hash).or_insert(NONE);
        let next_same_hash = *slot;
        *slot = index;
        self.states.push(state);
        self.nodes.push(Node {
            parent,
            g,
            depth,
            next_same_hash,
        });
        self.actions.extend(action);
        Some(index)
    }

    /// Re-parent `index` to a cheaper path: new parent, action and cost (A*'s re-opening).
    pub fn relink(&mut self, index: u32, parent: u32, action: A, g: u32) {
        let depth = self.nodes[parent as usize].depth + 1;
        let node = &mut self.nodes[index as usize];
        node.parent = parent;
        node.g = g;
        node.depth = depth;
        self.actions[index as usize - 1] = action;
    }

    /// The actions from the root to `index`, following parent links.
    pub fn path_to(&self, index: u32) -> Vec<A> {
        let mut path = Vec::with_capacity(self.nodes[index as usize].depth as usize);
        let mut i = index;
        while self.nodes[i as usize].parent != NONE {
            path.push(self.actions[i as usize - 1].clone());
            i = self.nodes[i as usize].parent;
        }
        path.reverse();
        path
    }
}
