"""The examples in the docstrings run and give what they show."""

import doctest

import pytest

import unimac


def _objects():
    yield "unimac", unimac
    for name in unimac.__all__:
        obj = getattr(unimac, name)
        if callable(obj):
            yield name, obj
            for attr, member in vars(obj).items() if isinstance(obj, type) else ():
                if getattr(member, "__doc__", None) and not attr.startswith("_"):
                    yield f"{name}.{attr}", member


@pytest.mark.parametrize("name,obj", list(_objects()), ids=[n for n, _ in _objects()])
def test_docstring_examples(name, obj, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    doc = getattr(obj, "__doc__", None) or ""
    test = doctest.DocTestParser().get_doctest(doc, {"unimac": unimac}, name, None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0


def test_every_public_name_has_an_example():
    for name in unimac.__all__:
        obj = getattr(unimac, name)
        if callable(obj) and name not in ("InvalidTag", "Bound", "UnimacHash"):
            assert ">>>" in (obj.__doc__ or ""), name
