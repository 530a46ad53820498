use super::*;

#[test]
fn messages_are_terminal_safe_and_without_os_error_numbers() {
    assert_eq!(terminal_safe("plain é"), "plain é");
    assert_eq!(terminal_safe("a\x1b[31mb\0c\n\u{7f}\u{9b}"), "a\\x1b[31mb\\x00c\\x0a\\x7f\\x9b");
    assert_eq!(terminal_safe_bytes(b"caf\xe9 \x9b\x1b"), b"caf\xe9 \\x9b\\x1b".to_vec());
    assert_eq!(terminal_safe("a\u{202e}b\u{200b}c\u{2066}d\u{feff}e\u{2028}"), "a\\u{202e}b\\u{200b}c\\u{2066}d\\u{feff}e\\u{2028}");
    assert_eq!(
        clean_msg("cannot open f: No such file or directory (os error 2)"),
        "cannot open f: No such file or directory"
    );
    assert_eq!(clean_msg("x (os error 13); y (os error 2)"), "x; y");
    assert_eq!(clean_msg("x (os error z)"), "x (os error z)");
}

/// A big file read in stripes gives every byte once and in order: the
/// stripes (whole units, hashed on any thread) and then the end as
/// bytes; with one thread, or a file below the split size, bytes only.
/// A file changed within `race::SLACK` of its read is read as one
/// stream (twice): bytes only.
#[test]
fn stripes_feed_every_byte_once_in_order() {
    let dir = std::env::temp_dir().join(format!("unimac-stripes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let cases = [
        (SPLIT_MIN as usize + (3 << 20) + 7, 1024usize, 2usize),
        (SPLIT_MIN as usize + 69_696 * 3, 69_696, 3),
        (SPLIT_MIN as usize + 5, 128, 2),
        (SPLIT_MIN as usize + 5, 128, 1),
        (SPLIT_MIN as usize - 1, 128, 2),
    ];
    let data_of = |len: usize| -> Vec<u8> {
        (0..len).map(|i| (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(31) as u8).collect()
    };
    let racy = dir.join("racy");
    std::fs::write(&racy, data_of(cases[0].0)).expect("write");
    for (i, &(len, ..)) in cases.iter().enumerate() {
        std::fs::write(dir.join(format!("big{i}")), data_of(len)).expect("write");
    }
    // Just written, so read as one stream (twice, compared).
    let mut got = Vec::new();
    let hash = |_: u64, d: &[u8]| -> Result<Vec<u8>, String> { Ok(d.to_vec()) };
    let st = Stripes { unit: 1024, threads: 2, hash: &hash, progress: None };
    let mut apply = |piece: Piece<'_, Vec<u8>>| -> Result<(), String> {
        match piece {
            Piece::Bytes(d) => got.extend_from_slice(d),
            _ => panic!("a racy file is read as one stream"),
        }
        Ok(())
    };
    read_message_stripes(Some(&racy), &st, &mut apply).map_err(|e| e.0).expect("read");
    assert!(got == data_of(cases[0].0));
    // The others are read after SLACK: not racy.
    std::thread::sleep(unimac_front::formats::race::SLACK + std::time::Duration::from_millis(100));
    for (i, (len, unit, threads)) in cases.into_iter().enumerate() {
        let data = data_of(len);
        let p = dir.join(format!("big{i}"));
        let hash = |at: u64, d: &[u8]| -> Result<Vec<u8>, String> {
            assert!(!d.is_empty() && d.len().is_multiple_of(unit));
            assert!(data[at as usize..at as usize + d.len()] == *d);
            Ok(d.to_vec())
        };
        let st = Stripes { unit, threads, hash: &hash, progress: None };
        let mut got = Vec::new();
        let (mut stripes, mut ends) = (0, 0);
        let mut apply = |piece: Piece<'_, Vec<u8>>| -> Result<(), String> {
            assert_eq!(ends, 0, "nothing after the end");
            match piece {
                Piece::Stripe(v) => {
                    assert!(got.len().is_multiple_of(unit));
                    stripes += 1;
                    got.extend_from_slice(&v);
                }
                Piece::End(d) => {
                    ends += 1;
                    got.extend_from_slice(d);
                }
                Piece::Bytes(d) => {
                    assert_eq!(stripes, 0);
                    got.extend_from_slice(d);
                }
            }
            Ok(())
        };
        read_message_stripes(Some(&p), &st, &mut apply).map_err(|e| e.0).expect("read");
        assert!(got == data, "{len} {unit} {threads}");
        let striped = threads >= 2 && len as u64 >= SPLIT_MIN;
        assert_eq!(stripes > 0, striped, "{len} {unit} {threads}");
        assert_eq!(ends, usize::from(striped));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every way of reading a file (small, one buffer, pipelined) gives the
/// same bytes in order.
#[test]
fn files_are_fed_whole_and_in_order() {
    let dir = std::env::temp_dir().join(format!("unimac-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for len in [0usize, 1, BUF - 1, BUF, BUF + 4097, 3 * BUF + 5] {
        let data: Vec<u8> = (0..len)
            .map(|i| {
                (i as u64)
                    .wrapping_mul(0x9e37_79b9_7f4a_7c15)
                    .rotate_left(29) as u8
            })
            .collect();
        let p = dir.join(format!("f{len}"));
        std::fs::write(&p, &data).expect("write");
        let mut got = Vec::with_capacity(len);
        read_message(Some(&p), |d| got.extend_from_slice(d))
            .map_err(|e| e.0)
            .expect("read");
        assert!(got == data, "len {len}: fed bytes differ");
        // With a limit: stops just past it.
        let mut got = Vec::new();
        let over = read_message_limited(Some(&p), 10, |d| got.extend_from_slice(d))
            .map_err(|e| e.0)
            .expect("read");
        assert_eq!(over, len > 10, "len {len}");
        assert!(got.len() <= len && (len <= 10 || got.len() > 10));
        std::fs::remove_file(&p).expect("remove");
    }
    let _ = std::fs::remove_dir(&dir);
}

/// Every plan of buffers (the L2 shares of Zen 3, Zen 4 and Sapphire
/// Rapids; read ahead on a helper thread or in turn) feeds a file whole
/// and in order at every size around its buffers, the empty file
/// included; a file cut short or grown while it is read is "changed
/// while reading", an error, never a crash.
#[test]
fn every_plan_feeds_files_whole_and_sees_them_change() {
    let dir = std::env::temp_dir().join(format!("unimac-plans-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let data_of = |len: usize| -> Vec<u8> {
        (0..len).map(|i| (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(23) as u8).collect()
    };
    let read = |p: &Path, plan: cache::Plan, f: &mut dyn FnMut(&[u8])| {
        let (file, meta) = open_input(p, "F", false)?;
        read_open_planned(file, meta, "F", u64::MAX, f, plan)
    };
    for l2 in [512usize << 10, 1 << 20, 2 << 20] {
        for ahead in [true, false] {
            let plan = cache::Plan::of_l2(l2, ahead);
            let b = if ahead { plan.pipelined } else { plan.stripe };
            for len in [0, 1, b - 1, b, b + 1, BUF - 1, BUF, BUF + 1, 3 * BUF + 5, 5 * b + b / 2] {
                let data = data_of(len);
                let p = dir.join(format!("f{len}"));
                std::fs::write(&p, &data).expect("write");
                let mut got = Vec::new();
                read(&p, plan, &mut |d| got.extend_from_slice(d)).map_err(|e| e.0).expect("read");
                assert!(got == data, "{plan:?}, {len} bytes: fed bytes differ");
                std::fs::remove_file(&p).expect("remove");
            }
            // Cut to a third, cut to nothing, grown: at the first slice.
            let len = 8 * BUF + 3;
            for cut in [Some(len / 3), Some(0), None] {
                let p = dir.join("changing");
                std::fs::write(&p, data_of(len)).expect("write");
                let mut first = true;
                let r = read(&p, plan, &mut |_| {
                    if std::mem::take(&mut first) {
                        let w = std::fs::OpenOptions::new().write(true).open(&p).expect("open");
                        w.set_len(cut.map_or(len as u64 + 4096, |c| c as u64)).expect("set_len");
                    }
                });
                let e = r.expect_err("a changed file is an error").0;
                assert_eq!(e, "F: changed while reading", "{plan:?}, cut {cut:?}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
