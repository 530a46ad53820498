//! Combinable partial hashes (`unimac_front::partial`): hash the chunks of one
//! message in different processes or machines, combine the pieces, and
//! finish the hash or the MAC where the whole key is.

use std::fs::File;
use std::path::{Path, PathBuf};

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use unimac_front::formats::race;
use unimac_front::partial::{self, Partial, PartialStream};
use zeroize::Zeroize;

use crate::buffer::{data, with_data};
use crate::err;

/// `name` as the partial API takes it (any case): the library resolves it
/// (`X` stands for `mac-X` when it is a MAC and not a wire name).
fn pname(name: &str) -> String {
    crate::names::lower(name).into_owned()
}

fn decode(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Partial> {
    let d = data(obj, what)?;
    Partial::from_bytes(d.as_slice()).map_err(err)
}

fn encode<'py>(py: Python<'py>, p: &Partial) -> Bound<'py, PyBytes> {
    let mut b = p.to_bytes();
    let out = PyBytes::new(py, &b);
    // The partial is as secret as the hash key: no copy left behind here.
    b.zeroize();
    out
}

/// The partial hash of ``data``, the bytes at ``offset .. offset + len(data)``
/// of a message, under ``name``'s hash key (:func:`hash_key`; for a MAC not
/// its cipher key), as bytes (a self-describing, checked encoding).
///
/// ``last``: the chunk ends the message (it gets the padding). ``offset``
/// must be a multiple of :func:`granularity`, and a chunk that is not the
/// last a non-zero multiple of it. Names are those of the wire
/// format, docs/WIRE.md (``hash127``, ``eval64``, ``tree-mmh32x2``, ``mac-hash127``
/// …); ``hash127-aes…``, ``hash127-96`` and ``wc-…`` stand for their
/// ``mac-`` names. Inputs of 2 KiB or more are hashed with the GIL released.
///
/// A partial reveals the hash key to whoever sees it: send it only over an
/// encrypted, authenticated channel.
///
/// >>> import unimac
/// >>> key = bytes(range(24))                      # wc-eval64: K (16) ‖ g (8)
/// >>> hk = unimac.hash_key("wc-eval64", key)      # g only
/// >>> msg = bytes(1000)
/// >>> a = unimac.partial_hash("wc-eval64", hk, 0, msg[:400], last=False)
/// >>> b = unimac.partial_hash("wc-eval64", hk, 400, msg[400:], last=True)
/// >>> whole = unimac.partial_combine(a, b)
/// >>> n = bytes(16)
/// >>> unimac.finish_mac("wc-eval64", key, whole, nonce=n, caller_manages_nonces=True) == unimac.tag("wc-eval64", key, msg, nonce=n, caller_manages_nonces=True)
/// True
#[pyfunction]
#[pyo3(signature = (name, hash_key, offset, data, last = true))]
pub fn partial_hash<'py>(
    py: Python<'py>,
    name: &str,
    hash_key: &Bound<'py, PyAny>,
    offset: u64,
    data: &Bound<'py, PyAny>,
    last: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let name = pname(name);
    let hk = crate::buffer::data(hash_key, "hash_key")?;
    let hk = hk.as_slice();
    let p = with_data(data, "data", |s| Partial::hash(&name, hk, offset, s, last))?.map_err(err)?;
    Ok(encode(py, &p))
}

/// The partial of two adjacent pieces: ``a`` (the earlier bytes) followed by
/// ``b``. Needs no key; the order matters, the grouping does not
/// (``combine(combine(a, b), c) == combine(a, combine(b, c))``).
///
/// >>> import unimac
/// >>> hk = bytes(8)
/// >>> a = unimac.partial_hash("eval64", hk, 0, bytes(16), last=False)
/// >>> b = unimac.partial_hash("eval64", hk, 16, b"xyz")
/// >>> unimac.finish_hash("eval64", hk, unimac.partial_combine(a, b)) == unimac.compute("eval64", hk, bytes(16) + b"xyz")
/// True
#[pyfunction]
pub fn partial_combine<'py>(py: Python<'py>, a: &Bound<'py, PyAny>, b: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    let (pa, pb) = (decode(a, "a")?, decode(b, "b")?);
    let c = if pa.len() + pb.len() >= crate::buffer::GIL_RELEASE_BYTES as u64 {
        py.allow_threads(|| pa.combine(&pb))
    } else {
        pa.combine(&pb)
    }
    .map_err(err)?;
    Ok(encode(py, &c))
}

/// What a serialized partial covers: a dict with ``name`` (canonical),
/// ``offset``, ``length``, ``last`` (it ends the message) and ``whole``
/// (it covers the whole message: ready for :func:`finish_mac` /
/// :func:`finish_hash`). Nothing secret.
///
/// >>> import unimac
/// >>> p = unimac.partial_hash("eval64", bytes(8), 8, b"abc")
/// >>> d = unimac.partial_info(p); (d["offset"], d["length"], d["last"], d["whole"])
/// (8, 3, True, False)
#[pyfunction]
pub fn partial_info<'py>(py: Python<'py>, partial: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    let p = decode(partial, "partial")?;
    let d = PyDict::new(py);
    d.set_item("name", p.name())?;
    d.set_item("offset", p.offset())?;
    d.set_item("length", p.len())?;
    d.set_item("last", p.is_last())?;
    d.set_item("whole", p.is_whole())?;
    Ok(d)
}

/// The hash ``name`` (not a MAC) of the whole message from its combined
/// partial, under the name's full key. The hash ``hash127``, whose value
/// under ``r ‖ k`` is a one-time tag, is refused (:class:`unimac.OneTimeKey`).
///
/// >>> import unimac
/// >>> key = bytes(range(8))
/// >>> p = unimac.partial_hash("eval64", unimac.hash_key("eval64", key), 0, b"abc")
/// >>> unimac.finish_hash("eval64", key, p) == unimac.compute("eval64", key, b"abc")
/// True
#[pyfunction]
pub fn finish_hash<'py>(
    py: Python<'py>,
    name: &str,
    key: &Bound<'py, PyAny>,
    partial: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let k = data(key, "key")?;
    let p = decode(partial, "partial")?;
    let h = partial::finish_hash(&pname(name), k.as_slice(), &p).map_err(err)?;
    Ok(PyBytes::new(py, &h))
}

/// The tag of the MAC ``name`` on the whole message from its combined
/// partial, under the full key (the cipher key and one-time pads are used
/// here only, never by the workers) and ``nonce`` (for the MACs that take
/// one). Equal to :func:`unimac.tag` of the whole message.
///
/// >>> import unimac
/// >>> key = bytes(range(32))
/// >>> p = unimac.partial_hash("hash127-aes", unimac.hash_key("hash127-aes", key), 0, b"abc")
/// >>> unimac.finish_mac("hash127-aes", key, p) == unimac.tag("hash127-aes", key, b"abc")
/// True
#[pyfunction]
#[pyo3(signature = (name, key, partial, nonce = None, *, caller_manages_nonces = false))]
pub fn finish_mac<'py>(
    py: Python<'py>,
    name: &str,
    key: &Bound<'py, PyAny>,
    partial: &Bound<'py, PyAny>,
    nonce: Option<&Bound<'py, PyAny>>,
    caller_manages_nonces: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    // The name read once, as the partial API reads it (an unknown one
    // refused with the library's message).
    if let Some(d) = partial::mac_row(&pname(name)).map_err(err)? {
        crate::nonces::caller_nonce(d, "finish_mac", nonce, caller_manages_nonces, crate::nonces::COUNTER_NEXT)?;
    }
    let k = data(key, "key")?;
    let n = crate::bytes_of(nonce, "nonce")?;
    let p = decode(partial, "partial")?;
    let t = partial::finish_mac(&pname(name), k.as_slice(), n.as_deref(), &p).map_err(err)?;
    Ok(PyBytes::new(py, &t))
}

/// The bytes of ``name``'s full ``key`` that :func:`partial_hash` needs (the
/// hash key: ``r`` of hash127, ``g`` of ``wc-eval64``, …), never the cipher
/// key or the one-time pads. ``ValueError`` if the key has the wrong length.
///
/// >>> import unimac
/// >>> key = bytes(range(32))
/// >>> unimac.hash_key("hash127-aes", key) == key[:16]
/// True
#[pyfunction]
pub fn hash_key<'py>(py: Python<'py>, name: &str, key: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    let k = data(key, "key")?;
    let hk = partial::hash_key(&pname(name), k.as_slice()).map_err(err)?;
    Ok(PyBytes::new(py, hk))
}

/// The alignment of chunks of ``name`` in bytes: every chunk starts at a
/// multiple of it and every chunk but the last is a non-zero multiple of it
/// (the word size of a polynomial hash, ``B²`` for a tree of block ``B``).
///
/// >>> import unimac
/// >>> unimac.granularity("hash127-aes"), unimac.granularity("wc-eval64")
/// (4, 8)
#[pyfunction]
pub fn granularity(name: &str) -> PyResult<usize> {
    partial::granularity(&pname(name)).map_err(err)
}

/// Every name :func:`partial_hash` accepts (canonical forms).
///
/// >>> import unimac
/// >>> "mac-hash127-aes" in unimac.partial_names()
/// True
#[pyfunction]
pub fn partial_names() -> Vec<String> {
    partial::supported_names()
}

/// Why [`partial_range`] failed (made a Python exception once the GIL is
/// held again).
enum RangeError {
    Io(std::io::Error),
    /// The file's stamp changed, it ended early, or two reads of a racy
    /// range differed.
    Changed(String),
    Lib(unimac::Error),
}

impl From<std::io::Error> for RangeError {
    fn from(e: std::io::Error) -> Self {
        RangeError::Io(e)
    }
}

/// A range's `(head, partial, tail)`: its unaligned edges and its middle.
type Edges<B, P> = (B, P, B);

/// `buf.len()` bytes at `pos`, with `pread` (no shared file position).
#[cfg(unix)]
fn read_at(f: &File, buf: &mut [u8], pos: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(f, buf, pos)
}

#[cfg(not(unix))]
fn read_at(mut f: &File, buf: &mut [u8], pos: u64) -> std::io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    f.seek(SeekFrom::Start(pos))?;
    f.read_exact(buf)
}

/// The bytes ``[offset, offset + length)`` of the file at ``path`` (of
/// ``size`` bytes), hashed as they are read: ``(head, partial, tail)``.
/// ``partial`` covers the aligned middle ``[a, e)`` (``None`` if empty and
/// the range does not end the file); ``head`` = ``[offset, a)`` and
/// ``tail`` = ``[e, offset + length)`` are the unaligned edges, fewer than
/// :func:`granularity` bytes each. The middle is read with ``pread`` in
/// buffers of ``buffer`` bytes (rounded down to a multiple of the
/// granularity) and hashed buffer by buffer with the key set up once, the
/// GIL released: memory is one buffer whatever the range's length.
///
/// ``OSError`` "PATH: changed while reading" if the file does not have
/// ``size`` bytes, ends early, or changed while it was read, under the
/// library's rule (``unimac_front::formats::race``): its stamp (size, mtime,
/// ctime, device, inode) compared before and after, and a range of a file
/// changed within two seconds of the read read twice and compared. The
/// tasks of :func:`unimac.dask.tag_large` and :func:`unimac.dask.tag_files`.
#[pyfunction]
#[pyo3(name = "_partial_range", signature = (name, hash_key, path, offset, length, size, buffer = 1 << 20))]
#[allow(clippy::too_many_arguments)]
pub fn partial_range<'py>(
    py: Python<'py>,
    name: &str,
    hash_key: &Bound<'py, PyAny>,
    path: PathBuf,
    offset: u64,
    length: u64,
    size: u64,
    buffer: usize,
) -> PyResult<Edges<Bound<'py, PyBytes>, Option<Bound<'py, PyBytes>>>> {
    let name = pname(name);
    let hk = data(hash_key, "hash_key")?;
    let hk = hk.as_slice();
    let g = partial::granularity(&name).map_err(err)? as u64;
    let r = Range::new(offset, length, size, g, buffer)?;
    let (head, p, tail) = py.allow_threads(|| r.read(&path, &name, hk)).map_err(|x| match x {
        RangeError::Io(x) => crate::oserror::from_io(py, &x, &path),
        RangeError::Changed(m) => PyOSError::new_err(m),
        RangeError::Lib(x) => err(x),
    })?;
    Ok((PyBytes::new(py, &head), p.as_ref().map(|p| encode(py, p)), PyBytes::new(py, &tail)))
}

/// Read `buf.len()` bytes at a position of the file, with the range's errors.
type ReadAt<'a> = &'a dyn Fn(&mut [u8], u64) -> Result<(), RangeError>;

/// A range of a file as [`partial_range`] reads it: `[offset, end)`, its
/// aligned middle `[a, e)`, and the buffer's length `step`.
struct Range {
    offset: u64,
    end: u64,
    size: u64,
    /// The range ends the file (its last chunk gets the padding).
    last: bool,
    a: u64,
    e: u64,
    step: u64,
}

impl Range {
    /// The range `offset + length` of a file of `size` bytes, aligned to
    /// `g`, read in buffers of about `buffer` bytes; `ValueError` if it is
    /// not inside the file, or holds no aligned chunk and does not end it.
    fn new(offset: u64, length: u64, size: u64, g: u64, buffer: usize) -> PyResult<Range> {
        let end = offset.checked_add(length).filter(|&e| e <= size).ok_or_else(|| {
            PyValueError::new_err(format!("the range {offset}+{length} is not inside a file of {size} bytes"))
        })?;
        let last = end == size;
        let a = offset.div_ceil(g) * g;
        let e = if last { end } else { end / g * g };
        if a > e {
            return Err(PyValueError::new_err(format!(
                "the range {offset}+{length} holds no aligned chunk of {g} bytes and does not end the file"
            )));
        }
        let step = (buffer.max(1) as u64 / g).max(1) * g;
        Ok(Range { offset, end, size, last, a, e, step })
    }

    /// Read and hash the range of the file at `path` under the library's
    /// rule for files that change while they are read (without the GIL).
    fn read(&self, path: &Path, name: &str, hk: &[u8]) -> Result<Edges<Vec<u8>, Option<Partial>>, RangeError> {
        let Range { offset, end, size, a, e, .. } = *self;
        let changed = |why: String| {
            RangeError::Changed(unimac_front::messages::changed_while_reading(&path.display().to_string(), Some(&why)))
        };
        let f = File::open(path)?;
        let w = race::ReadWindow::open(&f)?;
        if w.stamp().len() != size {
            return Err(changed(format!("{} bytes, {size} expected", w.stamp().len())));
        }
        let read = |buf: &mut [u8], pos: u64| {
            read_at(&f, buf, pos).map_err(|x| match x.kind() {
                std::io::ErrorKind::UnexpectedEof => changed(format!("it ended before byte {}", pos + buf.len() as u64)),
                _ => RangeError::Io(x),
            })
        };
        let mut out = None;
        // Read once, or twice if the file is racy: the second read only
        // digests the same range, to compare.
        let verdict = w.read(&f, |pass| {
            let mut head = vec![0u8; (a - offset) as usize];
            read(&mut head, offset)?;
            pass.saw(&head);
            let partial = self.middle(pass, &read, name, hk)?;
            let mut tail = vec![0u8; (end - e) as usize];
            read(&mut tail, e)?;
            pass.saw(&tail);
            if pass.feeds() {
                out = Some((head, partial, tail));
            }
            // A range: its length is not the file's size.
            Ok::<_, RangeError>(None)
        })?;
        match (verdict, out) {
            (race::Verdict::Stable | race::Verdict::Racy, Some(x)) => Ok(x),
            _ => {
                let now = race::Stamp::of_file(&f)?;
                Err(changed(if now.len() != size {
                    format!("{} bytes now", now.len())
                } else {
                    "it was written to while it was read".to_string()
                }))
            }
        }
    }

    /// The aligned middle `[a, e)` read in buffers of `step` bytes and, on
    /// the pass that feeds, hashed buffer by buffer with the key set up
    /// once (`None` if it is empty and the range does not end the file).
    fn middle(
        &self,
        pass: &mut race::Pass<'_>,
        read: ReadAt<'_>,
        name: &str,
        hk: &[u8],
    ) -> Result<Option<Partial>, RangeError> {
        let Range { last, a, e, step, .. } = *self;
        if !(e > a || last) {
            return Ok(None);
        }
        let mut s = if pass.feeds() {
            Some(PartialStream::new(name, hk, a).map_err(RangeError::Lib)?)
        } else {
            None
        };
        let mut partial = None;
        let mut buf = vec![0u8; step.min(e - a) as usize];
        let mut pos = a;
        loop {
            let n = step.min(e - pos) as usize;
            read(&mut buf[..n], pos)?;
            pass.saw(&buf[..n]);
            pos += n as u64;
            if pos == e {
                if let Some(s) = s.take() {
                    partial = Some(s.finish(&buf[..n], last).map_err(RangeError::Lib)?);
                }
                break;
            }
            if let Some(s) = s.as_mut() {
                s.update(&buf[..n]).map_err(RangeError::Lib)?;
            }
        }
        Ok(partial)
    }
}

/// The most threads one computation of this process may use for long inputs
/// (0: every core, the default; 1: single-threaded).
///
/// >>> import unimac
/// >>> unimac.set_max_threads(1); unimac.max_threads()
/// 1
/// >>> unimac.set_max_threads(0)
#[pyfunction]
pub fn set_max_threads(n: usize) {
    unimac::threads::set_max_threads(n);
}

/// The setting of :func:`set_max_threads` (0: every core).
///
/// >>> import unimac
/// >>> unimac.max_threads() >= 0
/// True
#[pyfunction]
pub fn max_threads() -> usize {
    unimac::threads::max_threads()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(partial_hash, m)?)?;
    m.add_function(wrap_pyfunction!(partial_combine, m)?)?;
    m.add_function(wrap_pyfunction!(partial_info, m)?)?;
    m.add_function(wrap_pyfunction!(finish_hash, m)?)?;
    m.add_function(wrap_pyfunction!(finish_mac, m)?)?;
    m.add_function(wrap_pyfunction!(hash_key, m)?)?;
    m.add_function(wrap_pyfunction!(granularity, m)?)?;
    m.add_function(wrap_pyfunction!(partial_names, m)?)?;
    m.add_function(wrap_pyfunction!(partial_range, m)?)?;
    m.add_function(wrap_pyfunction!(set_max_threads, m)?)?;
    m.add_function(wrap_pyfunction!(max_threads, m)?)?;
    Ok(())
}
