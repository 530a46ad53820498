//! `unimac.new`: a MAC or hash computation under way, with the interface of
//! `hashlib`'s and `hmac`'s objects (`update`, `digest`, `copy`), and the
//! two argument orders `unimac.new` takes.

use unimac_front::prelude::*;
use std::sync::Mutex;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString, PyTuple};

use unimac_front::registry::{self, Entry, NamedMac, Params};
use unimac::verify_tag;

use crate::buffer::{self, data, GIL_RELEASE_BYTES};
use crate::nonces::caller_nonce_of;
use crate::{bytes_of, err, key_size, lock, names, pair_framed, value_err, InvalidTag};

enum State {
    /// Taking data; a stateless object whose stream can be copied stays
    /// here after a digest (taken from a copy), as hashlib's objects do.
    Open(Box<dyn registry::Stream>),
    /// Finalized: it keeps its digest and takes no more data (nonce MACs,
    /// `shoup4-*`, and the few hashes whose stream cannot be copied).
    Done(Option<Vec<u8>>),
}

/// A MAC or hash computation under way, made by :func:`unimac.new`: feed it
/// with :meth:`update`, then :meth:`digest` / :meth:`hexdigest` /
/// :meth:`verify`.
///
/// After :meth:`digest` (or :meth:`hexdigest`, :meth:`verify`):
///
/// * a stateless MAC (``hash127-aes``) or a hash without a nonce
///   (``eval64``, ``tree-mmh32x2``) goes on as in :mod:`hashlib` and
///   :mod:`hmac`: :meth:`update` is allowed, and a later :meth:`digest` is
///   that of all the data so far (the digest is taken from a copy of the
///   state);
/// * a nonce MAC (``wc-*``, ``umac*``, ``vmac*``) and ``shoup4-*`` give
///   the same digest again and refuse :meth:`update` (``ValueError``): the
///   digest of a longer message under the same nonce (or the same random
///   pair ``r ‖ s``) would be a second tag under one nonce, which voids the
///   MAC's guarantee. Make a new object, with a fresh nonce.
///
/// One-time MACs (``hash127``, ``hash127-96``) have no such object
/// (:class:`unimac.OneTimeKey`). The object may be shared between threads.
///
/// >>> import unimac
/// >>> h = unimac.new("hash127-aes", bytes(32))
/// >>> h.update(b"attack at ")
/// >>> h.update(b"dawn")
/// >>> h.digest() == unimac.tag("hash127-aes", bytes(32), b"attack at dawn")
/// True
/// >>> h.update(b"!")                                  # as hashlib
/// >>> h.digest() == unimac.tag("hash127-aes", bytes(32), b"attack at dawn!")
/// True
#[pyclass(module = "unimac", name = "UnimacHash", frozen)]
struct UnimacHash {
    name: String,
    digest_size: usize,
    key_size: usize,
    nonce_size: usize,
    /// May be finalized more than once and copied (no nonce, not one-time).
    stateless: bool,
    /// `r ‖ s` of a `shoup4-` MAC, sent before its tag.
    prefix: Option<Vec<u8>>,
    state: Mutex<State>,
}

impl UnimacHash {
    fn finish(&self) -> PyResult<Vec<u8>> {
        let mut g = lock(&self.state);
        if self.stateless {
            if let State::Open(stream) = &*g {
                if let Some(copy) = stream.try_clone() {
                    // hashlib's way: the digest of the data so far, from a
                    // copy; the object goes on taking data.
                    return copy.finalize().map_err(err);
                }
            }
        }
        let s = std::mem::replace(&mut *g, State::Done(None));
        match s {
            State::Open(stream) => {
                let full = stream.finalize().map_err(err)?;
                // The digest is kept for digest() and hexdigest() again.
                *g = State::Done(Some(full.clone()));
                Ok(full)
            }
            State::Done(Some(d)) => {
                *g = State::Done(Some(d.clone()));
                Ok(d)
            }
            State::Done(None) => Err(self.used_up()),
        }
    }

    fn used_up(&self) -> PyErr {
        let name = &self.name;
        if self.stateless {
            return value_err(format!(
                "{name}: update() after digest(): this hash's state cannot be copied, so it is not kept past its digest; make a new object"
            ));
        }
        let (under, fresh) = if self.prefix.is_some() {
            ("its random pair r || s", "a new object draws a new pair")
        } else {
            ("its nonce", "make a new object, with a fresh nonce")
        };
        value_err(format!(
            "{name}: this object has already given its tag under {under}; the tag of more data under the same one would be a second tag under one nonce, which voids the MAC's guarantee ({fresh})"
        ))
    }
}

#[pymethods]
impl UnimacHash {
    /// Absorb more of the message (any C-contiguous buffer; not ``str``).
    /// After :meth:`digest` (or :meth:`hexdigest`, :meth:`verify`) a
    /// stateless MAC or a hash goes on, as in hashlib; a nonce MAC (and
    /// ``shoup4-*``) raises ``ValueError``: its tag is given under its nonce,
    /// and a second tag under one nonce voids the MAC's guarantee.
    ///
    /// >>> h = unimac.new("eval64", bytes(8)); h.update(memoryview(b"abc")[1:])
    fn update(&self, data: &Bound<'_, PyAny>) -> PyResult<()> {
        let d = buffer::data(data, "data")?;
        let s = d.as_slice();
        let feed = |g: &mut State| -> Result<(), ()> {
            match g {
                State::Open(stream) => {
                    stream.update(s);
                    Ok(())
                }
                State::Done(_) => Err(()),
            }
        };
        let r = if s.len() >= GIL_RELEASE_BYTES {
            // The lock is taken and released without the GIL (never held
            // while waiting for it).
            data.py().allow_threads(|| feed(&mut lock(&self.state)))
        } else {
            match self.state.try_lock() {
                Ok(mut g) => feed(&mut g),
                Err(_) => data.py().allow_threads(|| feed(&mut lock(&self.state))),
            }
        };
        r.map_err(|_| self.used_up())
    }

    /// The tag (bytes). For ``shoup4-*`` it is ``r ‖ s ‖ tag`` (the random
    /// pair first), as sent.
    ///
    /// >>> len(unimac.new("umac64", bytes(16), nonce=bytes(8), caller_manages_nonces=True).digest())
    /// 8
    fn digest<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let d = self.finish()?;
        Ok(PyBytes::new(py, &d))
    }

    /// The tag in lowercase hex.
    ///
    /// >>> len(unimac.new("hash127-aes", bytes(32)).hexdigest())
    /// 32
    fn hexdigest(&self) -> PyResult<String> {
        let d = self.finish()?;
        Ok(d.iter().map(|b| format!("{b:02x}")).collect())
    }

    /// Compare the tag with ``tag`` in constant time; raise
    /// :class:`unimac.InvalidTag` if they differ. For ``shoup4-*`` the tag
    /// as sent, ``r ‖ s ‖ tag``.
    ///
    /// >>> h = unimac.new("hash127-aes", bytes(32)); h.update(b"m")
    /// >>> h.verify(unimac.tag("hash127-aes", bytes(32), b"m"))
    fn verify(&self, tag: &Bound<'_, PyAny>) -> PyResult<()> {
        let t = data(tag, "tag")?;
        let d = self.finish()?;
        let t = t.as_slice();
        let ok = match &self.prefix {
            Some(p) if t.len() == d.len() - p.len() => verify_tag(&d[p.len()..], t).is_ok(),
            _ => verify_tag(&d, t).is_ok(),
        };
        if ok {
            Ok(())
        } else {
            Err(InvalidTag::new_err("tag mismatch"))
        }
    }

    /// A copy of the state (only for stateless MACs and hashes, whose copy
    /// cannot reuse a nonce or a one-time key: ``TypeError`` otherwise).
    fn copy(&self) -> PyResult<UnimacHash> {
        if !self.stateless {
            return Err(PyTypeError::new_err(format!(
                "{}: a copy would authenticate two messages under one nonce or one-time key; not copyable",
                self.name
            )));
        }
        match &*lock(&self.state) {
            State::Done(d) => Ok(UnimacHash {
                name: self.name.clone(),
                digest_size: self.digest_size,
                key_size: self.key_size,
                nonce_size: self.nonce_size,
                stateless: true,
                prefix: None,
                state: Mutex::new(State::Done(d.clone())),
            }),
            State::Open(s) => match s.try_clone() {
                Some(c) => Ok(UnimacHash {
                    name: self.name.clone(),
                    digest_size: self.digest_size,
                    key_size: self.key_size,
                    nonce_size: self.nonce_size,
                    stateless: true,
                    prefix: None,
                    state: Mutex::new(State::Open(c)),
                }),
                None => Err(PyTypeError::new_err(format!(
                    "{}: this computation's state cannot be copied while open; copy() is available after digest()",
                    self.name
                ))),
            },
        }
    }

    /// The canonical name: lower case, without ``mac-``.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }
    /// Tag bytes (``r ‖ s`` included for ``shoup4-*``).
    #[getter]
    fn digest_size(&self) -> usize {
        self.digest_size
    }
    /// Key bytes (the default size where several are accepted).
    #[getter]
    fn key_size(&self) -> usize {
        self.key_size
    }
    /// Nonce bytes (the largest accepted; 0 for none).
    #[getter]
    fn nonce_size(&self) -> usize {
        self.nonce_size
    }
    /// Message bytes absorbed per step where that is defined; 1 otherwise.
    #[getter]
    fn block_size(&self) -> usize {
        1
    }
    fn __repr__(&self) -> String {
        format!("<unimac {} object>", self.name)
    }
}

/// A new streaming object of the MAC or hash ``name`` under ``key``, as
/// ``hmac.new(key, msg)`` / ``hashlib.new(name, data)``: ``data``, if given,
/// is hashed at once (as by :meth:`~UnimacHash.update`); ``nonce`` is
/// keyword-only (for nonce MACs).
///
/// ``name`` is a MAC as ``unimac tag`` takes it (``hash127-aes``,
/// ``wc-mmh32x2``, ``umac64``; ``mac-`` optional) or a raw hash of the wire
/// format, docs/WIRE.md (``eval64``, ``tree-mmh32x4``), in any case, as
/// ``hashlib.new("SHA256")``: ``.name`` shows it in lower case. For
/// ``shoup4-*`` a random ``r ‖ s`` is drawn when no nonce is given.
///
/// :meth:`~UnimacHash.digest` and :meth:`~UnimacHash.hexdigest` may be
/// called again. After them a stateless MAC or a hash takes more data as
/// hashlib's objects do (a later digest covers all of it);
/// :meth:`~UnimacHash.update` of a nonce MAC raises ``ValueError``, since a
/// second tag under one nonce voids the MAC's guarantee.
///
/// >>> import unimac
/// >>> h = unimac.new("wc-mmh32x2", bytes(32), b"attack at ", nonce=(1).to_bytes(16, "little"), caller_manages_nonces=True)
/// >>> h.update(b"dawn")
/// >>> h.digest() == unimac.tag("wc-mmh32x2", bytes(32), b"attack at dawn", nonce=(1).to_bytes(16, "little"), caller_manages_nonces=True)
/// True
/// >>> h.update(b"!")
/// Traceback (most recent call last):
/// ...
/// ValueError: wc-mmh32x2: this object has already given its tag under its nonce; ...
///
/// hmac's order is taken too: ``new(key, msg=None, digestmod=NAME, *,
/// nonce=None)``, told apart by the first argument (a name is a ``str``, a
/// key bytes-like) or by ``digestmod=``; ``digestmod`` is a name here
/// (not a hashlib constructor).
///
/// >>> unimac.new(bytes(32), b"m", "hash127-aes").digest() == unimac.tag("hash127-aes", bytes(32), b"m")
/// True
/// >>> unimac.new(bytes(32), msg=b"m", digestmod="HASH127-AES").name
/// 'hash127-aes'
#[pyfunction]
#[pyo3(name = "new", signature = (*args, **kwargs), text_signature = "(name, key, data=None, *, nonce=None, caller_manages_nonces=False)")]
fn new_(args: &Bound<'_, PyTuple>, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<UnimacHash> {
    let a = NewArgs::parse(args, kwargs)?;
    let name = a.name.extract::<String>()?;
    let e = names::resolve_any(&name).map_err(value_err)?;
    caller_nonce_of(e, "new", a.nonce.as_ref(), a.caller_manages_nonces)?;
    let h = new_object(e, &a.key, a.nonce.as_ref())?;
    if let Some(d) = &a.data {
        h.update(d)?;
    }
    Ok(h)
}

/// The two orders `unimac.new` takes, for its `TypeError`s.
const NEW_ORDERS: &str =
    "unimac.new(name, key, data=None, *, nonce=None) or, in hmac's order, unimac.new(key, msg=None, digestmod=NAME, *, nonce=None)";

/// The arguments of `unimac.new` in either order.
struct NewArgs<'py> {
    name: Bound<'py, PyAny>,
    key: Bound<'py, PyAny>,
    data: Option<Bound<'py, PyAny>>,
    nonce: Option<Bound<'py, PyAny>>,
    caller_manages_nonces: bool,
}

/// The three arguments of `unimac.new` in the order of the call's form
/// (`name, key, data` or hmac's `key, msg, digestmod`).
type Slots<'py> = [Option<Bound<'py, PyAny>>; 3];

/// A `TypeError` of `unimac.new`, with the two orders it takes.
fn new_type_err(msg: String) -> PyErr {
    PyTypeError::new_err(format!("unimac.new(): {msg}; expected {NEW_ORDERS}"))
}

/// The name of `obj`'s type, for a message.
fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default()
}

impl<'py> NewArgs<'py> {
    /// `(name, key, data)` when the first argument is a `str` (or absent
    /// without `digestmod=`); hmac's `(key, msg, digestmod)` when it is
    /// bytes-like or `digestmod=` is given. `nonce` keyword-only in both.
    fn parse(
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<NewArgs<'py>> {
        let hmac_order = Self::hmac_order(args, kwargs)?;
        let (vals, nonce, caller_manages_nonces) = Self::by_position(args, kwargs, hmac_order)?;
        // An explicit None is the argument left out.
        let [a, b, c] = vals.map(|v| v.filter(|v| !v.is_none()));
        let nonce = nonce.filter(|v| !v.is_none());
        let (name, key, data) = if hmac_order { (c, a, b) } else { (a, b, c) };
        let (name_param, key_param) = if hmac_order {
            ("digestmod", "key")
        } else {
            ("name", "key")
        };
        let Some(name) = name else {
            return Err(new_type_err(if hmac_order {
                "hmac's order needs digestmod, the MAC's or hash's name (one of unimac.names())"
                    .to_string()
            } else {
                format!("missing required argument '{name_param}'")
            }));
        };
        if !name.is_instance_of::<PyString>() {
            let t = type_name(&name);
            return Err(new_type_err(format!(
                "{name_param} is a name (str) of unimac.names(), not '{t}'"
            )));
        }
        let Some(key) = key else {
            return Err(new_type_err(format!("missing required argument '{key_param}'")));
        };
        Ok(NewArgs {
            name,
            key,
            data,
            nonce,
            caller_manages_nonces,
        })
    }

    /// Whether the call is in hmac's order: its first argument bytes-like,
    /// or none and `digestmod=` given; a `TypeError` for a first argument
    /// that is neither a name nor a key.
    fn hmac_order(args: &Bound<'py, PyTuple>, kwargs: Option<&Bound<'py, PyDict>>) -> PyResult<bool> {
        match args.get_item(0).ok() {
            Some(f) if f.is_instance_of::<PyString>() => Ok(false),
            Some(f) => {
                if data(&f, "key").is_err() {
                    let t = type_name(&f);
                    return Err(new_type_err(format!(
                        "the first argument is the name (str) or, in hmac's order, the key (bytes-like), not '{t}'"
                    )));
                }
                Ok(true)
            }
            None => Ok(kwargs
                .map(|k| k.contains("digestmod"))
                .transpose()?
                .unwrap_or(false)),
        }
    }

    /// The three arguments of the order by position (positional, then
    /// keywords by their names in that order), the nonce and
    /// `caller_manages_nonces`.
    fn by_position(
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
        hmac_order: bool,
    ) -> PyResult<(Slots<'py>, Option<Bound<'py, PyAny>>, bool)> {
        let params: [&str; 3] = if hmac_order {
            ["key", "msg", "digestmod"]
        } else {
            ["name", "key", "data"]
        };
        if args.len() > 3 {
            return Err(new_type_err(format!(
                "takes at most 3 positional arguments ({} given)",
                args.len()
            )));
        }
        let mut vals: Slots<'py> = [None, None, None];
        for (i, v) in args.iter().enumerate() {
            vals[i] = Some(v);
        }
        let mut nonce = None;
        let mut caller_manages_nonces = false;
        for (k, v) in kwargs
            .map(|k| k.iter().collect::<Vec<_>>())
            .unwrap_or_default()
        {
            let k: String = k.extract()?;
            if k == "nonce" {
                nonce = Some(v);
                continue;
            }
            if k == "caller_manages_nonces" {
                caller_manages_nonces = v.is_truthy()?;
                continue;
            }
            match params.iter().position(|p| *p == k) {
                Some(i) if vals[i].is_some() => {
                    return Err(new_type_err(format!("got multiple values for argument '{k}'")))
                }
                Some(i) => vals[i] = Some(v),
                None => {
                    return Err(new_type_err(format!(
                        "got an unexpected keyword argument '{k}'"
                    )))
                }
            }
        }
        Ok((vals, nonce, caller_manages_nonces))
    }
}

/// The object of `unimac.new` for the catalogue's entry `e`: a MAC's
/// (keyed from its row) or a hash's.
fn new_object(
    e: &'static Entry,
    key: &Bound<'_, PyAny>,
    nonce: Option<&Bound<'_, PyAny>>,
) -> PyResult<UnimacHash> {
    let k = data(key, "key")?;
    let nonce = bytes_of(nonce, "nonce")?;
    let info = &e.info;
    if let Some(d) = e.mac() {
        let m = NamedMac::of_row(d, k.as_slice()).map_err(err)?;
        // A MAC that draws its own pair (shoup4-*) sends r ‖ s ‖ tag; its
        // object holds one message and is not reusable after digest().
        let prefix = pair_framed(d).then(Vec::new);
        let stream = m.start(nonce.as_deref()).map_err(err)?;
        let stateless = !d.takes_nonce() && !pair_framed(d);
        Ok(UnimacHash {
            name: d.name.to_string(),
            digest_size: m.tag_len(),
            key_size: key_size(&info.key).unwrap_or(k.as_slice().len()),
            nonce_size: info.nonce,
            stateless,
            prefix,
            state: Mutex::new(State::Open(stream)),
        })
    } else {
        let stream = registry::open(
            &info.name,
            &Params {
                key: k.as_slice(),
                nonce: nonce.as_deref(),
                len: None,
            },
        )
        .map_err(err)?;
        Ok(UnimacHash {
            name: info.name.clone(),
            digest_size: info.out,
            key_size: key_size(&info.key).unwrap_or(k.as_slice().len()),
            nonce_size: info.nonce,
            stateless: info.nonce == 0,
            prefix: None,
            state: Mutex::new(State::Open(stream)),
        })
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<UnimacHash>()?;
    m.add_function(wrap_pyfunction!(new_, m)?)?;
    Ok(())
}
