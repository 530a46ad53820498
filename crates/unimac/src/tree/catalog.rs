//! The by-name rows of this module: `keystream` (the key stream itself,
//! for the known answers) and every `tree-F`, keyed.

use super::*;

pub(super) struct KeystreamStream {
    seed: Zeroizing<[u8; 16]>,
    len: usize,
}

impl Stream for KeystreamStream {
    fn update(&mut self, _data: &[u8]) {}
    fn finalize(self: Box<Self>) -> Result<Vec<u8>, Error> {
        try_keystream(&self.seed, self.len)
    }
}

impl Keyed for KeystreamStream {
    fn start_with_nonce(&self, _nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        Ok(Box::new(KeystreamStream {
            seed: self.seed.clone(),
            len: self.len,
        }))
    }
}

/// `tree-F` under one key: every message is a fresh [`Tree`] sharing the
/// level keys.
impl Keyed for Arc<TreeKey> {
    fn start_with_nonce(&self, _nonce: Option<&[u8]>) -> Result<Box<dyn Stream>, Error> {
        Ok(Box::new(TreeKey::start(self)))
    }
    fn compute(&self, nonce: Option<&[u8]>, msg: &[u8]) -> Result<Vec<u8>, Error> {
        let mut out = Zeroizing::new([0u8; MAX_OUT]);
        match self.hash_into(msg, &mut out[..]) {
            Some(n) => Ok(out[..n].to_vec()),
            None => {
                let mut s = self.start_with_nonce(nonce)?;
                s.update(msg);
                s.finalize()
            }
        }
    }
    fn compute_into(
        &self,
        nonce: Option<&[u8]>,
        msg: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        match self.hash_into(msg, out) {
            Some(n) => Ok(n),
            None => crate::traits::put(out, &Zeroizing::new(self.compute(nonce, msg)?)),
        }
    }
}

pub(super) fn seed(key: &[u8]) -> [u8; 16] {
    key.try_into().expect("registry checked the key length")
}

/// `keystream` and every `tree-F`.
pub(crate) fn catalog() -> Vec<Entry> {
    let mut v = vec![Entry::keyed(
        Info {
            name: "keystream".into(),
            key: KeySpec::Fixed(16),
            nonce: 0,
            out: 0,
            takes_len: true,
            summary: "AES-128 counter-mode key stream (docs/WIRE.md §6); the message is ignored"
                .into(),
        },
        |p: &Params<'_>| -> Result<Box<dyn Keyed>, Error> {
            let len = p.len.expect("registry checked --len");
            if len as u64 > 1u64 << 32 {
                return Err(Error::Invalid(format!(
                    "keystream: --len {len} is more than 2^32 bytes"
                )));
            }
            Ok(Box::new(KeystreamStream {
                seed: Zeroizing::new(seed(p.key)),
                len,
            }))
        },
    )];
    for b in Block::ALL {
        let f = b.family();
        let fam = f.clone();
        v.push(Entry::keyed(
            Info {
                name: format!("tree-{}", f.name),
                key: KeySpec::Fixed(16),
                nonce: 0,
                out: f.out,
                takes_len: false,
                summary: format!(
                    "{} in tree mode over any message length, keys from the AES key stream",
                    f.name
                ),
            },
            move |p: &Params<'_>| -> Result<Box<dyn Keyed>, Error> {
                Ok(Box::new(Arc::new(TreeKey::new(fam.clone(), &seed(p.key)))))
            },
        ));
    }
    v
}
