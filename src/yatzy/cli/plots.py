"""Pictures the commands save with ``--plot``: which files they write, and writing them
(matplotlib, an optional extra: ``pip install 'yatzy[plot]'``)."""

from __future__ import annotations

import importlib.util
import os
from typing import Any

from yatzy.cli.errors import CommandError
from yatzy.cli.options import user_path
from yatzy.i18n import N_

#: The file types ``--plot`` writes, by extension (matplotlib's, less those that need
#: more than matplotlib and Pillow, like pgf's LaTeX, or are no picture, like raw).
PLOT_FORMATS = ("png", "svg", "pdf", "jpg", "jpeg", "webp", "gif", "tif", "tiff", "eps",
                "ps", "svgz")


def plot_file(name: str) -> str:
    """The file ``--plot name`` writes: ``name`` itself, or ``name.png`` when it has no
    extension. A folder, a missing folder or a file type we do not write is refused."""
    if importlib.util.find_spec("matplotlib") is None:
        raise CommandError(N_("--plot needs matplotlib: pip install 'yatzy[plot]'"))
    if name.endswith(("/", os.sep)) or os.path.isdir(user_path(name)):
        raise CommandError(N_("{file} is a folder: give --plot a file name, such as "
                              "scores.png"), file=name)
    stem, extension = os.path.splitext(name)
    if not extension.strip("."):
        name = stem.rstrip(".") + ".png"
    elif extension[1:].lower() not in PLOT_FORMATS:
        raise CommandError(N_("--plot cannot write {extension} files; it writes "
                              "{extensions}"), extension=extension,
                           extensions=", ".join("." + f for f in PLOT_FORMATS))
    folder = user_path(name).parent
    if not os.path.isdir(folder):
        raise CommandError(N_("Cannot save the histogram to {file}: there is no folder "
                              "{folder}"), file=name, folder=folder)
    return name


def new_figure() -> tuple[Any, Any]:
    """A figure and its axes, drawn off screen. Its texts are shown as they are: no
    ``$...$`` mathematics, so that a player's name like ``$x^2$`` is not formatted (and
    one like ``$\\frac{$`` does not stop the drawing)."""
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["text.parse_math"] = False
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=(8, 4.5))


def save_figure(fig: Any, path: str) -> None:
    """Write ``fig`` to ``path`` (checked by :func:`plot_file`) and close it."""
    import matplotlib.pyplot as plt

    fig.tight_layout()
    try:
        fig.savefig(user_path(path), format=os.path.splitext(path)[1][1:].lower())
    except (OSError, ValueError, RuntimeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise CommandError(N_("Cannot save the histogram to {file}: {reason}"), file=path,
                           reason=reason) from None
    finally:
        plt.close(fig)
