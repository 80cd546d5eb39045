/* The pair loop of Meteor 1.5's synonym matcher (SynonymMatcher.java): every reference word
 * against every hypothesis word, a match when their synonym sets intersect and their word
 * keys differ.
 *
 * A C transcription of the loop of meteor.stages.synonym.SynonymStage.candidates (the
 * pure-Python reference, which runs when this module is not installed or
 * METEOR_PURE_PYTHON is set): same pairs, same order (reference position outer, hypothesis
 * position inner, both as given), and for each pair the smallest shared synset (the
 * Python code's min(ss & hs)).  With at most 64 hypothesis words that have synsets (nearly
 * every sentence), each reference synset is looked up in an index of the hypothesis's
 * (synset -> bit mask of its words, a table of C integers) instead of intersecting every pair of sets.
 * tests/unit/test_native_synonym.py compares the two.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>

/* A walk over a set's elements (borrowed while the set lives): _PySet_NextEntry up to
 * Python 3.12, an iterator from 3.13 on, where that function is no longer exported. */
typedef struct {
    PyObject *set, *iter, *item;
    Py_ssize_t pos;
} SetWalk;

static int walk_start(SetWalk *w, PyObject *set) {
    w->set = set;
    w->iter = w->item = NULL;
    w->pos = 0;
#if PY_VERSION_HEX >= 0x030D0000
    w->iter = PyObject_GetIter(set);
    if (w->iter == NULL) return -1;
#endif
    return 0;
}

/* 1 with the next element in w->item; 0 at the end or on an error (PyErr_Occurred). */
static int walk_next(SetWalk *w) {
#if PY_VERSION_HEX < 0x030D0000
    Py_hash_t hash;
    return _PySet_NextEntry(w->set, &w->pos, &w->item, &hash);
#else
    Py_XDECREF(w->item); /* the set still holds it */
    w->item = PyIter_Next(w->iter);
    return w->item != NULL;
#endif
}

static void walk_end(SetWalk *w) {
#if PY_VERSION_HEX >= 0x030D0000
    Py_XDECREF(w->item);
    Py_XDECREF(w->iter);
#endif
    w->item = w->iter = NULL;
}

/* The smallest element of a ∩ b (NULL, no error, when they are disjoint; NULL with an
 * error set when a comparison fails).  Walks the smaller set. */
static PyObject *smallest_shared(PyObject *a, PyObject *b, int *failed) {
    PyObject *small = PySet_GET_SIZE(a) <= PySet_GET_SIZE(b) ? a : b;
    PyObject *large = small == a ? b : a;
    PyObject *best = NULL;
    SetWalk w;
    *failed = walk_start(&w, small) < 0;
    while (!*failed && walk_next(&w)) {
        int found = PySet_Contains(large, w.item);
        if (found < 0) {
            *failed = 1;
            break;
        }
        if (!found) continue;
        if (best == NULL) {
            best = w.item;
            continue;
        }
        int less = PyObject_RichCompareBool(w.item, best, Py_LT);
        if (less < 0) *failed = 1;
        else if (less) best = w.item;
    }
    walk_end(&w); /* best is an element of small: alive while the set is */
    if (PyErr_Occurred()) *failed = 1;
    return *failed ? NULL : best;
}

static int position(PyObject *entry, Py_ssize_t n_keys, Py_ssize_t *pos, PyObject **set) {
    if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 2) {
        PyErr_SetString(PyExc_TypeError, "entries must be (position, set) tuples");
        return -1;
    }
    *pos = PyLong_AsSsize_t(PyTuple_GET_ITEM(entry, 0));
    if (*pos == -1 && PyErr_Occurred()) return -1;
    if (*pos < 0 || *pos >= n_keys) {
        PyErr_SetString(PyExc_IndexError, "position outside the key list");
        return -1;
    }
    *set = PyTuple_GET_ITEM(entry, 1);
    if (!PyAnySet_Check(*set)) {
        PyErr_SetString(PyExc_TypeError, "synonym sets must be sets or frozensets");
        return -1;
    }
    return 0;
}

/* Append (i, j, smallest shared synset) when the sets intersect and the keys differ. */
static int try_pair(PyObject *out, Py_ssize_t i, Py_ssize_t j, PyObject *hs, PyObject *ss,
                    PyObject *hyp_key, PyObject *ref_key) {
    int failed;
    PyObject *best = smallest_shared(ss, hs, &failed);
    if (failed) return -1;
    if (best == NULL) return 0;
    int differ = PyObject_RichCompareBool(hyp_key, ref_key, Py_NE);
    if (differ <= 0) return differ;
    PyObject *hit = Py_BuildValue("(nnO)", i, j, best);
    if (hit == NULL) return -1;
    int err = PyList_Append(out, hit);
    Py_DECREF(hit);
    return err;
}

/* synset -> bit mask of the hypothesis entries (at most 64) that have it: an open-addressing
 * table of C integers (the synsets are ints; any other element, or one past 63 bits, makes
 * the caller compare every pair instead). */
typedef struct {
    long long *keys;
    unsigned long long *masks;
    unsigned char *used;
    size_t cap; /* a power of two */
} Index;

static size_t slot_of(const Index *ix, long long key) {
    size_t h = (size_t)((unsigned long long)key * 0x9E3779B97F4A7C15ULL) & (ix->cap - 1);
    while (ix->used[h] && ix->keys[h] != key) h = (h + 1) & (ix->cap - 1);
    return h;
}

static void free_index(Index *ix) {
    free(ix->keys);
    free(ix->masks);
    free(ix->used);
}

/* The synset as a C integer; 0 (no error set) when it is not an int that fits. */
static int as_key(PyObject *item, long long *key) {
    if (!PyLong_CheckExact(item)) return 0;
    int overflow;
    *key = PyLong_AsLongLongAndOverflow(item, &overflow);
    return !overflow && !(*key == -1 && PyErr_Occurred());
}

/* 1: built; 0: not usable (no error set); -1: error. */
static int build_index(Index *ix, PyObject *hyp, Py_ssize_t n_keys) {
    Py_ssize_t total = 0;
    for (Py_ssize_t a = 0; a < PyList_GET_SIZE(hyp); a++) {
        Py_ssize_t i;
        PyObject *hs;
        if (position(PyList_GET_ITEM(hyp, a), n_keys, &i, &hs) < 0) return -1;
        total += PySet_GET_SIZE(hs);
    }
    ix->cap = 16;
    while (ix->cap < 2 * (size_t)total) ix->cap <<= 1;
    ix->keys = malloc(ix->cap * sizeof(long long));
    ix->masks = malloc(ix->cap * sizeof(unsigned long long));
    ix->used = calloc(ix->cap, 1);
    if (!ix->keys || !ix->masks || !ix->used) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t a = 0; a < PyList_GET_SIZE(hyp); a++) {
        PyObject *hs = PyTuple_GET_ITEM(PyList_GET_ITEM(hyp, a), 1);
        int usable = 1;
        SetWalk wk;
        if (walk_start(&wk, hs) < 0) return -1;
        while (walk_next(&wk)) {
            long long key;
            if (!as_key(wk.item, &key)) {
                usable = 0;
                break;
            }
            size_t h = slot_of(ix, key);
            if (!ix->used[h]) {
                ix->used[h] = 1;
                ix->keys[h] = key;
                ix->masks[h] = 0;
            }
            ix->masks[h] |= 1ULL << a;
        }
        walk_end(&wk);
        if (PyErr_Occurred()) return -1;
        if (!usable) return 0;
    }
    return 1;
}

static PyObject *synonym_pairs(PyObject *self, PyObject *args) {
    PyObject *hyp, *refs, *hyp_keys, *ref_keys;
    Index ix = {NULL, NULL, NULL, 0};
    int indexed = 0;
    if (!PyArg_ParseTuple(args, "O!O!O!O!:synonym_pairs", &PyList_Type, &hyp, &PyList_Type,
                          &refs, &PyList_Type, &hyp_keys, &PyList_Type, &ref_keys))
        return NULL;
    PyObject *out = PyList_New(0);
    if (out == NULL) return NULL;
    Py_ssize_t n_h = PyList_GET_SIZE(hyp), n_r = PyList_GET_SIZE(refs);
    Py_ssize_t n_hk = PyList_GET_SIZE(hyp_keys), n_rk = PyList_GET_SIZE(ref_keys);
    if (n_h == 0 || n_r == 0) return out;
    if (n_h <= 64) {  /* look each reference synset up in an index of the hypothesis's */
        indexed = build_index(&ix, hyp, n_hk);
        if (indexed < 0) goto fail;
    }
    for (Py_ssize_t b = 0; b < n_r; b++) {
        Py_ssize_t j, i;
        PyObject *ss, *hs;
        if (position(PyList_GET_ITEM(refs, b), n_rk, &j, &ss) < 0) goto fail;
        PyObject *key = PyList_GET_ITEM(ref_keys, j);
        unsigned long long mask = 0;
        int usable = indexed;
        if (usable) {
            SetWalk wk;
            if (walk_start(&wk, ss) < 0) goto fail;
            while (walk_next(&wk)) {
                long long k;
                if (!as_key(wk.item, &k)) {
                    usable = 0;
                    break;
                }
                size_t h = slot_of(&ix, k);
                if (ix.used[h]) mask |= ix.masks[h];
            }
            walk_end(&wk);
            if (PyErr_Occurred()) goto fail;
        }
        if (!usable) {  /* every pair */
            for (Py_ssize_t a = 0; a < n_h; a++) {
                if (position(PyList_GET_ITEM(hyp, a), n_hk, &i, &hs) < 0) goto fail;
                if (try_pair(out, i, j, hs, ss, PyList_GET_ITEM(hyp_keys, i), key) < 0) goto fail;
            }
            continue;
        }
        while (mask) {  /* the hypothesis entries sharing a synset, in their order */
            Py_ssize_t a = __builtin_ctzll(mask);
            mask &= mask - 1;
            if (position(PyList_GET_ITEM(hyp, a), n_hk, &i, &hs) < 0) goto fail;
            if (try_pair(out, i, j, hs, ss, PyList_GET_ITEM(hyp_keys, i), key) < 0) goto fail;
        }
    }
    free_index(&ix);
    return out;
fail:
    free_index(&ix);
    Py_DECREF(out);
    return NULL;
}

static PyMethodDef methods[] = {
    {"synonym_pairs", synonym_pairs, METH_VARARGS,
     "synonym_pairs(hyp, refs, hyp_keys, ref_keys) -> [(i, j, smallest shared synset)]\n\n"
     "hyp, refs: [(position, set of synsets)]; each reference entry against each hypothesis\n"
     "entry (reference outer), kept when the sets intersect and the keys at the two\n"
     "positions differ."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "meteor_native._synonym",
    "Meteor 1.5's synonym pair loop in C (meteor.stages.synonym has the same loop in Python).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__synonym(void) {
    return PyModule_Create(&module);
}
