"""unimac.dask's parameters: counter= for both tagging functions (nonce= on
tag_large only with caller_manages_nonces=True), paths made absolute on the client, a lone path
refused, the warning for a plain-TCP scheduler, the install hint, and the
README's example run as a script, twice."""

import os
import pathlib
import subprocess
import sys
import types
import warnings

import pytest

distributed = pytest.importorskip(
    "distributed", reason="unimac.dask needs Dask's distributed scheduler (pip install 'dask[distributed]')"
)

import unimac  # noqa: E402
import unimac.dask as ud  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def client():
    """Threads of this process (inproc://): quick, and no TLS warning."""
    cluster = distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=":0", silence_logs=40
    )
    c = distributed.Client(cluster)
    try:
        yield c
    finally:
        c.close()
        cluster.close()


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for n, size in (("a.bin", 10), ("b.bin", 70_000), ("big.bin", 300_001)):
        (tmp_path / n).write_bytes(os.urandom(size))
    return tmp_path


def test_tag_large_takes_a_counter_as_tag_files_does(client, files):
    key = unimac.keygen("wc-mmh32x4")
    ctr = unimac.Counter.create("n.ctr", "wc-mmh32x4", key)
    tags, nonces = ud.tag_files(["a.bin", "b.bin"], "wc-mmh32x4", key, counter=ctr, client=client)
    t = ud.tag_large("big.bin", "wc-mmh32x4", key, counter=ctr, blocksize="64 KiB", client=client)
    assert isinstance(t, ud.Tag) and isinstance(t, bytes)
    assert nonces == [bytes(16), (1).to_bytes(16, "little")] and t.nonce == (2).to_bytes(16, "little")
    assert t == unimac.Mac("wc-mmh32x4", key).tag_file("big.bin", nonce=t.nonce, caller_manages_nonces=True)
    assert ctr.peek() == 3
    ud.verify_large("big.bin", "wc-mmh32x4", key, t, nonce=t.nonce, client=client)
    with pytest.raises(ValueError, match="a nonce is required"):
        ud.verify_large("big.bin", "wc-mmh32x4", key, t, client=client)
    # Another key's counter is refused before anything is hashed or drawn.
    with pytest.raises(ValueError, match="another wc-mmh32x4 key"):
        ud.tag_large("big.bin", "wc-mmh32x4", unimac.keygen("wc-mmh32x4"), counter=ctr, client=client)
    assert ctr.peek() == 3
    with pytest.raises(ValueError, match="takes no nonce"):
        ud.tag_large("big.bin", "hash127-aes", bytes(32), counter=ctr, client=client)
    with pytest.raises(ValueError, match="counter"):
        ud.tag_large("big.bin", "wc-mmh32x4", key, client=client)
    # A MAC without a nonce: a Tag whose nonce is None.
    t = ud.tag_large("big.bin", "hash127-aes", bytes(32), client=client)
    assert t.nonce is None and t == unimac.Mac("hash127-aes", bytes(32)).tag_file("big.bin")
    import pickle

    assert pickle.loads(pickle.dumps(t)) == t and pickle.loads(pickle.dumps(t)).nonce is None


def test_tag_large_takes_a_nonce_only_when_the_caller_manages_nonces(client, files):
    """A nonce given by the caller could be one already used under the key
    (two files tagged under one nonce give the tags away): tag_large takes
    it only with caller_manages_nonces=True, as the CLI's --nonce needs
    --caller-manages-nonces."""
    key = unimac.keygen("wc-mmh32x4")
    n = os.urandom(16)
    with pytest.raises(ValueError) as e:
        ud.tag_large("big.bin", "wc-mmh32x4", key, nonce=n, client=client)
    # The library's one text (as every door of unimac that tags, and the
    # CLI's --nonce), with counter= as this door's source of nonces.
    assert str(e.value) == (
        "wc-mmh32x4: tag_large(nonce=...) needs caller_manages_nonces=True: the caller keeps its nonces from "
        "ever repeating under this key (unimac cannot know whether one was used before; "
        "counter=unimac.Counter(...) gives nonces that never repeat)"
    )
    # A nonce's length: the library's rule and message, before any hashing.
    for bad in (n[:15], n + b"x"):
        with pytest.raises(ValueError) as e:
            ud.tag_large("big.bin", "wc-mmh32x4", key, nonce=bad, caller_manages_nonces=True, client=client)
        assert str(e.value) == f"wc-mmh32x4: nonce must be 16 bytes, got {len(bad)}"
        with pytest.raises(ValueError, match=f"^wc-mmh32x4: nonce must be 16 bytes, got {len(bad)}$"):
            ud.verify_large("big.bin", "wc-mmh32x4", key, bytes(16), nonce=bad, client=client)
    with pytest.raises(ValueError, match="goes with nonce="):
        ud.tag_large("big.bin", "wc-mmh32x4", key, caller_manages_nonces=True, client=client)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning: the caller said it manages its nonces
        t = ud.tag_large("big.bin", "wc-mmh32x4", key, nonce=n, caller_manages_nonces=True, client=client)
    assert t == unimac.Mac("wc-mmh32x4", key).tag_file("big.bin", nonce=n, caller_manages_nonces=True) and t.nonce == n
    ctr = unimac.Counter.create("n.ctr", "wc-mmh32x4", key)
    with pytest.raises(ValueError, match="not both"):
        ud.tag_large("big.bin", "wc-mmh32x4", key, nonce=n, caller_manages_nonces=True, counter=ctr, client=client)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # verify_large's nonce= needs no opt-in
        ud.verify_large("big.bin", "wc-mmh32x4", key, t, nonce=n, client=client)


def test_a_lone_path_is_refused(client, files):
    key = bytes(32)
    for lone in ("a.bin", b"a.bin", pathlib.Path("a.bin")):
        with pytest.raises(TypeError, match="list of paths"):
            ud.tag_files(lone, "hash127-aes", key, client=client)
        with pytest.raises(TypeError, match="list of paths"):
            ud.verify_files(lone, "hash127-aes", key, [bytes(16)], client=client)
    tags, _ = ud.tag_files(("a.bin", pathlib.Path("b.bin")), "hash127-aes", key, client=client)
    with pytest.raises(TypeError, match="tags must be a list"):
        ud.verify_files(["a.bin"], "hash127-aes", key, tags[0], client=client)
    ud.verify_files(iter(["a.bin", "b.bin"]), "hash127-aes", key, tags, client=client)


class _Recording:
    def __init__(self, client):
        self._c = client
        self.mapped = []
        self.computed = []

    def map(self, *a, **k):
        self.mapped.append(a)
        return self._c.map(*a, **k)

    def compute(self, tasks, *a, **k):
        self.computed.append(tasks)
        return self._c.compute(tasks, *a, **k)

    def __getattr__(self, name):
        return getattr(self._c, name)


def test_paths_are_made_absolute_on_the_client(client, files):
    rec = _Recording(client)
    key = bytes(32)
    tags, _ = ud.tag_files(["a.bin", "./b.bin"], "hash127-aes", key, client=rec)
    assert rec.mapped[0][3] == [str(files / "a.bin"), str(files / "b.bin")]
    ud.tag_large("big.bin", "hash127-aes", key, blocksize=100_000, client=rec)
    import cloudpickle

    blob = cloudpickle.dumps(dict(rec.computed[0][0].__dask_graph__()))
    assert str(files / "big.bin").encode() in blob
    assert ud._url("rel/x.bin") == os.path.join(os.getcwd(), "rel", "x.bin")
    for url in ("s3://bucket/big.bin", "memory://x/y", "https://example.org/f"):
        assert ud._url(url) == url


def _fake_client(address):
    return types.SimpleNamespace(scheduler=types.SimpleNamespace(address=address))


def test_plain_tcp_scheduler_gets_a_warning():
    with pytest.warns(ud.InsecureClusterWarning, match="tcp://10.0.0.1:8786.*TLS") as w:
        assert ud.tag_files([], "hash127-aes", bytes(32), client=_fake_client("tcp://10.0.0.1:8786")).tags == []
    assert w[0].filename == __file__
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for address in ("tls://10.0.0.1:8786", "inproc://10.0.0.1/1/2"):
            ud.tag_files([], "hash127-aes", bytes(32), client=_fake_client(address))


def test_the_import_error_names_the_extra():
    assert "dask" in _optional_dependencies()
    code = (
        "import sys; sys.modules['distributed'] = None\n"
        "try:\n    import unimac.dask\nexcept ImportError as e:\n    print(e)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    # Installable as written: the dependency itself, and the extra from a
    # checkout (no 'unimac[dask]', which only an index could resolve).
    assert "pip install 'dask[distributed]'" in r.stdout and "pip install '.[dask]'" in r.stdout, r
    assert "unimac[dask]" not in r.stdout, r


def _optional_dependencies():
    text = (ROOT / "pyproject.toml").read_text()
    section = text.split("[project.optional-dependencies]", 1)[1].split("\n[", 1)[0]
    return [line.split("=", 1)[0].strip() for line in section.splitlines() if "=" in line]


def test_readme_clusters_example_runs_twice_as_a_script(tmp_path):
    pytest.importorskip("cryptography", reason="Security.temporary() makes its certificates with cryptography")
    readme = (ROOT / "README.md").read_text()
    section = readme.split("\n### Clusters\n", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    assert 'if __name__ == "__main__":' in code
    script = tmp_path / "example.py"
    script.write_text(code)
    for n, size in (("big.bin", 300_001), ("a.bin", 10), ("b.bin", 70_000)):
        (tmp_path / n).write_bytes(os.urandom(size))
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    for run in (1, 2):
        r = subprocess.run(
            [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=180, env=env
        )
        assert r.returncode == 0, f"run {run}:\n{r.stdout}\n{r.stderr}"
        # Three nonces a run, never one twice.
        assert unimac.Counter(tmp_path / "files.ctr", "wc-mmh32x4", unimac.load_key(tmp_path / "files.key").key).peek() == 3 * run
    assert unimac.load_key(tmp_path / "big.key").name == "hash127-aes"
