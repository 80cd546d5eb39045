"""The cached index of :class:`meteor.languages.nltk_wordnet.FastWordNetCorpusReader`: its file format.

nltk's WordNet reader builds its lemma → (part of speech → offsets) map by parsing the
``index.*`` files on every start; the fast reader keeps that map, with the satellite
offsets, in one file beside the WordNet copy (:data:`INDEX_CACHE_NAME`), written in the
cache folder's one layout (:func:`meteor.resources.cache_sections`).
:func:`encode_index` and :func:`decode_index` turn the map into that file and back.
"""

from __future__ import annotations

from itertools import islice
from pathlib import Path
from typing import Any

from meteor.resources import cache_sections, int32_bytes, int32_list, read_cache_sections

__all__ = ["INDEX_CACHE_NAME", "decode_index", "encode_index"]

#: The cached index of :class:`FastWordNetCorpusReader`, next to the WordNet copy.
INDEX_CACHE_NAME = "lemma_pos_offset_map.bin"


def encode_index(
    key: dict[str, Any], satellites: list[int], lemma_map: dict[str, dict[str, list[int]]]
) -> bytes | None:
    """The satellites and the lemma map as a JSON header line (the key, section sizes,
    the shapes) and four sections: the lemmas (UTF-8, one per line, in the map's order),
    their order when grouped by shape, every offset (grouped), the satellite offsets.
    A lemma's shape is its parts of speech with their numbers of offsets; lemmas of
    one shape are rebuilt together (:func:`decode_index`).  ``None`` when a lemma is
    empty or holds a line break, or an offset is not a 32-bit integer (not cached)."""
    lemmas = list(lemma_map)
    if any(not w or "\n" in w for w in lemmas):
        return None
    by_shape: dict[tuple[tuple[str, int], ...], list[int]] = {}
    for k, w in enumerate(lemmas):
        shape = tuple((pos, len(offs)) for pos, offs in lemma_map[w].items())
        by_shape.setdefault(shape, []).append(k)
    order: list[int] = []
    offsets: list[int] = []
    shapes: list[list[Any]] = []
    for shape, members in by_shape.items():
        order += members
        offsets += [o for k in members for offs in lemma_map[lemmas[k]].values() for o in offs]
        shapes.append([[list(p) for p in shape], len(members)])
    if any(not 0 <= o < 2**31 for o in [*offsets, *satellites]):
        return None
    sections = [
        "\n".join(lemmas).encode("utf-8"),
        int32_bytes(order),
        int32_bytes(offsets),
        int32_bytes(satellites),
    ]
    return cache_sections(key, sections, shapes=shapes)


def decode_index(path: Path, key: dict[str, Any]) -> dict[str, Any] | None:
    """``{"key", "satellites", "map"}`` from what :func:`encode_index` wrote to ``path``
    for ``key``; ``None`` when it is missing, was made for another key or is damaged."""
    got = read_cache_sections(path, key, 4)
    if got is None:
        return None
    head, parts = got
    try:
        shapes = head["shapes"]
        lemmas = parts[0].decode("utf-8").split("\n") if parts[0] else []
        order, offsets, satellites = (
            int32_list(parts[1]),
            int32_list(parts[2]),
            int32_list(parts[3]),
        )
        if len(order) != len(lemmas) or len(offsets) != sum(
            n * sum(int(c) for _, c in shape) for shape, n in shapes
        ):
            return None
        values: list[Any] = [None] * len(lemmas)
        flat = iter(offsets)
        k = 0
        for shape, n in shapes:
            group = order[k : k + n]
            k += n
            if len(group) != n:
                return None
            pos_counts = [(str(p), int(c)) for p, c in shape]
            if len(pos_counts) == 1 and pos_counts[0][1] == 1:  # most lemmas: one synset
                pos = pos_counts[0][0]
                for i, o in zip(group, flat, strict=False):
                    values[i] = {pos: [o]}
            else:
                for i in group:
                    values[i] = {p: list(islice(flat, c)) for p, c in pos_counts}
        if k != len(lemmas) or None in values:
            return None
    except (ValueError, KeyError, TypeError, IndexError):
        return None
    return {"key": key, "satellites": satellites, "map": dict(zip(lemmas, values, strict=True))}
