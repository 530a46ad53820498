use super::*;
use std::fs;

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("unimac-walk-{tag}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).unwrap();
    d
}

/// A tree `t` with `t/a`, `t/sub/b`, `t/sub/deep/c`, and outside it
/// `o/secret-name` (what a swapped link would lead to).
fn tree(tag: &str) -> (PathBuf, PathBuf, PathBuf) {
    let d = scratch(tag);
    let (t, o) = (d.join("t"), d.join("o"));
    fs::create_dir_all(t.join("sub/deep")).unwrap();
    fs::create_dir_all(o.join("deep")).unwrap();
    fs::write(t.join("a"), b"a").unwrap();
    fs::write(t.join("sub/b"), b"b").unwrap();
    fs::write(t.join("sub/deep/c"), b"c").unwrap();
    fs::write(o.join("secret-name"), b"s").unwrap();
    fs::write(o.join("b"), b"outside b").unwrap();
    fs::write(o.join("deep/c"), b"outside c").unwrap();
    (d, t, o)
}

/// Held by the tests that count this process's descriptors or hold
/// many (one per level of a deep chain), so they do not overlap.
static FDS: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn names(w: &Walk) -> String {
    format!("{:?}", w.entries)
}

#[test]
fn walks_in_order_and_opens_by_handle() {
    let (d, t, _) = tree("order");
    std::os::unix::fs::symlink(d.join("o"), t.join("zlink")).unwrap();
    let w = walk(&t);
    assert_eq!(
        w.entries,
        vec![
            Walked::File(t.join("a")),
            Walked::File(t.join("sub/b")),
            Walked::File(t.join("sub/deep/c")),
            // Without `openat2` a link to a directory is told by a
            // stat, not placed inside or outside the tree.
            if imp::beneath_supported() { Walked::Special(t.join("zlink"), OUTSIDE) } else { Walked::LinkedDir(t.join("zlink")) },
        ]
    );
    let mut s = String::new();
    use std::io::Read as _;
    w.tree.open(&t.join("sub/deep/c")).unwrap().read_to_string(&mut s).unwrap();
    assert_eq!(s, "c");
    assert!(w.tree.holds(&t.join("sub/b")) && !w.tree.holds(&t.join("zlink/b")));
    assert!(w.tree.open_regular(&t.join("sub/b")).is_ok());
    let _ = fs::remove_dir_all(&d);
}

/// The seam: a subdirectory swapped for a link to an outside directory
/// between its listing stat and its open, every time. The walk reports
/// it, names it, and lists nothing outside.
#[test]
fn a_directory_swapped_for_a_link_while_walked_is_reported_not_entered() {
    let (d, t, o) = tree("swap-link");
    let (sub, o2) = (t.join("sub"), o.clone());
    let hold = d.join("held");
    let h = hold.clone();
    imp::BEFORE_OPEN.with(|b| {
        *b.borrow_mut() = Some(Box::new(move |p: &Path| {
            if p == sub {
                fs::rename(&sub, &h).unwrap();
                std::os::unix::fs::symlink(&o2, &sub).unwrap();
            }
        }))
    });
    let w = walk(&t);
    imp::BEFORE_OPEN.with(|b| *b.borrow_mut() = None);
    let all = names(&w);
    assert!(!all.contains("secret-name") && !all.contains("outside"), "{all}");
    let errs: Vec<_> = w.entries.iter().filter_map(|e| if let Walked::Error(p, why) = e { Some((p, why)) } else { None }).collect();
    assert_eq!(errs.len(), 1, "{all}");
    assert_eq!(errs[0].0, &t.join("sub"));
    assert!(errs[0].1.contains("replaced by a symbolic link") && errs[0].1.contains("not entered"), "{}", errs[0].1);
    assert!(!w.tree.holds(&t.join("sub/secret-name")));
    let _ = fs::remove_dir_all(&d);
}

/// The same with another directory (same names, other inode): caught
/// by the identity check alone.
#[test]
fn a_directory_swapped_for_another_while_walked_is_reported_not_entered() {
    let (d, t, o) = tree("swap-dir");
    let (sub, o2, hold) = (t.join("sub"), o.clone(), d.join("held"));
    imp::BEFORE_OPEN.with(|b| {
        *b.borrow_mut() = Some(Box::new(move |p: &Path| {
            if p == sub {
                fs::rename(&sub, &hold).unwrap();
                fs::rename(&o2, &sub).unwrap();
            }
        }))
    });
    let w = walk(&t);
    imp::BEFORE_OPEN.with(|b| *b.borrow_mut() = None);
    let all = names(&w);
    assert!(!all.contains("secret-name"), "{all}");
    assert!(all.contains("replaced by another directory"), "{all}");
    let _ = fs::remove_dir_all(&d);
}

/// After the walk, a directory swapped for a link (or for another
/// directory) before its files are opened: the open is refused by the
/// chain's check, and no outside file is opened.
#[test]
fn files_under_a_directory_swapped_after_the_walk_are_not_opened() {
    for other_dir in [false, true] {
        let (d, t, o) = tree(if other_dir { "after-dir" } else { "after-link" });
        let w = walk(&t);
        // A chain on this thread into `sub/deep` first, so the swap
        // must be caught on a re-open from a kept level too.
        assert!(w.tree.open(&t.join("a")).is_ok());
        fs::rename(t.join("sub"), d.join("held")).unwrap();
        if other_dir {
            fs::rename(&o, t.join("sub")).unwrap();
        } else {
            std::os::unix::fs::symlink(&o, t.join("sub")).unwrap();
        }
        for f in ["sub/b", "sub/deep/c"] {
            let e = w.tree.open(&t.join(f)).unwrap_err().to_string();
            assert!(e.contains("not entered") && e.contains("sub"), "{f}: {e}");
            assert!(w.tree.stat(&t.join(f)).is_err());
            assert!(w.tree.open_regular(&t.join(f)).is_err());
        }
        assert!(w.tree.open(&t.join("a")).is_ok());
        let _ = fs::remove_dir_all(&d);
    }
}

/// A chain kept open into a directory that is swapped afterwards is not
/// trusted past the swap for a new directory: every level below the
/// kept prefix is opened and checked again.
#[test]
fn a_kept_chain_is_rechecked_below_its_prefix() {
    let (d, t, o) = tree("kept");
    let w = walk(&t);
    assert!(w.tree.open(&t.join("sub/b")).is_ok());
    // Swap `sub/deep` (not yet opened by this thread) for a link.
    fs::rename(t.join("sub/deep"), d.join("held")).unwrap();
    std::os::unix::fs::symlink(o.join("deep"), t.join("sub/deep")).unwrap();
    let e = w.tree.open(&t.join("sub/deep/c")).unwrap_err().to_string();
    assert!(e.contains("deep") && e.contains("not entered"), "{e}");
    let _ = fs::remove_dir_all(&d);
}

/// Symbolic links to files: followed inside the tree (relative, through
/// `..` that stays inside), never outside (absolute, `..` above the
/// root, a link to a link outside); nothing of an outside file is
/// stat-ed or opened through the tree, even when a link is retargeted
/// after the walk.
#[cfg(target_os = "linux")]
#[test]
fn links_to_files_are_followed_only_inside_the_tree() {
    use std::io::Read as _;
    use std::os::unix::fs::symlink;
    let (d, t, o) = tree("links");
    symlink("sub/b", t.join("in")).unwrap();
    symlink("../b", t.join("sub/deep/up")).unwrap();
    symlink(o.join("b"), t.join("abs")).unwrap();
    symlink("../o/b", t.join("dotdot")).unwrap();
    symlink("abs", t.join("chain")).unwrap();
    symlink(t.join("a"), t.join("abs-inside")).unwrap();
    let w = walk(&t);
    let kind = |n: &str| w.entries.iter().find(|e| matches!(e, Walked::File(p) | Walked::Special(p, _) if p == &t.join(n))).cloned();
    // openat2 missing (old kernel, filter): every link refused.
    let supported = kind("in") == Some(Walked::File(t.join("in")));
    if !supported {
        crate::skipped::skipped("links followed", "openat2 refused here");
        assert_eq!(kind("in"), Some(Walked::Special(t.join("in"), UNFOLLOWED)));
    } else {
        assert_eq!(kind("sub/deep/up"), Some(Walked::File(t.join("sub/deep/up"))));
        let mut s = String::new();
        w.tree.open(&t.join("sub/deep/up")).unwrap().read_to_string(&mut s).unwrap();
        assert_eq!(s, "b");
        assert!(w.tree.open_regular(&t.join("in")).is_ok());
    }
    for n in ["abs", "dotdot", "chain", "abs-inside"] {
        assert!(matches!(kind(n), Some(Walked::Special(_, k)) if k == OUTSIDE || k == UNFOLLOWED), "{n}: {:?}", kind(n));
        assert!(w.tree.stat(&t.join(n)).is_err() && w.tree.open(&t.join(n)).is_err(), "{n}");
    }
    // Retargeted after the walk: opened beneath the root, refused.
    fs::remove_file(t.join("in")).unwrap();
    symlink(o.join("b"), t.join("in")).unwrap();
    let e = w.tree.open(&t.join("in")).unwrap_err().to_string();
    assert!(e.contains("outside the tree") || e.contains("not followed"), "{e}");
    assert!(w.tree.stat(&t.join("in")).is_err());
    let _ = fs::remove_dir_all(&d);
}

/// The root: a symbolic link as its last component is refused (an
/// error naming it, nothing listed), unless named with a trailing `/`.
#[test]
fn a_root_that_is_a_link_is_refused_unless_named_with_a_slash() {
    let (d, t, _) = tree("root-link");
    let l = d.join("l");
    std::os::unix::fs::symlink(&t, &l).unwrap();
    assert!(root_is_link(&l) && !root_is_link(Path::new(&format!("{}/", l.display()))) && !root_is_link(&t));
    let w = walk(&l);
    assert_eq!(w.entries.len(), 1, "{:?}", w.entries);
    let Walked::Error(p, why) = &w.entries[0] else { panic!("{:?}", w.entries) };
    assert_eq!(p, &l);
    assert!(why.contains("a symbolic link") && why.contains("l/ to follow it"), "{why}");
    assert!(w.tree.dir_id(&l).is_none());
    let slash = PathBuf::from(format!("{}/", l.display()));
    let w = walk(&slash);
    assert_eq!(w.entries.len(), 3, "{:?}", w.entries);
    assert!(w.tree.open(&l.join("sub/b")).is_ok());
    let _ = fs::remove_dir_all(&d);
}

/// A chain deeper than [`MAX_DEPTH`]: an error naming the first
/// directory too deep, nothing below it listed, no overflow.
#[test]
fn a_tree_deeper_than_the_cap_is_an_error_not_an_overflow() {
    let _fds = FDS.lock().unwrap_or_else(|e| e.into_inner());
    let d = scratch("deep");
    // Built and removed by handle (the path grows past PATH_MAX).
    let mut fd = rustix::fs::open(&d, rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::DIRECTORY, rustix::fs::Mode::empty()).unwrap();
    let mut fds = Vec::new();
    for _ in 0..=MAX_DEPTH + 1 {
        rustix::fs::mkdirat(&fd, "d", rustix::fs::Mode::from_raw_mode(0o755)).unwrap();
        let next = rustix::fs::openat(&fd, "d", rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::DIRECTORY, rustix::fs::Mode::empty()).unwrap();
        fds.push(std::mem::replace(&mut fd, next));
        if fds.len() > 16 {
            fds.remove(0);
        }
    }
    drop((fd, fds));
    // One descriptor a level: skipped where the limit is lower.
    let limit = fs::read_to_string("/proc/self/limits").ok().and_then(|l| {
        l.lines().find(|x| x.starts_with("Max open files")).and_then(|x| x.split_whitespace().nth(3)).and_then(|n| n.parse::<usize>().ok())
    });
    if limit.is_some_and(|n| n < MAX_DEPTH + 64) {
        crate::skipped::skipped("a chain at the depth cap", "the open-file limit is below the depth cap");
    } else {
        let w = walk(&d);
        assert_eq!(w.entries.len(), 1, "{}", w.entries.len());
        let Walked::Error(p, why) = &w.entries[0] else { panic!() };
        assert_eq!(p.components().count(), d.components().count() + MAX_DEPTH + 1);
        assert!(why.ends_with(&format!("more than {MAX_DEPTH} directories deep; not entered")), "{}", &why[why.len() - 80..]);
    }
    // Removed from the bottom, by handle.
    let mut chain = vec![rustix::fs::open(&d, rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::DIRECTORY, rustix::fs::Mode::empty()).unwrap()];
    loop {
        match rustix::fs::openat(chain.last().unwrap(), "d", rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::DIRECTORY, rustix::fs::Mode::empty()) {
            Ok(f) if chain.len() < 4000 => chain.push(f),
            _ => break,
        }
    }
    while chain.len() > 1 {
        chain.pop();
        let _ = rustix::fs::unlinkat(chain.last().unwrap(), "d", rustix::fs::AtFlags::REMOVEDIR);
    }
    let _ = fs::remove_dir_all(&d);
}

/// Fewer descriptors than directories: a tree of 300 directories
/// walked and every file opened leaves this thread holding only the
/// chain of the last directory.
#[test]
fn descriptors_stay_bounded_by_depth() {
    let _fds = FDS.lock().unwrap_or_else(|e| e.into_inner());
    let d = scratch("fds");
    for i in 0..300 {
        fs::create_dir_all(d.join(format!("d{i:03}"))).unwrap();
        fs::write(d.join(format!("d{i:03}/f")), b"x").unwrap();
    }
    let open_fds = || fs::read_dir("/proc/self/fd").map(|r| r.count()).ok();
    let before = open_fds();
    let w = walk(&d);
    assert_eq!(w.entries.len(), 300);
    for e in &w.entries {
        let Walked::File(p) = e else { panic!("{e:?}") };
        drop(w.tree.open(p).unwrap());
    }
    if let (Some(b), Some(a)) = (before, open_fds()) {
        // The root and one directory (other tests' threads may hold a
        // few of their own).
        assert!(a <= b + 8, "{b} -> {a}");
    }
    let _ = fs::remove_dir_all(&d);
}
