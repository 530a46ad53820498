use crate::prelude::*;
use std::io::{self, Read, Write};

use zeroize::Zeroizing;

use super::derive::{self, Purpose};
use super::keyfile::KeyFile;
use crate::counter::Binding;
use crate::error::Error;
use crate::macs::{Framing, MacDesc, Nonce};
use crate::registry::NamedMac;

/// The first bytes of a stream.
pub const MAGIC: &[u8; 8] = b"UNIMAC-S";
/// The version this build writes and reads.
pub const VERSION: u8 = 1;
/// The chunk size used when none is given (docs/PERFORMANCE.md, "Streams":
/// below it the per-chunk tag costs more, above it only memory grows).
pub const DEFAULT_CHUNK: usize = 256 << 10;
/// The largest chunk a stream may declare (the receiver's memory).
pub const MAX_CHUNK: usize = 16 << 20;
/// The bytes before a chunk in its frame: the kind (data or final) and the
/// chunk's length, big-endian (docs/WIRE.md §10); the tag follows the chunk.
pub const FRAME_HEAD: usize = 5;

/// Why a stream was refused: one line, naming the chunk and the payload
/// offset where the trouble starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamError(pub String);

impl core::fmt::Display for StreamError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StreamError {}

impl From<StreamError> for io::Error {
    fn from(e: StreamError) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidData, e)
    }
}

fn stream_desc(key: &KeyFile) -> Result<&'static MacDesc, Error> {
    let Some(d) = key.desc() else {
        return Err(Error::Invalid("a modp key is a secret prime, not a MAC key: it authenticates no stream".into()));
    };
    if d.one_time {
        return Err(Error::Invalid(format!(
            "{} is a one-time MAC (one message per key), but a stream has a tag per chunk; use a reusable MAC such as hash127-aes",
            d.name
        )));
    }
    Ok(d)
}

/// The key of the stream `id` under the key file's key.
fn stream_mac(desc: &'static MacDesc, key: &[u8], id: &[u8; 16]) -> Result<NamedMac, Error> {
    let k = derive::purpose_key(desc, key, Purpose::Stream);
    let hk = hkdf::Hkdf::<sha2::Sha256>::new(Some(id), &k);
    let mut info = Vec::with_capacity(17 + desc.name.len());
    info.extend_from_slice(b"unimac stream id\0");
    info.extend_from_slice(desc.name.as_bytes());
    let mut out = Zeroizing::new(vec![0u8; k.len()]);
    hk.expand(&info, &mut out).expect("a key is far shorter than HKDF's limit");
    NamedMac::new(desc.name, &out)
}

fn header_bytes(desc: &MacDesc, fp: &[u8; 16], id: &[u8; 16], chunk: usize) -> Vec<u8> {
    let mut h = Vec::with_capacity(64);
    h.extend_from_slice(MAGIC);
    h.push(VERSION);
    h.push(desc.name.len() as u8);
    h.extend_from_slice(desc.name.as_bytes());
    h.extend_from_slice(fp);
    h.extend_from_slice(id);
    h.extend_from_slice(&(chunk as u32).to_be_bytes());
    h
}

/// The length of a header naming a MAC of `name_len` bytes: the magic,
/// the version, the name's length and the name, the key's fingerprint,
/// the stream id and the chunk size.
fn header_len(name_len: usize) -> usize {
    MAGIC.len() + 2 + name_len + 16 + 16 + 4
}

fn fingerprint(desc: &'static MacDesc, key: &[u8]) -> [u8; 16] {
    Binding::new(desc, key).fingerprint()
}

/// The nonce of chunk `i` (none for stateless MACs and `shoup4-*`).
fn nonce_of(desc: &MacDesc, i: u64) -> Option<[u8; 16]> {
    match desc.nonce {
        Nonce::Sequence { .. } => desc.counter_nonce(u128::from(i)),
        _ => None,
    }
}

/// The sending side: bytes in, framed stream out.
pub struct Sender {
    desc: &'static MacDesc,
    mac: NamedMac,
    header: Vec<u8>,
    chunk: usize,
    index: u64,
    pending: Vec<u8>,
    started: bool,
}

impl core::fmt::Debug for Sender {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Sender").field("mac", &self.desc.name).field("chunk", &self.chunk).field("index", &self.index).finish_non_exhaustive()
    }
}

#[cfg_attr(not(feature = "unstable"), allow(dead_code))]
impl Sender {
    /// A new stream under `key` (a reusable MAC's key file) in chunks of
    /// `chunk` bytes (1 to 16 MiB), with a random stream id.
    pub fn new(key: &KeyFile, chunk: usize) -> Result<Sender, Error> {
        let mut id = [0u8; 16];
        getrandom::fill(&mut id).map_err(|e| Error::Io(crate::rng::failed(&e)))?;
        Sender::with_id(key, chunk, id)
    }

    /// [`Sender::new`] with a given stream id: for known answers. An id
    /// must never be used twice under one key (two streams would share
    /// their key and nonces).
    pub fn with_id(key: &KeyFile, chunk: usize, id: [u8; 16]) -> Result<Sender, Error> {
        let desc = stream_desc(key)?;
        if chunk == 0 || chunk > MAX_CHUNK {
            return Err(Error::Invalid(format!("a stream's chunk size is 1 to {MAX_CHUNK} bytes, not {chunk}")));
        }
        let mac = stream_mac(desc, key.key(), &id)?;
        let header = header_bytes(desc, &fingerprint(desc, key.key()), &id, chunk);
        Ok(Sender { desc, mac, header, chunk, index: 0, pending: Vec::with_capacity(chunk), started: false })
    }

    /// The stream's header (written before the first frame by
    /// [`Sender::push`] and [`Sender::finish`]).
    pub fn header(&self) -> &[u8] {
        &self.header
    }

    fn frame(&mut self, final_: bool, payload: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        if !self.started {
            out.extend_from_slice(&self.header);
            self.started = true;
        }
        let flags = [u8::from(final_)];
        let len = (payload.len() as u32).to_be_bytes();
        let nonce = nonce_of(self.desc, self.index);
        let mut s = self.mac.start(nonce.as_ref().map(|n| &n[..]))?;
        s.update(&self.header);
        s.update(&self.index.to_be_bytes());
        s.update(&flags);
        s.update(&len);
        s.update(payload);
        let tag = s.finalize()?;
        out.extend_from_slice(&flags);
        out.extend_from_slice(&len);
        out.extend_from_slice(payload);
        out.extend_from_slice(&tag);
        self.index += 1;
        Ok(())
    }

    /// Bytes of a frame besides its payload (head and tag).
    pub fn overhead(&self) -> usize {
        FRAME_HEAD + self.desc.sent_len()
    }

    /// The header, once: for a writer that lays frames out itself with
    /// [`Sender::seal_frame`] (empty after the first call, or after
    /// [`Sender::push`] wrote it).
    pub fn take_header(&mut self) -> &[u8] {
        if self.started {
            return &[];
        }
        self.started = true;
        &self.header
    }

    /// Seal a frame laid out in place: `frame[5..5 + len]` holds the
    /// chunk's payload (exactly the chunk size unless `final_`); its head is
    /// written in front and its tag after, and the frame's length returned
    /// (`frame` needs `len + overhead()` bytes). The caller writes
    /// [`Sender::take_header`] before the first frame and ends with a final
    /// frame; this and [`Sender::push`] are not to be mixed.
    pub fn seal_frame(&mut self, frame: &mut [u8], len: usize, final_: bool) -> Result<usize, Error> {
        let whole = len + self.overhead();
        if frame.len() < whole || len > self.chunk || (!final_ && len != self.chunk) {
            return Err(Error::Invalid(format!("a frame of {len} bytes does not fit chunks of {} (final: {final_})", self.chunk)));
        }
        frame[0] = u8::from(final_);
        frame[1..FRAME_HEAD].copy_from_slice(&(len as u32).to_be_bytes());
        let nonce = nonce_of(self.desc, self.index);
        let mut s = self.mac.start(nonce.as_ref().map(|n| &n[..]))?;
        s.update(&self.header);
        s.update(&self.index.to_be_bytes());
        s.update(&frame[..FRAME_HEAD + len]);
        let tag = s.finalize()?;
        frame[FRAME_HEAD + len..whole].copy_from_slice(&tag);
        self.index += 1;
        Ok(whole)
    }

    /// Take `data`; append every frame it completes to `out`. A full chunk
    /// is held back until more data shows it is not the last.
    pub fn push(&mut self, mut data: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        while !data.is_empty() {
            if self.pending.len() == self.chunk {
                let p = core::mem::take(&mut self.pending);
                self.frame(false, &p, out)?;
                self.pending = p;
                self.pending.clear();
            }
            let take = (self.chunk - self.pending.len()).min(data.len());
            // A whole chunk straight from `data` when nothing is pending and
            // more follows: no copy.
            if self.pending.is_empty() && take == self.chunk && data.len() > self.chunk {
                let (c, rest) = data.split_at(self.chunk);
                self.frame(false, c, out)?;
                data = rest;
                continue;
            }
            self.pending.extend_from_slice(&data[..take]);
            data = &data[take..];
        }
        Ok(())
    }

    /// End the stream: its final frame (with what is pending, maybe
    /// nothing).
    pub fn finish(mut self, out: &mut Vec<u8>) -> Result<(), Error> {
        let p = core::mem::take(&mut self.pending);
        self.frame(true, &p, out)
    }
}

/// What the receiver knows of a stream once its header is read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The MAC's name.
    pub mac: String,
    /// The key fingerprint, in hex.
    pub fingerprint: String,
    /// The stream id.
    pub id: [u8; 16],
    /// Bytes per chunk.
    pub chunk: usize,
}

enum RecvState {
    /// Reading the header.
    Header,
    /// Between or inside frames.
    Frames { mac: Box<NamedMac>, header: Vec<u8>, chunk: usize },
    /// The final frame verified.
    Done,
    /// Refused: nothing more is taken.
    Failed(StreamError),
}

/// The receiving side: framed stream in, verified payload out.
pub struct Receiver {
    desc: &'static MacDesc,
    key: Zeroizing<Vec<u8>>,
    fp: [u8; 16],
    state: RecvState,
    buf: Vec<u8>,
    index: u64,
    offset: u64,
    header: Option<Header>,
}

impl core::fmt::Debug for Receiver {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Receiver").field("mac", &self.desc.name).field("index", &self.index).field("offset", &self.offset).finish_non_exhaustive()
    }
}

#[cfg_attr(not(feature = "unstable"), allow(dead_code))]
impl Receiver {
    /// A receiver for streams under `key`.
    pub fn new(key: &KeyFile) -> Result<Receiver, Error> {
        let desc = stream_desc(key)?;
        Ok(Receiver {
            desc,
            key: Zeroizing::new(key.key().to_vec()),
            fp: fingerprint(desc, key.key()),
            state: RecvState::Header,
            buf: Vec::new(),
            index: 0,
            offset: 0,
            header: None,
        })
    }

    /// The stream's header, once read and accepted.
    pub fn header(&self) -> Option<&Header> {
        self.header.as_ref()
    }
    /// Chunks verified so far.
    pub fn chunks(&self) -> u64 {
        self.index
    }
    /// Payload bytes released so far.
    pub fn released(&self) -> u64 {
        self.offset
    }
    /// The frame layout, once the header is read: where the first frame
    /// starts (the header's length) and a full frame's length (its head,
    /// a whole chunk and the tag), for a reader that fills its buffer to
    /// frame ends.
    pub fn frames(&self) -> Option<(u64, u64)> {
        let h = self.header.as_ref()?;
        Some((header_len(h.mac.len()) as u64, (FRAME_HEAD + h.chunk + self.desc.sent_len()) as u64))
    }
    /// Whether the final chunk verified.
    pub fn is_done(&self) -> bool {
        matches!(self.state, RecvState::Done)
    }

    fn fail(&mut self, msg: String) -> StreamError {
        let e = StreamError(msg);
        self.state = RecvState::Failed(e.clone());
        self.buf = Vec::new();
        e
    }

    fn at(&self) -> String {
        format!("chunk {} (payload byte offset {})", self.index, self.offset)
    }

    /// Parse the header from `buf` if it is all there.
    fn take_header(&mut self) -> Result<bool, StreamError> {
        let b = &self.buf;
        let have = |n: usize| b.len() >= n;
        if !have(10) {
            if !MAGIC.starts_with(&b[..b.len().min(8)]) {
                return Err(self.fail("not a unimac stream (no 'UNIMAC-S' header)".into()));
            }
            return Ok(false);
        }
        if &b[..8] != MAGIC {
            return Err(self.fail("not a unimac stream (no 'UNIMAC-S' header)".into()));
        }
        if b[8] != VERSION {
            let v = b[8];
            return Err(self.fail(format!("stream version {v}, which this build does not read (it reads version {VERSION})")));
        }
        let n = b[9] as usize;
        let total = header_len(n);
        if !have(total) {
            return Ok(false);
        }
        let name = String::from_utf8_lossy(&b[10..10 + n]).into_owned();
        let mut fp = [0u8; 16];
        fp.copy_from_slice(&b[10 + n..26 + n]);
        let mut id = [0u8; 16];
        id.copy_from_slice(&b[26 + n..42 + n]);
        let chunk = u32::from_be_bytes(b[42 + n..46 + n].try_into().expect("4 bytes")) as usize;
        let hex = |v: &[u8]| v.iter().map(|c| format!("{c:02x}")).collect::<String>();
        if crate::macs::find(&name).is_none_or(|d| d.name != name) {
            return Err(self.fail("the stream's header names no MAC of this build (a damaged header, or not a stream of this key); nothing was released".into()));
        }
        if name != self.desc.name || fp != self.fp {
            let their = if name != self.desc.name { format!("a {} key, ", name.chars().take(40).collect::<String>()) } else { String::new() };
            return Err(self.fail(format!(
                "this stream was sent under {their}key fingerprint {}, not under this key ({} key fingerprint {}); nothing was released",
                hex(&fp),
                self.desc.name,
                hex(&self.fp)
            )));
        }
        if chunk == 0 || chunk > MAX_CHUNK {
            return Err(self.fail(format!("the stream's header declares chunks of {chunk} bytes (1 to {MAX_CHUNK} allowed)")));
        }
        let mac = stream_mac(self.desc, &self.key, &id).map_err(|e| self.fail(e.to_string()))?;
        let header = self.buf[..total].to_vec();
        self.buf.drain(..total);
        self.header = Some(Header { mac: name, fingerprint: hex(&fp), id, chunk });
        self.state = RecvState::Frames { mac: Box::new(mac), header, chunk };
        Ok(true)
    }

    /// Take the next `input` bytes of the stream; append the payload of
    /// every chunk that verifies to `out`. At the first bad chunk, an error
    /// (and nothing of that chunk is appended; nothing more is taken).
    pub fn feed(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<(), StreamError> {
        self.feed_with(input, &mut |p| {
            out.extend_from_slice(p);
            Ok(())
        })
    }

    /// [`Receiver::feed`], giving each verified chunk's payload to `emit`
    /// as it verifies (from the input itself when a whole frame is there:
    /// no copy). An error of `emit` stops the stream and is returned.
    pub fn feed_with(&mut self, mut input: &[u8], emit: &mut dyn FnMut(&[u8]) -> Result<(), StreamError>) -> Result<(), StreamError> {
        loop {
            match &self.state {
                RecvState::Failed(e) => return Err(e.clone()),
                RecvState::Done => {
                    if input.is_empty() {
                        return Ok(());
                    }
                    let at = format!("after the final chunk ({} chunks, {} payload bytes)", self.index, self.offset);
                    return Err(self.fail(format!("data {at}: the stream was appended to")));
                }
                RecvState::Header => {
                    // Exactly the header's bytes: its fixed start, then the
                    // rest its name length says.
                    let need = if self.buf.len() < 10 { 10 } else { 10 + self.buf[9] as usize + 36 };
                    let want = (need - self.buf.len()).min(input.len());
                    self.buf.extend_from_slice(&input[..want]);
                    input = &input[want..];
                    if !self.take_header()? {
                        if input.is_empty() {
                            return Ok(());
                        }
                        continue;
                    }
                }
                RecvState::Frames { chunk, .. } => {
                    let chunk = *chunk;
                    let tag_len = self.desc.sent_len();
                    if input.is_empty() {
                        return Ok(());
                    }
                    // A whole frame in the input: checked where it is.
                    if self.buf.is_empty() && input.len() >= FRAME_HEAD {
                        let len = self.frame_len(&input[..FRAME_HEAD], chunk)?;
                        let whole = FRAME_HEAD + len + tag_len;
                        if input.len() >= whole {
                            let (frame, rest) = input.split_at(whole);
                            self.check_frame(frame, len, emit)?;
                            input = rest;
                            continue;
                        }
                    }
                    // Otherwise gathered: the head, then the rest.
                    if self.buf.len() < FRAME_HEAD {
                        let take = (FRAME_HEAD - self.buf.len()).min(input.len());
                        self.buf.extend_from_slice(&input[..take]);
                        input = &input[take..];
                        if self.buf.len() < FRAME_HEAD {
                            return Ok(());
                        }
                        let head: [u8; FRAME_HEAD] = self.buf[..FRAME_HEAD].try_into().expect("a frame head");
                        let len = self.frame_len(&head, chunk)?;
                        self.buf.reserve(len + tag_len);
                    }
                    let len = u32::from_be_bytes(self.buf[1..5].try_into().expect("4 bytes")) as usize;
                    let whole = FRAME_HEAD + len + tag_len;
                    let take = (whole - self.buf.len()).min(input.len());
                    self.buf.extend_from_slice(&input[..take]);
                    input = &input[take..];
                    if self.buf.len() < whole {
                        return Ok(());
                    }
                    let frame = core::mem::take(&mut self.buf);
                    let r = self.check_frame(&frame, len, emit);
                    if !matches!(self.state, RecvState::Failed(_) | RecvState::Done) {
                        self.buf = frame;
                        self.buf.clear();
                    }
                    r?;
                }
            }
        }
    }

    /// The payload length of a frame whose head is `head`, checked against
    /// the chunk size (one byte form).
    fn frame_len(&mut self, head: &[u8], chunk: usize) -> Result<usize, StreamError> {
        let flags = head[0];
        let len = u32::from_be_bytes(head[1..5].try_into().expect("4 bytes")) as usize;
        let at = self.at();
        if flags > 1 {
            return Err(self.fail(format!("{at}: bad frame flags {flags:#04x} (the stream was changed)")));
        }
        if len > chunk || (flags == 0 && len != chunk) {
            return Err(self.fail(format!("{at}: a frame of {len} bytes where chunks are {chunk} (the stream was changed)")));
        }
        Ok(len)
    }

    /// Check one whole frame; give its payload to `emit` if it verifies.
    fn check_frame(&mut self, frame: &[u8], len: usize, emit: &mut dyn FnMut(&[u8]) -> Result<(), StreamError>) -> Result<(), StreamError> {
        let RecvState::Frames { mac, header, .. } = &self.state else { unreachable!("in frames") };
        let flags = frame[0];
        let payload = &frame[FRAME_HEAD..FRAME_HEAD + len];
        let tag = &frame[FRAME_HEAD + len..];
        let nonce = nonce_of(self.desc, self.index);
        let check = match self.desc.framing {
            Framing::PairThenTag => {
                let (rs, t) = tag.split_at(self.desc.nonce.max());
                mac.start_check(Some(rs)).map(|s| (s, t))
            }
            Framing::Tag => mac.start_check(nonce.as_ref().map(|n| &n[..])).map(|s| (s, tag)),
        };
        let ok = match check {
            Ok((mut s, t)) => {
                s.update(header);
                s.update(&self.index.to_be_bytes());
                s.update(&frame[..FRAME_HEAD]);
                s.update(payload);
                s.finalize().is_ok_and(|got| crate::tag::verify_tag(&got, t).is_ok())
            }
            Err(_) => false,
        };
        if !ok {
            let at = self.at();
            return Err(self.fail(format!(
                "{at}: the tag does not verify (a changed, dropped, repeated, reordered or foreign chunk, or a changed header); nothing of it was released"
            )));
        }
        if let Err(e) = emit(payload) {
            return Err(self.fail(e.0));
        }
        self.offset += len as u64;
        self.index += 1;
        if flags == 1 {
            self.state = RecvState::Done;
            self.buf = Vec::new();
        }
        Ok(())
    }

    /// The input ended: an error unless the final chunk verified.
    pub fn finish(&mut self) -> Result<(), StreamError> {
        match &self.state {
            RecvState::Done => Ok(()),
            RecvState::Failed(e) => Err(e.clone()),
            RecvState::Header => Err(self.fail("the stream ended inside its header; nothing was released".into())),
            RecvState::Frames { .. } => {
                let at = self.at();
                let inside = if self.buf.is_empty() { "before" } else { "inside" };
                Err(self.fail(format!("the stream ended {inside} {at}, without its final chunk (cut short)")))
            }
        }
    }
}

/// An `io::Write` that sends what is written as an authenticated stream to
/// the inner writer. Call [`Writer::finish`] at the end: a stream dropped
/// without it has no final chunk, which the receiver reports as cut short.
pub struct Writer<W: Write> {
    inner: W,
    sender: Option<Sender>,
    out: Vec<u8>,
}

impl<W: Write> core::fmt::Debug for Writer<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Writer").field("sender", &self.sender).finish_non_exhaustive()
    }
}

impl<W: Write> Writer<W> {
    /// A stream under `key` in chunks of `chunk` bytes, written to `inner`.
    pub fn new(inner: W, key: &KeyFile, chunk: usize) -> Result<Writer<W>, Error> {
        Ok(Writer { inner, sender: Some(Sender::new(key, chunk)?), out: Vec::with_capacity(chunk + 64) })
    }
    /// End the stream (its final chunk), flush, and give the inner writer
    /// back.
    pub fn finish(mut self) -> io::Result<W> {
        let s = self.sender.take().ok_or_else(|| io::Error::other("the stream was already finished"))?;
        s.finish(&mut self.out).map_err(io::Error::other)?;
        self.inner.write_all(&self.out)?;
        self.out.clear();
        self.inner.flush()?;
        Ok(self.inner)
    }
}

impl<W: Write> Write for Writer<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let s = self.sender.as_mut().ok_or_else(|| io::Error::other("the stream was finished"))?;
        s.push(buf, &mut self.out).map_err(io::Error::other)?;
        if !self.out.is_empty() {
            self.inner.write_all(&self.out)?;
            self.out.clear();
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        // Only whole frames can be sent; a pending part-chunk waits.
        self.inner.flush()
    }
}

/// An `io::Read` that reads an authenticated stream from the inner reader
/// and yields only verified payload; at the first bad chunk, or an end
/// without the final chunk, an `InvalidData` error whose message names the
/// chunk (its message inside).
pub struct Reader<R: Read> {
    inner: R,
    recv: Receiver,
    inbuf: Vec<u8>,
    ready: Vec<u8>,
    pos: usize,
    eof: bool,
}

impl<R: Read> core::fmt::Debug for Reader<R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Reader").field("recv", &self.recv).finish_non_exhaustive()
    }
}

impl<R: Read> Reader<R> {
    /// A reader of streams under `key` from `inner`.
    pub fn new(inner: R, key: &KeyFile) -> Result<Reader<R>, Error> {
        Ok(Reader { inner, recv: Receiver::new(key)?, inbuf: vec![0u8; 64 << 10], ready: Vec::new(), pos: 0, eof: false })
    }
    /// The stream's header (its MAC, key fingerprint, id and chunk size)
    /// once its first chunk verified, whose tag covers it: `None` before,
    /// so that an id is never taken from a stream whose sender is not yet
    /// known to hold the key (anyone can copy a key's fingerprint).
    pub fn header(&self) -> Option<&Header> {
        if self.recv.chunks() > 0 {
            self.recv.header()
        } else {
            None
        }
    }
}

impl<R: Read> Read for Reader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.pos == self.ready.len() {
            if self.eof {
                return Ok(0);
            }
            self.ready.clear();
            self.pos = 0;
            let n = loop {
                match self.inner.read(&mut self.inbuf) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            };
            if n == 0 {
                self.eof = true;
                self.recv.finish()?;
                return Ok(0);
            }
            self.recv.feed(&self.inbuf[..n], &mut self.ready)?;
        }
        let k = buf.len().min(self.ready.len() - self.pos);
        buf[..k].copy_from_slice(&self.ready[self.pos..self.pos + k]);
        self.pos += k;
        Ok(k)
    }
}

#[cfg(test)]
#[path = "stream/tests.rs"]
mod tests;
