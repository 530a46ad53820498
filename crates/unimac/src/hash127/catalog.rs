//! hash127's names in the catalogue (`hash127-raw`, `hash127`).

use super::*;

struct RawStream(Hash127);
struct PadStream(Hash127);

impl Stream for RawStream {
    fn try_clone(&self) -> Option<Box<dyn Stream>> {
        Some(Box::new(RawStream(self.0.clone())))
    }
    fn update(&mut self, d: &[u8]) {
        self.0.update(d)
    }
    fn finalize(self: Box<Self>) -> Result<Vec<u8>, Error> {
        self.0.finalize_raw().map(|o| o.to_vec())
    }
}

impl Stream for PadStream {
    fn try_clone(&self) -> Option<Box<dyn Stream>> {
        Some(Box::new(PadStream(self.0.clone())))
    }
    fn update(&mut self, d: &[u8]) {
        self.0.update(d)
    }
    fn finalize(self: Box<Self>) -> Result<Vec<u8>, Error> {
        Ok(self.0.finalize().to_vec())
    }
}

fn key_of(p: &Params<'_>) -> Key {
    Key::new(p.key.try_into().expect("registry checked the key length"))
}

/// `hash127-raw` / `hash127` under one key: the powers of `r` are expanded
/// once (lazily, by the first long message) and shared by every message.
struct Keyed127 {
    key: Key,
    raw: bool,
}

impl Keyed for Keyed127 {
    fn start_with_nonce(&self, _nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        let h = Hash127::new(&self.key);
        Ok(if self.raw { Box::new(RawStream(h)) } else { Box::new(PadStream(h)) })
    }
    /// One-shot without the stream's chunk buffer (the fast path for short messages).
    fn compute(&self, _nonce: Option<&[u8]>, msg: &[u8]) -> Result<Vec<u8>, Error> {
        let out = if self.raw { hash127_raw(&self.key, msg)? } else { hash127(&self.key, msg) };
        Ok(out.to_vec())
    }
    fn compute_into(&self, _nonce: Option<&[u8]>, msg: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        let h = if self.raw { hash127_raw(&self.key, msg)? } else { hash127(&self.key, msg) };
        crate::traits::put(out, &h)
    }
}

pub(crate) fn catalog() -> Vec<Entry> {
    vec![
        Entry::keyed(
            Info {
                name: "hash127-raw".into(),
                key: KeySpec::Fixed(32),
                nonce: 0,
                out: 16,
                takes_len: false,
                summary: "hash127 of a whole number of signed 32-bit words (docs/WIRE.md §2)".into(),
            },
            |p: &Params<'_>| -> Result<Box<dyn Keyed>, Error> {
                Ok(Box::new(Keyed127 { key: key_of(p), raw: true }))
            },
        ),
        Entry::keyed(
            Info {
                name: "hash127".into(),
                key: KeySpec::Fixed(32),
                nonce: 0,
                out: 16,
                takes_len: false,
                summary: "hash127 of any byte string, pad(M, 4) (docs/WIRE.md §2)".into(),
            },
            |p: &Params<'_>| -> Result<Box<dyn Keyed>, Error> {
                Ok(Box::new(Keyed127 { key: key_of(p), raw: false }))
            },
        ),
    ]
}
