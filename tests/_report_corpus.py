"""The small made-up corpus the report tests share: eight references and a weak system.

Each test builds its other systems from these (a good copy, a middle one, a permutation);
the report's numbers on them are the test's own expectations.
"""

REFS = [
    "the cat sat on the mat",
    "a dog ran in the park this morning",
    "we like green tea",
    "the weather is nice today and the sun is shining over the old town and the river",
    "he reads a long book about the history of the city in the evening",
    "birds sing",
    "she bought fresh bread and milk at the small shop near the station",
    "it rained all night",
]
#: A weak system: the references' content words, shuffled and cut.
BAD = ["cat mat", "dog the park", "tea green", "weather nice sun town", "book city evening",
       "sing", "bread milk shop", "night rain"]  # fmt: skip
