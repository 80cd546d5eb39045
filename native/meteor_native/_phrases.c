/* The paraphrase index look-up of meteor.languages.paraphrase.ParaphraseTable._phrase_ids:
 * for every start position of a word-id sequence and every phrase length up to the table's
 * width, the id of the table phrase with exactly those words, or -1.
 *
 * A C transcription of the numpy code (the reference, which runs when this module is not
 * installed or METEOR_PURE_PYTHON is set): the same rolling hash
 * (meteor.languages.paraphrase_build.hash_columns), the same bucket of the sorted hash keys
 * and its first equal key, the same word check against the stored phrase.  A window stops at
 * its first unknown word (-1), where the numpy code marks every longer window invalid.
 * tests/unit/test_native_phrases.py compares the two.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>

static int get(PyObject *obj, Py_buffer *view, Py_ssize_t itemsize, int writable,
               const char *name) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0)) < 0)
        return -1;
    if (itemsize && view->itemsize != itemsize) {
        PyErr_Format(PyExc_TypeError, "%s must have %zd-byte items", name, itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static uint64_t token_at(const Py_buffer *tokens, Py_ssize_t k) {
    switch (tokens->itemsize) {
    case 1: return ((const uint8_t *)tokens->buf)[k];
    case 2: return ((const uint16_t *)tokens->buf)[k];
    case 4: return ((const uint32_t *)tokens->buf)[k];
    default: return ((const uint64_t *)tokens->buf)[k];
    }
}

static PyObject *phrase_ids(PyObject *self, PyObject *args) {
    PyObject *o_ids, *o_off, *o_keys, *o_hids, *o_tokens, *o_out;
    Py_ssize_t width;
    unsigned long long seed, mult, shift;
    if (!PyArg_ParseTuple(args, "OnKKKOOOOO:phrase_ids", &o_ids, &width, &seed, &mult, &shift,
                          &o_off, &o_keys, &o_hids, &o_tokens, &o_out))
        return NULL;
    Py_buffer ids, off, keys, hids, tokens, out;
    if (get(o_ids, &ids, 8, 0, "ids") < 0) return NULL;
    if (get(o_off, &off, 4, 0, "bucket_off") < 0) goto r1;
    if (get(o_keys, &keys, 8, 0, "hash_keys") < 0) goto r2;
    if (get(o_hids, &hids, 4, 0, "hash_ids") < 0) goto r3;
    if (get(o_tokens, &tokens, 0, 0, "tokens") < 0) goto r4;
    if (get(o_out, &out, 8, 1, "out") < 0) goto r5;
    Py_ssize_t n = ids.len / 8, n_keys = keys.len / 8, n_off = off.len / 4;
    Py_ssize_t n_tokens = tokens.len / tokens.itemsize;
    const int64_t *w = ids.buf;
    const uint32_t *bucket_off = off.buf, *hash_ids = hids.buf;
    const uint64_t *hash_keys = keys.buf;
    int64_t *res = out.buf;
    int bad = 0;
    if (width < 0 || out.len / 8 != n * width || (tokens.itemsize != 1 && tokens.itemsize != 2 &&
                                                   tokens.itemsize != 4 && tokens.itemsize != 8)) {
        PyErr_SetString(PyExc_ValueError, "phrase_ids: bad shapes");
        goto r6;
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t r = 0; r < n && !bad; r++) {
        uint64_t h = seed;
        for (Py_ssize_t c = 0; c < width && r + c < n; c++) {
            int64_t id = w[r + c];
            if (id < 0) break;
            h = (h ^ (uint64_t)(id + 1)) * mult;
            h ^= h >> 31;
            Py_ssize_t b = (Py_ssize_t)(h >> shift);
            if (b + 1 >= n_off) {
                bad = 1;
                break;
            }
            Py_ssize_t lo = bucket_off[b], hi = bucket_off[b + 1], pos = -1;
            for (Py_ssize_t k = lo; k < hi && k < n_keys; k++) {
                if (hash_keys[k] == h) {
                    pos = k;
                    break;
                }
            }
            if (pos < 0) continue;
            Py_ssize_t pid = hash_ids[pos];
            if ((pid + 1) * width > n_tokens) {
                bad = 1;
                break;
            }
            /* the stored phrase: word id + 1 for its c + 1 words, then zeros */
            int same = 1;
            for (Py_ssize_t t = 0; t < width && same; t++) {
                uint64_t want = t <= c ? (uint64_t)(w[r + t] + 1) : 0;
                same = token_at(&tokens, pid * width + t) == want;
            }
            if (same) res[r * width + c] = pid;
        }
    }
    Py_END_ALLOW_THREADS
    if (bad) PyErr_SetString(PyExc_ValueError, "phrase_ids: the index arrays do not fit together");
r6:
    PyBuffer_Release(&out);
r5:
    PyBuffer_Release(&tokens);
r4:
    PyBuffer_Release(&hids);
r3:
    PyBuffer_Release(&keys);
r2:
    PyBuffer_Release(&off);
r1:
    PyBuffer_Release(&ids);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

/* One occurrence of a table phrase in a sentence: its start and id. */
typedef struct {
    int32_t start, pid;
} Occ;

static int occ_order(const void *a, const void *b) {
    const Occ *x = a, *y = b;
    if (x->pid != y->pid) return x->pid < y->pid ? -1 : 1;
    return (x->start > y->start) - (x->start < y->start);
}

/* Room for n items of size bytes in *buf (capacity *cap items); -1 when out of memory. */
static int grow(void **buf, Py_ssize_t *cap, Py_ssize_t n, size_t size) {
    if (n <= *cap) return 0;
    Py_ssize_t c = *cap ? *cap : 256;
    while (c < n) c *= 2;
    void *b = PyMem_Realloc(*buf, (size_t)c * size);
    if (b == NULL) return -1;
    *buf = b;
    *cap = c;
    return 0;
}

static PyObject *bytes_of(const void *p, Py_ssize_t n) {
    return PyBytes_FromStringAndSize(n ? (const char *)p : NULL, n);
}

/* The index arrays phrases_block reads, as buffers. */
typedef struct {
    Py_buffer off, keys, hids, tokens, rec_off, rec_b, lengths;
    int held;
} Index;

static void index_release(Index *x) {
    Py_buffer *v[] = {&x->off, &x->keys, &x->hids, &x->tokens, &x->rec_off, &x->rec_b, &x->lengths};
    for (int k = 0; k < x->held; k++) PyBuffer_Release(v[k]);
}

static int index_get(Index *x, PyObject *const o[7]) {
    Py_buffer *v[] = {&x->off, &x->keys, &x->hids, &x->tokens, &x->rec_off, &x->rec_b, &x->lengths};
    static const Py_ssize_t size[] = {4, 8, 4, 0, 4, 4, 1};
    static const char *name[] = {"bucket_off", "hash_keys", "hash_ids", "tokens",
                                 "rec_off", "rec_b", "lengths"};
    x->held = 0;
    for (int k = 0; k < 7; k++) {
        if (get(o[k], v[k], size[k], 0, name[k]) < 0) return -1;
        x->held++;
    }
    Py_ssize_t t = x->tokens.itemsize;
    if (t != 1 && t != 2 && t != 4 && t != 8) {
        PyErr_SetString(PyExc_TypeError, "tokens must have 1-, 2-, 4- or 8-byte items");
        return -1;
    }
    return 0;
}

/* One sentence's (wants, ids, offsets, starts) as phrases_block returns it; NULL with an
 * exception set.  ids/occ/wants: scratch buffers grown as needed. */
static PyObject *one_sentence(PyObject *words, PyObject *vocab, const Index *x, Py_ssize_t width,
                              uint64_t seed, uint64_t mult, uint64_t shift, Py_ssize_t n_a,
                              int64_t **ids, Py_ssize_t *ids_cap, Occ **occ, Py_ssize_t *occ_cap,
                              int32_t **wants, Py_ssize_t *wants_cap) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(words);
    if (grow((void **)ids, ids_cap, n, sizeof(int64_t))) return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = PyDict_GetItemWithError(vocab, PySequence_Fast_GET_ITEM(words, i));
        if (v == NULL) {
            if (PyErr_Occurred()) return NULL;
            (*ids)[i] = -1;
            continue;
        }
        long long id = PyLong_AsLongLong(v);
        if (id == -1 && PyErr_Occurred()) return NULL;
        (*ids)[i] = id < 0 ? -1 : id;
    }
    const uint32_t *bucket_off = x->off.buf, *hash_ids = x->hids.buf;
    const uint32_t *rec_off = x->rec_off.buf, *rec_b = x->rec_b.buf;
    const uint64_t *hash_keys = x->keys.buf;
    const uint8_t *lengths = x->lengths.buf;
    Py_ssize_t n_off = x->off.len / 4, n_keys = x->keys.len / 8;
    Py_ssize_t n_tokens = x->tokens.len / x->tokens.itemsize, n_rec_off = x->rec_off.len / 4;
    Py_ssize_t n_rec_b = x->rec_b.len / 4, n_lengths = x->lengths.len;
    Py_ssize_t n_occ = 0, n_wants = 0;
    const int64_t *w = *ids;
    for (Py_ssize_t r = 0; r < n; r++) {
        uint64_t h = seed;
        for (Py_ssize_t c = 0; c < width && r + c < n; c++) { /* as phrase_ids */
            int64_t id = w[r + c];
            if (id < 0) break;
            h = (h ^ (uint64_t)(id + 1)) * mult;
            h ^= h >> 31;
            Py_ssize_t b = (Py_ssize_t)(h >> shift);
            if (b + 1 >= n_off) goto bad;
            Py_ssize_t pos = -1;
            for (Py_ssize_t k = bucket_off[b]; k < bucket_off[b + 1] && k < n_keys; k++)
                if (hash_keys[k] == h) {
                    pos = k;
                    break;
                }
            if (pos < 0) continue;
            Py_ssize_t pid = hash_ids[pos];
            if ((pid + 1) * width > n_tokens || pid > INT32_MAX) goto bad;
            int same = 1;
            for (Py_ssize_t t = 0; t < width && same; t++) {
                uint64_t want = t <= c ? (uint64_t)(w[r + t] + 1) : 0;
                same = token_at(&x->tokens, pid * width + t) == want;
            }
            if (!same) continue;
            if (grow((void **)occ, occ_cap, n_occ + 1, sizeof(Occ))) return PyErr_NoMemory();
            (*occ)[n_occ].start = (int32_t)r;
            (*occ)[n_occ].pid = (int32_t)pid;
            n_occ++;
            if (pid >= n_a) continue; /* a B phrase only: no record starts from it */
            if (pid + 1 >= n_rec_off) goto bad;
            Py_ssize_t lo = rec_off[pid], hi = rec_off[pid + 1];
            if (hi > n_rec_b || lo > hi) goto bad;
            if (grow((void **)wants, wants_cap, 4 * (n_wants + hi - lo), sizeof(int32_t)))
                return PyErr_NoMemory();
            for (Py_ssize_t rec = lo; rec < hi; rec++) { /* walk order, then file order */
                uint32_t bp = rec_b[rec];
                if ((Py_ssize_t)bp >= n_lengths) goto bad;
                int32_t *row = *wants + 4 * n_wants++;
                row[0] = (int32_t)r;
                row[1] = (int32_t)(c + 1);
                row[2] = (int32_t)bp;
                row[3] = lengths[bp];
            }
        }
    }
    /* occ packed: ids ascending, each one's starts ascending (pack_occ) */
    qsort(*occ, (size_t)n_occ, sizeof(Occ), occ_order);
    PyObject *out = NULL, *wb = NULL, *ib = NULL, *ob = NULL, *sb = NULL;
    Py_ssize_t n_ids = 0;
    int32_t *buf = PyMem_Malloc((size_t)(3 * n_occ + 1) * sizeof(int32_t));
    if (buf == NULL) return PyErr_NoMemory();
    int32_t *pids = buf, *offs = buf + n_occ, *starts = buf + 2 * n_occ + 1;
    for (Py_ssize_t k = 0; k < n_occ; k++) {
        if (k == 0 || (*occ)[k].pid != (*occ)[k - 1].pid) {
            pids[n_ids] = (*occ)[k].pid;
            offs[n_ids++] = (int32_t)k;
        }
        starts[k] = (*occ)[k].start;
    }
    offs[n_ids] = (int32_t)n_occ;
    if ((wb = bytes_of(*wants, 16 * n_wants)) && (ib = bytes_of(pids, 4 * n_ids)) &&
        (ob = bytes_of(offs, n_ids ? 4 * (n_ids + 1) : 0)) && (sb = bytes_of(starts, 4 * n_occ)))
        out = PyTuple_Pack(4, wb, ib, ob, sb);
    Py_XDECREF(wb);
    Py_XDECREF(ib);
    Py_XDECREF(ob);
    Py_XDECREF(sb);
    PyMem_Free(buf);
    return out;
bad:
    PyErr_SetString(PyExc_ValueError, "phrases_block: the index arrays do not fit together");
    return NULL;
}

static PyObject *phrases_block(PyObject *self, PyObject *args) {
    PyObject *sentences, *vocab, *o[7];
    Py_ssize_t width, n_a;
    unsigned long long seed, mult, shift;
    if (!PyArg_ParseTuple(args, "OO!nKKKnOOOOOOO:phrases_block", &sentences, &PyDict_Type, &vocab,
                          &width, &seed, &mult, &shift, &n_a, &o[0], &o[1], &o[2], &o[3], &o[4],
                          &o[5], &o[6]))
        return NULL;
    if (width < 0 || shift > 63) {
        PyErr_SetString(PyExc_ValueError, "phrases_block: bad width or shift");
        return NULL;
    }
    Index x;
    if (index_get(&x, o) < 0) {
        index_release(&x);
        return NULL;
    }
    PyObject *seq = PySequence_Fast(sentences, "sentences must be a sequence");
    PyObject *result = NULL;
    int64_t *ids = NULL;
    Occ *occ = NULL;
    int32_t *wants = NULL;
    Py_ssize_t ids_cap = 0, occ_cap = 0, wants_cap = 0;
    if (seq == NULL) goto done;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if ((result = PyList_New(n)) == NULL) goto done;
    for (Py_ssize_t s = 0; s < n; s++) {
        PyObject *words = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, s),
                                          "a sentence must be a sequence of words");
        PyObject *one = NULL;
        if (words != NULL)
            one = one_sentence(words, vocab, &x, width, seed, mult, shift, n_a, &ids, &ids_cap,
                               &occ, &occ_cap, &wants, &wants_cap);
        Py_XDECREF(words);
        if (one == NULL) {
            Py_CLEAR(result);
            break;
        }
        PyList_SET_ITEM(result, s, one);
    }
done:
    Py_XDECREF(seq);
    PyMem_Free(ids);
    PyMem_Free(occ);
    PyMem_Free(wants);
    index_release(&x);
    return result;
}

static PyMethodDef methods[] = {
    {"phrase_ids", phrase_ids, METH_VARARGS,
     "phrase_ids(ids, width, seed, mult, shift, bucket_off, hash_keys, hash_ids, tokens, out)\n\n"
     "Fill out (n x width int64, preset to -1) with the phrase id of ids[r : r + c + 1]."},
    {"phrases_block", phrases_block, METH_VARARGS,
     "phrases_block(sentences, vocab, width, seed, mult, shift, n_a, bucket_off, hash_keys,\n"
     "              hash_ids, tokens, rec_off, rec_b, lengths)\n"
     "-> list of (wants, ids, offsets, starts) bytes, one per sentence\n\n"
     "ParaphraseTable.phrases_many in one call: each sentence's words looked up in vocab\n"
     "(-1 unknown), the table's phrases found from every start as phrase_ids finds them,\n"
     "the records of those that are A phrases (start, length, B phrase, B length; walk\n"
     "order, then file order), and the occurrences packed (ids ascending, offsets from 0,\n"
     "starts ascending per id), all int32."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "meteor_native._phrases",
    "The paraphrase index look-up in C (meteor.languages.paraphrase has it in numpy).",
    -1, methods, NULL, NULL, NULL, NULL,
};

/* API: the version of these functions the Python code asks for (meteor.runtime.PART_API):
 * 2 since phrases_block. */
PyMODINIT_FUNC PyInit__phrases(void) {
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddIntConstant(m, "API", 2) < 0) Py_CLEAR(m);
    return m;
}
