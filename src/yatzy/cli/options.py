"""Command-line options shared by sub-commands: the player's language, bounded whole
numbers, and choosing a ruleset and its options."""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from yatzy.cli.codes import CliCode
from yatzy.core.errors import RulesError
from yatzy.core.rulesets import OptionInfo, Ruleset, ruleset, ruleset_names, rulesets
from yatzy.i18n import LANGUAGES, Translator, language_from_env, translator

#: A whole number as a player types it: ASCII digits, perhaps a sign.
_WHOLE = re.compile(r"[+-]?[0-9]+")


def add_language_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--lang``: every command speaks the player's language."""
    parser.add_argument("--lang", choices=tuple(LANGUAGES),
                        help="language (default: from LANG, else English)")


def command_translator(args: argparse.Namespace) -> Translator:
    """The texts of the language ``--lang`` asks for, else the one ``LANG`` (or
    ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``) names, else English."""
    return translator(getattr(args, "lang", None) or language_from_env(os.environ))


def language_asked(words: Sequence[str], environ: Mapping[str, str]) -> str:
    """The language of a command line before it is parsed (``--lang X`` or
    ``--lang=X``, else the environment's), so that even the parser's refusals of a
    bad option value speak it.

    >>> language_asked(["games", "-n", "x", "--lang", "fi"], {}), language_asked([], {})
    ('fi', 'en')
    """
    for i, word in enumerate(words):
        value = None
        if word == "--lang" and i + 1 < len(words):
            value = words[i + 1]
        elif word.startswith("--lang="):
            value = word.removeprefix("--lang=")
        if value in LANGUAGES:
            return value
        if word == "--":
            break
    return language_from_env(environ)


def whole_number(t: Translator, low: int | None = None, high: int | None = None
                 ) -> Callable[[str], int]:
    """An argparse ``type``: a whole number from ``low`` to ``high`` (either bound may be
    left out), refused in ``t``'s language otherwise. The bounds keep a number small
    enough for every database and array it reaches.

    >>> from yatzy.i18n import translator
    >>> whole_number(translator("en"), 1, 20)("7")
    7
    >>> whole_number(translator("en"), 1, 20)("99999999999999999999")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be a whole number from 1 to 20, not 99999999999999999999
    """

    def convert(text: str) -> int:
        shown = text if len(text) <= 40 else text[:40] + "…"
        n: int | None = None
        if _WHOLE.fullmatch(text.strip()):
            try:
                n = int(text)
            except ValueError:  # more digits than Python converts: beyond any bound
                if low is not None or high is not None:
                    n = max(abs(low or 0), abs(high or 0)) + 1
        if n is None:
            raise argparse.ArgumentTypeError(
                t._("must be a whole number, not {value}", value=repr(shown)))
        if (low is None or low <= n) and (high is None or n <= high):
            return n
        if high is None:
            raise argparse.ArgumentTypeError(t._(
                "must be a whole number {low} or more, not {value}", low=low, value=shown))
        raise argparse.ArgumentTypeError(t._(
            "must be a whole number from {low} to {high}, not {value}",
            low=low, high=high, value=shown))

    return convert


def _option_flags() -> dict[str, tuple[OptionInfo, str, tuple[str, ...]]]:
    """Each ruleset option once, from the rulesets' own descriptions: the option, its
    flag (``--name``; ``--no-name`` for an option that is on by default) and the
    rulesets that have it."""
    found: dict[str, tuple[OptionInfo, str, tuple[str, ...]]] = {}
    for info in rulesets():
        for option in info.options:
            dashed = option.name.replace("_", "-")
            flag = f"--no-{dashed}" if option.kind == "bool" and option.default else f"--{dashed}"
            if option.name in found:  # another ruleset's option of that name
                seen, _, owners = found[option.name]
                choices = (*seen.choices, *(c for c in option.choices if c not in seen.choices))
                option = dataclasses.replace(seen, choices=choices)
            else:
                owners = ()
            found[option.name] = (option, flag, (*owners, info.name))
    return found


def user_path(name: str) -> Path:
    """A file a command writes, ``~`` or ``~user`` expanded; as it is when there is no
    such user (then there is no such folder either, and writing says so).

    >>> user_path("~no-such-user-here/x.png")
    PosixPath('~no-such-user-here/x.png')
    """
    try:
        return Path(name).expanduser()
    except RuntimeError:  # "Could not determine home directory"
        return Path(name)


def add_ruleset_arguments(parser: argparse.ArgumentParser, t: Translator) -> None:
    """Add ``--rules`` and the options of every ruleset, as the rulesets describe them
    (``--order``, ``--joker``, ``--no-yahtzee-bonus``, ``--upper-first``, ``--rolls``)."""
    group = parser.add_argument_group("rules")
    group.add_argument("--rules", choices=ruleset_names(), default="yatzy",
                       help="the ruleset (default: yatzy, Scandinavian)")
    everyone = len(ruleset_names())
    for name, (option, flag, owners) in _option_flags().items():
        where = "" if len(owners) == everyone else f"{', '.join(owners)}: "
        label = option.label.lower()
        if option.kind == "bool":
            group.add_argument(flag, dest=name, default=None,
                               action="store_false" if option.default else "store_true",
                               help=f"{where}{'no ' if option.default else ''}{label}")
        elif option.kind == "choice":
            group.add_argument(flag, dest=name, choices=option.choices,
                               help=f"{where}{label} (default {option.default})")
        else:  # the ruleset checks the number; here it only has to be a number
            group.add_argument(flag, dest=name, type=whole_number(t),
                               help=f"{where}{label} (default {option.default})")


def ruleset_from_args(args: argparse.Namespace) -> Ruleset:
    """The ruleset the options of :func:`add_ruleset_arguments` ask for."""
    flags = {name: flag for name, (_, flag, _) in _option_flags().items()}
    options = {
        key: getattr(args, key) for key in flags if getattr(args, key, None) is not None
    }
    known = ruleset(args.rules).options
    for key in options:
        if key not in known:
            raise RulesError(
                f"{flags[key]} is not an option of {args.rules}",
                code=CliCode.FLAG_NOT_FOR_RULES, flag=flags[key], rules=args.rules,
            )
    return ruleset(args.rules, **options)
