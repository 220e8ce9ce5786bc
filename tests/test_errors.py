"""One hierarchy of errors from the core to the web: bad input is a ValueError, an
outage or a refusal to work now is not."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import yatzy
from yatzy.core.errors import BadInput, YatzyError

#: Errors that are not about bad input: asking again (later, elsewhere) may work.
NOT_INPUT = {
    "YatzyError", "AppError", "GameChanged", "StorageError", "AdviceBusy", "TooManyGames",
    "SolverMissing", "WebError", "TableNotBuilt", "DistributionTooLarge",
    # A table that filled up or closed meanwhile: the join was right when it was sent.
    "TableFull", "TableExpired",
    # Too many refused link codes: later, the same code may be right.
    "TooManyLinkAttempts",
    # A damaged file of the solver's: it is built again, nothing the caller sent is wrong.
    "RemainingDamaged",
}


def every_error() -> dict[str, type[YatzyError]]:
    for module in pkgutil.walk_packages(yatzy.__path__, "yatzy."):
        if module.name.endswith("__main__") or ".migrations." in module.name:
            continue
        importlib.import_module(module.name)
    found: dict[str, type[YatzyError]] = {}
    todo: list[type[YatzyError]] = [YatzyError]
    while todo:
        cls = todo.pop()
        found[cls.__name__] = cls
        todo.extend(cls.__subclasses__())
    return found


def test_bad_input_is_a_value_error_and_nothing_else_is() -> None:
    errors = every_error()
    assert set(errors) >= NOT_INPUT, NOT_INPUT - set(errors)
    assert len(errors) >= 25
    for name, cls in errors.items():
        if name in NOT_INPUT:
            assert not issubclass(cls, ValueError), name
        else:
            assert issubclass(cls, BadInput) and issubclass(cls, ValueError), name


def test_an_outage_is_not_caught_as_bad_input() -> None:
    from yatzy.app.errors import StorageError

    with pytest.raises(StorageError):
        try:
            raise StorageError("The game database failed: disk I/O error")
        except ValueError:  # what code catching bad input writes
            pytest.fail("a failing store was taken for bad input")


def test_the_web_layer_s_errors_are_in_the_hierarchy() -> None:
    from yatzy.web.errors import WebError, forbidden

    error = forbidden()
    assert isinstance(error, WebError) and isinstance(error, YatzyError)
    assert (error.status, error.code) == (403, "forbidden") and error.params == {}
    assert isinstance(yatzy.IllegalMove("x"), ValueError)
