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


def test_readme_example_runs(tmp_path, monkeypatch):
    import pathlib

    readme = pathlib.Path(__file__).resolve().parents[3] / "README.md"
    text = readme.read_text()
    section = text.split("\n## Python\n", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(tmp_path)
    scope = {}
    exec(compile(code, str(readme), "exec"), scope)
    assert len(scope["tag"]) == 16
    assert (tmp_path / "m.ctr").read_text() == "1\n"
