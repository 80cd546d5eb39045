/* Token records for meteor.text: their offsets when a token is the text's own characters,
 * and the records themselves.
 *
 * A C transcription of two loops of the pure-Python code (which runs when this module is
 * not installed or METEOR_PURE_PYTHON is set):
 *
 * - verbatim_tokens(low, words, fw): meteor.text.normalize._verbatim_spans (with its
 *   _edited_spans) followed by the Token records.  The tokens' characters are paired in
 *   order with the lowercased text's, separators (Meteor 1.5's StringTokenizer
 *   delimiters and the r_white spaces of Normalizer.java) skipped: equal, or a character
 *   the normaliser replaced one for one (quotes, the en dash), or else a text hyphen the
 *   normaliser turned into a space (unless the token character before is a hyphen too:
 *   then either could be the dropped one).  A token must be one run of text characters.
 *   When the pairing fails it returns None, as the Python code does, and the caller runs
 *   the normaliser again with provenance.
 * - line_tokens(low, line, fw, text): verbatim_tokens on the words of the normalised line,
 *   split on StringTokenizer's delimiters and interned (list(map(intern,
 *   WORD.findall(line))) in meteor.text.normalize.tokenize).  Given the text, a dot that
 *   step 8 of the normaliser dropped (U.S. -> us) may also be passed over, right after a
 *   paired letter or digit, and joins its span: the offsets
 *   meteor.text.normalize._tracked_tokens (the normaliser run with provenance) gives.
 * - split_tokens(text, lower, fw): the whitespace tokens of meteor.text.tokenize_nltk.tokens
 *   (each word interned, as the Python loop does):
 *   the words of text.split() (Py_UNICODE_ISSPACE, as str.split), each at its place in
 *   the text, lowercased with str.lower when asked.
 * - build(words, starts, ends, fw): tuple(map(Token, words, starts, ends, map(fw, words))).
 *
 * Token is a frozen dataclass with slots; bind(Token) hands over the class once, and its
 * four slot descriptors set the fields of each new object (what Token.__init__ does in
 * Python).  tests/unit/test_native_tokens.py compares both functions with the Python code.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_java_chars.h"

static PyTypeObject *token_type = NULL;
static PyObject *field[4] = {NULL, NULL, NULL, NULL}; /* text, start, end, function_word */
static const char *field_name[4] = {"text", "start", "end", "function_word"};

static PyObject *bind(PyObject *self, PyObject *cls) {
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "bind() takes the Token class");
        return NULL;
    }
    PyObject *found[4];
    for (int k = 0; k < 4; k++) {
        found[k] = PyObject_GetAttrString(cls, field_name[k]);
        if (found[k] == NULL || Py_TYPE(found[k])->tp_descr_set == NULL) {
            if (found[k] != NULL) PyErr_Format(PyExc_TypeError, "Token.%s is not a slot", field_name[k]);
            for (int q = 0; q <= k; q++) Py_XDECREF(found[q]);
            return NULL;
        }
    }
    for (int k = 0; k < 4; k++) {
        Py_XSETREF(field[k], found[k]);
    }
    Py_INCREF(cls);
    Py_XSETREF(token_type, (PyTypeObject *)cls);
    Py_RETURN_NONE;
}

/* A new Token(text, start, end, function_word); borrowed arguments. */
static PyObject *new_token(PyObject *text, PyObject *start, PyObject *end, PyObject *fw) {
    PyObject *obj = token_type->tp_alloc(token_type, 0);
    if (obj == NULL) return NULL;
    PyObject *vals[4] = {text, start, end, fw};
    for (int k = 0; k < 4; k++) {
        if (Py_TYPE(field[k])->tp_descr_set(field[k], obj, vals[k]) < 0) {
            Py_DECREF(obj);
            return NULL;
        }
    }
    return obj;
}

/* fw(word) as a bool object (new reference); Py_False when fw is None.  A dict fw
 * (meteor.text.records.FunctionWordMemo, callable) is read first: fw is called only
 * for a word it does not hold. */
static PyObject *function_word(PyObject *fw, PyObject *word) {
    if (fw == Py_None) Py_RETURN_FALSE;
    if (PyDict_Check(fw)) {
        PyObject *flag = PyDict_GetItemWithError(fw, word); /* borrowed */
        if (flag != NULL) return Py_NewRef(flag);
        if (PyErr_Occurred()) return NULL;
    }
    return PyObject_CallOneArg(fw, word);
}

/* A token from words[k] at [a, b). */
static PyObject *token_at(PyObject *word, Py_ssize_t a, Py_ssize_t b, PyObject *fw) {
    PyObject *start = PyLong_FromSsize_t(a), *end = PyLong_FromSsize_t(b), *flag = NULL, *tok = NULL;
    if (start != NULL && end != NULL) flag = function_word(fw, word);
    if (flag != NULL) tok = new_token(word, start, end, flag);
    Py_XDECREF(start);
    Py_XDECREF(end);
    Py_XDECREF(flag);
    return tok;
}

static int ready(void) {
    if (token_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "meteor_native._tokens.bind(Token) was not called");
        return 0;
    }
    return 1;
}

/* Separators of meteor.text.normalize._SEPARATORS: " \t\n\r\f" and the r_white spaces. */
static int is_separator(Py_UCS4 c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0xA0 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x202F || c == 0x205F || c == 0x3000;
}

/* _ONE_FOR_ONE of meteor.text.normalize: what the normaliser turned a text character into
 * one for one (steps 4 and 5: quotes, the en dash); 0 for the others. */
static Py_UCS4 one_for_one(Py_UCS4 c) {
    switch (c) {
    case '`': case 0x2018: case 0x2019: return '\'';
    case 0x201C: case 0x201D: return '"';
    case 0x2013: return '-';
    default: return 0;
    }
}

/* Whether the dot at low[i] can be one that step 8 dropped from the word of the token
 * character paired with low[last] (a dotted word with a letter loses all its dots,
 * U.S. -> us; the dot's span joins that character's): right after it, and that
 * character alnum (Normalizer's class) in the text and lowercased, so that no step put a
 * space between the two.  text: the original text (NULL: no dot was dropped). */
static int dropped_dot(const void *ld, int lk, const void *td, int tk, Py_ssize_t i,
                       Py_ssize_t last) {
    return td != NULL && last >= 0 && i == last + 1 && PyUnicode_READ(lk, ld, i) == '.' &&
           is_alnum(PyUnicode_READ(lk, ld, last)) && is_alnum(PyUnicode_READ(tk, td, last));
}

/* verbatim_tokens's body (words: a list); text (or NULL) as in dropped_dot. */
static PyObject *tokens_of(PyObject *low, PyObject *words, PyObject *fw, PyObject *text) {
    if (!ready()) return NULL;
    int lk = PyUnicode_KIND(low), tk = text == NULL ? 0 : PyUnicode_KIND(text);
    const void *ld = PyUnicode_DATA(low), *td = text == NULL ? NULL : PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(low), n_w = PyList_GET_SIZE(words), i = 0;
    Py_UCS4 prev = 0; /* the last token character paired (0: none yet) */
    PyObject *out = PyTuple_New(n_w);
    if (out == NULL) return NULL;
    for (Py_ssize_t k = 0; k < n_w; k++) {
        PyObject *w = PyList_GET_ITEM(words, k);
        if (!PyUnicode_Check(w)) {
            PyErr_SetString(PyExc_TypeError, "words must be strings");
            goto fail;
        }
        Py_ssize_t len = PyUnicode_GET_LENGTH(w), first = -1, last = -1;
        int wk = PyUnicode_KIND(w);
        const void *wd = PyUnicode_DATA(w);
        if (len == 0) goto other;
        for (Py_ssize_t q = 0; q < len; q++) {
            Py_UCS4 c = PyUnicode_READ(wk, wd, q);
            for (;; i++) { /* the next text character that is not a separator pairs with c */
                while (i < n && is_separator(PyUnicode_READ(lk, ld, i))) i++;
                if (i == n) goto other;
                Py_UCS4 a = PyUnicode_READ(lk, ld, i);
                if (a == c || one_for_one(a) == c) break;
                if (first >= 0 && dropped_dot(ld, lk, td, tk, i, last)) { /* inside the token */
                    last = i;
                    continue;
                }
                if (a != '-' || prev == '-') goto other; /* only a hyphen can have been dropped */
            }
            if (first < 0) first = i;
            else if (i != last + 1) goto other; /* a token's characters are one run of the text */
            last = i++;
            prev = c;
        }
        /* a dropped dot right after the token is in its span, unless the next token may
         * be that dot split off (step 8's "end ." ) */
        if (i < n && dropped_dot(ld, lk, td, tk, i, last)) {
            PyObject *next = k + 1 < n_w ? PyList_GET_ITEM(words, k + 1) : NULL;
            if (next == NULL || !PyUnicode_Check(next) || PyUnicode_GET_LENGTH(next) == 0 ||
                PyUnicode_READ_CHAR(next, 0) != '.')
                last = i++;
        }
        PyObject *tok = token_at(w, first, last + 1, fw);
        if (tok == NULL) goto fail;
        PyTuple_SET_ITEM(out, k, tok);
    }
    for (; i < n; i++) { /* what is left: separators and dropped hyphens */
        Py_UCS4 a = PyUnicode_READ(lk, ld, i);
        if (!is_separator(a) && (a != '-' || prev == '-')) goto other;
    }
    return out;
other:
    Py_DECREF(out);
    Py_RETURN_NONE;
fail:
    Py_DECREF(out);
    return NULL;
}

static PyObject *build(PyObject *self, PyObject *args) {
    PyObject *words, *starts, *ends, *fw;
    if (!PyArg_ParseTuple(args, "O!O!O!O:build", &PyList_Type, &words, &PyList_Type, &starts,
                          &PyList_Type, &ends, &fw))
        return NULL;
    if (!ready()) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(words);
    if (PyList_GET_SIZE(starts) != n || PyList_GET_SIZE(ends) != n) {
        PyErr_SetString(PyExc_ValueError, "words, starts and ends differ in length");
        return NULL;
    }
    PyObject *out = PyTuple_New(n);
    if (out == NULL) return NULL;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *w = PyList_GET_ITEM(words, k), *flag = function_word(fw, w);
        if (flag == NULL) goto fail;
        PyObject *tok = new_token(w, PyList_GET_ITEM(starts, k), PyList_GET_ITEM(ends, k), flag);
        Py_DECREF(flag);
        if (tok == NULL) goto fail;
        PyTuple_SET_ITEM(out, k, tok);
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

static PyObject *split_tokens(PyObject *self, PyObject *args) {
    PyObject *text, *fw;
    int lower;
    if (!PyArg_ParseTuple(args, "UpO:split_tokens", &text, &lower, &fw)) return NULL;
    if (!ready()) return NULL;
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), i = 0;
    PyObject *out = PyList_New(0), *name = NULL, *source = NULL;
    if (out == NULL) return NULL;
    if (lower && (name = PyUnicode_InternFromString("lower")) == NULL) goto fail;
    /* ASCII text: lowercased once, as long as the text, so each word is its substring;
     * otherwise each word is lowercased on its own (str.lower may change lengths) */
    int each = lower && !PyUnicode_IS_ASCII(text);
    source = lower && !each ? PyObject_CallMethodNoArgs(text, name) : Py_NewRef(text);
    if (source == NULL) goto fail;
    while (i < n) {
        while (i < n && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i))) i++;
        if (i == n) break;
        Py_ssize_t j = i;
        while (j < n && !Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, j))) j++;
        PyObject *w = PyUnicode_Substring(source, i, j);
        if (w != NULL && each) Py_SETREF(w, PyObject_CallMethodNoArgs(w, name));
        if (w == NULL) goto fail;
        PyUnicode_InternInPlace(&w); /* one string per distinct word: corpus runs keep tokens */
        PyObject *tok = token_at(w, i, j, fw);
        Py_DECREF(w);
        if (tok == NULL || PyList_Append(out, tok) < 0) {
            Py_XDECREF(tok);
            goto fail;
        }
        Py_DECREF(tok);
        i = j;
    }
    Py_XDECREF(name);
    Py_XDECREF(source);
    Py_SETREF(out, PyList_AsTuple(out));
    return out;
fail:
    Py_XDECREF(name);
    Py_XDECREF(source);
    Py_DECREF(out);
    return NULL;
}

static PyObject *verbatim_tokens(PyObject *self, PyObject *args) {
    PyObject *low, *words, *fw;
    if (!PyArg_ParseTuple(args, "UO!O:verbatim_tokens", &low, &PyList_Type, &words, &fw)) return NULL;
    return tokens_of(low, words, fw, NULL);
}

/* StringTokenizer's delimiters (meteor.text.java_chars.WORD splits on the others). */
static int is_delimiter(Py_UCS4 c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/* The words of a normalised line, each interned: list(map(intern, WORD.findall(line))). */
static PyObject *line_words(PyObject *line) {
    int k = PyUnicode_KIND(line);
    const void *d = PyUnicode_DATA(line);
    Py_ssize_t n = PyUnicode_GET_LENGTH(line), i = 0;
    PyObject *words = PyList_New(0);
    if (words == NULL) return NULL;
    while (i < n) {
        while (i < n && is_delimiter(PyUnicode_READ(k, d, i))) i++;
        if (i == n) break;
        Py_ssize_t a = i;
        while (i < n && !is_delimiter(PyUnicode_READ(k, d, i))) i++;
        PyObject *w = PyUnicode_Substring(line, a, i);
        if (w == NULL) goto fail;
        PyUnicode_InternInPlace(&w);
        int bad = PyList_Append(words, w);
        Py_DECREF(w);
        if (bad < 0) goto fail;
    }
    return words;
fail:
    Py_DECREF(words);
    return NULL;
}

static PyObject *line_tokens(PyObject *self, PyObject *args) {
    PyObject *low, *line, *fw, *text = Py_None;
    if (!PyArg_ParseTuple(args, "UUO|O:line_tokens", &low, &line, &fw, &text)) return NULL;
    if (text != Py_None && (!PyUnicode_Check(text) ||
                            PyUnicode_GET_LENGTH(text) != PyUnicode_GET_LENGTH(low))) {
        PyErr_SetString(PyExc_ValueError, "text must be None or a str as long as low");
        return NULL;
    }
    PyObject *words = line_words(line);
    if (words == NULL) return NULL;
    PyObject *out = tokens_of(low, words, fw, text == Py_None ? NULL : text);
    Py_DECREF(words);
    return out;
}

static PyMethodDef methods[] = {
    {"bind", bind, METH_O, "bind(Token): the record class whose objects the other functions make."},
    {"verbatim_tokens", verbatim_tokens, METH_VARARGS,
     "verbatim_tokens(low, words, fw) -> tuple of Token, or None\n\n"
     "The tokens with their offsets when words are the characters of low (the lowercased\n"
     "text) minus its separators, in order; None otherwise.  fw(word) gives each token's\n"
     "function_word (None: False)."},
    {"line_tokens", line_tokens, METH_VARARGS,
     "line_tokens(low, line, fw, text=None) -> tuple of Token, or None\n\n"
     "verbatim_tokens(low, words, fw) for the words of the normalised line (split on\n"
     "StringTokenizer's delimiters \" \\t\\n\\r\\f\", each interned, as\n"
     "list(map(intern, WORD.findall(line)))).  Given the original text (-norm without\n"
     "-noPunct), a dot step 8 dropped after a letter or digit (U.S. -> us) joins the\n"
     "span of the token character before it, as the normaliser's provenance has it."},
    {"split_tokens", split_tokens, METH_VARARGS,
     "split_tokens(text, lower, fw) -> tuple of Token\n\n"
     "The words of text.split() with their offsets, each lowercased (str.lower) when lower\n"
     "is true; fw(word) gives function_word (None: False)."},
    {"build", build, METH_VARARGS,
     "build(words, starts, ends, fw) -> tuple(map(Token, words, starts, ends, map(fw, words)))\n\n"
     "fw None: every function_word False."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "meteor_native._tokens",
    "Token records and their offsets (meteor.text.normalize has the same loops in Python).",
    -1, methods, NULL, NULL, NULL, NULL,
};

/* API: the version of these functions the Python code asks for (meteor.runtime.PART_API):
 * 2 since line_tokens takes the text. */
PyMODINIT_FUNC PyInit__tokens(void) {
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddIntConstant(m, "API", 2) < 0) Py_CLEAR(m);
    return m;
}
