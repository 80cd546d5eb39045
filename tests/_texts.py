"""Real long segments shared by the figure tests (unit and browser)."""

WMT21_SEG3 = (  # system AFRL, line 3 of wmt21_ru-en_da/all_outputs.tsv
    "Mikhail Degtyarev, acting governor of Khabarovsk Krai, called in an interview with "
    "Komsomolskaya Pravda columnist Alexander Gamov not to demonize the residents of "
    "Khabarovsk against the backdrop of rallies in support of the arrest of regurgalas.",
    "In an interview with Komsomolskaya Pravda columnist Alexander Gamov, Khabarovsk Krai "
    "acting governor Mikhail Degtyarev called for an end to the demonization of Khabarovsk "
    "residents on the backdrop of protests in support of the arrested ex-head of the region "
    "Sergey Furgal.",
)


RU_NAKED_EYE = (
    "Мы можем стоять на Земле, смотреть в ночное небо и видеть звезды невооруженным глазом.",
    "Мы стоим на Земле и невооруженным глазом видим в ночном небе звезды.",
)
