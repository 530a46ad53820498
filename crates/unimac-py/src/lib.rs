//! The Python package `unimac` (module `unimac._unimac`): the library's
//! named MACs and hashes with the interfaces of `hmac` and `hashlib`.
//!
//! Everything goes through the library's safe by-name API (`registry`, the
//! by-name MAC, `bounds`, `modp`); the one `unsafe` block of this crate reads
//! a Python buffer in place (`buffer.rs`, the one module allowed unsafe
//! code).

#![deny(unsafe_code)]

use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};

use pyo3::create_exception;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};

// The by-name MAC of the library (one line, so its path is easy to change).
use unimac::registry::{NamedMac, Pending};

use unimac::bounds::{self, Attack};
use unimac::macs::{Framing, MacDesc};
use unimac::registry::{self, KeySpec, Params};
use unimac::verify_tag;
use unimac::Error;

#[allow(unsafe_code)] // reads a Python buffer in place; SAFETY lines there
mod buffer;
mod counter;
mod formats;
mod names;
mod oserror;
mod partial;
mod sizes;
mod stream;

use buffer::{data, with_data, GIL_RELEASE_BYTES};

create_exception!(
    unimac,
    InvalidTag,
    PyValueError,
    "A tag did not verify (wrong value or wrong length). A ValueError."
);

/// A library error as the CLI prints it: `ValueError`, or `InvalidTag` for a
/// tag that does not verify.
fn err(e: Error) -> PyErr {
    match e {
        Error::TagMismatch => InvalidTag::new_err("tag mismatch"),
        Error::OutOfMemory(_) => pyo3::exceptions::PyMemoryError::new_err(e.to_string()),
        e => PyValueError::new_err(names::for_python(&names::cite(&e.to_string()))),
    }
}

/// A `ValueError` of this crate's or the library's text, its pointers to
/// the CLI's `unimac list` made Python's (`unimac.names()`).
fn value_err(s: String) -> PyErr {
    PyValueError::new_err(names::for_python(&s))
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

fn bytes_of(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<Vec<u8>>> {
    obj.map(|o| data(o, what).map(|d| d.as_slice().to_vec()))
        .transpose()
}

/// Whether the MAC sends a random pair it draws itself before its tag
/// (the table's framing; `shoup4-*`).
fn pair_framed(d: &MacDesc) -> bool {
    d.framing == Framing::PairThenTag
}

fn key_size(k: &KeySpec) -> Option<usize> {
    k.default_len()
}

// ---------------------------------------------------------------------------
// Streaming objects: unimac.new
// ---------------------------------------------------------------------------

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
    caller_nonce_by_name(&name, "new", a.nonce.as_ref(), a.caller_manages_nonces)?;
    let h = new_object(&name, &a.key, a.nonce.as_ref())?;
    if let Some(d) = &a.data {
        h.update(d)?;
    }
    Ok(h)
}

/// A caller's nonce at a door that makes a tag (`door`, as the caller wrote
/// it: "Mac.tag", "new", …) is taken only with `caller_manages_nonces=True`,
/// as the command line's `--nonce` needs `--caller-manages-nonces` and
/// `unimac.dask` the same keyword: unimac cannot know whether the nonce was
/// used before under this key. (The opt-in without a nonce changes
/// nothing: code that passes `nonce=None` for the MACs without one may
/// keep the keyword.) Checking a tag (`verify`) takes the nonce it was made
/// with and needs no opt-in.
pub(crate) fn caller_nonce(name: &str, door: &str, given: bool, caller_manages_nonces: bool) -> PyResult<()> {
    if given && !caller_manages_nonces {
        return Err(PyValueError::new_err(format!(
            "{name}: {door}(nonce=...) takes a nonce the caller keeps from ever repeating under this key: pass caller_manages_nonces=True (unimac cannot know whether it was used before; unimac.Counter(...).next() gives nonces that never repeat)"
        )));
    }
    Ok(())
}

/// The MAC's name (without `mac-`) if `name` (any spelling a door takes)
/// is a MAC that takes a nonce from its caller (not `shoup4-*`, which
/// draws its pair, nor a hash).
pub(crate) fn nonce_mac(name: &str) -> Option<String> {
    match names::resolve_any(name) {
        Ok((full, true)) => {
            let bare = &full["mac-".len()..];
            registry::desc(bare).is_ok_and(|d| d.takes_nonce()).then(|| bare.to_string())
        }
        _ => None,
    }
}

/// [`caller_nonce`] at a door that names its MAC by `name`.
pub(crate) fn caller_nonce_by_name(name: &str, door: &str, nonce: Option<&Bound<'_, PyAny>>, caller_manages_nonces: bool) -> PyResult<()> {
    match nonce_mac(name) {
        Some(bare) => caller_nonce(&bare, door, nonce.is_some_and(|n| !n.is_none()), caller_manages_nonces),
        None => Ok(()),
    }
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

impl<'py> NewArgs<'py> {
    /// `(name, key, data)` when the first argument is a `str` (or absent
    /// without `digestmod=`); hmac's `(key, msg, digestmod)` when it is
    /// bytes-like or `digestmod=` is given. `nonce` keyword-only in both.
    fn parse(
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<NewArgs<'py>> {
        let type_err = |msg: String| {
            PyTypeError::new_err(format!("unimac.new(): {msg}; expected {NEW_ORDERS}"))
        };
        let first = args.get_item(0).ok();
        let hmac_order = match &first {
            Some(f) if f.is_instance_of::<PyString>() => false,
            Some(f) => {
                if data(f, "key").is_err() {
                    let t = f
                        .get_type()
                        .name()
                        .map(|n| n.to_string())
                        .unwrap_or_default();
                    return Err(type_err(format!(
                        "the first argument is the name (str) or, in hmac's order, the key (bytes-like), not '{t}'"
                    )));
                }
                true
            }
            None => kwargs
                .map(|k| k.contains("digestmod"))
                .transpose()?
                .unwrap_or(false),
        };
        let params: [&str; 3] = if hmac_order {
            ["key", "msg", "digestmod"]
        } else {
            ["name", "key", "data"]
        };
        if args.len() > 3 {
            return Err(type_err(format!(
                "takes at most 3 positional arguments ({} given)",
                args.len()
            )));
        }
        let mut vals: [Option<Bound<'py, PyAny>>; 3] = [None, None, None];
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
                    return Err(type_err(format!("got multiple values for argument '{k}'")))
                }
                Some(i) => vals[i] = Some(v),
                None => {
                    return Err(type_err(format!(
                        "got an unexpected keyword argument '{k}'"
                    )))
                }
            }
        }
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
            return Err(type_err(if hmac_order {
                "hmac's order needs digestmod, the MAC's or hash's name (one of unimac.names())"
                    .to_string()
            } else {
                format!("missing required argument '{name_param}'")
            }));
        };
        if !name.is_instance_of::<PyString>() {
            let t = name
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default();
            return Err(type_err(format!(
                "{name_param} is a name (str) of unimac.names(), not '{t}'"
            )));
        }
        let Some(key) = key else {
            return Err(type_err(format!("missing required argument '{key_param}'")));
        };
        Ok(NewArgs {
            name,
            key,
            data,
            nonce,
            caller_manages_nonces,
        })
    }
}

fn new_object(
    name: &str,
    key: &Bound<'_, PyAny>,
    nonce: Option<&Bound<'_, PyAny>>,
) -> PyResult<UnimacHash> {
    let (full, is_mac) = names::resolve_any(name).map_err(value_err)?;
    let k = data(key, "key")?;
    let nonce = bytes_of(nonce, "nonce")?;
    let e = registry::lookup(&full).map_err(err)?;
    let info = &e.info;
    if is_mac {
        let bare = &full["mac-".len()..];
        let m = NamedMac::new(bare, k.as_slice()).map_err(err)?;
        let d = m.desc();
        // A MAC that draws its own pair (shoup4-*) sends r ‖ s ‖ tag; its
        // object holds one message and is not reusable after digest().
        let prefix = pair_framed(d).then(Vec::new);
        let stream = m.start(nonce.as_deref()).map_err(err)?;
        let stateless = !d.takes_nonce() && !pair_framed(d);
        Ok(UnimacHash {
            name: bare.to_string(),
            digest_size: m.tag_len(),
            key_size: key_size(&info.key).unwrap_or(k.as_slice().len()),
            nonce_size: info.nonce,
            stateless,
            prefix,
            state: Mutex::new(State::Open(stream)),
        })
    } else {
        let stream = registry::open(
            &full,
            &Params {
                key: k.as_slice(),
                nonce: nonce.as_deref(),
                len: None,
            },
        )
        .map_err(err)?;
        Ok(UnimacHash {
            name: full.clone(),
            digest_size: info.out,
            key_size: key_size(&info.key).unwrap_or(k.as_slice().len()),
            nonce_size: info.nonce,
            stateless: info.nonce == 0,
            prefix: None,
            state: Mutex::new(State::Open(stream)),
        })
    }
}

/// Why [`feed_file`] failed.
enum FileError {
    Io(std::io::Error),
    /// The file changed while it was read: what was fed is not the file.
    Changed,
}

impl From<std::io::Error> for FileError {
    fn from(e: std::io::Error) -> Self {
        FileError::Io(e)
    }
}

impl FileError {
    /// The Python exception: the `OSError` subclass of an I/O error, or
    /// `OSError("PATH: changed while reading")`.
    fn into_py(self, py: Python<'_>, path: &std::path::Path) -> PyErr {
        match self {
            FileError::Io(e) => oserror::from_io(py, &e, path),
            FileError::Changed => pyo3::exceptions::PyOSError::new_err(
                unimac::formats::messages::changed_while_reading(&path.display().to_string(), None),
            ),
        }
    }
}

/// Feed the file at `path` to `update` in chunks of 1 MiB. A regular file
/// is read under the library's rule for files that change while they are
/// read (`unimac::formats::race`: its stamp compared before and after, and
/// read twice and compared if it was changed within `race::SLACK` of the
/// read); [`FileError::Changed`] if it changed. Anything else (a pipe, a
/// device) is read once to its end.
fn feed_file(path: &std::path::Path, sink: &mut dyn unimac::Absorb) -> Result<(), FileError> {
    use std::io::Read;
    use unimac::formats::race;
    let mut f = std::fs::File::open(path)?;
    if f.metadata()?.is_file() {
        return match race::read_whole(&f, 1 << 20, &mut |b: &[u8]| sink.update(b))? {
            race::Verdict::Changed => Err(FileError::Changed),
            race::Verdict::Stable | race::Verdict::Racy => Ok(()),
        };
    }
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let k = match f.read(&mut buf) {
            Ok(k) => k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e.into()),
        };
        if k == 0 {
            return Ok(());
        }
        sink.update(&buf[..k]);
    }
}

/// Whether ``tag`` (under ``nonce``: for ``shoup4-*`` the pair ``r ‖ s``)
/// is the tag of the file at ``path`` under the MAC ``name`` (one-time
/// MACs included: checking never spends a key), as ``unimac verify``
/// checks a line; read in chunks with the GIL released.
#[pyfunction]
#[pyo3(name = "_check_file", signature = (name, key, path, tag, nonce = None))]
fn check_file(
    py: Python<'_>,
    name: &str,
    key: &Bound<'_, PyAny>,
    path: PathBuf,
    tag: &Bound<'_, PyAny>,
    nonce: Option<&Bound<'_, PyAny>>,
) -> PyResult<bool> {
    let bare = names::resolve_mac(name).map_err(value_err)?;
    let k = data(key, "key")?;
    let t = bytes_of(Some(tag), "tag")?.unwrap_or_default();
    let n = bytes_of(nonce, "nonce")?;
    check_file_under(py, &bare, k.as_slice(), &path, &t, n.as_deref())
}

/// [`check_file`] with the key of the key file at ``key_path`` (one-time
/// keys included: their bytes never reach Python).
#[pyfunction]
#[pyo3(name = "_check_file_keyfile", signature = (key_path, path, tag, nonce = None))]
fn check_file_keyfile(
    py: Python<'_>,
    key_path: PathBuf,
    path: PathBuf,
    tag: &Bound<'_, PyAny>,
    nonce: Option<&Bound<'_, PyAny>>,
) -> PyResult<bool> {
    let k = py
        .allow_threads(|| unimac::formats::keyfile::KeyFile::read(&key_path))
        .map_err(|e| formats::error(py, e, &key_path))?;
    let t = bytes_of(Some(tag), "tag")?.unwrap_or_default();
    let n = bytes_of(nonce, "nonce")?;
    check_file_under(py, k.name(), k.key(), &path, &t, n.as_deref())
}

fn check_file_under(
    py: Python<'_>,
    bare: &str,
    k: &[u8],
    path: &std::path::Path,
    t: &[u8],
    n: Option<&[u8]>,
) -> PyResult<bool> {
    let d = registry::desc(bare).map_err(err)?;
    if d.one_time {
        // The one-time check takes the tag first and gives none.
        let mut c = registry::OneTimeMac::new(bare, k)
            .and_then(|m| m.start_check(t))
            .map_err(err)?;
        py.allow_threads(|| feed_file(path, &mut c))
            .map_err(|e| e.into_py(py, path))?;
        return match c.verify() {
            Ok(()) => Ok(true),
            Err(Error::TagMismatch) => Ok(false),
            Err(e) => Err(err(e)),
        };
    }
    let mut s = NamedMac::new(bare, k)
        .and_then(|m| m.start_check(n))
        .map_err(err)?;
    py.allow_threads(|| feed_file(path, &mut s))
        .map_err(|e| e.into_py(py, path))?;
    let got = zeroize::Zeroizing::new(s.finalize().map_err(err)?);
    Ok(verify_tag(&got, t).is_ok())
}

/// The MAC ``name`` (``X`` or ``mac-X``) without ``mac-``; ``ValueError``
/// (the CLI's message) for anything else.
#[pyfunction]
#[pyo3(name = "_mac_name")]
fn mac_name_py(name: &str) -> PyResult<String> {
    names::resolve_mac(name).map_err(value_err)
}

/// The nonce as the MAC's cipher sees it (UMAC's ``02`` and ``0200`` are
/// one nonce), to find a nonce used twice; ``None`` for a MAC without such
/// nonces or a nonce of the wrong size.
#[pyfunction]
#[pyo3(name = "_canonical_nonce")]
fn canonical_nonce<'py>(
    py: Python<'py>,
    name: &str,
    nonce: &Bound<'py, PyAny>,
) -> PyResult<Option<Bound<'py, PyBytes>>> {
    let bare = names::resolve_mac(name).map_err(value_err)?;
    let d = registry::desc(&bare).map_err(err)?;
    let n = data(nonce, "nonce")?;
    Ok(d.canonical_nonce(n.as_slice())
        .map(|c| PyBytes::new(py, &c)))
}

// ---------------------------------------------------------------------------
// unimac.Mac: a key set up once
// ---------------------------------------------------------------------------

/// A MAC under one key, its key set-up (tables of powers, AES schedules)
/// done once: :meth:`tag`, :meth:`verify` and :meth:`tag_file` any number of
/// messages. Safe to share between threads.
///
/// For ``shoup4-*`` :meth:`tag` returns ``r ‖ s ‖ tag`` (24 bytes: the
/// random pair drawn for the message, then the tag), as sent. A one-message
/// MAC (``hash127``) tags once; :meth:`verify` never spends it.
///
/// >>> import unimac
/// >>> m = unimac.Mac("hash127-aes", unimac.keygen("hash127-aes"))
/// >>> t = m.tag(b"attack at dawn")
/// >>> m.verify(b"attack at dawn", t)
/// >>> m.verify(b"attack at dusk", t)
/// Traceback (most recent call last):
/// ...
/// unimac.InvalidTag: tag mismatch
#[pyclass(module = "unimac", name = "Mac", frozen)]
struct PyMac {
    mac: NamedMac,
    name: String,
    tag_size: usize,
    nonce_size: usize,
    key_size: usize,
}

#[pymethods]
impl PyMac {
    #[new]
    fn py_new(name: &str, key: &Bound<'_, PyAny>) -> PyResult<PyMac> {
        let bare = names::resolve_mac(name).map_err(value_err)?;
        let k = data(key, "key")?;
        let mac = NamedMac::new(&bare, k.as_slice()).map_err(err)?;
        Ok(PyMac {
            tag_size: mac.tag_len(),
            nonce_size: mac.nonce_len(),
            key_size: k.as_slice().len(),
            name: mac.name().to_string(),
            mac,
        })
    }

    /// The tag of ``data`` (under ``nonce`` for nonce MACs; for ``shoup4-*``
    /// the nonce is ``r ‖ s``, drawn at random when not given, and the
    /// result is ``r ‖ s ‖ tag``).
    ///
    /// A nonce given by the caller is taken only with
    /// ``caller_manages_nonces=True``: unimac cannot know whether it was
    /// used before under this key (:meth:`Counter.next` gives nonces that
    /// never repeat).
    ///
    /// >>> len(unimac.Mac("umac64", bytes(16)).tag(b"msg", nonce=bytes(8), caller_manages_nonces=True))
    /// 8
    #[pyo3(signature = (data, nonce = None, *, caller_manages_nonces = false))]
    fn tag<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
        nonce: Option<&Bound<'py, PyAny>>,
        caller_manages_nonces: bool,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let given = nonce.is_some_and(|n| !n.is_none()) && self.mac.desc().takes_nonce();
        caller_nonce(&self.name, "Mac.tag", given, caller_manages_nonces)?;
        let n = match nonce {
            Some(n) => Some(buffer::data(n, "nonce")?),
            None => None,
        };
        let n = n.as_ref().map(|d| d.as_slice());
        let mut t = [0u8; 32];
        let len = with_data(data, "data", |s| self.mac.tag_into(n, s, &mut t))?.map_err(err)?;
        Ok(PyBytes::new(py, &t[..len]))
    }

    /// Check ``tag`` for ``data`` in constant time; raise
    /// :class:`unimac.InvalidTag` if it is wrong. Never spends a one-time key.
    ///
    /// >>> m = unimac.Mac("shoup4-eval64", bytes(48)); sent = m.tag(b"x")
    /// >>> m.verify(b"x", sent)
    #[pyo3(signature = (data, tag, nonce = None))]
    fn verify(
        &self,
        data: &Bound<'_, PyAny>,
        tag: &Bound<'_, PyAny>,
        nonce: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let t = buffer::data(tag, "tag")?;
        let n = match nonce {
            Some(n) => Some(buffer::data(n, "nonce")?),
            None => None,
        };
        let (n, t) = (n.as_ref().map(|d| d.as_slice()), t.as_slice());
        with_data(data, "data", |s| self.mac.verify(n, s, t))?.map_err(err)
    }

    /// The tag of the file at ``path``, read in chunks with the GIL released.
    /// A file that cannot be read raises the ``OSError`` subclass ``open``
    /// would (``FileNotFoundError``...), with ``errno`` and ``filename``.
    ///
    /// >>> with open("msg.txt", "wb") as f: _ = f.write(b"attack at dawn")
    /// >>> m = unimac.Mac("hash127-aes", bytes(32))
    /// >>> m.tag_file("msg.txt") == m.tag(b"attack at dawn")
    /// True
    /// >>> m.tag_file("missing.txt")
    /// Traceback (most recent call last):
    /// ...
    /// FileNotFoundError: [Errno 2] No such file or directory: 'missing.txt'
    #[pyo3(signature = (path, nonce = None, *, caller_manages_nonces = false))]
    fn tag_file<'py>(
        &self,
        py: Python<'py>,
        path: PathBuf,
        nonce: Option<&Bound<'py, PyAny>>,
        caller_manages_nonces: bool,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let given = nonce.is_some_and(|n| !n.is_none()) && self.mac.desc().takes_nonce();
        caller_nonce(&self.name, "Mac.tag_file", given, caller_manages_nonces)?;
        let n = bytes_of(nonce, "nonce")?;
        // The nonce is checked (with the library's messages) before the
        // file is read.
        self.mac.desc().check_nonce(n.as_deref()).map_err(err)?;
        let mut p: Pending = self.mac.start_deferred().map_err(err)?;
        let out = py
            .allow_threads(|| -> Result<Result<Vec<u8>, Error>, FileError> {
                feed_file(&path, &mut p)?;
                Ok(p.finalize(n.as_deref()))
            })
            .map_err(|e| e.into_py(py, &path))?;
        Ok(PyBytes::new(py, &out.map_err(err)?))
    }

    /// The MAC's name (without ``mac-``).
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }
    /// Tag bytes (for ``shoup4-*`` without the 16 bytes of ``r ‖ s``).
    #[getter]
    fn digest_size(&self) -> usize {
        self.tag_size
    }
    /// Nonce bytes (the largest accepted; 0 for none).
    #[getter]
    fn nonce_size(&self) -> usize {
        self.nonce_size
    }
    /// Key bytes.
    #[getter]
    fn key_size(&self) -> usize {
        self.key_size
    }
    fn __repr__(&self) -> String {
        format!(
            "unimac.Mac({:?}, <{} secret bytes>)",
            self.name, self.key_size
        )
    }
}

/// One-shot tag: ``Mac(name, key).tag(data, nonce, caller_manages_nonces=...)``
/// (a caller's nonce only with ``caller_manages_nonces=True``).
///
/// >>> import unimac
/// >>> len(unimac.tag("hash127-aes", bytes(32), b"attack at dawn"))
/// 16
#[pyfunction]
#[pyo3(signature = (name, key, data, nonce = None, *, caller_manages_nonces = false))]
fn tag<'py>(
    py: Python<'py>,
    name: &str,
    key: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    nonce: Option<&Bound<'py, PyAny>>,
    caller_manages_nonces: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let m = PyMac::py_new(name, key)?;
    let given = nonce.is_some_and(|n| !n.is_none()) && m.mac.desc().takes_nonce();
    caller_nonce(&m.name, "tag", given, caller_manages_nonces)?;
    m.tag(py, data, nonce, caller_manages_nonces)
}

/// One-shot verification: ``Mac(name, key).verify(data, tag, nonce)``;
/// raises :class:`unimac.InvalidTag` if the tag is wrong.
///
/// >>> import unimac
/// >>> t = unimac.tag("hash127-aes", bytes(32), b"m")
/// >>> unimac.verify("hash127-aes", bytes(32), b"m", t)
#[pyfunction]
#[pyo3(signature = (name, key, data, tag, nonce = None))]
fn verify(
    name: &str,
    key: &Bound<'_, PyAny>,
    data: &Bound<'_, PyAny>,
    tag: &Bound<'_, PyAny>,
    nonce: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    PyMac::py_new(name, key)?.verify(data, tag, nonce)
}

/// Any name of the wire format (docs/WIRE.md) on ``data``, as ``unimac compute``:
/// raw hashes (``hash127``, ``eval64``, ``tree-mmh32x2``, ``modp``,
/// ``keystream`` with ``length``) and MACs (``mac-X``, or ``X`` when ``X``
/// is not itself a hash name).
///
/// A nonce MAC's nonce given by the caller is taken only with
/// ``caller_manages_nonces=True`` (as ``unimac compute --nonce`` needs
/// ``--caller-manages-nonces``).
///
/// >>> import unimac
/// >>> unimac.compute("keystream", bytes(16), b"", length=4).hex()
/// '66e94bd4'
#[pyfunction]
#[pyo3(signature = (name, key, data, nonce = None, length = None, *, caller_manages_nonces = false))]
#[allow(clippy::too_many_arguments)]
fn compute<'py>(
    py: Python<'py>,
    name: &str,
    key: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    nonce: Option<&Bound<'py, PyAny>>,
    length: Option<usize>,
    caller_manages_nonces: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    caller_nonce_by_name(name, "compute", nonce, caller_manages_nonces)?;
    by_spec(py, name, key, data, nonce, length, registry::compute)
}

/// The catalogue's `compute` or `known_answer`.
type ByName = fn(&str, &Params<'_>, &[u8]) -> Result<Vec<u8>, Error>;

/// A name of the wire format on ``data`` through `f` (the catalogue's
/// `compute` or `known_answer`), with the arguments as Python gives them.
fn by_spec<'py>(
    py: Python<'py>,
    name: &str,
    key: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    nonce: Option<&Bound<'py, PyAny>>,
    length: Option<usize>,
    f: ByName,
) -> PyResult<Bound<'py, PyBytes>> {
    let full = names::resolve_spec(name).map_err(value_err)?;
    let k = buffer::data(key, "key")?;
    let n = match nonce {
        Some(n) => Some(buffer::data(n, "nonce")?),
        None => None,
    };
    let p = Params {
        key: k.as_slice(),
        nonce: n.as_ref().map(|d| d.as_slice()),
        len: length,
    };
    let out = with_data(data, "data", |s| f(&full, &p, s))?.map_err(err)?;
    Ok(PyBytes::new(py, &out))
}

/// The known answer of any name of the wire format, as its vector files
/// give it, including the values :func:`compute` and :func:`tag` refuse:
/// one-time MACs (``hash127``, ``hash127-96``, and the hash ``hash127``,
/// whose value under ``r ‖ k`` is that MAC's tag) and ``shoup4-*`` under a
/// given ``r ‖ s`` (``nonce``; the result is the 8-byte tag). For checking
/// against published vectors only: nothing is spent, so never use it to
/// authenticate (:class:`OneTimeKey` tags once).
///
/// >>> import unimac
/// >>> len(unimac.known_answer("hash127", bytes(32), b"abc"))
/// 16
#[pyfunction]
#[pyo3(signature = (name, key, data, nonce = None, length = None))]
fn known_answer<'py>(
    py: Python<'py>,
    name: &str,
    key: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    nonce: Option<&Bound<'py, PyAny>>,
    length: Option<usize>,
) -> PyResult<Bound<'py, PyBytes>> {
    by_spec(py, name, key, data, nonce, length, registry::known_answer)
}

/// A one-time MAC key (``hash127``, ``hash127-96``): it tags ONE message.
/// :meth:`tag` spends it (a second call raises ``ValueError``);
/// :meth:`verify` never does. The only door to these MACs: :func:`tag`,
/// :func:`compute`, :func:`new`, :class:`Mac`, the partial hashes and
/// ``unimac.dask`` refuse them. A key copied elsewhere (a second object, a
/// copied key file) is not known to be spent: make a fresh key per message
/// (:func:`keygen`).
///
/// >>> import unimac
/// >>> k = unimac.OneTimeKey("hash127", unimac.keygen("hash127"))
/// >>> t = k.tag(b"attack at dawn")
/// >>> k.verify(b"attack at dawn", t)
/// >>> k.tag(b"attack at dusk")
/// Traceback (most recent call last):
/// ...
/// ValueError: hash127: this one-time key has already tagged a message (one message per key); make a new key
#[pyclass(module = "unimac", name = "OneTimeKey", frozen)]
struct PyOneTimeKey {
    name: String,
    tag_size: usize,
    /// The key until it tags; `None` after.
    key: Mutex<Option<registry::OneTimeMac>>,
    /// Checking stays possible after the tag.
    check: registry::OneTimeMac,
    /// The key file it was read from (:meth:`OneTimeKey.from_file`): its
    /// tag spends the file, under the file's lock, as ``unimac tag`` does.
    file: Option<PathBuf>,
}

#[pymethods]
impl PyOneTimeKey {
    #[new]
    fn py_new(name: &str, key: &Bound<'_, PyAny>) -> PyResult<PyOneTimeKey> {
        let bare = names::resolve_mac(name).map_err(value_err)?;
        let k = data(key, "key")?;
        let m = registry::OneTimeMac::new(&bare, k.as_slice()).map_err(err)?;
        let check = registry::OneTimeMac::new(&bare, k.as_slice()).map_err(err)?;
        Ok(PyOneTimeKey {
            name: m.desc().name.to_string(),
            tag_size: m.tag_len(),
            key: Mutex::new(Some(m)),
            check,
            file: None,
        })
    }
    /// The one-time key of the key file at ``path`` (``unimac keygen
    /// hash127 -o FILE``), bound to the file: its one tag marks the file
    /// ``spent`` (under the file's lock, synced before the tag is
    /// returned), as ``unimac tag`` does, so no door tags twice with it. A
    /// file already marked spent is refused (``ValueError``) unless
    /// ``spent_ok=True``, which gives a key that only checks (``spent`` is
    /// true); a key file of a reusable MAC is refused.
    ///
    /// >>> import unimac, os, tempfile
    /// >>> path = os.path.join(tempfile.mkdtemp(), "o.key")
    /// >>> unimac.save_key(path, "hash127", unimac.keygen("hash127"))
    /// >>> k = unimac.OneTimeKey.from_file(path)
    /// >>> t = k.tag(b"attack at dawn")
    /// >>> open(path).read().splitlines()[-1]
    /// 'spent'
    /// >>> unimac.OneTimeKey.from_file(path)
    /// Traceback (most recent call last):
    /// ...
    /// ValueError: key file ...: this hash127 key has already tagged a message (one message per key, Bernstein's Theorem 8.2); make a new key with 'unimac keygen hash127'
    #[staticmethod]
    #[pyo3(signature = (path, *, spent_ok = false))]
    fn from_file(py: Python<'_>, path: PathBuf, spent_ok: bool) -> PyResult<PyOneTimeKey> {
        use unimac::formats::keyfile::{KeyFile, OneTimeKeyFile};
        let read = KeyFile::read(&path).map_err(|e| formats::error(py, e, &path))?;
        if read.is_spent() && spent_ok {
            warn_key_file(py, &read)?;
            let check = registry::OneTimeMac::new(read.name(), read.key()).map_err(err)?;
            return Ok(PyOneTimeKey {
                name: read.name().to_string(),
                tag_size: check.tag_len(),
                key: Mutex::new(None),
                check,
                file: Some(path),
            });
        }
        let f = py
            .allow_threads(|| OneTimeKeyFile::open(&path))
            .map_err(|e| formats::error(py, e, &path))?;
        let k = f.key_file();
        warn_key_file(py, k)?;
        let m = registry::OneTimeMac::new(k.name(), k.key()).map_err(err)?;
        let check = registry::OneTimeMac::new(k.name(), k.key()).map_err(err)?;
        Ok(PyOneTimeKey {
            name: k.name().to_string(),
            tag_size: m.tag_len(),
            key: Mutex::new(Some(m)),
            check,
            file: Some(path),
        })
    }
    /// The tag of ``data``, the key's one message; the key is spent (and,
    /// for a key from :meth:`from_file`, its file marked spent first).
    fn tag<'py>(&self, py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
        let mut slot = lock(&self.key);
        let m = slot
            .take()
            .ok_or_else(|| err(Error::KeySpent(self.name.clone())))?;
        let Some(path) = &self.file else {
            let t = with_data(data, "data", |s| m.tag(s))?;
            return Ok(PyBytes::new(py, &t));
        };
        drop(m);
        // Through the file: locked, refused if another door spent it since,
        // marked spent before the tag is returned.
        let f = unimac::formats::keyfile::OneTimeKeyFile::open(path)
            .map_err(|e| formats::error(py, e, path))?;
        let t = with_data(data, "data", |s| f.tag(s))?.map_err(|e| formats::error(py, e, path))?;
        Ok(PyBytes::new(py, &t))
    }
    /// Check ``tag`` for ``data`` in constant time; raise
    /// :class:`unimac.InvalidTag` if it is wrong. Does not spend the key.
    fn verify(&self, data: &Bound<'_, PyAny>, tag: &Bound<'_, PyAny>) -> PyResult<()> {
        let t = buffer::data(tag, "tag")?;
        let ts = t.as_slice();
        with_data(data, "data", |s| self.check.verify(s, ts))?.map_err(err)
    }
    /// Whether the key has tagged its message.
    #[getter]
    fn spent(&self) -> bool {
        lock(&self.key).is_none()
    }
    /// The MAC's name.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }
    /// Tag bytes.
    #[getter]
    fn digest_size(&self) -> usize {
        self.tag_size
    }
    fn __repr__(&self) -> String {
        format!(
            "unimac.OneTimeKey('{}', spent={})",
            self.name,
            if self.spent() { "True" } else { "False" }
        )
    }
}

/// Show a key file's warning (open to group or others) as a Python
/// warning.
fn warn_key_file(py: Python<'_>, k: &unimac::formats::keyfile::KeyFile) -> PyResult<()> {
    if let Some(w) = k.warning() {
        let cat = py.get_type::<pyo3::exceptions::PyUserWarning>();
        PyErr::warn(py, &cat, &std::ffi::CString::new(w).unwrap_or_default(), 2)?;
    }
    Ok(())
}

/// Compare two buffers in constant time (``hmac.compare_digest``).
///
/// >>> import unimac
/// >>> unimac.compare_digest(b"abc", bytearray(b"abc"))
/// True
#[pyfunction]
fn compare_digest(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<bool> {
    let (a, b) = (data(a, "a")?, data(b, "b")?);
    Ok(verify_tag(a.as_slice(), b.as_slice()).is_ok())
}

/// Every name of the wire format (docs/WIRE.md) in this build (``mac-`` for
/// MACs, ``tree-`` for tree modes), in the wire format's order.
///
/// >>> import unimac
/// >>> "mac-hash127-aes" in unimac.names()
/// True
#[pyfunction]
#[pyo3(name = "names")]
fn all_names() -> Vec<String> {
    registry::entries()
        .iter()
        .map(|e| e.info.name.clone())
        .collect()
}

/// The MAC names (without ``mac-``), as ``unimac tag`` takes them.
///
/// >>> import unimac
/// >>> "wc-mmh32x4" in unimac.mac_names()
/// True
#[pyfunction]
fn mac_names() -> Vec<String> {
    registry::names()
}

/// What the name takes and gives: a dict with ``name``, ``mac``,
/// ``key_size`` (None where the key is as long as the message),
/// ``key_sizes`` (text), ``nonce_size``, ``nonce_sizes`` (min, max),
/// ``digest_size``, ``one_time``, ``nonce``, ``stateless``, ``summary``
/// (with the paper cited).
///
/// >>> import unimac
/// >>> unimac.info("hash127-aes")["key_size"]
/// 32
#[pyfunction]
fn info<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyDict>> {
    let (full, is_mac) = names::resolve_any(name).map_err(value_err)?;
    let e = registry::lookup(&full).map_err(err)?;
    let i = &e.info;
    // Everything about a MAC comes from its row of the one table.
    let row = if is_mac { e.mac() } else { None };
    let bare = row.map_or_else(|| full.clone(), |d| d.name.to_string());
    let one_time = unimac::macs::one_time_row(&full).is_some();
    let pair = row.is_some_and(pair_framed);
    let sizes = registry::nonce_sizes(i);
    let d = PyDict::new(py);
    d.set_item("name", if is_mac { bare.clone() } else { full.clone() })?;
    d.set_item("spec_name", &full)?;
    d.set_item("mac", is_mac)?;
    d.set_item(
        "key_size",
        match i.key {
            KeySpec::PerElement(_) => None,
            k => k.default_len(),
        },
    )?;
    d.set_item("key_sizes", i.key.describe())?;
    d.set_item("nonce_size", i.nonce)?;
    d.set_item("nonce_sizes", (*sizes.start(), *sizes.end()))?;
    d.set_item("digest_size", i.out)?;
    d.set_item("sent_size", row.map_or(i.out, |r| r.sent_len()))?;
    d.set_item("takes_length", i.takes_len)?;
    d.set_item("one_time", one_time)?;
    d.set_item("nonce", row.map_or(i.nonce > 0, |r| r.takes_nonce()))?;
    d.set_item("random_pair", pair)?;
    d.set_item(
        "stateless",
        row.map_or(i.nonce == 0, |r| !r.takes_nonce()) && !one_time,
    )?;
    d.set_item("summary", names::cite(&i.summary))?;
    Ok(d)
}

/// A fresh random key for ``name`` from the operating system's generator
/// (``modp``: a random prime of [2^120, 2^128), 16 bytes little-endian).
///
/// >>> import unimac
/// >>> len(unimac.keygen("wc-mmh32x4"))
/// 32
#[pyfunction]
fn keygen<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyBytes>> {
    if names::is_modp(name) {
        let p = unimac::modp::SecretPrime::generate().map_err(err)?;
        return Ok(PyBytes::new(py, &p.to_bytes()[..]));
    }
    // A MAC as `unimac keygen` takes it (with its messages), else a hash.
    let full = match names::resolve_mac(name) {
        Ok(m) => format!("mac-{m}"),
        Err(msg) => match names::resolve_any(name) {
            Ok((full, _)) => full,
            Err(_) => return Err(value_err(msg)),
        },
    };
    let e = registry::lookup(&full).map_err(err)?;
    let len = match e.info.key {
        KeySpec::PerElement(_) => {
            return Err(value_err(format!(
                "{name}: the key is as long as the message; no fixed-size key to make"
            )))
        }
        k => k.default_len().unwrap_or(0),
    };
    PyBytes::new_with(py, len, |b| {
        getrandom::fill(b).map_err(|e| {
            value_err(format!(
                "the operating system's random generator failed: {e}"
            ))
        })
    })
}

// ---------------------------------------------------------------------------
// Bounds
// ---------------------------------------------------------------------------

fn log2_py(l: f64) -> f64 {
    l
}

/// A forgery bound (see :func:`unimac.bound`).
#[pyclass(module = "unimac", name = "Bound", frozen, get_all)]
struct PyBound {
    /// The MAC.
    name: String,
    /// log2 of the bound (``-inf`` for 0).
    log2: f64,
    /// The bound, ``2 ** log2`` (0.0 if it underflows).
    value: f64,
    /// Whether every ingredient is proven.
    proven: bool,
    /// The theorem it comes from.
    theorem: String,
    /// log2 of the theorem's own formula alone.
    theorem_log2: f64,
    /// The terms added up: dicts with ``what``, ``formula``, ``log2``, ``from_theorem``.
    terms: Py<PyList>,
    /// Terms to add that are not in the number (AES's advantage).
    not_included: Vec<String>,
    /// Parameters derived from the attack.
    params: Vec<(String, String)>,
    /// Caveats.
    notes: Vec<String>,
    /// The bound as ``unimac bound`` prints it.
    text: String,
}

#[pymethods]
impl PyBound {
    fn __repr__(&self) -> String {
        format!(
            "<unimac.Bound {}: 2^{:.2}, {}>",
            self.name,
            self.log2,
            if self.proven { "proven" } else { "NOT proven" }
        )
    }
    fn __float__(&self) -> f64 {
        self.value
    }
}

/// The forgery bound of the MAC ``name``: the probability that any of
/// ``forgeries`` attempts succeeds after ``tags`` tagged messages of at most
/// ``max_bytes`` bytes (``random_nonces``: nonces drawn at random instead of
/// from a counter). Raises ``ValueError`` where the theorem says nothing.
/// ``modp``: the probability that a false identity ``a² = bc + de`` on
/// operands of at most ``max_bytes`` bytes passes one of ``forgeries``
/// checks (as ``unimac bound modp``).
///
/// ``max_bytes``, ``tags`` and ``forgeries`` are ints, or strings as
/// ``unimac bound`` takes them: ``"1MiB"``, ``"1.5MiB"``, ``"4KiB"``,
/// ``"1MB"``, ``"1PiB"``, ``"2^20"``, ``"1e6"`` (whole numbers up to
/// 2^64 - 1; ``ValueError`` otherwise).
///
/// >>> import unimac
/// >>> b = unimac.bound("hash127-aes", 1 << 20, tags=1 << 20)
/// >>> b.log2 < -60 and b.proven
/// True
/// >>> unimac.bound("hash127-aes", "1MiB", tags="2^20").log2 == b.log2
/// True
#[pyfunction]
#[pyo3(
    signature = (name, max_bytes, tags = None, forgeries = None, random_nonces = false),
    text_signature = "(name, max_bytes, tags=1, forgeries=1, random_nonces=False)"
)]
fn bound(
    py: Python<'_>,
    name: &str,
    max_bytes: &Bound<'_, PyAny>,
    tags: Option<&Bound<'_, PyAny>>,
    forgeries: Option<&Bound<'_, PyAny>>,
    random_nonces: bool,
) -> PyResult<PyBound> {
    let max_bytes = sizes::count(max_bytes, "max_bytes")?;
    let tags = tags.map_or(Ok(1), |t| sizes::count(t, "tags"))?;
    let forgeries = forgeries.map_or(Ok(1), |f| sizes::count(f, "forgeries"))?;
    if names::is_modp(name) {
        return modp_bound(py, max_bytes, forgeries);
    }
    let bare = names::resolve_mac(name).map_err(value_err)?;
    let attack = Attack {
        max_bytes,
        tags,
        forgeries,
        random_nonces,
    };
    let b = bounds::bound(&bare, &attack).map_err(err)?;
    let terms = PyList::empty(py);
    for t in &b.terms {
        let d = PyDict::new(py);
        d.set_item("what", names::cite(&t.what))?;
        d.set_item("formula", &t.formula)?;
        d.set_item("log2", log2_py(t.log2.0))?;
        d.set_item("from_theorem", t.theorem)?;
        terms.append(d)?;
    }
    Ok(PyBound {
        name: b.name.clone(),
        log2: b.log2.0,
        value: b.log2.0.exp2(),
        proven: b.proven,
        theorem: names::cite(&b.theorem),
        theorem_log2: b.theorem_log2().0,
        terms: terms.unbind(),
        not_included: b.not_included.clone(),
        params: b.params.clone(),
        notes: b.notes.iter().map(|n| names::cite(n)).collect(),
        text: names::cite(&b.to_text()),
    })
}

/// `unimac bound modp`: a false identity `a² = bc + de` on operands of at
/// most `max_bytes` bytes passes one of `checks` checks under one secret
/// prime with at most this probability.
fn modp_bound(py: Python<'_>, max_bytes: u64, checks: u64) -> PyResult<PyBound> {
    if checks == 0 {
        return Err(value_err(
            "forgeries (the number of checks) must be at least 1".into(),
        ));
    }
    let n = max_bytes
        .checked_mul(16)
        .and_then(|x| x.checked_add(1))
        .ok_or_else(|| {
            value_err(format!(
                "max_bytes too large for modp: 16 * {max_bytes} + 1 is more than 2^64 - 1"
            ))
        })?;
    let one = unimac::modp::false_accept_log2(n);
    let all = if one == f64::NEG_INFINITY {
        one
    } else {
        one + (checks as f64).log2()
    };
    if all >= 0.0 {
        return Err(value_err(format!(
            "modp: the bound is 2^{all:.2} >= 1 for L = {max_bytes} bytes and {checks} checks"
        )));
    }
    let terms = PyList::empty(py);
    let d = PyDict::new(py);
    d.set_item("what", "a false identity passes one of the checks")?;
    d.set_item(
        "formula",
        "Q * floor((N - 1)/120) / #primes in [2^120, 2^128), N = 16L + 1",
    )?;
    d.set_item("log2", all)?;
    d.set_item("from_theorem", true)?;
    terms.append(d)?;
    let text = format!(
        "modp: a false identity a^2 = bc + de passes with probability <= 2^{all:.2}\n  operands of at most {max_bytes} bytes: |a^2 - bc - de| < 2^N, N = 16L + 1 = {n}\n  per check: floor((N - 1)/120) primes >= 2^120 divide it, out of > 2^{:.2} primes in [2^120, 2^128)\n  {checks} check(s) under one key: at most {checks} times that\n",
        unimac::modp::primes_in_range_log2()
    );
    Ok(PyBound {
        name: unimac::formats::keyfile::KeyKind::Modp.name().into(),
        log2: all,
        value: all.exp2(),
        proven: true,
        theorem: names::cite("Bernstein, “Floating-point arithmetic and message authentication”, \"Other applications\": primes dividing the difference"),
        theorem_log2: all,
        terms: terms.unbind(),
        not_included: Vec::new(),
        params: vec![("N".into(), n.to_string())],
        notes: vec!["the key (the prime) must stay secret from whoever supplies the operands".into()],
        text,
    })
}

// ---------------------------------------------------------------------------
// Counter
// ---------------------------------------------------------------------------

/// The crash-safe nonce counter file of ``unimac keygen --counter`` (same
/// format), bound to one MAC and one key: ``Counter(path, name, key)``. The
/// file's first line names the MAC and a fingerprint of the key (it reveals
/// nothing of the key); a counter made for another key or MAC, one with a
/// second hard link, or anything but a regular file is refused. Every
/// :meth:`next` is on disk (written, fsynced, renamed, directory fsynced,
/// under a lock) before its nonce is returned, so a process killed at any
/// point never hands a nonce out twice.
///
/// The nonce is the counter as the MAC's full-length nonce in its byte
/// order (16 bytes little-endian; VMAC big-endian), as ``unimac tag
/// --counter`` makes them.
///
/// >>> import unimac, tempfile, os
/// >>> path = os.path.join(tempfile.mkdtemp(), "n.ctr")
/// >>> key = unimac.keygen("wc-eval128")
/// >>> c = unimac.Counter.create(path, "wc-eval128", key)
/// >>> c.next() == (0).to_bytes(16, "little"), c.next() == (1).to_bytes(16, "little")
/// (True, True)
/// >>> unimac.Counter(path, "wc-eval128", unimac.keygen("wc-eval128"))
/// Traceback (most recent call last):
/// ...
/// ValueError: counter file ... belongs to another wc-eval128 key ...
#[pyclass(module = "unimac", name = "Counter", frozen)]
struct PyCounter {
    path: PathBuf,
    desc: &'static MacDesc,
    binding: unimac::counter::Binding,
}

impl PyCounter {
    fn bind(path: PathBuf, name: &str, key: &Bound<'_, PyAny>) -> PyResult<PyCounter> {
        let bare = names::resolve_mac(name).map_err(value_err)?;
        let desc = registry::desc(&bare).map_err(err)?;
        if !desc.takes_nonce() {
            return Err(value_err(format!(
                "{}: takes no nonce; a counter is for nonce MACs",
                desc.name
            )));
        }
        let k = data(key, "key")?;
        if !desc.accepts_key(k.as_slice().len()) {
            return Err(err(Error::KeyLength {
                name: desc.name.into(),
                expected: KeySpec::OneOf(desc.key_sizes).describe(),
                got: k.as_slice().len(),
            }));
        }
        let binding = unimac::counter::Binding::new(desc, k.as_slice());
        Ok(PyCounter {
            path,
            desc,
            binding,
        })
    }
}

#[pymethods]
impl PyCounter {
    /// Open the counter file at ``path`` for MAC ``name`` under ``key``: it
    /// must exist and be bound to them (checked now).
    #[new]
    fn py_new(
        py: Python<'_>,
        path: PathBuf,
        name: &str,
        key: &Bound<'_, PyAny>,
    ) -> PyResult<PyCounter> {
        let c = PyCounter::bind(path, name, key)?;
        c.peek(py)?;
        Ok(c)
    }

    /// Create a new counter file at ``path`` bound to ``name`` and ``key``
    /// (starting at 0; never overwrites: ``FileExistsError``) and open it.
    #[staticmethod]
    fn create(
        py: Python<'_>,
        path: PathBuf,
        name: &str,
        key: &Bound<'_, PyAny>,
    ) -> PyResult<PyCounter> {
        let c = PyCounter::bind(path, name, key)?;
        py.allow_threads(|| counter::create(&c.path, &c.binding))?;
        Ok(c)
    }

    /// Reserve ``count`` consecutive counters durably; returns the first (an int).
    #[pyo3(signature = (count = 1))]
    fn reserve(&self, py: Python<'_>, count: u128) -> PyResult<u128> {
        if count == 0 {
            return Err(value_err("count must be at least 1".into()));
        }
        py.allow_threads(|| counter::reserve(&self.path, count, &self.binding))
    }

    /// The next nonce, durable before it is returned.
    fn next<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let c = self.reserve(py, 1)?;
        let n = self.desc.counter_nonce(c).ok_or_else(|| {
            value_err(format!(
                "{}: nonce counter {c} does not fit its nonce (VMAC reserves 16-byte nonces with the top bit set); use a new key",
                self.desc.name
            ))
        })?;
        Ok(PyBytes::new(py, &n))
    }

    /// The next unused counter, as stored (an int; nothing is reserved).
    fn peek(&self, py: Python<'_>) -> PyResult<u128> {
        py.allow_threads(|| counter::peek(&self.path, &self.binding))
    }

    /// The counter file's path.
    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }
    /// The MAC it serves.
    #[getter]
    fn name(&self) -> &str {
        self.desc.name
    }
    fn __repr__(&self) -> String {
        format!(
            "unimac.Counter({:?}, {:?})",
            self.path.display().to_string(),
            self.desc.name
        )
    }
}

// ---------------------------------------------------------------------------
// modp
// ---------------------------------------------------------------------------

/// A secret random prime ``p`` of [2^120, 2^128) (wire name ``modp``), to
/// check ring identities on huge integers: ``SecretPrime()`` draws one,
/// ``SecretPrime(key)`` takes a 16-byte little-endian key.
///
/// >>> import unimac
/// >>> p = unimac.SecretPrime()
/// >>> p.check_identity(3, 2, 4, 1, 1)   # 3^2 = 2*4 + 1*1
/// True
/// >>> p.reduce(12345)
/// 12345
#[pyclass(module = "unimac", name = "SecretPrime", frozen)]
struct PySecretPrime {
    p: unimac::modp::SecretPrime,
}

/// A non-negative Python int as little-endian bytes (buffers taken as they are).
fn int_bytes(x: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<u8>> {
    if x.is_instance_of::<pyo3::types::PyInt>() {
        if x.lt(0)? {
            return Err(value_err(format!(
                "{what}: a non-negative integer is required"
            )));
        }
        let bits: usize = x.call_method0("bit_length")?.extract()?;
        let b = x.call_method1("to_bytes", (bits.div_ceil(8), "little"))?;
        return Ok(b.downcast::<PyBytes>()?.as_bytes().to_vec());
    }
    Err(PyTypeError::new_err(format!("{what}: an int is required")))
}

#[pymethods]
impl PySecretPrime {
    #[new]
    #[pyo3(signature = (key = None))]
    fn py_new(key: Option<&Bound<'_, PyAny>>) -> PyResult<PySecretPrime> {
        let p = match key {
            None => unimac::modp::SecretPrime::generate(),
            Some(k) => unimac::modp::SecretPrime::from_bytes(data(k, "key")?.as_slice()),
        }
        .map_err(err)?;
        Ok(PySecretPrime { p })
    }

    /// ``x mod p`` for a non-negative int ``x`` of any size.
    fn reduce(&self, py: Python<'_>, x: &Bound<'_, PyAny>) -> PyResult<u128> {
        let b = int_bytes(x, "x")?;
        Ok(py.allow_threads(|| self.p.reduce_u128(&b)))
    }

    /// Whether ``a² ≡ bc + de (mod p)`` (non-negative ints), as ``unimac
    /// check-identity``: a true identity always passes; a false one passes
    /// with probability at most :meth:`false_accept_log2` (log2).
    fn check_identity(
        &self,
        py: Python<'_>,
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        c: &Bound<'_, PyAny>,
        d: &Bound<'_, PyAny>,
        e: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        let v = [
            int_bytes(a, "a")?,
            int_bytes(b, "b")?,
            int_bytes(c, "c")?,
            int_bytes(d, "d")?,
            int_bytes(e, "e")?,
        ];
        Ok(py.allow_threads(|| self.p.check_identity(&v[0], &v[1], &v[2], &v[3], &v[4])))
    }

    /// log2 of the probability that a false identity of these operands
    /// passes (``-inf``: none can).
    #[staticmethod]
    fn false_accept_log2(
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        c: &Bound<'_, PyAny>,
        d: &Bound<'_, PyAny>,
        e: &Bound<'_, PyAny>,
    ) -> PyResult<f64> {
        let v = [
            int_bytes(a, "a")?,
            int_bytes(b, "b")?,
            int_bytes(c, "c")?,
            int_bytes(d, "d")?,
            int_bytes(e, "e")?,
        ];
        let n = unimac::modp::identity_bits(&v[0], &v[1], &v[2], &v[3], &v[4]);
        Ok(unimac::modp::false_accept_log2(n))
    }

    /// The key ``p``, 16 bytes little-endian (keep it secret).
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.p.to_bytes()[..])
    }

    fn __repr__(&self) -> &'static str {
        "unimac.SecretPrime(<secret>)"
    }
}

#[pymodule]
fn _unimac(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("InvalidTag", py.get_type::<InvalidTag>())?;
    m.add_class::<UnimacHash>()?;
    m.add_class::<PyMac>()?;
    m.add_class::<PyBound>()?;
    m.add_class::<PyCounter>()?;
    m.add_class::<PyOneTimeKey>()?;
    m.add_function(wrap_pyfunction!(known_answer, m)?)?;
    m.add_class::<PySecretPrime>()?;
    m.add_function(wrap_pyfunction!(new_, m)?)?;
    m.add_function(wrap_pyfunction!(tag, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(compute, m)?)?;
    m.add_function(wrap_pyfunction!(compare_digest, m)?)?;
    m.add_function(wrap_pyfunction!(all_names, m)?)?;
    m.add_function(wrap_pyfunction!(mac_names, m)?)?;
    m.add_function(wrap_pyfunction!(info, m)?)?;
    m.add_function(wrap_pyfunction!(keygen, m)?)?;
    m.add_function(wrap_pyfunction!(bound, m)?)?;
    m.add_function(wrap_pyfunction!(check_file, m)?)?;
    #[cfg(unix)]
    m.add_function(wrap_pyfunction!(formats::open_argument, m)?)?;
    m.add_function(wrap_pyfunction!(check_file_keyfile, m)?)?;
    m.add_function(wrap_pyfunction!(mac_name_py, m)?)?;
    m.add_function(wrap_pyfunction!(canonical_nonce, m)?)?;
    formats::register(m)?;
    stream::register(m)?;
    partial::register(m)?;
    m.add("GIL_RELEASE_BYTES", GIL_RELEASE_BYTES)?;
    // The package's version is the crate's (pyproject.toml takes it from
    // Cargo.toml): set here, so that `import unimac` reads no distribution
    // metadata (importlib.metadata costs more than the rest of the import).
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
