//! Partial hashes of one file's pieces, fed in any chunking, each piece's
//! hash key set up once ([`PartialStream`]).

use super::*;

/// A name's hash key set up once (hash127's table of powers, a tree's level
/// keys), for the chunks of one [`PartialStream`].
enum Prepared {
    P127(hash127::Key),
    Shoup {
        h: Box<shoup::Hasher>,
        beta: u64,
        modulus: u64,
    },
    Eval128 {
        h: Box<eval128::Eval128>,
        alpha: u128,
    },
    Tree {
        seed: Zeroizing<[u8; 16]>,
        key: TreeKey,
    },
}

/// The partial of consecutive chunks of one byte range, the key set up once:
/// a worker reads its range in bounded buffers and hashes each as it comes,
/// holding the running state only (for a polynomial hash two field
/// elements; for a tree the level-2 bytes, `(out/B)^2` of the
/// range). Equal to [`Partial::hash`] of the whole range.
///
/// ```
/// use unimac::partial::{Partial, PartialStream};
///
/// let hk = [3u8; 16];
/// let msg = vec![0x5au8; 10_000];
/// let mut s = PartialStream::new("mac-hash127-aes", &hk, 0).unwrap();
/// s.update(&msg[..4096]).unwrap();
/// s.update(&msg[4096..8192]).unwrap();
/// let p = s.finish(&msg[8192..], true).unwrap();
/// let whole = Partial::hash("mac-hash127-aes", &hk, 0, &msg, true).unwrap();
/// assert_eq!(p.to_bytes(), whole.to_bytes());
/// ```
pub struct PartialStream {
    /// The CPU evidence, taken once when the stream is set up.
    platform: Platform,
    spec: Spec,
    gran: u64,
    prep: Prepared,
    offset: u64,
    len: u64,
    state: Option<State>,
}

impl Drop for PartialStream {
    fn drop(&mut self) {
        wipe(&mut self.state);
    }
}

fn wipe(state: &mut Option<State>) {
    match state {
        Some(State::Poly {
            value,
            mult,
            modulus,
        }) => {
            value.zeroize();
            mult.zeroize();
            modulus.zeroize();
        }
        Some(State::Tree { data, .. }) => data.zeroize(),
        None => {}
    }
}

impl PartialStream {
    /// A stream of the chunks of `name`'s message from `offset` on (a
    /// multiple of [`granularity`]), under its hash key ([`hash_key`]).
    pub fn new(name: &str, hash_key: &[u8], offset: u64) -> Result<PartialStream, Error> {
        let s = spec(name)?;
        check_len(&s, "hash key", hash_key.len(), s.hash_key.len())?;
        let gran = granularity(&s.name)? as u64;
        if !offset.is_multiple_of(gran) {
            return Err(invalid(
                &s.name,
                format!("offset {offset} is not a multiple of {gran} bytes"),
            ));
        }
        let platform = Platform::detect();
        let prep = match &s.hash {
            PartialHash::Poly(Field::P127 { .. }) => {
                let mut k = Zeroizing::new([0u8; 32]);
                k[..16].copy_from_slice(hash_key);
                Prepared::P127(hash127::Key::new_on(platform, &k))
            }
            &PartialHash::Poly(f @ (Field::Eval64 | Field::Division64 | Field::GDivision64)) => {
                let g: [u8; 8] = hash_key.try_into().expect("length checked");
                let (kind, beta, modulus) = match f {
                    Field::Eval64 => (shoup::Kind::Eval64, u64::from_le_bytes(g), 0),
                    Field::Division64 => {
                        let m = gf2::Modulus::new(shoup::division64_key_on(
                            platform,
                            u64::from_le_bytes(g),
                        ));
                        (shoup::Kind::Division64, m.x64(), m.lo)
                    }
                    _ => {
                        let p = u64::from_le_bytes(gdiv::key_poly(&g));
                        (shoup::Kind::GDivision64, p, p)
                    }
                };
                Prepared::Shoup {
                    h: Box::new(shoup::Hasher::new_on(platform, kind, &g)),
                    beta,
                    modulus,
                }
            }
            PartialHash::Poly(Field::Eval128) => {
                let a: [u8; 16] = hash_key.try_into().expect("length checked");
                Prepared::Eval128 {
                    h: Box::new(eval128::Eval128::new_on(platform, &a)),
                    alpha: u128::from_le_bytes(a),
                }
            }
            PartialHash::Tree(fam) => {
                let seed = Zeroizing::new(<[u8; 16]>::try_from(hash_key).expect("length checked"));
                let key = TreeKey::new(fam.clone(), &seed);
                Prepared::Tree { seed, key }
            }
        };
        Ok(PartialStream {
            platform,
            spec: s,
            gran,
            prep,
            offset,
            len: 0,
            state: None,
        })
    }

    /// Hash the next chunk, not the last one: a non-zero multiple of
    /// [`granularity`] bytes.
    pub fn update(&mut self, chunk: &[u8]) -> Result<(), Error> {
        self.add(chunk, false)
    }

    /// Hash the final chunk (`last`: it ends the message and gets the
    /// padding; it may then be empty or of any length) and return the
    /// partial of everything given. An empty `chunk` with `last` false
    /// adds nothing (the stream must have had a chunk).
    pub fn finish(mut self, chunk: &[u8], last: bool) -> Result<Partial, Error> {
        if last || !chunk.is_empty() || self.state.is_none() {
            self.add(chunk, last)?;
        }
        let state = self.state.take().expect("a chunk was hashed");
        Ok(Partial {
            name: self.spec.name.clone(),
            offset: self.offset,
            len: self.len,
            last,
            state,
        })
    }

    /// The partial of one chunk of the message at `offset` (a multiple of
    /// [`granularity`]; `last`: it ends the message), hashed with this
    /// stream's key set-up and evidence; the stream itself is unchanged.
    /// Threads that share one stream hash their chunks with it side by
    /// side, and the partials combine in message order.
    pub fn chunk(&self, offset: u64, chunk: &[u8], last: bool) -> Result<Partial, Error> {
        let name = self.spec.name.as_str();
        if !offset.is_multiple_of(self.gran) {
            return Err(invalid(
                name,
                format!("offset {offset} is not a multiple of {} bytes", self.gran),
            ));
        }
        let state = self.piece(offset, chunk, last)?;
        Ok(Partial {
            name: self.spec.name.clone(),
            offset,
            len: chunk.len() as u64,
            last,
            state,
        })
    }

    /// The state of the chunk `chunk` at `at` (checked: lengths, overflow).
    fn piece(&self, at: u64, chunk: &[u8], last: bool) -> Result<State, Error> {
        let (name, gran) = (self.spec.name.as_str(), self.gran);
        let len = chunk.len() as u64;
        if at.checked_add(len).is_none() {
            return Err(invalid(name, "offset + length overflows"));
        }
        if !last && (len == 0 || !len.is_multiple_of(gran)) {
            return Err(invalid(name, format!("a chunk that is not the last must be a non-zero multiple of {gran} bytes, got {len}")));
        }
        let first = at == 0;
        Ok(match (&self.prep, &self.spec.hash) {
            (Prepared::Tree { seed, key }, PartialHash::Tree(fam)) => {
                let unit = fam.block.pow(TREE_LEVELS as u32);
                if last && first && chunk.len() < unit {
                    // The whole message, too short for its lower levels to
                    // be known not to be the last: hashed outright.
                    State::Tree {
                        data: tree::tree_hash(fam, seed, chunk),
                        complete: true,
                    }
                } else {
                    State::Tree {
                        data: tree_levels(key, chunk, last),
                        complete: false,
                    }
                }
            }
            (prep, PartialHash::Poly(f)) => {
                let f = *f;
                if !f.pads() && !(at + len).is_multiple_of(4) {
                    return Err(Error::Message {
                        name: name.into(),
                        reason: format!("message length {} is not a multiple of 4", at + len),
                    });
                }
                let blocks = len / f.word() as u64 + u64::from(last && f.pads());
                let (value, beta, modulus) = match prep {
                    Prepared::P127(key) => {
                        let Field::P127 { pad } = f else {
                            unreachable!("hash127 key")
                        };
                        (
                            hash127::piece_value(key, chunk, first, pad && last),
                            key.r(),
                            0,
                        )
                    }
                    Prepared::Shoup { h, beta, modulus } => (
                        h.piece_value(chunk, first, last) as u128,
                        *beta as u128,
                        *modulus,
                    ),
                    Prepared::Eval128 { h, alpha } => {
                        (h.piece_value(chunk, first, last), *alpha, 0)
                    }
                    Prepared::Tree { .. } => unreachable!("a polynomial name"),
                };
                let mult = pow(&*multiplier(self.platform, f, modulus), beta, blocks);
                State::Poly {
                    value,
                    mult,
                    modulus,
                }
            }
            (_, PartialHash::Tree(_)) => unreachable!("a tree name"),
        })
    }

    fn add(&mut self, chunk: &[u8], last: bool) -> Result<(), Error> {
        let name = self.spec.name.as_str();
        let len = chunk.len() as u64;
        let at = self
            .offset
            .checked_add(self.len)
            .ok_or_else(|| invalid(name, "offset + length overflows"))?;
        let piece = self.piece(at, chunk, last)?;
        self.state = Some(match (self.state.take(), piece) {
            (None, p) => p,
            (
                Some(State::Poly {
                    value: va,
                    mult: ma,
                    modulus,
                }),
                State::Poly {
                    value: vb,
                    mult: mb,
                    ..
                },
            ) => {
                let PartialHash::Poly(f) = self.spec.hash else {
                    unreachable!("a polynomial name")
                };
                let mul = multiplier(self.platform, f, modulus);
                State::Poly {
                    value: add(f, mul(va, mb), vb),
                    mult: mul(ma, mb),
                    modulus,
                }
            }
            (
                Some(State::Tree {
                    mut data,
                    complete: false,
                }),
                State::Tree {
                    data: db,
                    complete: false,
                },
            ) => {
                data.extend_from_slice(&db);
                let mut db = db;
                db.zeroize();
                State::Tree {
                    data,
                    complete: false,
                }
            }
            _ => unreachable!("a complete tree hash is the whole message"),
        });
        self.len += len;
        Ok(())
    }
}
