/* Meteor 1.5's beam search (Aligner.align / Aligner.resolve) in C.
 *
 * A C transcription of meteor.aligners.beam._python_search (the pure-Python reference,
 * which is a line-by-line reading of cmu-mtlab/meteor src/edu/cmu/meteor/aligner/Aligner.java):
 * same lattice, same definite matches, same packed ranking key (more coverage, then fewer
 * chunks, then less distance, stable), same quirks (coverage truncated to an int with
 * search weights exact 1.0 and others 0.5; each candidate's distance added to the parent
 * path).  Sides of at most NARROW_WORDS = 256 words use masks of one, two or four 64-bit
 * words (_beam_search.h, compiled once per width); longer ones, up to MAX_WORDS, the
 * search of _beam_wide.h (word sets of any width, successors ranked before they are
 * built).  For a key that would not fit in 62 bits, or a pair whose word sets would take
 * too much memory, it returns None and the caller runs the Python search.  Python and
 * this module give identical choices (tests/unit/test_native.py compares them on random
 * and repetitive lattices, short and long).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int32_t *cid, *next;
    Py_ssize_t len, cap;
} Nodes;

static int bit_length(uint64_t v) {
    return v ? 64 - __builtin_clzll(v) : 0;
}

static int32_t add_node(Nodes *nodes, int32_t cid, int32_t next) {
    if (nodes->len == nodes->cap) {
        Py_ssize_t cap = nodes->cap ? 2 * nodes->cap : 1024;
        int32_t *c = realloc(nodes->cid, (size_t)cap * sizeof(int32_t));
        if (!c) return -2;
        nodes->cid = c;
        int32_t *x = realloc(nodes->next, (size_t)cap * sizeof(int32_t));
        if (!x) return -2;
        nodes->next = x;
        nodes->cap = cap;
    }
    nodes->cid[nodes->len] = cid;
    nodes->next[nodes->len] = next;
    return (int32_t)nodes->len++;
}

/* One candidate (module, hs, he, rs, re, ...) read as a span, with what both searches
 * derive from it: its search gain (quirk 1: int(len * w) per side, w = 1.0 for exact and
 * 0.5 for the other modules) and its distance |rs - hs|.  1 when it is a span of this
 * pair, 0 when it is not (the pair is then not a lattice the C search knows: Python
 * decides), -1 with an exception set. */
typedef struct {
    long hs, he, rs, re;
    int64_t gain, dist;
} Cand;

static int read_cand(PyObject *t, int n_hyp, int n_ref, PyObject *exact, Cand *out) {
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) < 5) return 0;
    long v[4];
    for (int k = 0; k < 4; k++) {
        v[k] = PyLong_AsLong(PyTuple_GET_ITEM(t, k + 1));
        if (v[k] == -1 && PyErr_Occurred()) return -1;
    }
    long hs = v[0], he = v[1], rs = v[2], re = v[3];
    if (hs < 0 || he <= hs || he > n_hyp || rs < 0 || re <= rs || re > n_ref) return 0;
    int ex = PyTuple_GET_ITEM(t, 0) == exact;
    out->hs = hs;
    out->he = he;
    out->rs = rs;
    out->re = re;
    out->gain = ex ? (he - hs) + (re - rs) : (he - hs) / 2 + (re - rs) / 2;
    out->dist = rs > hs ? rs - hs : hs - rs;
    return 1;
}

/* A path's place in a sort: its key and its index before the sort. */
typedef struct {
    int64_t key;
    int32_t idx;
} Ranked;

/* Sorts a[0..n) by key, stably (ties keep their index order), as Collections.sort (a
 * stable merge sort) orders Java's paths: runs of 16 by insertion, then merged bottom
 * up through tmp (n entries).  No comparison callback: qsort's took most of the
 * search's time on sentence pairs. */
static void rank_stable(Ranked *a, Ranked *tmp, Py_ssize_t n) {
    const Py_ssize_t run = 16;
    for (Py_ssize_t lo = 0; lo < n; lo += run) {
        Py_ssize_t hi = lo + run < n ? lo + run : n;
        for (Py_ssize_t i = lo + 1; i < hi; i++) {
            Ranked x = a[i];
            Py_ssize_t j = i - 1;
            while (j >= lo && a[j].key > x.key) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = x;
        }
    }
    Ranked *src = a, *dst = tmp;
    for (Py_ssize_t w = run; w < n; w *= 2) {
        for (Py_ssize_t lo = 0; lo < n; lo += 2 * w) {
            Py_ssize_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            Py_ssize_t i = lo, j = mid, k = lo;
            if (mid < hi && src[mid - 1].key <= src[mid].key) { /* already in order */
                memcpy(dst + lo, src + lo, (size_t)(hi - lo) * sizeof(Ranked));
                continue;
            }
            while (i < mid && j < hi) { /* branch-free: which side is taken is data */
                int right = src[j].key < src[i].key;
                dst[k++] = right ? src[j] : src[i];
                j += right;
                i += !right;
            }
            while (i < mid) dst[k++] = src[i++];
            while (j < hi) dst[k++] = src[j++];
        }
        Ranked *t = src;
        src = dst;
        dst = t;
    }
    if (src != a) memcpy(a, src, (size_t)n * sizeof(Ranked));
}

/* Room for n entries in *buf (of *cap entries of size bytes); -1 when out of memory. */
static int reserve(void **buf, Py_ssize_t *cap, Py_ssize_t n, size_t size) {
    if (n <= *cap) return 0;
    Py_ssize_t c = *cap ? *cap : 64;
    while (c < n) c *= 2;
    void *b = realloc(*buf, (size_t)c * size);
    if (!b) return -1;
    *buf = b;
    *cap = c;
    return 0;
}

#define NARROW_WORDS 256
#define MAX_WORDS (1 << 20)
/* Largest memory for the word sets of the wide search (two generations of a beam). */
#define WIDE_POOL_BYTES ((size_t)256 << 20)

#define W 1
#define SUFFIXED(name) name##_1
#include "_beam_search.h"
#undef SUFFIXED
#undef W
#define W 2
#define SUFFIXED(name) name##_2
#include "_beam_search.h"
#undef SUFFIXED
#undef W
#define W 4
#define SUFFIXED(name) name##_4
#include "_beam_search.h"
#undef SUFFIXED
#undef W
#include "_beam_wide.h"

/* Parses the arguments; 1 when the pair is one the C search takes, 0 (None returned)
 * when it is not, -1 on an error. */
static int parse(PyObject *args, int *n_hyp, int *n_ref, PyObject **candidates, int *beam_size,
                 PyObject **exact) {
    if (!PyArg_ParseTuple(args, "iiOiO", n_hyp, n_ref, candidates, beam_size, exact)) return -1;
    if (*n_hyp < 0 || *n_ref < 0 || *n_hyp > MAX_WORDS || *n_ref > MAX_WORDS || *beam_size < 1)
        return 0;
    int longest = *n_hyp > *n_ref ? *n_hyp : *n_ref;
    size_t words = (size_t)longest / 64 + 1;
    if (4 * words * sizeof(uint64_t) * (size_t)*beam_size > WIDE_POOL_BYTES) return 0;
    return 1;
}

/* The chosen indices as a new list (NULL with an exception set). */
static PyObject *index_list(const int32_t *chosen, Py_ssize_t m) {
    PyObject *result = PyList_New(m);
    if (!result) return NULL;
    for (Py_ssize_t a = 0; a < m; a++) {
        PyObject *v = PyLong_FromLong(chosen[a]);
        if (!v) {
            Py_DECREF(result);
            return NULL;
        }
        PyList_SET_ITEM(result, a, v);
    }
    return result;
}

/* The narrow search of the width that fits the longer side (at most NARROW_WORDS words),
 * as SUFFIXED(search) answers. */
static int search_narrow(int n_hyp, int n_ref, const Cand *cands, Py_ssize_t n, int beam_size,
                         int32_t **chosen, Py_ssize_t *m) {
    int longest = n_hyp > n_ref ? n_hyp : n_ref;
    if (longest <= 64) return search_1(n_hyp, n_ref, cands, n, beam_size, chosen, m);
    if (longest <= 128) return search_2(n_hyp, n_ref, cands, n, beam_size, chosen, m);
    return search_4(n_hyp, n_ref, cands, n, beam_size, chosen, m);
}

/* beam_choice's body; wide: always the search of _beam_wide.h (beam_choice_wide). */
static PyObject *choose(PyObject *args, int wide) {
    int n_hyp, n_ref, beam_size;
    PyObject *candidates, *exact;
    int ok = parse(args, &n_hyp, &n_ref, &candidates, &beam_size, &exact);
    if (ok <= 0) {
        if (ok < 0) return NULL;
        Py_RETURN_NONE;
    }
    PyObject *seq = PySequence_Fast(candidates, "candidates must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject *result = NULL;
    int longest = wide ? NARROW_WORDS + 1 : (n_hyp > n_ref ? n_hyp : n_ref);
    if (n > INT32_MAX / 4) {
        result = Py_None;
        Py_INCREF(result);
    } else if (longest <= NARROW_WORDS) {
        Cand *cands = malloc((size_t)(n ? n : 1) * sizeof(Cand));
        if (!cands) {
            Py_DECREF(seq);
            return PyErr_NoMemory();
        }
        int got = 1;
        for (Py_ssize_t c = 0; got == 1 && c < n; c++)
            got = read_cand(PySequence_Fast_GET_ITEM(seq, c), n_hyp, n_ref, exact, &cands[c]);
        int32_t *chosen = NULL;
        Py_ssize_t m = 0;
        if (got == 1) got = search_narrow(n_hyp, n_ref, cands, n, beam_size, &chosen, &m);
        if (got == 1) {
            result = index_list(chosen, m);
        } else if (got == 0) { /* not a lattice of this pair, or a key over 62 bits */
            result = Py_None;
            Py_INCREF(result);
        }
        free(chosen);
        free(cands);
    } else {
        result = search_wide(n_hyp, n_ref, seq, n, beam_size, exact);
    }
    Py_DECREF(seq);
    return result;
}

#include "_stats_tuple.h"
#include "_beam_pair.h"

static PyObject *beam_choice(PyObject *self, PyObject *args) {
    return choose(args, 0);
}

static PyObject *beam_choice_wide(PyObject *self, PyObject *args) {
    return choose(args, 1);
}

static PyMethodDef methods[] = {
    {"beam_choice", beam_choice, METH_VARARGS,
     "beam_choice(n_hyp, n_ref, candidates, beam_size, exact) -> list[int] | None\n\n"
     "Meteor 1.5's beam search for sides of at most MAX_WORDS words: the chosen candidate\n"
     "indices in reference order, as meteor.aligners.beam.beam_choice; None when the\n"
     "pair is outside what this search handles (the caller runs the Python search)."},
    {"beam_choice_wide", beam_choice_wide, METH_VARARGS,
     "beam_choice_wide(n_hyp, n_ref, candidates, beam_size, exact) -> list[int] | None\n\n"
     "beam_choice by the search beam_choice uses for sides over NARROW_WORDS words, on\n"
     "a pair of any length (for tests: it must choose as the narrow searches)."},
    {"pair_stats", pair_stats, METH_VARARGS,
     "pair_stats(hyp_pack, ref_pack, stages, beam_size, limit, modules, details, stem_arg,\n"
     "           hyp_tokens, ref_tokens, slots, width)\n"
     "-> (packed, hyp_len, ref_len, hyp_function_words, ref_function_words,\n"
     "    (hyp_content, ref_content, hyp_function, ref_function), chunks, hyp_matches,\n"
     "    ref_matches) | None\n\n"
     "The chosen matches of one pair: the candidates of the stages (bytes of codes 0 exact,\n"
     "1 stem, 2 synonym, 3 paraphrase) from the two sentence packs, then beam_choice;\n"
     "packed as meteor.match_tuples.pack_raw packs them and counted as\n"
     "meteor.scoring.stats_from_raw counts them with the tokens' function_word flags (each\n"
     "module's counts at its slot of slots, vectors of width entries).  modules: the 4\n"
     "modules; details: exact's and paraphrase's detail strings, stem's\n"
     "details[1](stem_arg, ref_start), synonym's details[2](synset).  None when the\n"
     "candidates pass limit, a side is over NARROW_WORDS words or a key would not fit (the\n"
     "caller runs the Python stages and search)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_beam", NULL, -1, methods};

/* API: the version of these functions the Python code asks for (meteor.runtime.PART_API):
 * 2 since pair_stats. */
PyMODINIT_FUNC PyInit__beam(void) {
    PyObject *m = PyModule_Create(&module);
    if (m && (PyModule_AddIntConstant(m, "MAX_WORDS", MAX_WORDS) < 0 ||
              PyModule_AddIntConstant(m, "NARROW_WORDS", NARROW_WORDS) < 0 ||
              PyModule_AddIntConstant(m, "API", 2) < 0)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
