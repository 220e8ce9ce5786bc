"""The solver's compiled loops, built when a C compiler is there.

Everything else is in ``pyproject.toml``. The extension is optional: without a compiler
(or the Python headers) the install still succeeds, with the rules, the games, the web
app and every command that needs no solver; a solver feature then says that its
compiled part is missing (``yatzy.solver.SolverMissing``). A wheel (``make wheel``)
carries the compiled part, so installing one needs no compiler.
"""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class OptionalBuildExt(build_ext):
    """Build the extension, or warn and go on without it."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler at all (distutils' platform errors)
            self._skipped(exc)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:  # the compiler failed, or no Python headers
            self._skipped(exc)

    @staticmethod
    def _skipped(exc: Exception) -> None:
        print(f"warning: the solver's compiled part was not built ({exc}); yatzy works "
              "without it, except for the solver's features", file=sys.stderr)


#: The compiled loops' sources, one file per concern (see csrc/kernels.h), and headers.
CSRC = Path("src/yatzy/solver/csrc")
SOURCES = sorted(str(p) for p in CSRC.glob("*.c"))
HEADERS = sorted(str(p) for p in CSRC.glob("*.h"))

setup(
    ext_modules=[
        Extension(
            "yatzy.solver._kernels",
            sources=SOURCES,
            depends=HEADERS,
            # -Wno-psabi: GCC notes that a function returning a 32-byte vector passes it
            # differently with and without AVX; the only such functions are inlined
            # (csrc/turn.h), so no call crosses that difference. -ffp-contract=off: a sum
            # of products is made as written, never fused (FMA), so that the AVX-512
            # build (csrc/turn_wide.c), the others and the sanitizers' agree to the bit.
            extra_compile_args=["-O3", "-fno-math-errno", "-ffp-contract=off", "-Wall",
                                "-Wno-psabi", "-pthread"],
            extra_link_args=["-pthread"],
            optional=True,
        ),
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
