//! The properties the fuzz targets check, one function per target. The same
//! file is compiled into the fuzz targets (`fuzz/fuzz_targets/*.rs`) and into
//! the library's corpus replay test (`crates/unimac/tests/suite/fuzz_corpus.rs`), so
//! `cargo test` re-checks every committed corpus input with exactly this code.
//!
//! Each function takes arbitrary bytes, reads its choices from them with
//! [`Input`] (missing bytes read as zero), and panics only when a property
//! fails: errors returned by the library are fine, panics inside it are not.

#![allow(dead_code)]

use unimac::unstable::prelude::*;
use num_bigint::{BigInt, BigUint};
use unimac::platform::{Feature, Platform};
use unimac::unstable::macs::{self, Framing, MacDesc};
use unimac::unstable::registry::{self, KeySpec, NamedMac, OneTimeMac, Params};
use unimac::{Absorb, Error};
use unimac::unstable::square::{self, Variant};

/// A target's check.
pub type Check = fn(&[u8]);

/// The target names, with their check functions (for the corpus replay).
pub const TARGETS: [(&str, Check); 5] = [
    ("differential", differential),
    ("backend", backend),
    ("kernels", kernels),
    ("vectors", vectors),
    ("stream", stream),
];

/// Largest `--len` tried (keeps one input cheap).
const MAX_LEN: usize = 4096;

/// The fuzzer's bytes, read front to back.
struct Input<'a>(&'a [u8]);

impl<'a> Input<'a> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((b, rest)) => {
                self.0 = rest;
                *b
            }
            None => 0,
        }
    }
    fn u16(&mut self) -> usize {
        usize::from(self.byte()) | usize::from(self.byte()) << 8
    }
    /// Up to `n` bytes (fewer if the input ends).
    fn take(&mut self, n: usize) -> &'a [u8] {
        let (a, b) = self.0.split_at(n.min(self.0.len()));
        self.0 = b;
        a
    }
    fn rest(&mut self) -> &'a [u8] {
        self.take(self.0.len())
    }
}

/// A key of `n` bytes: the fuzzer's, then zeros.
fn key_of(r: &mut Input<'_>, n: usize) -> Vec<u8> {
    let mut k = r.take(n).to_vec();
    k.resize(n, 0);
    k
}

/// `msg` cut at the fuzzer's split points (the last piece is the rest).
fn chunks<'m>(msg: &'m [u8], splits: &[u8]) -> Vec<&'m [u8]> {
    let mut v = Vec::new();
    let mut m = msg;
    for &s in splits {
        let (a, b) = m.split_at(usize::from(s).min(m.len()));
        v.push(a);
        m = b;
    }
    v.push(m);
    v
}

/// The error every reusable catalogue door (`key`, `open`, `compute`) gives
/// for `name`, from the table: `OneTimeOnly` for a one-time MAC or a hash
/// whose output is its tag, `CallerPair` for a MAC that draws its own random
/// pair; `None` for the other names.
fn refusal(name: &str) -> Option<Error> {
    if let Some(d) = macs::one_time_row(name) {
        return Some(Error::OneTimeOnly(d.name.to_string()));
    }
    macs::MACS
        .iter()
        .find(|d| d.catalog_name == name && d.framing == Framing::PairThenTag)
        .map(|d| Error::CallerPair(d.name.to_string()))
}

/// Differential test of every wire name (docs/WIRE.md) through the public API: streaming
/// in the fuzzer's chunking, one-shot `compute`, the keyed object and the
/// known answer agree; the names those doors refuse (one-time, random pair)
/// are refused by all three with the table's error, and their known answer
/// is checked instead; the output has the name's length; a `NamedMac`'s (or
/// `OneTimeMac`'s) tag verifies and a changed tag does not; hash127,
/// hash127-96 and modp agree with big-integer models.
pub fn differential(data: &[u8]) {
    let mut r = Input(data);
    let entries = registry::entries();
    let e = &entries[usize::from(r.byte()) % entries.len()];
    let info = &e.info;
    let name = info.name.as_str();
    let mode = r.byte();
    // Mostly valid arguments (to reach the computation), sometimes not.
    let wrong = mode & 0x0f == 0x0f;
    let per_element = match info.key {
        KeySpec::PerElement(n) => Some(n),
        _ => None,
    };
    let key_len = if wrong {
        usize::from(r.byte())
    } else {
        match info.key {
            KeySpec::Fixed(n) => n,
            KeySpec::OneOf(v) => v[usize::from(r.byte()) % v.len()],
            KeySpec::PerElement(n) => n * (1 + usize::from(r.byte() % 16)),
        }
    };
    let key = key_of(&mut r, key_len);
    let sizes = registry::nonce_sizes(info);
    let nonce_bytes;
    let nonce = if wrong && mode & 0x10 != 0 {
        let n = usize::from(r.byte() % 20);
        nonce_bytes = key_of(&mut r, n);
        Some(nonce_bytes.as_slice())
    } else if info.nonce == 0 {
        None
    } else {
        let span = sizes.end() - sizes.start() + 1;
        let n = sizes.start() + usize::from(r.byte()) % span;
        nonce_bytes = key_of(&mut r, n);
        Some(nonce_bytes.as_slice())
    };
    let len = match (info.takes_len, wrong && mode & 0x20 != 0) {
        (true, false) | (false, true) => Some(r.u16() % (MAX_LEN + 1)),
        _ => None,
    };
    let nsplits = usize::from(r.byte() % 8);
    let splits = r.take(nsplits).to_vec();
    let mut msg = r.rest();
    if let (Some(_), false) = (per_element, wrong) {
        // Square Hash: as many message bytes as key bytes.
        if msg.len() > key.len() {
            msg = &msg[..key.len()];
        }
    }
    let p = Params { key: &key, nonce, len };

    let one = registry::compute(name, &p, msg);
    let streamed = registry::open(name, &p).and_then(|mut s| {
        for c in chunks(msg, &splits) {
            s.update(c);
        }
        s.finalize()
    });
    let keyed = registry::key(name, &p).and_then(|k| k.compute(nonce, msg));
    let known = registry::known_answer(name, &p, msg);
    let one = match refusal(name) {
        Some(err) => {
            assert_eq!(one.err().as_ref(), Some(&err), "{name}: compute of a name served elsewhere");
            assert_eq!(streamed.err().as_ref(), Some(&err), "{name}: open of a name served elsewhere");
            assert_eq!(keyed.err().as_ref(), Some(&err), "{name}: key of a name served elsewhere");
            known.ok()
        }
        None => {
            let one = one.ok();
            assert_eq!(one, streamed.ok(), "{name}: streaming differs from compute");
            assert_eq!(one, keyed.ok(), "{name}: keyed object differs from compute");
            assert_eq!(one, known.ok(), "{name}: known answer differs from compute");
            one
        }
    };
    let Some(out) = one else { return };
    let want_len = if info.takes_len { len.expect("checked") } else { info.out };
    assert_eq!(out.len(), want_len, "{name}: output length");

    match name {
        "hash127-raw" => assert_eq!(out, hash127_model(&key, msg), "hash127-raw: big-integer model"),
        "hash127" | "mac-hash127" => {
            assert_eq!(out, hash127_model(&key, &registry::pad(msg, 4)), "{name}: big-integer model")
        }
        "mac-hash127-96" => assert_eq!(out, hash127_96_model(&key, msg), "{name}: big-integer model"),
        "modp" => assert_eq!(out, modp_model(&key, msg), "modp: big-integer model"),
        _ => {}
    }
    if let Some(d) = macs::one_time_row(name) {
        check_one_time(d, name, &key, msg, &splits, &out);
    } else if let Some(short) = name.strip_prefix("mac-") {
        let d = macs::find(short).expect("a row of the table");
        match d.framing {
            Framing::PairThenTag => check_pair_mac(d, &key, nonce.expect("a pair"), msg, &splits, &out),
            Framing::Tag => check_mac(short, &key, nonce, msg, &splits, &out),
        }
    }
}

/// A one-time value (of the catalogue name `catalog`) by its own door:
/// `OneTimeMac` (its row's name) checks without spending the key and tags
/// once, by value, giving the known answer; the reusable `NamedMac` refuses the
/// row. (`hash127-raw`, the value of the unpadded message, has no MAC of its
/// own: its model is checked above.)
fn check_one_time(d: &MacDesc, catalog: &str, key: &[u8], msg: &[u8], splits: &[u8], out: &[u8]) {
    let name = d.name;
    assert_eq!(NamedMac::new(name, key).err(), Some(Error::OneTimeOnly(name.to_string())), "{name}: NamedMac::new");
    if catalog == "hash127-raw" {
        return;
    }
    let m = OneTimeMac::new(name, key).expect("the known answer accepted this key");
    assert_eq!(m.tag_len(), out.len(), "{name}: tag_len");
    assert_eq!(m.verify(msg, out), Ok(()), "{name}: verify of the right tag");
    let mut s = m.start_check(out).expect("start_check");
    for c in chunks(msg, splits) {
        s.update(c);
    }
    assert_eq!(s.verify(), Ok(()), "{name}: start_check refuses the known answer");
    let mut bad = out.to_vec();
    bad[0] ^= 1;
    let mut s = m.start_check(&bad).expect("start_check");
    for c in chunks(msg, splits) {
        s.update(c);
    }
    assert_eq!(s.verify(), Err(Error::TagMismatch), "{name}: start_check accepts a wrong tag");
    for i in [0, out.len() / 2, out.len() - 1] {
        let mut bad = out.to_vec();
        bad[i] ^= 1 << (msg.len() % 8);
        assert_eq!(m.verify(msg, &bad), Err(Error::TagMismatch), "{name}: flipped tag byte {i} accepted");
    }
    assert_eq!(m.verify(msg, &out[..out.len() - 1]), Err(Error::TagMismatch), "{name}: short tag accepted");
    assert_eq!(m.tag(msg), out, "{name}: OneTimeMac::tag differs from the known answer");
    let mut s = OneTimeMac::new(name, key).expect("accepted above").start().expect("start");
    for c in chunks(msg, splits) {
        s.update(c);
    }
    assert_eq!(s.finalize().as_deref(), Ok(out), "{name}: streamed one-time tag differs");
}

/// A MAC that draws its own pair (`shoup4-*`): `out` is the known answer
/// under the pair `rs`; `NamedMac` computes the same when checking a message
/// received with `rs`, accepts `rs ‖ out` as sent, refuses any pair to tag
/// with, and tags as `r ‖ s ‖ tag` with a pair of its own.
fn check_pair_mac(d: &MacDesc, key: &[u8], rs: &[u8], msg: &[u8], splits: &[u8], out: &[u8]) {
    let name = d.name;
    let m = NamedMac::new(name, key).expect("the known answer accepted this key");
    assert_eq!((*m.nonce_sizes().end(), m.tag_len()), (0, rs.len() + out.len()), "{name}: sizes");
    let mut s = m.start_check(Some(rs)).expect("a received pair");
    for c in chunks(msg, splits) {
        s.update(c);
    }
    assert_eq!(s.finalize().as_deref(), Ok(out), "{name}: start_check differs from the known answer");
    let sent = [rs, out].concat();
    assert_eq!(m.verify(None, msg, &sent), Ok(()), "{name}: verify of the right tag");
    for i in [0, rs.len(), sent.len() - 1] {
        let mut bad = sent.clone();
        bad[i] ^= 1 << (msg.len() % 8);
        assert!(m.verify(None, msg, &bad).is_err(), "{name}: flipped byte {i} accepted");
    }
    assert!(m.verify(None, msg, &sent[..sent.len() - 1]).is_err(), "{name}: short tag accepted");
    let refused = Some(Error::CallerPair(name.to_string()));
    assert_eq!(m.tag(Some(rs), msg).err(), refused, "{name}: tagged with a caller's pair");
    assert_eq!(m.start(Some(rs)).err(), refused, "{name}: started with a caller's pair");
    let tag = m.tag(None, msg).expect("tags");
    assert_eq!(m.verify(None, msg, &tag), Ok(()), "{name}: verify after tag");
    let p = Params { key, nonce: Some(&tag[..rs.len()]), len: None };
    assert_eq!(
        registry::known_answer(d.catalog_name, &p, msg).ok().as_deref(),
        Some(&tag[rs.len()..]),
        "{name}: the tag under its own pair is the known answer"
    );
    let mut pending = m.start_deferred().expect("start_deferred");
    for c in chunks(msg, splits) {
        pending.update(c);
    }
    let sent = pending.finalize(None).expect("a pair of its own");
    assert_eq!(m.verify(None, msg, &sent), Ok(()), "{name}: deferred tag does not verify");
    let mut pending = m.start_deferred().expect("start_deferred");
    pending.update(msg);
    assert_eq!(pending.finalize(Some(rs)).err(), refused, "{name}: deferred with a caller's pair");
}

/// A reusable `NamedMac` agrees with the registry; tag then verify accepts; a
/// changed or truncated tag is rejected; the deferred-nonce path gives the
/// same tag and checks its nonce as `NamedMac` does.
fn check_mac(name: &str, key: &[u8], nonce: Option<&[u8]>, msg: &[u8], splits: &[u8], out: &[u8]) {
    let m = NamedMac::new(name, key).expect("the registry accepted this key");
    assert_eq!(m.tag_len(), out.len(), "{name}: tag_len");
    // Verification first: it must not spend a one-message key.
    assert_eq!(m.verify(nonce, msg, out), Ok(()), "{name}: verify of the right tag");
    let tag = m.tag(nonce, msg).expect("the registry computed this tag");
    assert_eq!(tag, out, "{name}: NamedMac::tag differs from compute");
    assert_eq!(m.verify(nonce, msg, &tag), Ok(()), "{name}: verify after tag");
    for i in [0, tag.len() / 2, tag.len() - 1] {
        let mut bad = tag.clone();
        bad[i] ^= 1 << (msg.len() % 8);
        assert_eq!(m.verify(nonce, msg, &bad), Err(unimac::Error::TagMismatch), "{name}: flipped tag byte {i} accepted");
    }
    assert_eq!(m.verify(nonce, msg, &tag[..tag.len() - 1]), Err(unimac::Error::TagMismatch), "{name}: short tag accepted");
    let mut long = tag.clone();
    long.push(0);
    assert_eq!(m.verify(nonce, msg, &long), Err(unimac::Error::TagMismatch), "{name}: long tag accepted");
    assert!(!registry::is_one_time(name), "{name}: a one-time MAC reached the reusable door");
    let mut pending = m.start_deferred().expect("start_deferred");
    for c in chunks(msg, splits) {
        pending.update(c);
    }
    assert_eq!(pending.finalize(nonce).ok().as_deref(), Some(out), "{name}: deferred nonce differs");
    // The deferred path checks the nonce as `NamedMac` does.
    let wrong: Option<&[u8]> = match nonce {
        Some(_) => None,
        None => Some(&[0u8; 16]),
    };
    let mut pending = m.start_deferred().expect("start_deferred");
    pending.update(msg);
    assert_eq!(pending.finalize(wrong).err(), m.tag(wrong, msg).err(), "{name}: deferred nonce rule");
    assert!(m.tag(wrong, msg).is_err(), "{name}: a wrong nonce accepted");
}

/// Four signed little-endian words as one integer (docs/WIRE.md §2).
fn signed_words(v: &[u8]) -> BigInt {
    let mut x = BigInt::from(0);
    for (i, w) in v.chunks_exact(4).enumerate() {
        let w = i32::from_le_bytes(w.try_into().expect("four bytes"));
        x += BigInt::from(w) << (32 * i);
    }
    x
}

/// 16 little-endian bytes of `x`, `0 <= x < 2^128`.
fn le16(x: &BigUint) -> Vec<u8> {
    let mut b = x.to_bytes_le();
    b.resize(16, 0);
    b
}

/// `hash127-raw` of docs/WIRE.md §2 by Horner's rule on big integers.
fn hash127_model(key: &[u8], msg: &[u8]) -> Vec<u8> {
    let p = (BigInt::from(1) << 127) - 1;
    let r = signed_words(&key[..16]);
    let k = signed_words(&key[16..32]);
    let mut acc = BigInt::from(1);
    for w in msg.chunks_exact(4) {
        acc = (acc * &r + i32::from_le_bytes(w.try_into().expect("four bytes"))) % &p;
    }
    acc = ((acc * &r + k) % &p + &p) % &p;
    le16(&acc.to_biguint().expect("reduced"))
}

/// `mac-hash127-96`: the low 96 bits of `(k + h·u) mod p`, `h` hash127 of
/// the padded message under `r ‖ 0^16`, the key `r ‖ k ‖ u`.
fn hash127_96_model(key: &[u8], msg: &[u8]) -> Vec<u8> {
    let p = (BigInt::from(1) << 127) - 1;
    let mut r0 = key[..16].to_vec();
    r0.resize(32, 0);
    let h = BigInt::from(BigUint::from_bytes_le(&hash127_model(&r0, &registry::pad(msg, 4))));
    let s: BigInt = ((signed_words(&key[16..32]) + h * signed_words(&key[32..48])) % &p + &p) % &p;
    le16(&s.to_biguint().expect("reduced"))[..12].to_vec()
}

/// `modp` of docs/WIRE.md §7: the message as a little-endian integer, mod the key.
fn modp_model(key: &[u8], msg: &[u8]) -> Vec<u8> {
    le16(&(BigUint::from_bytes_le(msg) % BigUint::from_bytes_le(key)))
}

/// The detected platform without the features in `mask` (bit `i` removes
/// `Feature::ALL[i]`).
fn platform_without(mask: u8) -> Platform {
    let mut p = Platform::hardware();
    for (i, f) in Feature::ALL.iter().enumerate() {
        if mask & (1 << i) != 0 {
            p = p.without(*f);
        }
    }
    p
}

/// Every backend against the portable one, where the platform can be chosen
/// per call (Square Hash's `hash_on` and `BlockKey::new_on`): the fuzzer picks
/// the width, variant, feature subset, key and message.
pub fn backend(data: &[u8]) {
    let mut r = Input(data);
    let l = square::WIDTHS[usize::from(r.byte() % 4)];
    let variant = Variant::ALL[usize::from(r.byte()) % Variant::ALL.len()];
    let platform = platform_without(r.byte());
    let portable = Platform::portable();
    let e = l / 8;
    // Up to 64 elements per block: past the kernels' chunk sizes.
    let k = 1 + usize::from(r.byte() % 64);
    let nblocks = usize::from(r.byte() % 10);
    let key = key_of(&mut r, k * e);
    // Extreme elements are where carries go wrong: a mode byte may set every
    // key or message element to all ones.
    let mode = r.byte();
    let mut blocks = key_of(&mut r, nblocks * k * e);
    let mut key = key;
    if mode & 1 != 0 {
        key.iter_mut().for_each(|b| *b = 0xff);
    }
    if mode & 2 != 0 {
        blocks.iter_mut().for_each(|b| *b = 0xff);
    }

    let msg = blocks.get(..k * e).unwrap_or(&key);
    let want = square::hash_on(portable, l, variant, &key, msg);
    let got = square::hash_on(platform, l, variant, &key, msg);
    assert_eq!(got.as_ref().ok(), want.as_ref().ok(), "sqh{l}-{} hash_on {platform:?}", variant.suffix());
    let detected = square::hash_on(Platform::detect(), l, variant, &key, msg);
    assert_eq!(detected.ok(), want.ok(), "sqh{l}-{} hash_on detected", variant.suffix());
    // A wrong-length message is an error on every backend, never a panic.
    let short = &msg[..msg.len() - 1];
    assert!(square::hash_on(platform, l, variant, &key, short).is_err());

    let o = variant.out_bytes(l);
    let mut out_p = vec![0u8; nblocks * o];
    let mut out_b = vec![0u8; nblocks * o];
    square::BlockKey::new_on(portable, l, variant, &key)
        .and_then(|bk| bk.hash_blocks(&blocks, &mut out_p))
        .expect("portable hash_blocks");
    square::BlockKey::new_on(platform, l, variant, &key)
        .and_then(|bk| bk.hash_blocks(&blocks, &mut out_b))
        .expect("hash_blocks");
    assert_eq!(out_b, out_p, "sqh{l}-{} hash_blocks {platform:?}", variant.suffix());
    for (b, o) in blocks.chunks_exact(k * e).zip(out_p.chunks_exact(o)) {
        let one = square::hash_on(portable, l, variant, &key, b).expect("one block");
        assert_eq!(one, o, "sqh{l}-{}: hash_blocks differs from hash", variant.suffix());
    }
}

/// Every other family's kernels against its portable path, on a
/// fuzzer-chosen subset of the CPU's features, through the same `_on`
/// constructors as Square Hash: hash127 (padded and raw, one-shot and
/// streamed in the fuzzer's chunking, the short-message path of the default
/// dispatch), MMH (`mmh32x1..4`, `nmh32`), Shoup's eval64, division64 and
/// gdivision64 (streamed and one-shot), eval128 (streamed and one-shot),
/// modp (reduce), UMAC (all four tag sizes) and VMAC (both, AES-128/192/256
/// keys), one-shot and streamed.
pub fn kernels(data: &[u8]) {
    let mut r = Input(data);
    let family = r.byte() % 7;
    let c = KernelCase::read(&mut r);
    match family {
        0 => kernels_hash127(&c),
        1 => kernels_mmh(&c),
        2 => kernels_shoup64(&c),
        3 => kernels_eval128(&c),
        5 => kernels_umac(&c),
        6 => kernels_vmac(&c),
        _ => kernels_modp(&c),
    }
}

/// One input of [`kernels`]: the platform under test, the fuzzer's choices
/// and the key and message it made.
struct KernelCase {
    platform: Platform,
    portable: Platform,
    /// Which variant of the family (kind, tag size, key size, nonce length).
    sel: u8,
    splits: Vec<u8>,
    key: Vec<u8>,
    msg: Vec<u8>,
}

impl KernelCase {
    fn read(r: &mut Input<'_>) -> KernelCase {
        let platform = platform_without(r.byte());
        let mode = r.byte();
        let sel = r.byte();
        let nsplits = usize::from(r.byte() % 4);
        let splits = r.take(nsplits).to_vec();
        let key = key_of(r, 256);
        let mut msg = r.rest().to_vec();
        // Long messages from a short input: repeat it, so the vector kernels'
        // bulk loops (and their tails) run too.
        if mode & 4 != 0 && !msg.is_empty() {
            let reps = 1 + (usize::from(mode >> 3) * 64).div_ceil(msg.len().max(1));
            msg = msg.repeat(reps.min(8192 / msg.len().max(1) + 1));
        }
        if mode & 2 != 0 {
            msg.iter_mut().for_each(|b| *b = 0xff);
        }
        let key: Vec<u8> = if mode & 1 != 0 { vec![0xff; key.len()] } else { key };
        KernelCase { platform, portable: Platform::portable(), sel, splits, key, msg }
    }
}

/// hash127, padded and raw, one-shot and streamed, and the default dispatch.
fn kernels_hash127(c: &KernelCase) {
    use unimac::unstable::hash127::{self, Hash127, Key};
    let (platform, portable, msg) = (c.platform, c.portable, &c.msg);
    let k = Key::new(c.key[..32].try_into().expect("32 bytes"));
    for pad in [true, false] {
        let want = hash127::hash127_on(portable, &k, msg, pad, usize::MAX);
        let got = hash127::hash127_on(platform, &k, msg, pad, usize::MAX);
        assert_eq!(got, want, "hash127 pad={pad} {platform:?} len {}", msg.len());
        let mut h = Hash127::new_on(platform, &k);
        for piece in chunks(msg, &c.splits) {
            h.update(piece);
        }
        let streamed = if pad { Some(h.finalize()) } else { h.finalize_raw().ok() };
        assert_eq!(streamed, want, "hash127 streamed pad={pad} {platform:?} len {}", msg.len());
    }
    // The default dispatch, twice (the second short message under a
    // key takes the precomputed-powers path).
    let want = hash127::hash127_on(portable, &k, msg, true, usize::MAX).expect("padded");
    assert_eq!(hash127::hash127(&k, msg), want);
    assert_eq!(hash127::hash127(&k, msg), want, "second message");
}

/// MMH with 1 to 4 outputs and NMH, on the message's whole blocks.
fn kernels_mmh(c: &KernelCase) {
    use unimac::unstable::mmh::{Mmh32, Nmh32, BLOCK32};
    let (platform, portable, key) = (c.platform, c.portable, &c.key);
    let whole = c.msg.len() / BLOCK32 * BLOCK32;
    let blocks = &c.msg[..whole];
    for n in 1..=4usize {
        let kk = &key[..4 * (31 + n)];
        let mut want = vec![0u8; whole / BLOCK32 * 4 * n];
        let mut got = want.clone();
        Mmh32::new_on(portable, n, kk).expect("key").hash_blocks(blocks, &mut want);
        Mmh32::new_on(platform, n, kk).expect("key").hash_blocks(blocks, &mut got);
        assert_eq!(got, want, "mmh32x{n} {platform:?} {} blocks", whole / BLOCK32);
    }
    let mut want = vec![0u8; whole / BLOCK32 * 4];
    let mut got = want.clone();
    Nmh32::new_on(portable, &key[..BLOCK32]).expect("key").hash_blocks(blocks, &mut want);
    Nmh32::new_on(platform, &key[..BLOCK32]).expect("key").hash_blocks(blocks, &mut got);
    assert_eq!(got, want, "nmh32 {platform:?}");
}

/// Shoup's eval64, division64 and gdivision64, one-shot and streamed.
fn kernels_shoup64(c: &KernelCase) {
    use unimac::unstable::shoup::{Hasher, Kind};
    let (platform, msg) = (c.platform, &c.msg);
    let kind = [Kind::Eval64, Kind::Division64, Kind::GDivision64][usize::from(c.sel) % 3];
    let k: [u8; 8] = c.key[..8].try_into().expect("8 bytes");
    let want = Hasher::new_on(c.portable, kind, &k).hash(msg);
    let h = Hasher::new_on(platform, kind, &k);
    assert_eq!(h.hash(msg), want, "{kind:?} one-shot {platform:?} len {}", msg.len());
    let mut h = h;
    for piece in chunks(msg, &c.splits) {
        h.update(piece);
    }
    assert_eq!(h.finalize(), want, "{kind:?} streamed {platform:?} len {}", msg.len());
}

/// eval128, one-shot and streamed.
fn kernels_eval128(c: &KernelCase) {
    use unimac::unstable::shoup::eval128::Eval128;
    let (platform, msg) = (c.platform, &c.msg);
    let k: [u8; 16] = c.key[..16].try_into().expect("16 bytes");
    let mut p = Eval128::new_on(c.portable, &k);
    p.update(msg);
    let want = p.finalize();
    let h = Eval128::new_on(platform, &k);
    assert_eq!(h.oneshot(msg), want, "eval128 one-shot {platform:?} len {}", msg.len());
    let mut h = h;
    for piece in chunks(msg, &c.splits) {
        h.update(piece);
    }
    assert_eq!(h.finalize(), want, "eval128 streamed {platform:?} len {}", msg.len());
}

/// UMAC, all four tag sizes, one-shot and streamed.
fn kernels_umac(c: &KernelCase) {
    use unimac::umac::Umac;
    let (platform, sel, key) = (c.platform, c.sel, &c.key);
    let k: [u8; 16] = key[..16].try_into().expect("16 bytes");
    let nonce = &key[16..16 + 1 + usize::from(sel >> 4)];
    fn both<const T: usize>(p: Platform, k: &[u8; 16], n: &[u8], m: &[u8], splits: &[u8]) {
        let want = Umac::<T>::new_on(Platform::portable(), k).tag(n, m).expect("nonce");
        let mac = Umac::<T>::new_on(p, k);
        assert_eq!(mac.tag(n, m).expect("nonce"), want, "umac{} {p:?} len {}", 8 * T, m.len());
        let mut s = mac.start(n).expect("nonce");
        for c in chunks(m, splits) {
            s.update(c);
        }
        assert_eq!(s.finalize(), *want.as_ref(), "umac{} streamed {p:?} len {}", 8 * T, m.len());
    }
    match sel & 3 {
        0 => both::<4>(platform, &k, nonce, &c.msg, &c.splits),
        1 => both::<8>(platform, &k, nonce, &c.msg, &c.splits),
        2 => both::<12>(platform, &k, nonce, &c.msg, &c.splits),
        _ => both::<16>(platform, &k, nonce, &c.msg, &c.splits),
    }
}

/// VMAC, both tag sizes, AES-128/192/256 keys, one-shot and streamed.
fn kernels_vmac(c: &KernelCase) {
    use unimac::vmac::Vmac;
    let (platform, sel, key) = (c.platform, c.sel, &c.key);
    let klen = [16usize, 24, 32][usize::from(sel & 3) % 3];
    let k = &key[..klen];
    // 1 to 16 bytes; a 16-byte nonce must have its top bit clear.
    let mut nonce = key[64..64 + 1 + usize::from(sel >> 4)].to_vec();
    nonce[0] &= 0x7f;
    fn both<const T: usize>(p: Platform, k: &[u8], n: &[u8], m: &[u8], splits: &[u8]) {
        let want = Vmac::<T>::new_on(Platform::portable(), k).expect("key").tag(n, m).expect("nonce");
        let mac = Vmac::<T>::new_on(p, k).expect("key");
        assert_eq!(mac.tag(n, m).expect("nonce"), want, "vmac{} {p:?} len {}", 8 * T, m.len());
        let mut s = mac.start(n).expect("nonce");
        for c in chunks(m, splits) {
            s.update(c);
        }
        assert_eq!(s.finalize(), *want.as_ref(), "vmac{} streamed {p:?} len {}", 8 * T, m.len());
    }
    if sel & 4 != 0 {
        both::<8>(platform, k, &nonce, &c.msg, &c.splits);
    } else {
        both::<16>(platform, k, &nonce, &c.msg, &c.splits);
    }
}

/// modp's reduction under one secret prime per process.
fn kernels_modp(c: &KernelCase) {
    static PRIME: std::sync::OnceLock<unimac::unstable::modp::SecretPrime> = std::sync::OnceLock::new();
    let sp = PRIME.get_or_init(|| unimac::unstable::modp::SecretPrime::generate().expect("OS random generator"));
    let (platform, msg) = (c.platform, &c.msg);
    assert_eq!(sp.reduce_on(platform, msg), sp.reduce_on(c.portable, msg), "modp {platform:?} len {}", msg.len());
}

/// The known-answer file parser: any text, under any of its file kinds,
/// gives a report and never panics.
pub fn vectors(data: &[u8]) {
    let mut r = Input(data);
    let file_name = match r.byte() % 3 {
        0 => "x.exp",
        1 => "x.jsonl",
        _ => "x.json",
    };
    let text = String::from_utf8_lossy(r.rest());
    let report = unimac::vectors::check_file_text(file_name, &text);
    let _ = format!("{report:?}");
}

/// The stream receiver on arbitrary input: it never panics, and never
/// releases a byte that was not sent. The first byte chooses: raw bytes as
/// a stream (even), or an honest stream of a fixed payload with the rest of
/// the input as edits (odd: xor at positions, cuts); the next bytes choose
/// how the input is cut into `feed` calls. Whatever the receiver releases
/// of an edited stream is a prefix of the payload ending at a chunk
/// boundary, and all of it only if the stream verifies whole.
pub fn stream(data: &[u8]) {
    use unimac::unstable::formats::keyfile::{KeyFile, KeyKind};
    use unimac::unstable::formats::stream::{Receiver, Sender};
    const CHUNK: usize = 32;
    let mut inp = Input(data);
    let mode = inp.byte();
    let step = usize::from(inp.byte() % 64) + 1;
    let name = ["hash127-aes", "umac64", "wc-eval128", "vmac128"][usize::from(mode >> 1) % 4];
    let Some(d) = macs::find(name) else { return };
    let key = KeyFile::new(KeyKind::Mac(d), &vec![7u8; d.default_key_len()]).expect("a key");
    let payload: Vec<u8> = (0..200u32).map(|i| (i * 37 + 11) as u8).collect();
    let wire = if mode & 1 == 0 {
        inp.0.to_vec()
    } else {
        let mut s = Sender::with_id(&key, CHUNK, [1u8; 16]).expect("a sender");
        let mut w = Vec::new();
        s.push(&payload, &mut w).expect("push");
        s.finish(&mut w).expect("finish");
        // Edits: (position, xor) pairs; a zero xor cuts there.
        while inp.0.len() >= 3 {
            let at = usize::from(u16::from_le_bytes([inp.byte(), inp.byte()])) % (w.len() + 1);
            match inp.byte() {
                0 => w.truncate(at),
                x if at < w.len() => w[at] ^= x,
                x => w.push(x),
            }
        }
        w
    };
    let mut r = Receiver::new(&key).expect("a receiver");
    let mut out = Vec::new();
    let mut ok = true;
    for piece in wire.chunks(step) {
        if r.feed(piece, &mut out).is_err() {
            ok = false;
            break;
        }
    }
    let whole = ok && r.finish().is_ok();
    if mode & 1 == 1 {
        assert!(payload.starts_with(&out), "released bytes that were not sent");
        assert!(out.len() % CHUNK == 0 || whole, "released part of a chunk");
        if whole {
            assert_eq!(out, payload, "a stream that verifies whole gives the payload");
        }
    }
}
