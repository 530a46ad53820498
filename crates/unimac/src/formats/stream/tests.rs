use super::*;
use crate::formats::keyfile::KeyKind;

fn key(name: &str) -> KeyFile {
    let d = crate::macs::find(name).unwrap();
    KeyFile::new(KeyKind::Mac(d), &vec![3u8; d.default_key_len()]).unwrap()
}

fn send(k: &KeyFile, chunk: usize, data: &[u8], id: u8) -> Vec<u8> {
    let mut s = Sender::with_id(k, chunk, [id; 16]).unwrap();
    let mut out = Vec::new();
    // Odd pieces: the framing is independent of how writes are cut.
    for piece in data.chunks(7) {
        s.push(piece, &mut out).unwrap();
    }
    s.finish(&mut out).unwrap();
    out
}

/// Everything released, in pieces of `step` bytes, and the result.
fn receive(k: &KeyFile, wire: &[u8], step: usize) -> (Vec<u8>, Result<(), StreamError>) {
    let mut r = Receiver::new(k).unwrap();
    let mut out = Vec::new();
    for piece in wire.chunks(step.max(1)) {
        if let Err(e) = r.feed(piece, &mut out) {
            return (out, Err(e));
        }
    }
    let f = r.finish();
    (out, f)
}

#[test]
fn round_trips_at_the_edges_in_any_cutting() {
    for name in ["hash127-aes", "umac64", "vmac128", "wc-eval128", "shoup4-eval64"] {
        if crate::macs::find(name).is_none() {
            continue;
        }
        let k = key(name);
        let chunk = 64;
        for len in [0usize, 1, chunk - 1, chunk, chunk + 1, 3 * chunk, 5 * chunk + 17] {
            let data: Vec<u8> = (0..len).map(|i| (i * 7 + 1) as u8).collect();
            let wire = send(&k, chunk, &data, 1);
            for step in [1, 5, 64, 69, 1 << 20] {
                let (got, r) = receive(&k, &wire, step);
                assert_eq!(r, Ok(()), "{name} {len} {step}");
                assert_eq!(got, data, "{name} {len} {step}");
            }
        }
    }
}

/// The layout the receiver reports is where the sender put the
/// frames: the header's length, then whole frames of one length.
#[test]
fn frames_are_where_the_sender_put_them() {
    for name in ["hash127-aes", "vmac128", "shoup4-eval64"] {
        if crate::macs::find(name).is_none() {
            continue;
        }
        let k = key(name);
        let (chunk, n) = (64usize, 3);
        let wire = send(&k, chunk, &vec![9u8; n * chunk + 10], 2);
        let s = Sender::with_id(&k, chunk, [2; 16]).unwrap();
        let mut r = Receiver::new(&k).unwrap();
        assert_eq!(r.frames(), None);
        r.feed(&wire[..s.header().len()], &mut Vec::new()).unwrap();
        let (start, frame) = r.frames().unwrap();
        assert_eq!((start, frame), (s.header().len() as u64, (chunk + s.overhead()) as u64), "{name}");
        // Three full frames, then the final one with 10 bytes.
        assert_eq!(wire.len() as u64, start + n as u64 * frame + (frame - chunk as u64 + 10), "{name}");
    }
}

/// Every tamper is found, and what was released is a prefix of what
/// was sent, ending at a chunk boundary before the tampered chunk.
#[test]
fn every_tamper_releases_only_verified_chunks() {
    let k = key("hash127-aes");
    let chunk = 16;
    let data: Vec<u8> = (0..100u8).collect();
    let wire = send(&k, chunk, &data, 2);
    let other = send(&k, chunk, &data, 3);
    let check = |w: &[u8], what: &str| {
        let (got, r) = receive(&k, w, 13);
        assert!(r.is_err(), "{what}: accepted");
        assert!(data.starts_with(&got), "{what}: released bytes never sent");
        assert_eq!(got.len() % chunk, 0, "{what}: a part chunk released");
    };
    // Every bit of header, frames and tags.
    for i in 0..wire.len() {
        for bit in [0x01u8, 0x80] {
            let mut w = wire.clone();
            w[i] ^= bit;
            check(&w, &format!("bit {bit:#x} of byte {i}"));
        }
    }
    // Truncation at and inside every frame boundary.
    for cut in 0..wire.len() {
        check(&wire[..cut], &format!("cut at {cut}"));
    }
    // Frames dropped, repeated, swapped, spliced from another stream.
    let h = header_bytes(k.desc().unwrap(), &fingerprint(k.desc().unwrap(), k.key()), &[2; 16], chunk).len();
    let f = FRAME_HEAD + chunk + 16;
    let frames: Vec<&[u8]> = wire[h..].chunks(f).collect();
    let others: Vec<&[u8]> = other[h..].chunks(f).collect();
    let join = |fs: &[&[u8]]| [&wire[..h], &fs.concat()].concat();
    let mut v = frames.clone();
    v.remove(2);
    check(&join(&v), "dropped");
    let mut v = frames.clone();
    v.insert(2, frames[2]);
    check(&join(&v), "repeated");
    let mut v = frames.clone();
    v.swap(1, 2);
    check(&join(&v), "swapped");
    let mut v = frames.clone();
    v[3] = others[3];
    check(&join(&v), "spliced");
    // The final flag dropped: the last frame's flag set to 0.
    let mut w = wire.clone();
    let last = wire.len() - (FRAME_HEAD + 100 % chunk + 16);
    w[last] = 0;
    check(&w, "final flag dropped");
    // Appended after the final chunk.
    let mut w = wire.clone();
    w.push(0);
    let (got, r) = receive(&k, &w, 1 << 20);
    assert!(r.is_err() && got == data, "appended: the stream itself is whole");
}

#[test]
fn another_key_or_mac_is_refused_before_any_output() {
    let k = key("hash127-aes");
    let wire = send(&k, 16, b"attack at dawn, attack at dawn", 4);
    let other = KeyFile::new(k.kind(), &[4u8; 32]).unwrap();
    let (got, r) = receive(&other, &wire, 1 << 20);
    assert!(got.is_empty() && r.unwrap_err().0.contains("key fingerprint"));
    let (got, r) = receive(&key("wc-eval128"), &wire, 1 << 20);
    assert!(got.is_empty() && r.unwrap_err().0.contains("hash127-aes key"));
    assert!(Sender::new(&key("hash127"), 16).is_err(), "one-time MACs refused");
    assert!(Receiver::new(&key("hash127")).is_err());
}

#[test]
fn no_stream_tag_is_a_file_tag() {
    // The frame tag of a one-chunk stream is not the tag of the bytes it
    // covers under the file key.
    let k = key("hash127-aes");
    let wire = send(&k, 16, b"x", 5);
    let h = wire.len() - (FRAME_HEAD + 1 + 16);
    let covered = [&wire[..h], &0u64.to_be_bytes(), &wire[h..h + FRAME_HEAD + 1]].concat();
    let file_tag = k.mac().unwrap().tag(None, &covered).unwrap();
    assert_ne!(&wire[wire.len() - 16..], &file_tag[..]);
}

/// docs/WIRE.md §10's known answer: the `hash127-aes` key 00 01 … 1f,
/// stream id 00 … 0f, chunks of 16 bytes, the payload "attack at dawn,
/// attack at dusk" (30 bytes: one full chunk, then the final one).
#[test]
fn known_answer() {
    let d = crate::macs::find("hash127-aes").unwrap();
    let k = KeyFile::new(KeyKind::Mac(d), &(0u8..32).collect::<Vec<u8>>()).unwrap();
    let id: [u8; 16] = core::array::from_fn(|i| i as u8);
    let mut s = Sender::with_id(&k, 16, id).unwrap();
    let mut w = Vec::new();
    s.push(b"attack at dawn, attack at dusk", &mut w).unwrap();
    s.finish(&mut w).unwrap();
    let hex: String = w.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(hex, KNOWN_ANSWER);
    let (got, r) = receive(&k, &w, 1);
    assert_eq!((got.as_slice(), r), (&b"attack at dawn, attack at dusk"[..], Ok(())));
}

const KNOWN_ANSWER: &str = "554e494d41432d53010b686173683132372d616573ae946209b8de103a912d0ac3489493f0000102030405060708090a0b0c0d0e0f00000010000000001061747461636b206174206461776e2c20aa793cec3635c1d7926cdc6a43bb9c13010000000e61747461636b206174206475736be9d8c889a2fdef6485c23fdadcdf8ef4";

#[test]
fn frames_in_place_are_the_pushed_frames() {
    let k = key("vmac128");
    let data: Vec<u8> = (0..(3 * 64 + 9)).map(|i| i as u8).collect();
    let pushed = send(&k, 64, &data, 6);
    let mut s = Sender::with_id(&k, 64, [6; 16]).unwrap();
    let mut wire = s.take_header().to_vec();
    assert!(s.take_header().is_empty());
    let parts: Vec<&[u8]> = data.chunks(64).collect();
    for (i, p) in parts.iter().enumerate() {
        let mut f = vec![0u8; 64 + s.overhead()];
        f[FRAME_HEAD..FRAME_HEAD + p.len()].copy_from_slice(p);
        let n = s.seal_frame(&mut f, p.len(), i + 1 == parts.len()).unwrap();
        wire.extend_from_slice(&f[..n]);
    }
    assert_eq!(wire, pushed);
    let mut f = vec![0u8; 200];
    assert!(s.seal_frame(&mut f, 10, false).is_err(), "a short chunk that is not final");
}

#[test]
fn io_adapters() {
    let k = key("umac128");
    let data: Vec<u8> = (0..300_000u32).map(|i| (i % 251) as u8).collect();
    let mut w = Writer::new(Vec::new(), &k, 4096).unwrap();
    w.write_all(&data).unwrap();
    let wire = w.finish().unwrap();
    let mut r = Reader::new(&wire[..], &k).unwrap();
    let mut got = Vec::new();
    r.read_to_end(&mut got).unwrap();
    assert_eq!(got, data);
    let cut = &wire[..wire.len() - 1];
    let mut r = Reader::new(cut, &k).unwrap();
    let mut got = Vec::new();
    let e = r.read_to_end(&mut got).unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::InvalidData);
    assert!(e.to_string().contains("without its final chunk"), "{e}");
    assert!(data.starts_with(&got));
}
