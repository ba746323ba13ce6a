"""What help() and editors see: a docstring and a signature for everything public, and
type stubs that name exactly what the extension module has."""

import ast
import inspect
from pathlib import Path

import pytest

import gametree
from gametree import _gametree

STUB = Path(gametree.__file__).with_name("_gametree.pyi")


@pytest.mark.parametrize("name", sorted(gametree.__all__))
def test_every_public_name_has_a_docstring(name):
    item = getattr(gametree, name)
    if name in ("MAX", "MIN", "__version__"):
        return
    assert (item.__doc__ or "").strip(), name
    if inspect.isbuiltin(item):
        assert inspect.signature(item).parameters, name


@pytest.mark.parametrize(
    "cls", [gametree.Tree, gametree.TicTacToe, gametree.Checkers, gametree.ConnectFour, gametree.Kalah]
)
def test_every_method_of_the_game_classes_has_a_docstring_and_a_signature(cls):
    for name, member in vars(cls).items():
        if name.startswith("_"):
            continue
        assert (member.__doc__ or "").strip(), f"{cls.__name__}.{name}"
        if callable(member) and not isinstance(member, (staticmethod,)):
            inspect.signature(member)
    assert inspect.signature(cls).parameters is not None
    assert cls.__name__ in pydoc_text(cls)


def pydoc_text(thing):
    import pydoc

    return pydoc.render_doc(thing, renderer=pydoc.plaintext)


def test_help_on_the_package_shows_the_searches():
    text = pydoc_text(gametree)
    for name in ("search", "solve", "proof", "Tree", "InputError"):
        assert name in text


def test_the_stubs_name_what_the_module_has():
    tree = ast.parse(STUB.read_text())
    stubbed = {
        node.name
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.ClassDef))
    } | {
        target.id
        for node in tree.body
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
        for target in [node.target]
    }
    public = {name for name in dir(_gametree) if not name.startswith("_")} | {"__version__"}
    helpers = {"Game", "AnyGame"}
    assert public <= stubbed, public - stubbed
    assert stubbed - helpers <= public, (stubbed - helpers) - public
    assert (Path(gametree.__file__).parent / "py.typed").exists()


def test_input_errors_are_value_errors():
    assert issubclass(gametree.InputError, ValueError)
    with pytest.raises(ValueError):
        gametree.ConnectFour("9")


def test_the_examples_in_the_docstrings_run():
    import doctest

    assert doctest.testmod(gametree).failed == 0
    assert doctest.testmod(_gametree).failed == 0
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return
    from gametree import openspiel

    assert doctest.testmod(openspiel).failed == 0
