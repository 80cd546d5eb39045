"""Builds meteor_native._beam, ._synonym, ._phrases, ._tokens and ._normalize, C extensions with no dependency
beyond CPython's headers.

Optional: where it cannot be compiled (no C compiler, no Python headers) the package
installs without it and ``meteor`` runs the same search in Python.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "meteor_native._beam",
            ["meteor_native/_beam.c"],
            depends=["meteor_native/_beam_search.h"],
            optional=True,
            extra_compile_args=["-O2", "-std=c99", "-Wall", "-Wextra", "-Wno-unused-parameter"],
        ),
        Extension(
            "meteor_native._phrases",
            ["meteor_native/_phrases.c"],
            optional=True,
            extra_compile_args=["-O2", "-std=c99", "-Wall", "-Wextra", "-Wno-unused-parameter"],
        ),
        Extension(
            "meteor_native._normalize",
            ["meteor_native/_normalize.c"],
            optional=True,
            extra_compile_args=["-O2", "-std=c99", "-Wall", "-Wextra", "-Wno-unused-parameter"],
        ),
        Extension(
            "meteor_native._tokens",
            ["meteor_native/_tokens.c"],
            optional=True,
            extra_compile_args=["-O2", "-std=c99", "-Wall", "-Wextra", "-Wno-unused-parameter"],
        ),
        Extension(
            "meteor_native._synonym",
            ["meteor_native/_synonym.c"],
            optional=True,
            extra_compile_args=["-O2", "-std=c99", "-Wall", "-Wextra", "-Wno-unused-parameter"],
        ),
    ],
)
