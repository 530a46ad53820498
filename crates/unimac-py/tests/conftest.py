import os
import pathlib
import shutil

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
VECTORS = ROOT / "crates" / "unimac-cli" / "vectors"


@pytest.fixture(scope="session")
def vectors_dir():
    assert VECTORS.is_dir(), VECTORS
    return VECTORS


@pytest.fixture(scope="session")
def cli():
    """The `unimac` binary of this checkout, if built (to compare messages):
    $UNIMAC_CLI, else target/release or target/debug (of $CARGO_TARGET_DIR,
    then of the checkout), else `unimac` on $PATH."""
    env = os.environ.get("UNIMAC_CLI")
    if env:
        return env
    dirs = [pathlib.Path(os.environ["CARGO_TARGET_DIR"])] if os.environ.get("CARGO_TARGET_DIR") else []
    dirs.append(ROOT / "target")
    for p in (d / profile / "unimac" for d in dirs for profile in ("release", "debug")):
        if p.is_file() and os.access(p, os.X_OK):
            return str(p)
    found = shutil.which("unimac")
    if found:
        return found
    pytest.skip("the unimac CLI is not built")


@pytest.fixture(scope="module")
def client():
    """A real `distributed.LocalCluster` of two worker processes (one thread
    each), started for one test module and stopped after it; a module that
    wants another cluster defines its own `client`."""
    distributed = pytest.importorskip("distributed", reason="the dask extra: pip install '.[dask]' in the checkout")
    cluster = distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0", silence_logs=40
    )
    c = distributed.Client(cluster)
    try:
        yield c
    finally:
        c.close()
        cluster.close()
