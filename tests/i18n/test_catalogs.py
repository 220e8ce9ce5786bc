"""The seven catalogs: complete, non-empty, with the placeholders of the English text."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

import yatzy
from yatzy.i18n import LANGUAGES, catalog_path, language_from_env, normalize_language

SOURCE = Path(yatzy.__file__).parent
#: Packages whose player-facing texts are translated.
TRANSLATED_PACKAGES = ("core", "solver", "bots", "i18n", "app", "tui", "cli", "web")


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def source_entries() -> set[tuple[str | None, str]]:
    """Every ``(msgctxt, msgid)`` marked in the source with ``_``, ``pgettext``,
    ``ngettext`` or ``N_``."""
    found: set[tuple[str | None, str]] = set()
    for package in TRANSLATED_PACKAGES:
        for _, _, message, _, context in extract_from_dir(SOURCE / package):
            found.add((context, message if isinstance(message, str) else message[0]))
    return found


def source_messages() -> set[str]:
    """Every msgid marked in the source."""
    return {message for _, message in source_entries()}


def read_catalog(lang: str):  # type: ignore[no-untyped-def]
    with catalog_path(lang).open("rb") as po:
        return read_po(po, locale=lang)


def test_the_source_marks_texts() -> None:
    messages = source_messages()
    assert "Roll (r)" in messages and "Full house" in messages
    assert len(messages) > 80
    assert ("default name", "Player") in source_entries()  # a msgid in one sense of two


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_text_is_translated(lang: str) -> None:
    catalog = read_catalog(lang)
    ids = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalog if m.id}
    missing = source_entries() - ids
    assert not missing, f"{lang} lacks {sorted(missing)}"
    for message in catalog:
        if not message.id:
            continue
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        assert len(forms) == catalog.num_plurals or not message.pluralizable
        assert all(form.strip() for form in forms), f"{lang}: empty {message.id!r}"
        assert not message.fuzzy, f"{lang}: fuzzy {message.id!r}"


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_placeholders_match_english(lang: str) -> None:
    for message in read_catalog(lang):
        if not message.id:
            continue
        if isinstance(message.id, str):
            assert isinstance(message.string, str)
            assert placeholders(message.string) == placeholders(message.id), (
                f"{lang}: {message.id!r} -> {message.string!r}")
        else:
            singular, plural = message.id
            allowed = placeholders(singular) | placeholders(plural)
            for form in message.string:
                assert placeholders(form) <= allowed, f"{lang}: {form!r}"
            assert placeholders(message.string[-1]) == placeholders(plural), (
                f"{lang}: {message.string[-1]!r}")


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_translations_format(lang: str) -> None:
    from yatzy.i18n import translator

    t = translator(lang)
    for message in read_catalog(lang):
        if message.id and isinstance(message.id, str):
            values = {name: "X" for name in placeholders(message.id)}
            assert t._(message.id, **values)


def test_no_catalog_has_stale_texts() -> None:
    current = source_entries()
    for lang in LANGUAGES:
        ids = {(m.context, m.id if isinstance(m.id, str) else m.id[0])
               for m in read_catalog(lang) if m.id}
        assert ids <= current, f"{lang} has texts no longer used: {sorted(ids - current)}"


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({"LANG": "sv_SE.UTF-8"}, "sv"),
        ({"LANG": "nb_NO.UTF-8"}, "nb"),
        ({"LANG": "no_NO"}, "nb"),
        ({"LANG": "da_DK.UTF-8"}, "da"),
        ({"LC_ALL": "fi_FI.UTF-8", "LANG": "sv_SE"}, "fi"),
        ({"LANG": "pt_BR.UTF-8"}, "pt"),
        ({"LANGUAGE": "de:et", "LANG": "en_US"}, "et"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_language_from_env(environ: dict[str, str], lang: str) -> None:
    assert language_from_env(environ) == lang


def test_unknown_language_is_none() -> None:
    assert normalize_language("de_DE") is None
