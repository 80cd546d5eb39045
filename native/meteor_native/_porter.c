/* nltk 3.10.4's PorterStemmer (mode NLTK_EXTENSIONS, nltk/stem/porter.py) in C.
 *
 * stem(word) is PorterStemmer().stem(word): word.lower() (str.lower), the irregular forms
 * of the NLTK_EXTENSIONS pool, words of at most two characters (counted before
 * lowercasing) as they are, then steps 1a, 1b, 1c, 2, 3, 4, 5a and 5b, each a literal
 * transcription of nltk's method of the same name: its rule lists in their order, the
 * first rule whose suffix matches decides (a failed condition stops the list), the
 * consonant test _is_consonant and the measure of _consonant_flags, characters compared
 * as code points (only a e i o u are vowels; y by its neighbour).  Everything else in
 * the word, any character at all, is carried through as nltk carries it.
 *
 * meteor.aligners.greedy uses it for the nltk presets' stems; without this module (or
 * with METEOR_PURE_PYTHON set) nltk's own stemmer runs.  tests/unit/test_native_porter.py
 * holds the two equal on random words and on every word of the shared data and WordNet.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

typedef struct {
    Py_UCS4 *c;
    Py_ssize_t n;
} Word;

static int is_vowel(Py_UCS4 ch) {
    return ch == 'a' || ch == 'e' || ch == 'i' || ch == 'o' || ch == 'u';
}

/* _is_consonant(word, i) */
static int is_consonant(const Py_UCS4 *w, Py_ssize_t i) {
    if (is_vowel(w[i])) return 0;
    if (w[i] == 'y') {
        int negate = 0;
        while (i > 0 && w[i] == 'y') {
            negate = !negate;
            i -= 1;
        }
        return (!is_vowel(w[i])) != negate;
    }
    return 1;
}

/* _measure(w[:n]): occurrences of "vc" in the flags of _consonant_flags. */
static Py_ssize_t measure(const Py_UCS4 *w, Py_ssize_t n) {
    Py_ssize_t m = 0;
    int prev = -1; /* the previous flag: 1 consonant, 0 vowel */
    for (Py_ssize_t i = 0; i < n; i++) {
        int cons;
        if (is_vowel(w[i])) cons = 0;
        else if (w[i] == 'y') cons = i == 0 ? 1 : !prev;
        else cons = 1;
        if (prev == 0 && cons == 1) m++;
        prev = cons;
    }
    return m;
}

/* _contains_vowel(w[:n]): not all(_consonant_flags). */
static int contains_vowel(const Py_UCS4 *w, Py_ssize_t n) {
    int prev = 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        int cons;
        if (is_vowel(w[i])) cons = 0;
        else if (w[i] == 'y') cons = i == 0 ? 1 : !prev;
        else cons = 1;
        if (!cons) return 1;
        prev = cons;
    }
    return 0;
}

/* _ends_double_consonant(w[:n]) */
static int ends_double_consonant(const Py_UCS4 *w, Py_ssize_t n) {
    return n >= 2 && w[n - 1] == w[n - 2] && is_consonant(w, n - 1);
}

/* _ends_cvc(w[:n]) in mode NLTK_EXTENSIONS */
static int ends_cvc(const Py_UCS4 *w, Py_ssize_t n) {
    return (n >= 3 && is_consonant(w, n - 3) && !is_consonant(w, n - 2) &&
            is_consonant(w, n - 1) && w[n - 1] != 'w' && w[n - 1] != 'x' && w[n - 1] != 'y') ||
           (n == 2 && !is_consonant(w, 0) && is_consonant(w, 1));
}

static int ends(const Word *w, const char *suffix) {
    Py_ssize_t k = (Py_ssize_t)strlen(suffix);
    if (k > w->n) return 0;
    for (Py_ssize_t i = 0; i < k; i++)
        if (w->c[w->n - k + i] != (Py_UCS4)(unsigned char)suffix[i]) return 0;
    return 1;
}

/* w[:n - len(suffix)] + replacement, in place (the buffer has room for one more). */
static void replace(Word *w, const char *suffix, const char *replacement) {
    w->n -= (Py_ssize_t)strlen(suffix);
    for (const char *r = replacement; *r; r++) w->c[w->n++] = (Py_UCS4)(unsigned char)*r;
}

enum { NONE, M_GT0, M_GT1, ION, LOGI };

typedef struct {
    const char *suffix, *replacement;
    int condition;
} Rule;

/* _apply_rule_list for rules without "*d": the first rule whose suffix ends the word
 * decides; a failed condition leaves the word as it is. */
static void apply_rules(Word *w, const Rule *rules, size_t count) {
    for (size_t k = 0; k < count; k++) {
        const Rule *r = &rules[k];
        if (!ends(w, r->suffix)) continue;
        Py_ssize_t stem = w->n - (Py_ssize_t)strlen(r->suffix);
        int ok;
        switch (r->condition) {
        case M_GT0: ok = measure(w->c, stem) > 0; break;
        case M_GT1: ok = measure(w->c, stem) > 1; break;
        case ION: ok = measure(w->c, stem) > 1 && (w->c[stem - 1] == 's' || w->c[stem - 1] == 't'); break;
        case LOGI: ok = measure(w->c, w->n - 3) > 0; break; /* word[:-3], not the stem */
        default: ok = 1;
        }
        if (ok) replace(w, r->suffix, r->replacement);
        return;
    }
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void step1a(Word *w) {
    if (ends(w, "ies") && w->n == 4) {
        replace(w, "ies", "ie");
        return;
    }
    static const Rule rules[] = {
        {"sses", "ss", NONE}, {"ies", "i", NONE}, {"ss", "ss", NONE}, {"s", "", NONE}};
    apply_rules(w, rules, COUNT(rules));
}

static void step1b(Word *w) {
    if (ends(w, "ied")) {
        replace(w, "ied", w->n == 4 ? "ie" : "i");
        return;
    }
    if (ends(w, "eed")) {
        if (measure(w->c, w->n - 3) > 0) replace(w, "eed", "ee");
        return;
    }
    Py_ssize_t stem = -1;
    if (ends(w, "ed") && contains_vowel(w->c, w->n - 2)) stem = w->n - 2;
    else if (ends(w, "ing") && contains_vowel(w->c, w->n - 3)) stem = w->n - 3;
    if (stem < 0) return;
    w->n = stem; /* the intermediate stem; the rules below apply to it */
    Py_UCS4 last = w->c[stem - 1]; /* intermediate_stem[-1] (it holds a vowel) */
    if (ends(w, "at")) replace(w, "at", "ate");
    else if (ends(w, "bl")) replace(w, "bl", "ble");
    else if (ends(w, "iz")) replace(w, "iz", "ize");
    else if (ends_double_consonant(w->c, w->n)) {
        /* ("*d", last, last not in l s z): stem[:-2] + last, else the word unchanged */
        if (last != 'l' && last != 's' && last != 'z') w->n -= 1;
    } else if (ends(w, "*d")) {
        w->n -= 2; /* the literal suffix "*d": its condition holds ("d" not in l s z) */
        w->c[w->n++] = last;
    } else if (measure(w->c, w->n) == 1 && ends_cvc(w->c, w->n)) {
        w->c[w->n++] = 'e'; /* ("", "e", m == 1 and *o) */
    }
}

static void step1c(Word *w) {
    /* ("y", "i", len(stem) > 1 and _is_consonant(stem, len(stem) - 1)) */
    if (!ends(w, "y")) return;
    Py_ssize_t stem = w->n - 1;
    if (stem > 1 && is_consonant(w->c, stem - 1)) replace(w, "y", "i");
}

static void step2(Word *w) {
    while (ends(w, "alli") && measure(w->c, w->n - 4) > 0) replace(w, "alli", "al");
    static const Rule rules[] = {
        {"ational", "ate", M_GT0}, {"tional", "tion", M_GT0}, {"enci", "ence", M_GT0},
        {"anci", "ance", M_GT0},   {"izer", "ize", M_GT0},    {"bli", "ble", M_GT0},
        {"alli", "al", M_GT0},     {"entli", "ent", M_GT0},   {"eli", "e", M_GT0},
        {"ousli", "ous", M_GT0},   {"ization", "ize", M_GT0}, {"ation", "ate", M_GT0},
        {"ator", "ate", M_GT0},    {"alism", "al", M_GT0},    {"iveness", "ive", M_GT0},
        {"fulness", "ful", M_GT0}, {"ousness", "ous", M_GT0}, {"aliti", "al", M_GT0},
        {"iviti", "ive", M_GT0},   {"biliti", "ble", M_GT0},  {"fulli", "ful", M_GT0},
        {"logi", "log", LOGI}};
    apply_rules(w, rules, COUNT(rules));
}

static void step3(Word *w) {
    static const Rule rules[] = {
        {"icate", "ic", M_GT0}, {"ative", "", M_GT0}, {"alize", "al", M_GT0},
        {"iciti", "ic", M_GT0}, {"ical", "ic", M_GT0}, {"ful", "", M_GT0},
        {"ness", "", M_GT0}};
    apply_rules(w, rules, COUNT(rules));
}

static void step4(Word *w) {
    static const Rule rules[] = {
        {"al", "", M_GT1},   {"ance", "", M_GT1}, {"ence", "", M_GT1}, {"er", "", M_GT1},
        {"ic", "", M_GT1},   {"able", "", M_GT1}, {"ible", "", M_GT1}, {"ant", "", M_GT1},
        {"ement", "", M_GT1}, {"ment", "", M_GT1}, {"ent", "", M_GT1}, {"ion", "", ION},
        {"ou", "", M_GT1},   {"ism", "", M_GT1},  {"ate", "", M_GT1},  {"iti", "", M_GT1},
        {"ous", "", M_GT1},  {"ive", "", M_GT1},  {"ize", "", M_GT1}};
    apply_rules(w, rules, COUNT(rules));
}

static void step5a(Word *w) {
    if (!ends(w, "e")) return;
    Py_ssize_t stem = w->n - 1, m = measure(w->c, stem);
    if (m > 1 || (m == 1 && !ends_cvc(w->c, stem))) w->n = stem;
}

static void step5b(Word *w) {
    /* ("ll", "l", _measure(word[:-1]) > 1) */
    if (ends(w, "ll") && measure(w->c, w->n - 1) > 1) w->n -= 1;
}

/* The NLTK_EXTENSIONS pool: irregular form -> stem. */
static const char *const POOL[][2] = {
    {"sky", "sky"},         {"skies", "sky"},      {"dying", "die"},
    {"lying", "lie"},       {"tying", "tie"},      {"news", "news"},
    {"innings", "inning"},  {"inning", "inning"},  {"outings", "outing"},
    {"outing", "outing"},   {"cannings", "canning"}, {"canning", "canning"},
    {"howe", "howe"},       {"proceed", "proceed"}, {"exceed", "exceed"},
    {"succeed", "succeed"},
};

static PyObject *stem(PyObject *self, PyObject *word) {
    if (!PyUnicode_Check(word)) {
        PyErr_Format(PyExc_TypeError, "stem() takes a str, not %.100s", Py_TYPE(word)->tp_name);
        return NULL;
    }
    PyObject *low = PyObject_CallMethod(word, "lower", NULL);
    if (low == NULL) return NULL;
    if (!PyUnicode_Check(low)) {
        PyErr_SetString(PyExc_TypeError, "word.lower() did not give a str");
        Py_DECREF(low);
        return NULL;
    }
    for (size_t k = 0; k < COUNT(POOL); k++)
        if (PyUnicode_CompareWithASCIIString(low, POOL[k][0]) == 0) {
            Py_DECREF(low);
            return PyUnicode_FromString(POOL[k][1]);
        }
    if (PyUnicode_GET_LENGTH(word) <= 2) return low;
    Py_ssize_t n = PyUnicode_GET_LENGTH(low);
    Word w = {PyMem_New(Py_UCS4, n + 2), n};
    if (w.c == NULL) {
        Py_DECREF(low);
        return PyErr_NoMemory();
    }
    if (PyUnicode_AsUCS4(low, w.c, n + 2, 0) == NULL) {
        PyMem_Free(w.c);
        Py_DECREF(low);
        return NULL;
    }
    step1a(&w);
    step1b(&w);
    step1c(&w);
    step2(&w);
    step3(&w);
    step4(&w);
    step5a(&w);
    step5b(&w);
    PyObject *out = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, w.c, w.n);
    PyMem_Free(w.c);
    Py_DECREF(low);
    return out;
}

static PyMethodDef methods[] = {
    {"stem", stem, METH_O,
     "stem(word) -> str: nltk 3.10.4's PorterStemmer().stem(word) (mode NLTK_EXTENSIONS)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "meteor_native._porter",
    "nltk's Porter stemmer (NLTK_EXTENSIONS) in C (nltk.stem.porter is the reference).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__porter(void) {
    return PyModule_Create(&module);
}
