//! Symbolic links met by `seal -r`, `tag -r` and `verify` of a sealed
//! tree: a root swapped for a link is refused (unless named `DIR/`), a
//! manifest linked from another directory is named with the directory it
//! resolves against, and a link to a file is followed only when it stays
//! inside the tree: nothing of an outside file (name, size, tag) is ever
//! printed.
#![cfg(target_os = "linux")]

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common;
use common::{assert_code, run_in, stderr, stdout, temp_dir};

/// `d/a`, `d/sub/b` (the tree), `private/topsecret` (what a link leads
/// to, outside it), a key, and `m`: the manifest of `seal -r d`.
fn setup(tag: &str) -> PathBuf {
    let dir = temp_dir(tag);
    fs::create_dir_all(dir.join("d/sub")).unwrap();
    fs::create_dir_all(dir.join("private")).unwrap();
    fs::write(dir.join("d/a"), "alpha\n").unwrap();
    fs::write(dir.join("d/sub/b"), "bravo\n").unwrap();
    fs::write(dir.join("private/topsecret"), "the secret of 31 bytes, exactly").unwrap();
    assert_code(&run_in(&dir, &["keygen", "hash127-aes", "-o", "k.key"]), 0);
    assert_code(&run_in(&dir, &["seal", "-k", "k.key", "-r", "d", "-o", "m"]), 0);
    dir
}

/// Nothing of `private/topsecret` in the output: its name, its size, or
/// its tag under the key.
#[track_caller]
fn nothing_outside(dir: &Path, o: &Output) {
    let tag = stdout(&run_in(dir, &["tag", "-k", "k.key", "private/topsecret"]));
    let tag = tag.split_whitespace().next().unwrap().to_string();
    let all = format!("{}{}", stdout(o), stderr(o));
    for bad in ["topsecret", " 31 ", &tag] {
        assert!(!all.contains(bad), "{bad:?} in {all}");
    }
}

/// M1: the root swapped for a link to another directory (by a writer of
/// its parent) before `verify`, `seal -r` or `tag -r`: one clear error,
/// nothing of the other directory listed. `DIR/` follows it on request.
#[test]
fn a_root_swapped_for_a_link_is_refused() {
    let dir = setup("root-link");
    fs::rename(dir.join("d"), dir.join("d.real")).unwrap();
    symlink("private", dir.join("d")).unwrap();
    let o = run_in(&dir, &["verify", "-k", "k.key", "m"]);
    assert_code(&o, 2);
    assert_eq!(stdout(&o), "");
    assert_eq!(stderr(&o), "unimac: root d: a symbolic link, not the sealed directory; not followed\n");
    nothing_outside(&dir, &o);
    let o = run_in(&dir, &["seal", "-k", "k.key", "-r", "d", "-o", "m2"]);
    assert_code(&o, 2);
    assert_eq!(stderr(&o), "unimac: -r d: a symbolic link; not followed (name it d/ to follow it)\n");
    assert!(!dir.join("m2").exists());
    let o = run_in(&dir, &["tag", "-k", "k.key", "-r", "d"]);
    assert_ne!(o.status.code(), Some(0));
    assert!(stderr(&o).contains("d: a symbolic link; the root of a tree is not followed through a link (name it d/ to follow it)"), "{}", stderr(&o));
    nothing_outside(&dir, &o);
    // Asked for: `d/` follows the link; the manifest records where it led.
    fs::remove_file(dir.join("d")).unwrap();
    symlink("d.real", dir.join("d")).unwrap();
    assert_code(&run_in(&dir, &["seal", "-k", "k.key", "-r", "d/", "-o", "m3"]), 0);
    assert_eq!(fs::read_to_string(dir.join("m3")).unwrap().lines().nth(1), Some("root d.real"));
    let o = run_in(&dir, &["verify", "-k", "k.key", "m3"]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("d.real/sub/b: OK"), "{}", stdout(&o));
    let o = run_in(&dir, &["tag", "-k", "k.key", "-r", "d/"]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("d/sub/b"), "{}", stdout(&o));
    let _ = fs::remove_dir_all(&dir);
}

/// H1: a manifest named through a link to another directory's manifest
/// checks that directory: verify says so in one line before its results,
/// and its paths show the real root. No line for a link in its own
/// directory.
#[test]
fn a_manifest_linked_from_another_directory_is_named() {
    let dir = setup("linked-manifest");
    assert_code(&run_in(&dir, &["seal", "-k", "k.key", "-r", "d", "-o", "d/MANIFEST"]), 0);
    fs::create_dir(dir.join("tree")).unwrap();
    fs::write(dir.join("tree/other"), "not sealed").unwrap();
    symlink("../d/MANIFEST", dir.join("tree/MANIFEST")).unwrap();
    let o = run_in(&dir, &["verify", "-k", "k.key", "tree/MANIFEST"]);
    assert_code(&o, 0);
    let real = fs::canonicalize(dir.join("d")).unwrap();
    assert_eq!(stderr(&o), format!("unimac: tree/MANIFEST is reached through a symbolic link; its root resolves against its real directory {}\n", real.display()));
    assert!(stdout(&o).contains(&format!("{}/sub/b: OK", real.display())), "{}", stdout(&o));
    symlink("MANIFEST", dir.join("d/SAME")).unwrap();
    let o = run_in(&dir, &["verify", "-k", "k.key", "d/SAME"]);
    // The name given is the manifest's place: not added.
    assert_code(&o, 0);
    assert!(!stderr(&o).contains("is a symbolic link"), "{}", stderr(&o));
    let _ = fs::remove_dir_all(&dir);
}

/// M2: links to files leading outside the tree (absolute, `..` above the
/// root) are never followed: seal refuses them, verify reports them (a
/// listed name turned into one is CHANGED, an added one UNEXPECTED), tag
/// -r skips them with a warning; none of the outside file's name, size or
/// tag is printed. A link inside the tree still works in all three.
#[test]
fn links_to_files_are_followed_only_inside_the_tree() {
    let dir = setup("file-links");
    let secret = fs::canonicalize(dir.join("private/topsecret")).unwrap();
    symlink(&secret, dir.join("d/abs")).unwrap();
    symlink("../../private/topsecret", dir.join("d/sub/up")).unwrap();
    // seal -r: refused, no manifest.
    let o = run_in(&dir, &["seal", "-k", "k.key", "-r", "d", "-o", "m2"]);
    assert_code(&o, 1);
    let e = stderr(&o);
    assert!(e.contains("d/abs: a symbolic link leading outside the tree") && e.contains("d/sub/up: a symbolic link leading outside the tree"), "{e}");
    assert!(!dir.join("m2").exists());
    nothing_outside(&dir, &o);
    // verify: unexpected; and a listed file replaced by one: changed,
    // not opened (no RENAMED probe either).
    fs::remove_file(dir.join("d/a")).unwrap();
    symlink(&secret, dir.join("d/a")).unwrap();
    let o = run_in(&dir, &["verify", "-k", "k.key", "m"]);
    assert_code(&o, 1);
    let out = stdout(&o);
    assert!(out.contains("d/a: CHANGED\n") && out.contains("d/abs: UNEXPECTED\n") && out.contains("d/sub/up: UNEXPECTED\n"), "{out}");
    assert!(stderr(&o).contains("d/a: is a symbolic link leading outside the tree now"), "{}", stderr(&o));
    nothing_outside(&dir, &o);
    // tag -r: skipped with a warning each, never tagged.
    let o = run_in(&dir, &["tag", "-k", "k.key", "-r", "d"]);
    assert_code(&o, 0);
    assert_eq!(stdout(&o).lines().count(), 1, "{}", stdout(&o));
    assert!(stderr(&o).contains("d/sub/up: a symbolic link leading outside the tree, skipped"), "{}", stderr(&o));
    nothing_outside(&dir, &o);
    // Inside links: tagged, sealed and verified as the files they lead to.
    for l in ["d/a", "d/abs", "d/sub/up"] {
        fs::remove_file(dir.join(l)).unwrap();
    }
    fs::write(dir.join("d/a"), "alpha\n").unwrap();
    symlink("sub/b", dir.join("d/in")).unwrap();
    symlink("../a", dir.join("d/sub/up")).unwrap();
    let o = run_in(&dir, &["tag", "-k", "k.key", "-r", "d"]);
    assert_code(&o, 0);
    let t = stdout(&o);
    let tag_of = |n: &str| t.lines().find(|l| l.ends_with(&format!("  {n}"))).map(|l| l.split_whitespace().next().unwrap().to_string());
    assert_eq!(tag_of("d/in"), tag_of("d/sub/b"));
    assert_eq!(tag_of("d/sub/up"), tag_of("d/a"));
    assert_code(&run_in(&dir, &["seal", "-k", "k.key", "-r", "d", "-o", "m4"]), 0);
    let o = run_in(&dir, &["verify", "-k", "k.key", "m4"]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("d/in: OK\n") && stdout(&o).contains("d/sub/up: OK\n"), "{}", stdout(&o));
    let _ = fs::remove_dir_all(&dir);
}
