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

static PyMethodDef methods[] = {
    {"phrase_ids", phrase_ids, METH_VARARGS,
     "phrase_ids(ids, width, seed, mult, shift, bucket_off, hash_keys, hash_ids, tokens, out)\n\n"
     "Fill out (n x width int64, preset to -1) with the phrase id of ids[r : r + c + 1]."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "meteor_native._phrases",
    "The paraphrase index look-up in C (meteor.languages.paraphrase has it in numpy).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__phrases(void) {
    return PyModule_Create(&module);
}
