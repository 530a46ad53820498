"""Files that change while they are read (docs/SECURITY.md): Mac.tag_file,
unimac.seal and the Dask tasks read a regular file under the library's rule
(unimac::formats::race). A file written just before it is read (racy: read
twice, the same bytes both times) is tagged; a file rewritten in place
while it is read gives the tag of a version it held or "changed while
reading", never the tag of a mix."""

import os
import threading
import time

import pytest

import unimac
from unimac import _unimac

NAME = "hash127-aes"


def test_a_file_written_just_before_is_tagged(tmp_path):
    key = unimac.keygen(NAME)
    m = unimac.Mac(NAME, key)
    for size in (0, 1, 1000, (1 << 20) + 3, 5 << 20):
        data = os.urandom(size)
        p = tmp_path / f"f{size}"
        p.write_bytes(data)  # racy: changed within two seconds of the read
        assert m.tag_file(str(p)) == m.tag(data), size
        p.write_bytes(data)
        spec = unimac.info(NAME)["spec_name"]
        hk = unimac.hash_key(spec, key)
        head, partial, tail = _unimac._partial_range(spec, hk, str(p), 0, size, size, 1 << 20)
        assert not head and not tail
        assert unimac.finish_mac(spec, key, partial) == m.tag(data), size


def test_a_file_rewritten_while_read_is_never_tagged_torn(tmp_path):
    """A writer thread rewrites an 8 MiB file in place, one pwrite(2) of a
    whole version (a repeated byte) at a time, with pauses of 0 to 30 ms,
    while Mac.tag_file and the Dask range task read it: every tag is of a
    version, the other reads raise "changed while reading"."""
    size = 8 << 20
    key = unimac.keygen(NAME)
    m = unimac.Mac(NAME, key)
    spec = unimac.info(NAME)["spec_name"]
    hk = unimac.hash_key(spec, key)
    versions = [bytes([0x11 * (v + 1)]) * size for v in range(4)]
    want = {m.tag(v) for v in versions}
    p = str(tmp_path / "f")
    with open(p, "wb") as f:
        f.write(versions[0])
    stop = threading.Event()
    writes = 0

    def writer():
        nonlocal writes
        fd = os.open(p, os.O_WRONLY)
        try:
            i = 0
            while not stop.is_set():
                i += 1
                os.pwrite(fd, versions[i % len(versions)], 0)
                writes += 1
                time.sleep((i % 4) * 0.01)
        finally:
            os.close(fd)

    t = threading.Thread(target=writer)
    t.start()
    runs = tagged = refused = 0
    start = time.monotonic()
    try:
        while runs < 40 and time.monotonic() - start < 60:
            runs += 1
            try:
                if runs % 2:
                    got = m.tag_file(p)
                else:
                    _, partial, _ = _unimac._partial_range(spec, hk, p, 0, size, size, 1 << 20)
                    got = unimac.finish_mac(spec, key, partial)
            except OSError as e:
                assert "changed while reading" in str(e), e
                refused += 1
                continue
            assert got in want, f"run {runs}: the tag of no version the file held"
            tagged += 1
    finally:
        stop.set()
        t.join()
    print(f"{runs} runs: {tagged} tagged a version, {refused} changed while reading; {writes} writes")
    assert runs > 0 and tagged + refused == runs and writes > 0


def test_a_change_the_stamps_do_not_show_is_caught_by_the_second_read(tmp_path):
    """Writes through a shared mapping to a page already dirty set neither
    mtime nor ctime: the stamps before and after agree. The file was
    changed just before (racy), so it is read twice and the two reads are
    compared: a thread flipping one byte through the mapping makes them
    differ, "changed while reading"; a tag printed is of one of the two
    contents."""
    import mmap

    size = 4 << 20
    key = unimac.keygen(NAME)
    m = unimac.Mac(NAME, key)
    p = str(tmp_path / "f")
    with open(p, "wb") as f:
        f.write(bytes(size))
    fd = os.open(p, os.O_RDWR)
    mm = mmap.mmap(fd, size)
    mm[size // 2] = 1  # the page is dirty now: further writes leave the stamps
    mm[size // 2] = 0
    want = {m.tag(bytes(size)), m.tag(bytes(size // 2) + b"\x01" + bytes(size - size // 2 - 1))}
    stop = threading.Event()

    def flipper():
        while not stop.is_set():
            mm[size // 2] ^= 1

    before = os.stat(p)
    t = threading.Thread(target=flipper)
    t.start()
    runs = tagged = refused = 0
    try:
        while runs < 200 and refused == 0:
            runs += 1
            try:
                got = m.tag_file(p)
            except OSError as e:
                assert "changed while reading" in str(e), e
                refused += 1
                continue
            assert got in want
            tagged += 1
    finally:
        stop.set()
        t.join()
        mm.close()
        os.close(fd)
    after = os.stat(p)
    same = (before.st_mtime_ns, before.st_ctime_ns) == (after.st_mtime_ns, after.st_ctime_ns)
    print(f"{runs} runs: {tagged} tagged, {refused} changed while reading; stamps moved: {not same}")
    assert refused > 0
