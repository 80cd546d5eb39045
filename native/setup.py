"""Builds meteor_native._beam (its bodies _beam_search.h and _beam_wide.h), ._synonym, ._phrases, ._tokens, ._normalize, ._greedy, ._porter, ._kendall and ._lexicon, C extensions with no dependency
beyond CPython's headers.

Optional: where it cannot be compiled (no C compiler, no Python headers) the package
installs without it and ``meteor`` runs the same search in Python.
"""

from setuptools import Extension, setup

FLAGS = ["-O2", "-std=c99", "-Wall", "-Wextra", "-Wno-unused-parameter"]


def part(name: str, depends: tuple[str, ...] = ()) -> Extension:
    """``meteor_native.<name>`` from ``meteor_native/<name>.c``; optional: a part that
    does not compile is left out and the library runs its Python code."""
    return Extension(
        f"meteor_native.{name}",
        [f"meteor_native/{name}.c"],
        depends=[f"meteor_native/{d}" for d in depends],
        optional=True,
        extra_compile_args=FLAGS,
    )


setup(
    ext_modules=[
        part("_beam", depends=("_beam_search.h", "_beam_wide.h", "_beam_pair.h", "_stats_tuple.h")),
        part("_phrases"),
        part("_normalize", depends=("_java_chars.h",)),
        part("_tokens", depends=("_java_chars.h",)),
        part("_synonym"),
        part("_greedy", depends=("_stats_tuple.h",)),
        part("_porter"),
        part("_kendall"),
        part("_lexicon"),
    ],
)
