//! Shoup's hashes and their keys in the catalogue of names.

use super::*;

struct HashStream(Hasher);

impl Stream for HashStream {
    fn try_clone(&self) -> Option<Box<dyn Stream>> {
        Some(Box::new(HashStream(self.0.clone())))
    }
    fn update(&mut self, data: &[u8]) {
        self.0.update(data);
    }
    fn finalize(self: Box<Self>) -> Result<Vec<u8>, Error> {
        Ok(self.0.finalize().to_vec())
    }
}

/// A `-key` name: the output depends on the key only; the message is ignored.
/// Key material: wiped on drop.
#[derive(zeroize::Zeroize, zeroize::ZeroizeOnDrop)]
struct KeyStream([u8; 8]);

impl Stream for KeyStream {
    fn update(&mut self, _data: &[u8]) {}
    fn finalize(self: Box<Self>) -> Result<Vec<u8>, Error> {
        Ok(self.0.to_vec())
    }
}

/// `eval64` / `division64` / `gdivision64` under one key: the key set-up
/// (the minimal polynomial and its tables) is done once; every message starts
/// from a copy of the empty hasher.
struct KeyedHasher(Hasher);

impl Keyed for KeyedHasher {
    fn start_with_nonce(&self, _nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        Ok(Box::new(HashStream(self.0.clone())))
    }
    fn compute(&self, _nonce: Option<&[u8]>, msg: &[u8]) -> Result<Vec<u8>, Error> {
        Ok(self.0.hash(msg).to_vec())
    }
    fn compute_into(
        &self,
        _nonce: Option<&[u8]>,
        msg: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        crate::traits::put(out, self.0.hash(msg).as_ref())
    }
}

/// A `-key` name under one key: its output, computed once.
#[derive(zeroize::Zeroize, zeroize::ZeroizeOnDrop)]
struct KeyedKey([u8; 8]);

impl Keyed for KeyedKey {
    fn start_with_nonce(&self, _nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        Ok(Box::new(KeyStream(self.0)))
    }
}

fn key8(p: &Params<'_>) -> Result<[u8; 8], Error> {
    p.key
        .try_into()
        .map_err(|_| Error::Invalid(format!("key must be 8 bytes, got {}", p.key.len())))
}

fn info(name: &str, summary: &str) -> Info {
    Info {
        name: name.into(),
        key: KeySpec::Fixed(8),
        nonce: 0,
        out: 8,
        takes_len: false,
        summary: summary.into(),
    }
}

pub(crate) fn catalog() -> Vec<Entry> {
    vec![
        Entry::keyed(
            info("eval64", "Shoup's evaluation hash M(alpha)*alpha over GF(2^64), pad(M, 8) (docs/WIRE.md §5)"),
            |p: &Params<'_>| -> Result<Box<dyn Keyed>, Error> {
                Ok(Box::new(KeyedHasher(Hasher::new(Kind::Eval64, &key8(p)?))))
            },
        ),
        Entry::keyed(
            info(
                "division64-key",
                "the division hash's key polynomial: minimal polynomial of g in GF(2^64) (docs/WIRE.md §5); ignores the message",
            ),
            |p: &Params<'_>| -> Result<Box<dyn Keyed>, Error> {
                Ok(Box::new(KeyedKey(division64_key(&key8(p)?))))
            },
        )
        .ignoring_message(),
        Entry::keyed(
            info("division64", "Shoup's division hash m(x)*x^64 mod p, p = division64-key(g) (docs/WIRE.md §5)"),
            |p: &Params<'_>| -> Result<Box<dyn Keyed>, Error> {
                Ok(Box::new(KeyedHasher(Hasher::new(Kind::Division64, &key8(p)?))))
            },
        ),
        Entry::keyed(
            info(
                "gdivision64-key",
                "the generalized division hash's key: minimal polynomial over GF(2^8) of g (docs/WIRE.md §5); ignores the message",
            ),
            |p: &Params<'_>| -> Result<Box<dyn Keyed>, Error> {
                Ok(Box::new(KeyedKey(gdivision64_key(&key8(p)?))))
            },
        )
        .ignoring_message(),
        Entry::keyed(
            info("gdivision64", "Shoup's generalized division hash over GF(2^8), P = gdivision64-key(g) (docs/WIRE.md §5)"),
            |p: &Params<'_>| -> Result<Box<dyn Keyed>, Error> {
                Ok(Box::new(KeyedHasher(Hasher::new(Kind::GDivision64, &key8(p)?))))
            },
        ),
        eval128::entry(),
    ]
}
