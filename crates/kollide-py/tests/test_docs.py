"""The docstrings' examples and the README's Python example run and print what they say."""

import doctest
import pathlib
import re

import pytest

import kollide

ROOT = pathlib.Path(__file__).resolve().parents[3]


def documented():
    yield "kollide", kollide
    for name in kollide.__all__:
        obj = getattr(kollide, name)
        yield name, obj
        for attr, member in vars(obj).items() if isinstance(obj, type) else []:
            if not attr.startswith("_") and getattr(member, "__doc__", None):
                yield f"{name}.{attr}", member


@pytest.mark.parametrize("name, obj", list(documented()), ids=lambda x: x if isinstance(x, str) else "")
def test_docstring_examples_run(name, obj):
    doc = getattr(obj, "__doc__", None) or ""
    test = doctest.DocTestParser().get_doctest(doc, {}, name, None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0, f"{name}: {runner.failures} doctest failures (run pytest -s to see them)"


def test_every_public_function_and_shape_has_an_example():
    missing = [
        n
        for n in kollide.__all__
        if callable(getattr(kollide, n))
        and not n.endswith(("Result", "Status", "Feature"))
        and n not in ("Shape",)
        and ">>>" not in (getattr(kollide, n).__doc__ or "")
    ]
    # 2D shapes share their 3D siblings' examples.
    assert set(missing) <= {"Rectangle", "Capsule2D", "Ellipse", "Segment2D", "Triangle2D", "ConvexPolygon", "ConcavePolygon", "Polyline"}, missing


def test_readme_python_example_runs():
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks, "the README has a Python example"
    for code in blocks:
        exec(compile(code, "README.md", "exec"), {"__name__": "readme"})
