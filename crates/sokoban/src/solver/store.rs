//! The node store of the best-first solvers: positions (box words + normalized player) in flat
//! arrays with an open-addressing transposition table on the Zobrist hash of their boxes (the
//! positions that differ only in the player's area share a home slot, which is known before
//! the area is, so a child's slot is prefetched as soon as its push is).

use crate::board::same_words;
use crate::position::Push;
use puzzle_engine::FxHashMap;

/// "No node".
pub const NO_NODE: u32 = u32::MAX;

/// A transposition-table slot of [`NodeStore`]: the node, its normalized player and the top
/// 16 bits of its box hash.
#[derive(Clone, Copy)]
struct Slot {
    node: u32,
    player: u16,
    tag: u16,
}

impl Slot {
    const EMPTY: Slot = Slot {
        node: NO_NODE,
        player: 0,
        tag: 0,
    };
}

/// The bits of a box hash a [`Slot`] keeps (the table's index takes the low bits).
fn tag(key: u64) -> u16 {
    (key >> 48) as u16
}

/// Flat storage of search nodes with duplicate detection.
pub struct NodeStore {
    words_per: usize,
    words: Vec<u64>,
    player: Vec<u16>,
    keys: Vec<u64>,
    /// Parent node of each node ([`NO_NODE`] for the root).
    pub parent: Vec<u32>,
    /// The push that led to each node (meaningless for the root).
    pub push: Vec<Push>,
    /// Pushes from the root.
    pub g: Vec<u32>,
    /// Lower bound of each node.
    pub h: Vec<u32>,
    /// Expanded (closed).
    pub closed: Vec<bool>,
    /// Open addressing: (node, normalized player, the box hash's top 16 bits), 8 bytes a
    /// slot. A slot whose player and hash bits match is confirmed by the node's full hash and
    /// box words; the others (all but about one in 65,536 of the wrong positions in a cluster)
    /// are passed over without reading the node.
    table: Vec<Slot>,
    mask: usize,
    /// Nodes reached by a macro move: where its pushes after the first (which is in `push`)
    /// start in `macro_tails`, and how many there are.
    macros: FxHashMap<u32, (u32, u32)>,
    /// The pushes after the first of every macro move recorded, one after another (a record
    /// replaced when a shorter path reaches its node leaves its old pushes unused here).
    macro_tails: Vec<Push>,
}

impl NodeStore {
    /// An empty store for positions of `words_per` box words.
    pub fn new(words_per: usize) -> Self {
        let cap = 1 << 12;
        NodeStore {
            words_per,
            words: Vec::new(),
            player: Vec::new(),
            keys: Vec::new(),
            parent: Vec::new(),
            push: Vec::new(),
            g: Vec::new(),
            h: Vec::new(),
            closed: Vec::new(),
            table: vec![Slot::EMPTY; cap],
            mask: cap - 1,
            macros: FxHashMap::default(),
            macro_tails: Vec::new(),
        }
    }

    /// Number of nodes stored.
    pub fn len(&self) -> usize {
        self.player.len()
    }

    /// The box words of node `i`.
    pub fn words(&self, i: u32) -> &[u64] {
        let s = i as usize * self.words_per;
        &self.words[s..s + self.words_per]
    }

    /// The Zobrist hash of node `i`'s boxes (the key of [`NodeStore::find`]).
    pub fn key(&self, i: u32) -> u64 {
        self.keys[i as usize]
    }

    /// The normalized player of node `i`.
    pub fn player(&self, i: u32) -> u16 {
        self.player[i as usize]
    }

    /// Start loading the table slot where the position with box hash `key` is looked for,
    /// ahead of [`NodeStore::find`], so that the memory access overlaps other work (the
    /// table outgrows the caches; it saves 6–8 % of the search's CPU time on Microban 93 and
    /// XSokoban 62, docs/benchmarks/sokoban.md).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let slot: *const Slot = &self.table[(key as usize) & self.mask];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `_mm_prefetch` is an `unsafe fn` only as an SSE intrinsic taking a raw
        // pointer. SSE is in the baseline of every x86_64 target, and a prefetch is a hint:
        // it reads nothing into the program, writes nothing and never faults, whatever the
        // address (here that of a live table entry).
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(slot.cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = slot;
    }

    /// Find the node with these boxes (Zobrist hash `key` of the boxes alone, so that a
    /// position's slot is known before its player's area) and normalized player.
    pub fn find(&self, key: u64, words: &[u64], player: u16) -> Option<u32> {
        let mut slot = (key as usize) & self.mask;
        let tag = tag(key);
        loop {
            let Slot {
                node,
                player: p,
                tag: t,
            } = self.table[slot];
            if node == NO_NODE {
                return None;
            }
            if t == tag
                && p == player
                && self.keys[node as usize] == key
                && same_words(self.words(node), words)
            {
                return Some(node);
            }
            slot = (slot + 1) & self.mask;
        }
    }

    /// Add a node (the caller checked it is new; `key` is the hash of its boxes, as for
    /// [`NodeStore::find`]) and return its index.
    #[allow(clippy::too_many_arguments)]
    pub fn insert(
        &mut self,
        key: u64,
        words: &[u64],
        player: u16,
        parent: u32,
        push: Push,
        g: u32,
        h: u32,
    ) -> u32 {
        if (self.len() + 1) * 2 > self.table.len() {
            self.grow();
        }
        let index = self.len() as u32;
        self.words.extend_from_slice(words);
        self.player.push(player);
        self.keys.push(key);
        self.parent.push(parent);
        self.push.push(push);
        self.g.push(g);
        self.h.push(h);
        self.closed.push(false);
        self.place(key, index, player);
        index
    }

    fn place(&mut self, key: u64, index: u32, player: u16) {
        let mut slot = (key as usize) & self.mask;
        while self.table[slot].node != NO_NODE {
            slot = (slot + 1) & self.mask;
        }
        self.table[slot] = Slot {
            node: index,
            player,
            tag: tag(key),
        };
    }

    fn grow(&mut self) {
        let cap = self.table.len() * 2;
        self.table = vec![Slot::EMPTY; cap];
        self.mask = cap - 1;
        for i in 0..self.len() {
            self.place(self.keys[i], i as u32, self.player[i]);
        }
    }

    /// Record that node `i` was reached by the macro move `push` then `tail` (several
    /// pushes), or by the single push `push` when `tail` is empty (the node's own `push`).
    pub fn set_macro(&mut self, i: u32, tail: &[Push]) {
        if tail.is_empty() {
            self.macros.remove(&i);
        } else {
            let start = self.macro_tails.len() as u32;
            self.macro_tails.extend_from_slice(tail);
            self.macros.insert(i, (start, tail.len() as u32));
        }
    }

    /// The pushes after the first of the macro move that led to node `i` (empty for a single
    /// push).
    fn macro_tail(&self, i: u32) -> &[Push] {
        match self.macros.get(&i) {
            Some(&(start, len)) => &self.macro_tails[start as usize..(start + len) as usize],
            None => &[],
        }
    }

    /// Was node `i` reached by a macro move (several pushes)?
    pub fn is_macro(&self, i: u32) -> bool {
        self.macros.contains_key(&i)
    }

    /// The last push of the move that led to node `i` (the last push of its macro).
    pub fn last_push(&self, i: u32) -> Push {
        match self.macro_tail(i).last() {
            Some(&last) => last,
            None => self.push[i as usize],
        }
    }

    /// The pushes from the root to node `i`.
    pub fn path_to(&self, mut i: u32) -> Vec<Push> {
        let mut path = Vec::new();
        while self.parent[i as usize] != NO_NODE {
            path.extend(self.macro_tail(i).iter().rev());
            path.push(self.push[i as usize]);
            i = self.parent[i as usize];
        }
        path.reverse();
        path
    }
}
