use super::*;

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("unimac-fsio-{tag}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).unwrap();
    d
}

#[test]
#[cfg_attr(target_os = "wasi", ignore = "std::env::temp_dir panics on WASI (no temporary directory)")]
fn writes_whole_and_never_over() {
    let d = scratch("w");
    let p = d.join("out");
    write_atomic(&p, b"one\n", Replace::Never, true, "file").unwrap();
    assert_eq!(fs::read(&p).unwrap(), b"one\n");
    let e = write_atomic(&p, b"two\n", Replace::Never, true, "file").unwrap_err();
    assert!(e.to_string().contains("already exists"), "{e}");
    assert_eq!(fs::read(&p).unwrap(), b"one\n");
    write_atomic(&p, b"three\n", Replace::Allowed, false, "file").unwrap();
    assert_eq!(fs::read(&p).unwrap(), b"three\n");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let q = d.join("key");
        write_atomic(&q, b"k\n", Replace::Never, true, "key file").unwrap();
        assert_eq!(fs::metadata(&q).unwrap().permissions().mode() & 0o777, 0o600);
    }
    // No temporary file is left behind.
    let left: Vec<_> = fs::read_dir(&d).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(left.iter().all(|n| !n.to_string_lossy().contains("unimac-tmp")), "{left:?}");
    let _ = fs::remove_dir_all(&d);
}

/// The named way (taken where the file system has no anonymous files):
/// whole files, never over a file, one link, no temporary file left;
/// the temporary files of writers that no longer run are removed, and
/// only those.
#[cfg(unix)]
#[test]
fn the_named_way_and_stale_temporaries() {
    use std::os::unix::fs::MetadataExt;
    let d = scratch("n");
    let p = d.join("key");
    assert!(matches!(write_named(&p, b"one\n", Replace::Never, Perm::Private), Ok(Done::Written)));
    assert!(matches!(write_named(&p, b"two\n", Replace::Never, Perm::Private), Ok(Done::Exists)));
    assert_eq!(fs::read(&p).unwrap(), b"one\n");
    assert_eq!(fs::metadata(&p).unwrap().nlink(), 1);
    let old = fs::metadata(&p).unwrap();
    assert!(matches!(write_named(&p, b"three\n", Replace::Allowed, Perm::Like(&old)), Ok(Done::Written)));
    assert_eq!(fs::read(&p).unwrap(), b"three\n");
    let left: Vec<_> = fs::read_dir(&d).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left.len(), 1, "{left:?}");
    // A dead writer's temporary file goes; a live one's, this
    // process's, and other names stay.
    let dead = {
        let mut c = std::process::Command::new("true").spawn().unwrap();
        let id = c.id();
        c.wait().unwrap();
        id
    };
    let stale = d.join(format!(".key.unimac-tmp-{dead}-0123456789ab"));
    let live = d.join(".key.unimac-tmp-1-0123456789ab");
    let own = d.join(format!(".key.unimac-tmp-{}-0123456789ab", std::process::id()));
    let other = d.join(format!(".key.unimac-tmp-{dead}-0123456789AB"));
    for f in [&stale, &live, &own, &other] {
        fs::write(f, b"secret").unwrap();
    }
    assert_eq!(temp_pid(&format!(".k.unimac-tmp-{dead}-0123456789ab")), Some(dead));
    for bad in [".k.unimac-tmp-+1-0123456789ab", ".k.unimac-tmp-1-0123456789a", "k.unimac-tmp-1-0123456789ab", ".k.unimac-tmp--0123456789ab"] {
        assert_eq!(temp_pid(bad), None, "{bad}");
    }
    write_atomic(&d.join("k2"), b"k\n", Replace::Never, true, "key file").unwrap();
    assert!(!stale.exists(), "a dead writer's temporary file is removed");
    assert!(live.exists() && own.exists() && other.exists());
    let _ = fs::remove_dir_all(&d);
}

/// The stale-file cleaner removes, by the directory's handle, only
/// regular files of this user: not another user's file named like a
/// dead writer's temporary file (run as root in a shared directory such
/// as `/tmp`), and not a symbolic link so named (nor its target).
#[cfg(unix)]
#[test]
fn stale_temporaries_of_other_users_and_links_are_left() {
    use std::os::unix::fs::MetadataExt;
    let d = scratch("u");
    let dead = {
        let mut c = std::process::Command::new("true").spawn().unwrap();
        let id = c.id();
        c.wait().unwrap();
        id
    };
    let mine = d.join(format!(".key.unimac-tmp-{dead}-0123456789ab"));
    let link = d.join(format!(".key.unimac-tmp-{dead}-0123456789ac"));
    let target = d.join("target");
    fs::write(&mine, b"secret").unwrap();
    fs::write(&target, b"keep").unwrap();
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let theirs = d.join(format!(".key.unimac-tmp-{dead}-0123456789ad"));
    let root = rustix::process::geteuid().is_root();
    if root {
        fs::write(&theirs, b"another user's").unwrap();
        std::os::unix::fs::chown(&theirs, Some(65534), Some(65534)).unwrap();
        assert_eq!(fs::metadata(&theirs).unwrap().uid(), 65534);
    } else {
        crate::skipped::skipped("another user's file", "needs root (chown to uid 65534)");
    }
    remove_stale_temporaries(&d);
    assert!(!mine.exists(), "this user's stale temporary file is removed");
    assert!(fs::symlink_metadata(&link).is_ok() && fs::read(&target).unwrap() == b"keep", "a link is left, and its target");
    if root {
        assert!(theirs.exists(), "another user's file was removed");
    }
    let _ = fs::remove_dir_all(&d);
}

/// An anonymous file leaves no name behind.
#[test]
#[cfg_attr(target_os = "wasi", ignore = "std::env::temp_dir panics on WASI (no temporary directory)")]
fn anonymous_files_have_no_name() {
    use std::io::{Read, Seek};
    let d = scratch("a");
    let mut f = anonymous_file(&d).unwrap();
    f.write_all(b"held").unwrap();
    f.rewind().unwrap();
    let mut back = String::new();
    f.read_to_string(&mut back).unwrap();
    assert_eq!(back, "held");
    assert_eq!(fs::read_dir(&d).unwrap().count(), 0);
    let _ = fs::remove_dir_all(&d);
}

#[cfg(unix)]
#[test]
fn opens_only_regular_files() {
    let d = scratch("o");
    let f = d.join("f");
    fs::write(&f, b"x").unwrap();
    assert!(open_regular(&f).is_ok());
    assert!(open_stated_regular(&f).is_ok());
    assert!(matches!(open_stated_regular(Path::new("/dev/null")), Err(OpenError::NotRegular("a character device"))));
    assert!(matches!(open_regular(&d.join("none")), Err(OpenError::NotFound)));
    assert!(matches!(open_regular(&d), Err(OpenError::NotRegular("a directory"))));
    let e = open_regular(Path::new("/dev/null")).unwrap_err();
    assert!(matches!(e, OpenError::NotRegular("a character device")), "{e:?}");
    assert!(e.message("/dev/null").contains("not opened"));
    // An argument: the same refusals, without blocking on a named pipe.
    assert!(matches!(open_argument(Path::new("/dev/zero")), Err(OpenError::NotRegular("a character device"))));
    assert!(matches!(open_argument(&d), Err(OpenError::NotRegular("a directory"))));
    let fifo = d.join("fifo");
    if std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success()) {
        assert!(matches!(open_argument(&fifo), Err(OpenError::NotRegular("a named pipe"))));
    }
    let (g, _) = open_argument(&f).unwrap();
    let fl = rustix::fs::fcntl_getfl(&g).unwrap();
    assert!(!fl.contains(rustix::fs::OFlags::NONBLOCK));
    assert_eq!(read_capped(&g, 1, "list", "f").unwrap(), b"x");
    let long = read_capped(&b"abc"[..], 2, "key file", "k").unwrap_err().to_string();
    assert!(long.contains("key file k: longer than 2 bytes"), "{long}");
    let _ = fs::remove_dir_all(&d);
}

#[test]
fn paths() {
    assert_eq!(normalize(Path::new("a/./b/../c")), PathBuf::from("a/c"));
    assert_eq!(normalize(Path::new("../a")), PathBuf::from("../a"));
    assert_eq!(normalize(Path::new("/../a")), PathBuf::from("/a"));
    assert_eq!(normalize(Path::new("a/..")), PathBuf::from("."));
    assert_eq!(relative_to(Path::new("/x/y"), Path::new("/x/z/w")), PathBuf::from("../z/w"));
    assert_eq!(relative_to(Path::new("/x"), Path::new("/x")), PathBuf::from("."));
    assert_eq!(relative_to(Path::new("/"), Path::new("/a")), PathBuf::from("a"));
}
