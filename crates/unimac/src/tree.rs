//! The AES key stream and tree hashing of long messages (the wire format,
//! docs/WIRE.md §6; the tree construction of Wegman and Carter, as Halevi and
//! Krawczyk, "MMH: software message authentication in the Gbit/second
//! rates", describe it in section 2.4).
//!
//! A block function `F` maps a `B`-byte block to `O` bytes, `2·O < B`, under a
//! `K`-byte key. `tree-F(s, M)` hashes the blocks of `pad(M, B)` with the key
//! of level 0, concatenates the outputs, and repeats with the key of level 1,
//! and so on, until one block is left. Level `j` is final exactly when its
//! whole input is shorter than `B` bytes; so every full block can be hashed
//! the moment it is complete, and the streaming state is one partial block
//! per level: O(height × B) memory whatever the message length.
//!
//! Speed: whole blocks go to `BlockHash::hash_blocks` in runs of up to
//! 32 KiB, so SIMD paths work across many blocks; where the application
//! allows threads ([`crate::threads::set_max_threads`]), a slice of 4 MiB or
//! more (a memory-mapped file given whole) is cut into runs of whole `B^2`
//! bytes, each hashed through levels 0 and 1 on a thread of the library's
//! pool, their level-2 bytes passed up in message order;
//! [`Tree::finalize_reset`] keeps the derived level keys for the
//! next message.

use aes::cipher::{BlockCipherEncrypt, KeyInit};
use aes::Aes128;
use zeroize::{Zeroize, Zeroizing};

use crate::error::Error;
use crate::prelude::*;
pub use crate::kinds::Block;
pub use crate::traits::{BlockFamily, BlockHash};
use crate::traits::{Entry, Info, KeySpec, Keyed, Params, Stream};
use crate::sync::{Arc, OnceLock};
// The key stream (`keystream`): tree/keystream.rs; the by-name rows: tree/catalog.rs.
#[path = "tree/keystream.rs"]
mod keystream;
pub use keystream::{keystream, keystream_range};
pub(crate) use keystream::try_keystream;
#[path = "tree/catalog.rs"]
mod catalog;
pub(crate) use catalog::catalog;

impl Block {
    /// For Square Hash: its element width `l` in bits and its variant.
    pub const fn sqh(self) -> Option<(usize, crate::square::Variant)> {
        use crate::square::Variant::{Asm, E};
        match self {
            Block::Sqh32Asm => Some((32, Asm)),
            Block::Sqh32E => Some((32, E)),
            Block::Sqh64Asm => Some((64, Asm)),
            Block::Sqh64E => Some((64, E)),
            Block::Sqh96Asm => Some((96, Asm)),
            Block::Sqh96E => Some((96, E)),
            Block::Sqh128Asm => Some((128, Asm)),
            Block::Sqh128E => Some((128, E)),
            _ => None,
        }
    }

    /// The block family: sizes `B`, `O`, `K`, its group and its keyed
    /// function, from the family's own module.
    pub fn family(self) -> BlockFamily {
        match self.sqh() {
            Some((l, v)) => crate::square::block_family(l, v),
            None => crate::mmh::block_family(self),
        }
    }
}

/// Every block function that has a tree mode, in the order of docs/WIRE.md §6.
pub fn families() -> Vec<BlockFamily> {
    Block::ALL.iter().map(|b| b.family()).collect()
}

/// The block family named `name` (without the `tree-` prefix).
pub fn family(name: &str) -> Option<BlockFamily> {
    Block::ALL
        .into_iter()
        .find(|b| b.name() == name)
        .map(Block::family)
}

#[derive(Clone)]
struct Level {
    hash: Arc<dyn BlockHash>,
    /// Bytes of this level's input not yet hashed: always fewer than `B`.
    buf: Vec<u8>,
    /// Whether a full block has been hashed here (the level's input is then at
    /// least `B` bytes long, so this level is not the last).
    emitted: bool,
    /// This level's outputs of one batch, on their way to the next level
    /// (at most `BATCH_BYTES / B * O` bytes).
    scratch: Vec<u8>,
}

/// The key of `tree-F(s, ·)`: the block family, the seed `s`, and the level
/// keys derived from the key stream so far (derived when a message first
/// reaches a level, then shared by every [`Tree`] started from this key).
pub struct TreeKey {
    /// This key object's id, which its stripes carry ([`crate::stripe`]).
    id: crate::stripe::KeyId,
    family: BlockFamily,
    seed: Zeroizing<[u8; 16]>,
    /// Level 0, whose `next` holds level 1 once derived, and so on.
    levels: LevelKey,
}

/// The key of one level and, once derived, the next level's (set once;
/// reading it takes no lock).
struct LevelKey {
    hash: Arc<dyn BlockHash>,
    next: OnceLock<Box<LevelKey>>,
}

impl TreeKey {
    /// The key of `tree-F` for the 16-byte seed `s` of the key stream. The
    /// key of level 0 (which every message uses) is derived now, the others
    /// when a message first reaches them.
    pub fn new(family: BlockFamily, s: &[u8; 16]) -> TreeKey {
        let levels = Self::derive(&family, s, 0);
        TreeKey {
            id: crate::stripe::KeyId::fresh(),
            family,
            seed: Zeroizing::new(*s),
            levels,
        }
    }

    /// `F` under the key of level `i`.
    fn derive(family: &BlockFamily, seed: &[u8; 16], i: usize) -> LevelKey {
        let k = family.key;
        let key = Zeroizing::new(keystream_range(seed, i * k, k));
        LevelKey {
            hash: Arc::from(family.keyed(&key)),
            next: OnceLock::new(),
        }
    }

    /// The block family `F`.
    pub fn family(&self) -> &BlockFamily {
        &self.family
    }

    /// `F` under the key of level `j` (bytes `jK .. (j+1)K` of the key
    /// stream), derived on first use; levels are derived in order.
    pub fn level(&self, j: usize) -> Arc<dyn BlockHash> {
        Arc::clone(&self.level_ref(j).hash)
    }

    /// Level `j`'s entry, deriving it (and the levels below it) first if
    /// needed.
    fn level_ref(&self, j: usize) -> &LevelKey {
        let mut node = &self.levels;
        for i in 1..=j {
            node = node
                .next
                .get_or_init(|| Box::new(Self::derive(&self.family, &self.seed, i)));
        }
        node
    }

    /// `tree-F(s, msg)` in one go into `out` (at least `O` bytes), for a
    /// message whose level-0 outputs fit in [`SHORT_LEVEL`] bytes: every
    /// level on the stack, read in place, nothing allocated (`None` for a
    /// longer message, which takes the streaming [`Tree`]). The levels'
    /// outputs depend on the key, so the buffers are wiped.
    pub fn hash_short(&self, msg: &[u8], out: &mut [u8]) -> Option<usize> {
        let (b, o) = (self.family.block, self.family.out);
        if (msg.len() / b + 1) * o > SHORT_LEVEL || out.len() < o || b > MAX_BLOCK {
            return None;
        }
        let mut last = [0u8; MAX_BLOCK];
        if msg.len() < b {
            // One block: level 0's output is the tree's. (`last` holds only
            // message bytes and padding: nothing secret to wipe.)
            last[..msg.len()].copy_from_slice(msg);
            last[msg.len()] = 1;
            self.level(0).hash_blocks(&last[..b], &mut out[..o]);
            return Some(o);
        }
        let mut bufs = [[0u8; SHORT_LEVEL]; 2];
        // Bytes written into each buffer (wiped at the end, not the whole).
        let mut used = [0usize; 2];
        let mut x_len = msg.len();
        let mut j = 0;
        let mut cur = 0; // the buffer holding this level's input (j > 0)
        loop {
            let (first, second) = bufs.split_at_mut(1);
            let (src, dst) = if cur == 0 {
                (&first[0], &mut second[0])
            } else {
                (&second[0], &mut first[0])
            };
            // The level's input: the message at level 0, `src` above it.
            let x: &[u8] = if j == 0 { msg } else { &src[..x_len] };
            let whole = x.len() / b * b;
            let rest = &x[whole..];
            // pad(X, B): the rest, 0x01, zeros to B.
            last[..rest.len()].copy_from_slice(rest);
            last[rest.len()] = 1;
            last[rest.len() + 1..b].fill(0);
            let hash = self.level(j);
            if whole == 0 {
                // One block: this level's output is the tree's.
                hash.hash_blocks(&last[..b], &mut out[..o]);
                break;
            }
            let n = whole / b;
            hash.hash_blocks(&x[..whole], &mut dst[..n * o]);
            hash.hash_blocks(&last[..b], &mut dst[n * o..(n + 1) * o]);
            x_len = (n + 1) * o;
            used[1 - cur] = used[1 - cur].max(x_len);
            cur = 1 - cur;
            j += 1;
        }
        // The levels' outputs depend on the key: wipe what was written.
        bufs[0][..used[0]].zeroize();
        bufs[1][..used[1]].zeroize();
        Some(o)
    }

    /// `tree-F(s, msg)` in one go into `out` (at least `O` bytes), for a
    /// message of any length, with nothing allocated once the key has
    /// derived the keys of the levels the message reaches: each level keeps
    /// its partial block in a fixed array and hands its outputs up in
    /// batches of at most [`ONESHOT_BATCH`] bytes on the stack. `None` for a
    /// message of `crate::threads::PARALLEL_MIN` bytes or more when threads
    /// are allowed: that one takes the streaming [`Tree`] and its threads.
    pub fn hash_into(&self, msg: &[u8], out: &mut [u8]) -> Option<usize> {
        let o = self.family.out;
        if out.len() < o || self.family.block > MAX_BLOCK || o > MAX_OUT {
            return None;
        }
        if let Some(n) = self.hash_short(msg, out) {
            return Some(n);
        }
        if crate::threads::parallel(msg.len(), crate::threads::parallel_min()) {
            return None;
        }
        // The levels this message reaches, their keys fetched once.
        let (b, mut x, mut top) = (self.family.block, msg.len(), 0);
        while x >= b {
            x = (x / b + 1) * o;
            top += 1;
        }
        if top >= MAX_LEVELS {
            return None;
        }
        // The state on the stack sized to the tree's height: a long message
        // gets more levels, a short one does not pay for setting them up.
        let done = if top < 4 {
            self.one_shot::<4>(msg, top, &mut out[..o])
        } else if top < 8 {
            self.one_shot::<8>(msg, top, &mut out[..o])
        } else {
            self.one_shot::<MAX_LEVELS>(msg, top, &mut out[..o])
        };
        done.then_some(o)
    }

    /// [`hash_into`](Self::hash_into) of a message whose tree has levels
    /// `0..=top` (`top < L`).
    fn one_shot<const L: usize>(&self, msg: &[u8], top: usize, out: &mut [u8]) -> bool {
        // Levels 0..=top (top < L, a few): each a walk down the chain.
        let hashes: [Option<Arc<dyn BlockHash>>; L] =
            core::array::from_fn(|j| (j <= top).then(|| Arc::clone(&self.level_ref(j).hash)));
        let (b, o) = (self.family.block, self.family.out);
        let mut t = OneShot::<L> {
            b,
            o,
            hashes: &hashes,
            levels: [Partial {
                buf: [0; MAX_BLOCK],
                n: 0,
                emitted: false,
            }; L],
        };
        let done = t.absorb::<ONESHOT_BATCH>(0, msg) && t.finish(out);
        // The levels' partial blocks above level 0 are outputs of the keyed
        // hash: wipe every level used.
        for l in &mut t.levels[..=top] {
            wipe(&mut l.buf[..]);
        }
        done
    }

    /// A new, empty tree under this key.
    pub fn start(self: &Arc<Self>) -> Tree {
        Tree::with_key(Arc::clone(self))
    }
}

/// `tree-F(s, ·)`, streaming: one partial block and one batch of outputs per
/// level, so O(height × B) memory whatever the message length.
#[derive(Clone)]
pub struct Tree {
    key: Arc<TreeKey>,
    levels: Vec<Level>,
    /// Scratch for the padded last block of a level (B bytes).
    pad: Vec<u8>,
}

/// Bytes of one level's outputs that [`TreeKey::hash_short`] keeps on the
/// stack (at least `O`·(`len/B` + 1) for the messages it takes).
pub const SHORT_LEVEL: usize = 256;

/// The largest block of the table in docs/WIRE.md §6.
const MAX_BLOCK: usize = 264;

/// The largest output of the table in docs/WIRE.md §6.
const MAX_OUT: usize = 16;

/// Levels of a one-shot tree ([`TreeKey::hash_into`]): every family has
/// `B ≥ 8·O`, so a message of `2^64` bytes has at most 23 (a longer tree
/// takes the streaming path).
const MAX_LEVELS: usize = 32;

/// Bytes of outputs level 0 of [`TreeKey::hash_into`] hands to level 1 at a
/// time (on the stack).
pub const ONESHOT_BATCH: usize = 2048;

/// The same for the levels above 0, whose input comes in batches already.
const UPPER_BATCH: usize = 256;

/// One level of a one-shot tree: its partial block and whether it has
/// hashed a whole block (so that it is not the last level).
#[derive(Clone, Copy)]
struct Partial {
    buf: [u8; MAX_BLOCK],
    n: usize,
    emitted: bool,
}

/// A one-shot tree under way ([`TreeKey::hash_into`]): the keys of the
/// levels the message reaches and each level's partial block.
struct OneShot<'a, const L: usize> {
    b: usize,
    o: usize,
    hashes: &'a [Option<Arc<dyn BlockHash>>; L],
    levels: [Partial; L],
}

impl<const L: usize> OneShot<'_, L> {
    /// Feed `data` to level `j`: whole blocks straight from `data`, at most
    /// `N` bytes of outputs at a time (on this call's stack), handed to level
    /// `j + 1`; the rest through the level's partial block. Level 0 gets
    /// long batches for the SIMD paths; above it, a call's input is at most
    /// one batch of the level below, so `B ≥ 8·O` keeps its outputs within
    /// [`UPPER_BATCH`] bytes a few blocks at a time. `false` if `j` is
    /// beyond the levels fetched (the caller then takes the streaming tree).
    fn absorb<const N: usize>(&mut self, j: usize, mut data: &[u8]) -> bool {
        let (b, o) = (self.b, self.o);
        let Some(hash) = self.hashes.get(j).and_then(|h| h.as_deref()) else {
            return data.is_empty();
        };
        let mut batch = [0u8; N];
        // The keyed hash's outputs written into `batch`: these bytes are
        // wiped at the end.
        let mut used = 0;
        let mut fits = true;
        while fits && !data.is_empty() {
            let p = &mut self.levels[j];
            if p.n > 0 || data.len() < b {
                let take = (b - p.n).min(data.len());
                p.buf[p.n..p.n + take].copy_from_slice(&data[..take]);
                p.n += take;
                data = &data[take..];
                if p.n == b {
                    hash.hash_blocks(&p.buf[..b], &mut batch[..o]);
                    used = used.max(o);
                    p.n = 0;
                    p.emitted = true;
                    fits = self.absorb::<UPPER_BATCH>(j + 1, &batch[..o]);
                }
                continue;
            }
            let n = (data.len() / b).min(N / o);
            let (blocks, rest) = data.split_at(n * b);
            hash.hash_blocks(blocks, &mut batch[..n * o]);
            used = used.max(n * o);
            self.levels[j].emitted = true;
            fits = self.absorb::<UPPER_BATCH>(j + 1, &batch[..n * o]);
            data = rest;
        }
        wipe(&mut batch[..used]);
        fits
    }

    /// The end: from level 0 up, pad the level's partial block and hash it;
    /// a level that never emitted a block is the last, its output the tree's.
    fn finish(&mut self, out: &mut [u8]) -> bool {
        let b = self.b;
        let mut last = [0u8; MAX_BLOCK];
        let mut done = false;
        for j in 0..L {
            let Some(hash) = self.hashes[j].as_deref() else {
                break;
            };
            let p = &self.levels[j];
            last[..p.n].copy_from_slice(&p.buf[..p.n]);
            last[p.n] = 1;
            last[p.n + 1..b].fill(0);
            hash.hash_blocks(&last[..b], out);
            if !p.emitted {
                done = true;
                break;
            }
            if !self.absorb::<UPPER_BATCH>(j + 1, out) {
                break;
            }
        }
        wipe(&mut last);
        done
    }
}

/// Zero `buf` with plain (vector) stores that `black_box` keeps: the
/// compiler must assume the zeros are read, so it cannot drop them as dead
/// stores. `zeroize` writes byte by byte, which for the one-shot tree's
/// buffers cost as much as hashing a 16 KiB message.
fn wipe(buf: &mut [u8]) {
    buf.fill(0);
    core::hint::black_box(&*buf);
}

/// How many input bytes one call hands to the block function at most: long
/// runs for the SIMD paths, while the batch and its outputs stay in L1/L2.
const BATCH_BYTES: usize = 32 << 10;

/// Level-0 input one thread hashes at a time in a parallel update (rounded
/// down to whole runs of `B^2` bytes).
const CHUNK: usize = 512 << 10;

/// Runs handed to the pool at once in a parallel update (bounds the level-2
/// bytes waiting to be passed on).
const GROUP: usize = 256;

impl Tree {
    /// `tree-F` of the block function `block`, keyed by the 16-byte seed `s`
    /// of the key stream.
    pub fn new(block: Block, s: &[u8; 16]) -> Tree {
        Tree::of_family(block.family(), s)
    }

    /// `tree-F` of a block family (a table row, or one made for a test).
    pub fn of_family(family: BlockFamily, s: &[u8; 16]) -> Tree {
        Tree::with_key(Arc::new(TreeKey::new(family, s)))
    }

    /// A new, empty tree under `key`, sharing its derived level keys.
    pub fn with_key(key: Arc<TreeKey>) -> Tree {
        let mut t = Tree {
            key,
            levels: Vec::new(),
            pad: Vec::new(),
        };
        t.push_level();
        t
    }

    fn push_level(&mut self) {
        let hash = self.key.level(self.levels.len());
        self.levels.push(Level {
            hash,
            buf: Vec::with_capacity(self.key.family.block),
            emitted: false,
            scratch: Vec::new(),
        });
    }

    /// Absorb more of the message. Where threads are allowed
    /// ([`crate::threads::set_max_threads`]), slices of 4 MiB or more are
    /// cut into runs of `B^2` bytes hashed through levels 0 and 1 on the
    /// allowed threads; their outputs are passed on in message order, so the
    /// result is the same as with any other chunking or number of threads.
    /// Shorter slices never use a thread. (The 4 MiB is
    /// `crate::threads::parallel_min()`, which a test may lower.)
    pub fn update(&mut self, data: &[u8]) {
        if data.len() >= crate::threads::parallel_min() && crate::threads::allowed() >= 2 {
            self.update_parallel(data);
        } else {
            self.feed(0, data);
        }
    }

    fn update_parallel(&mut self, mut data: &[u8]) {
        let b = self.key.family.block;
        // Bring levels 0 and 1 to a block boundary (both buffers empty):
        // at most B blocks of level 0, as level 1 grows by O bytes a block.
        loop {
            let aligned = self.levels[0].buf.is_empty()
                && self.levels.get(1).is_none_or(|l| l.buf.is_empty());
            if aligned || data.is_empty() {
                break;
            }
            let take = (b - self.levels[0].buf.len()).min(data.len());
            self.feed(0, &data[..take]);
            data = &data[take..];
        }
        // Runs of B^2 bytes are independent through levels 0 and 1: each
        // thread hashes whole runs to their level-2 bytes, which are passed
        // on here in message order (a run's level-1 input is whole blocks).
        let unit = b * b;
        let per = (CHUNK / unit).max(1) * unit;
        let whole = data.len() / unit * unit;
        let (runs, tail) = data.split_at(whole);
        let pieces: Vec<&[u8]> = runs.chunks(per).collect();
        if !pieces.is_empty() {
            while self.levels.len() < 3 {
                self.push_level();
            }
            let key = Arc::clone(&self.key);
            for group in pieces.chunks(GROUP) {
                let outs = crate::threads::map(group, |run| hash_levels(&key, 0..2, run, false));
                for v in outs {
                    self.levels[0].emitted = true;
                    self.levels[1].emitted = true;
                    self.feed(2, &v);
                }
            }
        }
        self.feed(0, tail);
    }

    /// A [`Striper`](crate::stripe::Striper) for this tree's key: levels 0
    /// and 1 of stripes of whole runs of `B^2` bytes on other threads.
    pub fn striper(&self) -> crate::stripe::Striper {
        crate::stripe::Striper::new(Arc::clone(&self.key))
    }

    /// Take the next stripe of the message (hashed by [`striper`](Self::striper)),
    /// in message order: its level-2 bytes go on up the tree. An error, with
    /// nothing absorbed, if levels 0 or 1 hold part of a block (the message
    /// so far is not a multiple of `B^2` bytes) or the stripe was made under
    /// another key.
    pub fn absorb_stripe(&mut self, s: &crate::stripe::Stripe) -> Result<(), Error> {
        crate::stripe::check(&*self.key, s)?;
        let aligned =
            self.levels[0].buf.is_empty() && self.levels.get(1).is_none_or(|l| l.buf.is_empty());
        if !aligned {
            return Err(crate::stripe::unaligned(
                self.key.family.block * self.key.family.block,
            ));
        }
        let crate::stripe::Body::Tree(v) = &s.body else {
            return Err(crate::stripe::unsupported());
        };
        while self.levels.len() < 3 {
            self.push_level();
        }
        self.levels[0].emitted = true;
        self.levels[1].emitted = true;
        self.feed(2, v);
        Ok(())
    }

    fn feed(&mut self, j: usize, mut data: &[u8]) {
        let b = self.key.family.block;
        let o = self.key.family.out;
        while !data.is_empty() {
            if j + 1 > self.levels.len() {
                self.push_level();
            }
            let lvl = &mut self.levels[j];
            if !lvl.buf.is_empty() || data.len() < b {
                let take = (b - lvl.buf.len()).min(data.len());
                lvl.buf.extend_from_slice(&data[..take]);
                data = &data[take..];
                if lvl.buf.len() == b {
                    let mut out = core::mem::take(&mut lvl.scratch);
                    out.resize(o, 0);
                    lvl.hash.hash_blocks(&lvl.buf, &mut out);
                    lvl.buf.clear();
                    lvl.emitted = true;
                    self.feed(j + 1, &out);
                    self.levels[j].scratch = out;
                }
                continue;
            }
            let n = (data.len() / b).min((BATCH_BYTES / b).max(1));
            let (blocks, rest) = data.split_at(n * b);
            let mut out = core::mem::take(&mut lvl.scratch);
            out.resize(n * o, 0);
            lvl.hash.hash_blocks(blocks, &mut out);
            lvl.emitted = true;
            self.feed(j + 1, &out);
            self.levels[j].scratch = out;
            data = rest;
        }
    }

    /// The tree hash of everything absorbed.
    pub fn finalize(mut self) -> Vec<u8> {
        self.finalize_reset()
    }

    /// The tree hash of everything absorbed; the tree is then empty again and
    /// ready for the next message under the same key, keeping the keys of
    /// the levels it has derived (so a stream of messages pays for the key
    /// stream once).
    pub fn finalize_reset(&mut self) -> Vec<u8> {
        let b = self.key.family.block;
        let o = self.key.family.out;
        // The last (padded) block of a level and its output, reused from
        // message to message.
        let mut last = core::mem::take(&mut self.pad);
        last.resize(b, 0);
        let mut out = [0u8; 64];
        let mut out_vec;
        let out: &mut [u8] = if o <= out.len() {
            &mut out[..o]
        } else {
            out_vec = vec![0u8; o];
            &mut out_vec[..]
        };
        let mut j = 0;
        loop {
            let lvl = &mut self.levels[j];
            let n = lvl.buf.len();
            // Whole-block zeroing, then the bytes: plain stores only (a wide
            // load right after a masked store of a small memset can stall).
            last.fill(0);
            last[..n].copy_from_slice(&lvl.buf);
            last[n] = 1;
            lvl.buf.fill(0);
            lvl.buf.clear();
            lvl.hash.hash_blocks(&last, out);
            if !core::mem::replace(&mut lvl.emitted, false) {
                break;
            }
            self.feed(j + 1, out);
            j += 1;
        }
        let result = out.to_vec();
        self.pad = last;
        self.reset();
        result
    }

    /// Forget the message absorbed so far (the level keys are kept).
    pub fn reset(&mut self) {
        for lvl in &mut self.levels {
            lvl.buf.fill(0);
            lvl.buf.clear();
            lvl.emitted = false;
        }
    }
}

/// The bytes of level `levels.end` of a run of message bytes at level
/// `levels.start`, hashed through those levels on their own. Without `pad`,
/// `data` must be a whole number of blocks at each level (a multiple of
/// `B^(levels.len())` bytes); with `pad`, it is the end of the message and
/// each level's rest is padded with `pad(·, B)` as a level that is not the
/// last (so the message's input to each of these levels must be at least
/// `B` bytes).
pub(crate) fn hash_levels(
    key: &TreeKey,
    levels: core::ops::Range<usize>,
    data: &[u8],
    pad: bool,
) -> Vec<u8> {
    if !pad && levels.len() == 2 {
        return two_levels(key, levels.start, data);
    }
    let b = key.family.block;
    let o = key.family.out;
    let mut cur: Option<Vec<u8>> = None;
    for j in levels {
        let hash = key.level(j);
        let input: &[u8] = cur.as_deref().unwrap_or(data);
        let next = if pad {
            let padded = Zeroizing::new(crate::traits::pad(input, b));
            hash_chunk(&hash, &padded, b, o)
        } else {
            debug_assert!(input.len().is_multiple_of(b));
            hash_chunk(&hash, input, b, o)
        };
        if let Some(mut c) = cur.replace(next) {
            zeroize::Zeroize::zeroize(&mut c);
        }
    }
    cur.unwrap_or_else(|| data.to_vec())
}

/// Levels `j` and `j + 1` of whole runs of `B^2` bytes, a batch of runs at
/// a time: level `j`'s outputs of one batch (a `B/O`-th of it) stay in the
/// cache, go straight on to level `j + 1`, and are wiped once at the end.
fn two_levels(key: &TreeKey, j: usize, data: &[u8]) -> Vec<u8> {
    let (b, o) = (key.family.block, key.family.out);
    let (h0, h1) = (key.level(j), key.level(j + 1));
    let unit = b * b;
    debug_assert!(data.len().is_multiple_of(unit));
    let runs = (BATCH_BYTES / unit).max(1);
    let mut mid = vec![0u8; runs * b * o];
    let mut out = vec![0u8; data.len() / unit * o * o];
    for (piece, dst) in data.chunks(runs * unit).zip(out.chunks_mut(runs * o * o)) {
        let m = &mut mid[..piece.len() / b * o];
        h0.hash_blocks(piece, m);
        h1.hash_blocks(m, dst);
    }
    wipe(&mut mid);
    out
}

/// The level-0 outputs of a run of whole blocks, in cache-sized batches.
fn hash_chunk(hash: &Arc<dyn BlockHash>, blocks: &[u8], b: usize, o: usize) -> Vec<u8> {
    let mut out = vec![0u8; blocks.len() / b * o];
    let per = (BATCH_BYTES / b).max(1);
    for (bl, ou) in blocks.chunks(per * b).zip(out.chunks_mut(per * o)) {
        hash.hash_blocks(bl, ou);
    }
    out
}

impl crate::stripe::LowestLayer for TreeKey {
    fn id(&self) -> crate::stripe::KeyId {
        self.id
    }
    fn unit(&self) -> usize {
        self.family.block * self.family.block
    }
    fn hash(&self, data: &[u8]) -> crate::stripe::Body {
        crate::stripe::Body::Tree(two_levels(self, 0, data))
    }
    fn kind(&self) -> &'static str {
        "tree"
    }
}

/// One-shot `tree-F(s, M)`.
pub fn tree_hash(family: &BlockFamily, s: &[u8; 16], msg: &[u8]) -> Vec<u8> {
    let mut t = Tree::of_family(family.clone(), s);
    t.update(msg);
    t.finalize()
}

impl Stream for Tree {
    fn try_clone(&self) -> Option<Box<dyn Stream>> {
        Some(Box::new(self.clone()))
    }
    fn update(&mut self, data: &[u8]) {
        Tree::update(self, data)
    }
    fn finalize(self: Box<Self>) -> Result<Vec<u8>, Error> {
        Ok(Tree::finalize(*self))
    }
    fn striper(&self) -> Option<crate::stripe::Striper> {
        Some(Tree::striper(self))
    }
    fn absorb_stripe(&mut self, s: &crate::stripe::Stripe) -> Result<(), Error> {
        Tree::absorb_stripe(self, s)
    }
}
