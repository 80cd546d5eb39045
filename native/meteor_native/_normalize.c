/* Meteor 1.5's normaliser (Normalizer.normalizeLine, Normalizer.java:174-308) in C.
 *
 * A C transcription of meteor.text.normalize._run without provenance (the pure-Python
 * reference, which runs when this module is not installed or METEOR_PURE_PYTHON is set):
 * the same steps in the same order on a buffer of code points.
 *
 *  1. a space on each side of every character that is not alnum, \s or . ' ` , - ‘ ’;
 *  2. a run of k >= 2 dots becomes " DOTMULTI" and k - 1 dots, then each DOTMULTI and
 *     the m dots after it "DOT" * m + "DOTMULTI" and a space (Java's loop in one pass,
 *     as meteor.text.dot_runs.escape_dot_runs);
 *  3. commas split unless between digits (three replaceAll passes with context);
 *  4. ` ‘ ’ become ', then “ ” and '' become " with spaces;
 *  5. the en dash becomes -, then -- becomes -;
 *  6. a - between [alnum .] and [alnum] becomes a space;
 *  7. apostrophes, by language (English, French, the others);
 *  8. words split on " \t\n\r\f"; a word ending in a dot loses its dots (a dotted word
 *     with a letter), keeps it (a nonbreaking prefix, or before a word starting with
 *     [a-z], or a #NUMERIC_ONLY# prefix before [0-9]) or has it split off; the words
 *     joined by spaces;
 *  9. every (DOT)+MULTI, p times DOT, becomes p dots (unescape_dot_runs); with
 *     no_punct, every character that is not alnum becomes a space;
 * 10. runs of spaces (U+0020 and the r_white spaces) become one space, every r_white
 *     space becomes U+0020, and the line is trimmed (String.trim).
 *
 * A replaceAll with context consumes its context characters, so a match starts at least
 * two characters after the previous one (meteor.text.tracked_line.ContextRule).  The
 * line is returned before lowercasing (java_lower, in Python).  Steps 3-7 are skipped
 * when the line holds none of the characters they replace (they would copy it).
 * tests/unit/test_native_normalize.py compares the two on random text and on every line
 * of the shared WMT data.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

#include "_java_chars.h"

typedef struct {
    Py_UCS4 *p;
    Py_ssize_t n, cap;
} Buf;

static int put(Buf *b, Py_UCS4 c) {
    if (b->n == b->cap) {
        Py_ssize_t cap = b->cap ? 2 * b->cap : 64;
        Py_UCS4 *p = realloc(b->p, (size_t)cap * sizeof(Py_UCS4));
        if (p == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        b->p = p;
        b->cap = cap;
    }
    b->p[b->n++] = c;
    return 0;
}

static int puts_ascii(Buf *b, const char *s) {
    for (; *s; s++)
        if (put(b, (Py_UCS4)(unsigned char)*s) < 0) return -1;
    return 0;
}

/* The result of a step becomes the input of the next. */
static void swap(Buf *a, Buf *b) {
    Buf t = *a;
    *a = *b;
    *b = t;
    b->n = 0;
}

/* -- character classes of Normalizer.java (meteor.text.normalize._ALPHA_RANGES) -- */

/* java.util.regex \s */
static int is_java_space(Py_UCS4 c) {
    return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
}
/* r_white's spaces other than U+0020 */
static int is_wide_space(Py_UCS4 c) {
    return c == 0xA0 || (c >= 0x2000 && c <= 0x200A) || c == 0x202F || c == 0x205F || c == 0x3000;
}
/* StringTokenizer's delimiters (the words of step 8) */
static int is_delimiter(Py_UCS4 c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

enum { ALPHA, DIGIT, ALNUM, DOT_ALNUM, ALPHA_DIGIT, LETTER_S };

static int in_class(int cls, Py_UCS4 c) {
    switch (cls) {
    case ALPHA: return is_alpha(c);
    case DIGIT: return is_digit(c);
    case ALNUM: case ALPHA_DIGIT: return is_alnum(c);
    case DOT_ALNUM: return c == '.' || is_alnum(c);
    default: return c == 's';
    }
}

/* -- the steps ---------------------------------------------------------------- */

/* Step 1 (r_sep_other) */
static int sep_other(const Buf *in, Buf *out) {
    for (Py_ssize_t i = 0; i < in->n; i++) {
        Py_UCS4 c = in->p[i];
        int keep = is_alnum(c) || is_java_space(c) || c == '.' || c == '\'' || c == '`' ||
                   c == ',' || c == '-' || c == 0x2018 || c == 0x2019;
        if (keep ? put(out, c) < 0 : (put(out, ' ') < 0 || put(out, c) < 0 || put(out, ' ') < 0))
            return -1;
    }
    return 0;
}

/* ([pre])core([post]) -> $1 repl $2: ContextRule (one-character context on each side,
 * in or not in a class; the context characters are consumed). */
static int context(const Buf *in, Buf *out, Py_UCS4 core, const char *repl, int pre,
                   int pre_in, int post, int post_in) {
    const Py_UCS4 *s = in->p;
    Py_ssize_t n = in->n, resume = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (s[i] == core && i >= 1 && i + 1 < n && i - 1 >= resume &&
            in_class(pre, s[i - 1]) == pre_in && in_class(post, s[i + 1]) == post_in) {
            if (puts_ascii(out, repl) < 0) return -1;
            resume = i + 2;
        } else if (put(out, s[i]) < 0) {
            return -1;
        }
    }
    return 0;
}

/* Step 4 (r_quote_norm, r_quote_norm2) */
static int quotes(const Buf *in, Buf *out) {
    Buf mid = {NULL, 0, 0};
    int rc = -1;
    for (Py_ssize_t i = 0; i < in->n; i++) {
        Py_UCS4 c = in->p[i];
        if (put(&mid, c == '`' || c == 0x2018 || c == 0x2019 ? '\'' : c) < 0) goto done;
    }
    for (Py_ssize_t i = 0; i < mid.n; i++) {
        Py_UCS4 c = mid.p[i];
        if (c == 0x201C || c == 0x201D || (c == '\'' && i + 1 < mid.n && mid.p[i + 1] == '\'')) {
            if (puts_ascii(out, " \" ") < 0) goto done;
            if (c == '\'') i++;
        } else if (put(out, c) < 0) {
            goto done;
        }
    }
    rc = 0;
done:
    free(mid.p);
    return rc;
}

/* Step 5 (s_dash_norm, s_dash_norm2): the en dash, then String.replace("--", "-") */
static int dashes(const Buf *in, Buf *out) {
    Py_ssize_t n = in->n;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = in->p[i] == 0x2013 ? '-' : in->p[i];
        if (c == '-' && i + 1 < n && (in->p[i + 1] == '-' || in->p[i + 1] == 0x2013)) i++;
        if (put(out, c) < 0) return -1;
    }
    return 0;
}

/* Step 7 (r_cont_en*, r_cont_fr*): the replaceAll passes with context, in Java's order. */
typedef struct {
    const char *repl;
    int pre, pre_in, post, post_in;
} Apostrophe;

static const Apostrophe english[] = {
    {" ' ", ALPHA, 0, ALPHA, 0},       {" ' ", ALPHA_DIGIT, 0, ALPHA, 1},
    {" ' ", ALPHA, 1, ALPHA, 0},       {" '", ALPHA, 1, ALPHA, 1},
    {" '", DIGIT, 1, LETTER_S, 1}, /* 1990's */
};
static const Apostrophe french[] = {
    {" ' ", ALPHA, 0, ALPHA, 0}, {" ' ", ALPHA, 0, ALPHA, 1},
    {" ' ", ALPHA, 1, ALPHA, 0}, {"' ", ALPHA, 1, ALPHA, 1},
};

/* Step 7: lang 0 English, 1 French, 2 the others (s_cont_other: every ' gets spaces). */
static int apostrophes(Buf *a, Buf *b, int lang) {
    const Apostrophe *rules = lang == 0 ? english : french;
    int n = lang == 0 ? (int)(sizeof english / sizeof *english) : (int)(sizeof french / sizeof *french);
    if (lang == 2) {
        for (Py_ssize_t i = 0; i < a->n; i++)
            if (a->p[i] == '\'' ? puts_ascii(b, " ' ") < 0 : put(b, a->p[i]) < 0) return -1;
        swap(a, b);
        return 0;
    }
    for (int k = 0; k < n; k++) {
        const Apostrophe *r = &rules[k];
        if (context(a, b, '\'', r->repl, r->pre, r->pre_in, r->post, r->post_in) < 0) return -1;
        swap(a, b);
    }
    return 0;
}

enum { KEEP, DROP_DOTS, SPLIT_DOT };

/* _dot_action: what step 8 does with the word s[a:e] (ending in a dot) before the word
 * starting at s[next] (next < 0: none).  -1 with an exception set on failure. */
static int dot_action(const Py_UCS4 *s, Py_ssize_t a, Py_ssize_t e, Py_ssize_t next,
                      PyObject *prefixes) {
    int dotted = 0, lettered = 0;
    for (Py_ssize_t i = a; i < e - 1; i++) {
        dotted |= s[i] == '.';
        lettered |= is_alpha(s[i]);
    }
    if (dotted && lettered) return DROP_DOTS;
    PyObject *pre = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, s + a, e - 1 - a);
    if (pre == NULL) return -1;
    PyObject *kind = PyDict_GetItemWithError(prefixes, pre); /* borrowed */
    Py_DECREF(pre);
    if (kind == NULL && PyErr_Occurred()) return -1;
    long k = kind == NULL ? 0 : PyLong_AsLong(kind);
    if (k == -1 && PyErr_Occurred()) return -1;
    Py_UCS4 first = next < 0 ? 0 : s[next];
    if (k == 1 || (first >= 'a' && first <= 'z')) return KEEP;
    if (k == 2 && first >= '0' && first <= '9') return KEEP;
    return SPLIT_DOT;
}

/* Step 8 (the nbp loop): words joined by spaces, a space at the end. */
static int rebuild(const Buf *in, Buf *out, PyObject *prefixes) {
    const Py_UCS4 *s = in->p;
    Py_ssize_t n = in->n, i = 0;
    int first_word = 1;
    while (i < n && is_delimiter(s[i])) i++;
    while (i < n) {
        Py_ssize_t e = i;
        while (e < n && !is_delimiter(s[e])) e++;
        Py_ssize_t next = e;
        while (next < n && is_delimiter(s[next])) next++;
        int action = KEEP;
        if (e - i > 1 && s[e - 1] == '.') {
            action = dot_action(s, i, e, next < n ? next : -1, prefixes);
            if (action < 0) return -1;
        }
        if (!first_word && put(out, ' ') < 0) return -1;
        first_word = 0;
        for (Py_ssize_t q = i; q < e; q++) {
            if (action == DROP_DOTS && s[q] == '.') continue;
            if (action == SPLIT_DOT && q == e - 1 && puts_ascii(out, " ") < 0) return -1;
            if (put(out, s[q]) < 0) return -1;
        }
        i = next;
    }
    return put(out, ' ');
}

/* -- runs of dots (meteor.text.dot_runs) ------------------------------------------ */

/* Whether the ASCII word w is at b->p[i]. */
static int at(const Buf *b, Py_ssize_t i, const char *w) {
    for (; *w; w++, i++)
        if (i >= b->n || b->p[i] != (Py_UCS4)(unsigned char)*w) return 0;
    return 1;
}

/* Step 2, r_multi_dot: \.(\.+) -> " DOTMULTI$1" (a run of k dots: " DOTMULTI" and k - 1
 * dots).  Returns whether anything changed (1), 0, or -1 on failure. */
static int multi_dot(const Buf *in, Buf *out) {
    const Py_UCS4 *s = in->p;
    Py_ssize_t n = in->n;
    int changed = 0;
    for (Py_ssize_t i = 0; i < n;) {
        if (s[i] == '.' && i + 1 < n && s[i + 1] == '.') {
            if (puts_ascii(out, " DOTMULTI") < 0) return -1;
            changed = 1;
            for (i++; i < n && s[i] == '.'; i++)
                if (put(out, '.') < 0) return -1;
        } else if (put(out, s[i++]) < 0) {
            return -1;
        }
    }
    return changed;
}

/* Step 2, Java's while loop over r_multi_dot2 and "DOTMULTI." -> "DOTDOTMULTI" in one pass
 * (escape_dot_runs): DOTMULTI and m dots become "DOT" * m + "DOTMULTI", then a space unless
 * at the end of the line or blocked (m == 1, right after a run of one dot that got its
 * space). */
static int escape_runs(const Buf *in, Buf *out) {
    const Py_UCS4 *s = in->p;
    Py_ssize_t n = in->n, prev_end = -1;
    int prev_space = 0;
    for (Py_ssize_t i = 0; i < n;) {
        if (!(i + 8 < n && s[i + 8] == '.' && at(in, i, "DOTMULTI"))) {
            if (put(out, s[i++]) < 0) return -1;
            continue;
        }
        Py_ssize_t b = i + 8;
        while (b < n && s[b] == '.') b++;
        Py_ssize_t m = b - i - 8;
        int blocked = m == 1 && i == prev_end && prev_space;
        int space = b < n && !blocked;
        prev_end = b;
        prev_space = m == 1 && space;
        for (Py_ssize_t k = 0; k < m; k++)
            if (puts_ascii(out, "DOT") < 0) return -1;
        if (puts_ascii(out, space ? "DOTMULTI " : "DOTMULTI") < 0) return -1;
        i = b;
    }
    return 0;
}

/* Step 9, the while loop over "DOTDOTMULTI" -> "DOTMULTI." and then "DOTMULTI" -> "."
 * (unescape_dot_runs): every (DOT)+MULTI, p times DOT, becomes p dots. */
static int unescape_runs(const Buf *in, Buf *out) {
    const Py_UCS4 *s = in->p;
    Py_ssize_t n = in->n;
    for (Py_ssize_t i = 0; i < n;) {
        Py_ssize_t p = 0;
        while (at(in, i + 3 * p, "DOT")) p++;
        if (p > 0 && at(in, i + 3 * p, "MULTI")) {
            for (Py_ssize_t k = 0; k < p; k++)
                if (put(out, '.') < 0) return -1;
            i += 3 * p + 5;
        } else { /* no later DOT of this run ends in MULTI either: copied at once (linear) */
            for (Py_ssize_t e = i + (p > 0 ? 3 * p : 1); i < e; i++)
                if (put(out, s[i]) < 0) return -1;
        }
    }
    return 0;
}

static int contains(const Buf *b, const char *w) {
    for (Py_ssize_t i = 0; i < b->n; i++)
        if (at(b, i, w)) return 1;
    return 0;
}

/* Step 10 (r_white, then String.trim): into a new str. */
static PyObject *collapse_and_trim(const Buf *in) {
    Buf out = {NULL, 0, 0};
    PyObject *res = NULL;
    const Py_UCS4 *s = in->p;
    Py_ssize_t n = in->n;
    for (Py_ssize_t i = 0; i < n;) {
        if (s[i] == ' ' || is_wide_space(s[i])) {
            Py_ssize_t e = i;
            while (e < n && (s[e] == ' ' || is_wide_space(s[e]))) e++;
            if (put(&out, ' ') < 0) goto done;
            i = e;
        } else {
            if (put(&out, s[i]) < 0) goto done;
            i++;
        }
    }
    Py_ssize_t a = 0, b = out.n;
    while (a < b && out.p[a] <= 0x20) a++;
    while (b > a && out.p[b - 1] <= 0x20) b--;
    res = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, out.p + a, b - a);
done:
    free(out.p);
    return res;
}

static PyObject *normalize_line(PyObject *self, PyObject *args) {
    PyObject *text, *prefixes;
    int lang, no_punct;
    if (!PyArg_ParseTuple(args, "UiO!p:normalize_line", &text, &lang, &PyDict_Type, &prefixes,
                          &no_punct))
        return NULL;
    if (lang < 0 || lang > 2) {
        PyErr_SetString(PyExc_ValueError, "lang must be 0 (English), 1 (French) or 2 (other)");
        return NULL;
    }
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    Buf a = {NULL, 0, 0}, b = {NULL, 0, 0};
    PyObject *res = NULL;
    /* which characters steps 3-7 act on occur (no earlier step makes them, save the ' of
     * step 4): a step whose characters are absent would copy the line unchanged */
    int commas = 0, quotes_in = 0, dash = 0, apos = 0;
    if (put(&a, ' ') < 0) goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        commas |= c == ',';
        dash |= c == '-' || c == 0x2013;
        apos |= c == '\'' || c == '`' || c == 0x2018 || c == 0x2019;
        quotes_in |= c == 0x201C || c == 0x201D;
        if (put(&a, c) < 0) goto done;
    }
    quotes_in |= apos;
    if (put(&a, ' ') < 0) goto done;
    if (sep_other(&a, &b) < 0) goto done; /* 1 */
    swap(&a, &b);
    int runs = multi_dot(&a, &b); /* 2 */
    if (runs < 0) goto done;
    if (runs) swap(&a, &b);
    else b.n = 0;
    if (contains(&a, "DOTMULTI.")) {
        if (escape_runs(&a, &b) < 0) goto done;
        swap(&a, &b);
    }
    static const int comma_sides[3][2] = {{0, 0}, {1, 0}, {0, 1}}; /* 3: pre in, post in */
    for (int k = 0; k < 3 && commas; k++) {
        if (context(&a, &b, ',', " , ", DIGIT, comma_sides[k][0], DIGIT, comma_sides[k][1]) < 0)
            goto done;
        swap(&a, &b);
    }
    if (quotes_in) { /* 4 */
        if (quotes(&a, &b) < 0) goto done;
        swap(&a, &b);
    }
    if (dash) {
        if (dashes(&a, &b) < 0) goto done; /* 5 */
        swap(&a, &b);
        if (context(&a, &b, '-', " ", DOT_ALNUM, 1, ALNUM, 1) < 0) goto done; /* 6 */
        swap(&a, &b);
    }
    if (apos && apostrophes(&a, &b, lang) < 0) goto done; /* 7 */
    if (rebuild(&a, &b, prefixes) < 0) goto done; /* 8 */
    swap(&a, &b);
    if (contains(&a, "DOTMULTI")) { /* 9 */
        if (unescape_runs(&a, &b) < 0) goto done;
        swap(&a, &b);
    }
    if (no_punct)
        for (Py_ssize_t i = 0; i < a.n; i++)
            if (!is_alnum(a.p[i])) a.p[i] = ' ';
    res = collapse_and_trim(&a); /* 10 */
done:
    free(a.p);
    free(b.p);
    return res;
}

static PyMethodDef methods[] = {
    {"normalize_line", normalize_line, METH_VARARGS,
     "normalize_line(text, lang, prefixes, no_punct) -> str\n\n"
     "Normalizer.normalizeLine of text (before lowercasing): lang 0 English, 1 French,\n"
     "2 the others; prefixes: {nonbreaking prefix: 1, or 2 for #NUMERIC_ONLY#}."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "meteor_native._normalize",
    "Meteor 1.5's normaliser in C (meteor.text.normalize has the same steps in Python).",
    -1, methods, NULL, NULL, NULL, NULL,
};

/* API: the version of these functions the Python code asks for (meteor.runtime.PART_API):
 * 2 since every line is normalised here. */
PyMODINIT_FUNC PyInit__normalize(void) {
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddIntConstant(m, "API", 2) < 0) Py_CLEAR(m);
    return m;
}
