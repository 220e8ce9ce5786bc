"""Translations of every player-facing text, in seven languages.

The catalogs are gettext ``.po`` files under ``locale/<lang>/LC_MESSAGES/yatzy.po``, one
place shared by the terminal game and the web app. They are read with Babel and turned
into a :class:`gettext.GNUTranslations` in memory, so no compile step is needed.

>>> t = translator("sv")
>>> t._("Roll (r)")
'Slå (r)'
>>> t.ngettext("{n} roll left", "{n} rolls left", 2, n=2)
'2 slag kvar'
>>> language_from_env({"LANG": "nb_NO.UTF-8"})
'nb'
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

#: The gettext domain of the catalogs.
DOMAIN = "yatzy"

#: Each language's code and its own name for itself, in the order menus show them.
LANGUAGES: dict[str, str] = {
    "sv": "Svenska",
    "nb": "Norsk bokmål",
    "da": "Dansk",
    "fi": "Suomi",
    "en": "English",
    "pt": "Português",
    "et": "Eesti",
}

DEFAULT_LANGUAGE = "en"

#: Language codes people have in ``LANG`` that mean one of ours.
_ALIASES = {"no": "nb", "nn": "nb", "se": "sv"}


def N_(message: str) -> str:
    """Mark ``message`` for translation without translating it now."""
    return message


class UnknownLanguage(ValueError):
    """A language code that has no catalog."""


def normalize_language(code: str) -> str | None:
    """Our language code for a locale name like ``"sv_SE.UTF-8"`` or ``"pt-BR"``, else
    ``None``.

    >>> normalize_language("pt_BR.UTF-8"), normalize_language("no"), normalize_language("de")
    ('pt', 'nb', None)
    """
    base = code.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    base = _ALIASES.get(base, base)
    return base if base in LANGUAGES else None


def language_from_env(environ: Mapping[str, str]) -> str:
    """The language asked for by ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES`` or ``LANG``
    (the first that names one of ours), else English."""
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for part in environ.get(key, "").split(":"):
            if part and part not in ("C", "POSIX"):
                found = normalize_language(part)
                if found:
                    return found
    return DEFAULT_LANGUAGE


def catalog_path(lang: str) -> resources.abc.Traversable:
    """The ``.po`` file of ``lang`` inside the package."""
    return resources.files(__name__) / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def _translations(lang: str) -> gettext.GNUTranslations:
    with catalog_path(lang).open("rb") as po:
        catalog = read_po(po, locale=lang, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


class Translator:
    """The texts of one language. ``_``, ``pgettext`` and ``ngettext`` translate and then
    fill in ``{placeholders}`` from keyword arguments."""

    def __init__(self, lang: str) -> None:
        if lang not in LANGUAGES:
            raise UnknownLanguage(
                f"Unknown language {lang!r}; choose from {', '.join(LANGUAGES)}"
            )
        self.lang = lang
        self._gnu = _translations(lang)

    def _(self, message: str, **params: Any) -> str:
        """``message`` in this language, with ``params`` filled in."""
        text = self._gnu.gettext(message)
        return text.format(**params) if params else text

    def pgettext(self, context: str, message: str, /, **params: Any) -> str:
        """``message`` in the sense ``context`` gives it (one English word, two
        translations), with ``params`` filled in."""
        text = self._gnu.pgettext(context, message)
        return text.format(**params) if params else text

    def ngettext(self, singular: str, plural: str, count: int, /, **params: Any) -> str:
        """The singular or plural form for ``count``, with ``params`` filled in."""
        text = self._gnu.ngettext(singular, plural, count)
        return text.format(**params) if params else text

    def __repr__(self) -> str:
        return f"Translator({self.lang!r})"


@cache
def translator(lang: str) -> Translator:
    """The :class:`Translator` of ``lang`` (one of :data:`LANGUAGES`): one per language,
    shared (it holds nothing but its catalog)."""
    return Translator(lang)


__all__ = [
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "LANGUAGES",
    "N_",
    "Translator",
    "UnknownLanguage",
    "catalog_path",
    "language_from_env",
    "normalize_language",
    "translator",
]
