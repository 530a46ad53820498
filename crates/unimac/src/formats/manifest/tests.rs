use super::*;
use crate::formats::keyfile::KeyKind;

fn key(name: &str) -> KeyFile {
    KeyFile::new(KeyKind::from_name(name).unwrap(), &vec![7u8; crate::macs::find(name).unwrap().default_key_len()]).unwrap()
}

fn sample(k: &KeyFile) -> Vec<u8> {
    let d = k.desc().unwrap();
    let mac = k.mac().unwrap();
    let mut w = Writer::new(k, Place::Root(b"data".to_vec())).unwrap();
    for (i, name) in [&b"a"[..], b"sub/b", b"new\nline"].iter().enumerate() {
        let n = d.counter_nonce(i as u128).map(|n| n[..d.nonce.max()].to_vec()).filter(|_| d.takes_nonce());
        let sent = mac.tag(n.as_deref(), name).unwrap();
        let (n, t) = if d.framing == Framing::PairThenTag {
            (Some(sent[..d.nonce.max()].to_vec()), sent[d.nonce.max()..].to_vec())
        } else {
            (n, sent)
        };
        w.entry(&Entry { nonce: n, tag: t, size: name.len() as u64, name: name.to_vec() }).unwrap();
    }
    let n = d.counter_nonce(9).map(|n| n[..d.nonce.max()].to_vec()).filter(|_| d.takes_nonce());
    w.finish(n.as_deref()).unwrap()
}

#[test]
fn seals_open_and_every_change_fails() {
    for name in ["hash127-aes", "umac64", "vmac128", "wc-eval128", "shoup4-eval64"] {
        if crate::macs::find(name).is_none() {
            continue;
        }
        let k = key(name);
        let text = sample(&k);
        let m = open(&text, &k).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert_eq!(m.entries.len(), 3);
        assert_eq!(m.place, Place::Root(b"data".to_vec()));
        // Every single-byte change, and each respelling, fails.
        for i in 0..text.len() {
            let mut t = text.clone();
            t[i] ^= 0x20;
            assert!(open(&t, &k).is_err(), "{name}: byte {i} changed");
        }
        let upper: Vec<u8> = text.iter().map(|c| if (b'a'..=b'f').contains(c) { c - 32 } else { *c }).collect();
        assert!(open(&upper, &k).is_err());
        let mut appended = text.clone();
        appended.extend_from_slice(b"00 0 x\n");
        assert!(open(&appended, &k).is_err());
    }
}

#[test]
fn a_file_tag_is_never_a_seal() {
    // The forgery of version 1: a file whose content is a manifest body
    // has, under the file key, the tag that body's seal would need.
    let k = key("hash127-aes");
    let text = sample(&k);
    let end = text[..text.len() - 1].iter().rposition(|&c| c == b'\n').unwrap() + 1;
    let body = &text[..end];
    let file_tag = k.mac().unwrap().tag(None, body).unwrap();
    let mut forged = body.to_vec();
    forged.extend_from_slice(format!("seal {}\n", value_hex(None, &file_tag)).as_bytes());
    assert_eq!(open(&forged, &k).unwrap_err(), SealError::Failed);
    let v1 = [&b"unimac-manifest 1 hash127-aes 00\n"[..], &text[text.iter().position(|&c| c == b'\n').unwrap() + 1..]].concat();
    assert_eq!(open(&v1, &k).unwrap_err(), SealError::Version1);
}

#[test]
fn names_are_relative_and_clean() {
    for bad in [&b""[..], b"/etc/passwd", b"../x", b"a/../b", b"a//b", b"./a", b"a/", b"a\0b"] {
        assert!(check_name(bad).is_err(), "{bad:?}");
    }
    for good in [&b"a"[..], b"a/b", b"..a", b"a.", b"new\nline"] {
        assert!(check_name(good).is_ok(), "{good:?}");
    }
    let k = key("hash127-aes");
    let mut w = Writer::new(&k, Place::Base(b".".to_vec())).unwrap();
    let e = Entry { nonce: None, tag: vec![0; 16], size: 0, name: b"../x".to_vec() };
    assert!(w.entry(&e).is_err());
}

/// A sealed tree whose subdirectory is then swapped for a link to an
/// outside directory (with the same names and secret ones): the check
/// never enters it: its files are REMOVED, the link UNEXPECTED, and no
/// outside name or content reaches the report. A hard link to the
/// manifest in another directory of the tree is ADDED; the manifest at
/// its own place is not.
#[cfg(unix)]
#[test]
fn a_swapped_directory_is_never_entered_and_the_manifest_only_left_out_at_its_place() {
    let d = std::env::temp_dir().join(format!("unimac-manifest-swap-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    let (t, o) = (d.join("t"), d.join("elsewhere"));
    std::fs::create_dir_all(t.join("sub")).unwrap();
    std::fs::create_dir_all(&o).unwrap();
    std::fs::write(t.join("a"), b"a").unwrap();
    std::fs::write(t.join("sub/b"), b"b").unwrap();
    std::fs::write(o.join("b"), b"b").unwrap();
    std::fs::write(o.join("secret-name"), b"s").unwrap();
    let k = key("hash127-aes");
    let mpath = t.join("M");
    let text = seal(&k, Sealed::Tree(&t), Nonces::None, Some(&mpath), false).unwrap();
    std::fs::write(&mpath, &text).unwrap();
    let m = open(&text, &k).unwrap();
    assert!(check_files(&m, &k, Some(&mpath), None).unwrap().ok());
    // A hard link to the manifest under its name, in another directory.
    std::fs::hard_link(&mpath, t.join("sub/M")).unwrap();
    let r = check_files(&m, &k, Some(&mpath), None).unwrap();
    assert_eq!(r.added, vec![t.join("sub/M")]);
    std::fs::remove_file(t.join("sub/M")).unwrap();
    // The swap.
    std::fs::rename(t.join("sub"), d.join("held")).unwrap();
    std::os::unix::fs::symlink(&o, t.join("sub")).unwrap();
    let r = check_files(&m, &k, Some(&mpath), None).unwrap();
    let all = format!("{r:?}");
    assert!(!all.contains("secret-name") && !all.contains("elsewhere"), "{all}");
    let b = r.files.iter().find(|f| f.name == b"sub/b").unwrap();
    assert_eq!(b.status, Status::Removed);
    let kind = if super::super::walk::beneath_supported() { super::super::walk::OUTSIDE } else { "a symbolic link to a directory" };
    assert_eq!(r.unexpected, vec![(t.join("sub"), kind)]);
    assert!(r.added.is_empty(), "{all}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn one_time_and_modp_keys_do_not_seal() {
    let k = key("hash127");
    assert!(Writer::new(&k, Place::Base(b".".to_vec())).is_err());
}
