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
    """The `unimac` binary of this checkout, if built (to compare messages)."""
    for p in (ROOT / "target" / "release" / "unimac", ROOT / "target" / "debug" / "unimac"):
        if p.is_file() and os.access(p, os.X_OK):
            return str(p)
    found = shutil.which("unimac")
    if found:
        return found
    pytest.skip("the unimac CLI is not built")
