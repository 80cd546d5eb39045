/* Per-word look-ups paid once per new word of a corpus, in C.
 *
 * A C transcription of two pieces of pure-Python code (which runs when this module is not
 * installed or METEOR_PURE_PYTHON is set):
 *
 * - java_hash(s): meteor.rules.java_hash, Java's String.hashCode: h = 31 h + u over the
 *   UTF-16 code units u of s (a code point above U+FFFF is its surrogate pair, a lone
 *   surrogate its own unit, as encode("utf-16-le", "surrogatepass")), modulo 2^32, as a
 *   signed 32-bit int.
 * - lemma_row(hashes, rows, blob, offsets, word): meteor.languages.lemma_table.
 *   LemmaTable._row: the word's UTF-8 bytes (surrogatepass), their zlib.crc32, the first
 *   position of that hash in the sorted hashes (bisect_left), then the rows with that
 *   hash in order until one whose bytes blob[offsets[row]:offsets[row + 1]] are the
 *   word's; -1 when none.  hashes, offsets: uint32 buffers ("I"), rows int32 ("i").
 *
 * tests/unit/test_native_lexicon.py compares both with the Python code.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

static PyObject *java_hash(PyObject *self, PyObject *arg) {
    if (!PyUnicode_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "java_hash() takes a str");
        return NULL;
    }
    int kind = PyUnicode_KIND(arg);
    const void *data = PyUnicode_DATA(arg);
    Py_ssize_t n = PyUnicode_GET_LENGTH(arg);
    uint32_t h = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c > 0xFFFF) {
            c -= 0x10000;
            h = 31u * h + (uint32_t)(0xD800 + (c >> 10));
            h = 31u * h + (uint32_t)(0xDC00 + (c & 0x3FF));
        } else {
            h = 31u * h + (uint32_t)c;
        }
    }
    return PyLong_FromLong((long)(int32_t)h);
}

/* zlib's CRC-32 (reflected, polynomial 0xEDB88320), table made at import. */
static uint32_t crc_table[256];

static void make_crc_table(void) {
    for (uint32_t k = 0; k < 256; k++) {
        uint32_t c = k;
        for (int j = 0; j < 8; j++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc_table[k] = c;
    }
}

static uint32_t crc32_of(const unsigned char *p, Py_ssize_t n) {
    uint32_t c = 0xFFFFFFFFu;
    for (Py_ssize_t i = 0; i < n; i++) c = crc_table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

static int get_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t itemsize, const char *name) {
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0) return -1;
    if (itemsize > 1 && view->len % itemsize != 0) {
        PyErr_Format(PyExc_ValueError, "%s is not a buffer of %zd-byte items", name, itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static PyObject *lemma_row(PyObject *self, PyObject *args) {
    PyObject *ho, *ro, *bo, *oo, *word;
    if (!PyArg_ParseTuple(args, "OOOOU:lemma_row", &ho, &ro, &bo, &oo, &word)) return NULL;
    Py_buffer hv, rv, bv, ov;
    PyObject *res = NULL, *encoded = NULL;
    if (get_buffer(ho, &hv, 4, "hashes") < 0) return NULL;
    if (get_buffer(ro, &rv, 4, "rows") < 0) goto release_h;
    if (get_buffer(bo, &bv, 1, "blob") < 0) goto release_r;
    if (get_buffer(oo, &ov, 4, "offsets") < 0) goto release_b;
    const char *utf8;
    Py_ssize_t len;
    if (PyUnicode_IS_ASCII(word)) {
        utf8 = (const char *)PyUnicode_DATA(word);
        len = PyUnicode_GET_LENGTH(word);
    } else {
        encoded = PyUnicode_AsEncodedString(word, "utf-8", "surrogatepass");
        if (encoded == NULL) goto release_o;
        utf8 = PyBytes_AS_STRING(encoded);
        len = PyBytes_GET_SIZE(encoded);
    }
    const uint32_t *hashes = hv.buf, *offsets = ov.buf;
    const int32_t *rows = rv.buf;
    const unsigned char *blob = bv.buf;
    Py_ssize_t n = hv.len / 4, n_rows = rv.len / 4, n_off = ov.len / 4;
    uint32_t h = crc32_of((const unsigned char *)utf8, len);
    Py_ssize_t lo = 0, hi = n; /* bisect_left */
    while (lo < hi) {
        Py_ssize_t mid = lo + (hi - lo) / 2;
        if (hashes[mid] < h) lo = mid + 1;
        else hi = mid;
    }
    long found = -1;
    for (Py_ssize_t k = lo; k < n && hashes[k] == h; k++) {
        int32_t row = k < n_rows ? rows[k] : -1;
        if (row < 0 || row + 1 >= n_off || offsets[row + 1] > (uint32_t)bv.len ||
            offsets[row] > offsets[row + 1]) {
            PyErr_SetString(PyExc_ValueError, "the buffers of a lemma table do not agree");
            goto release_o;
        }
        uint32_t a = offsets[row], b = offsets[row + 1];
        if ((Py_ssize_t)(b - a) == len && memcmp(blob + a, utf8, (size_t)len) == 0) {
            found = row;
            break;
        }
    }
    res = PyLong_FromLong(found);
release_o:
    Py_XDECREF(encoded);
    PyBuffer_Release(&ov);
release_b:
    PyBuffer_Release(&bv);
release_r:
    PyBuffer_Release(&rv);
release_h:
    PyBuffer_Release(&hv);
    return res;
}

static PyMethodDef methods[] = {
    {"java_hash", java_hash, METH_O,
     "java_hash(s) -> int\n\nJava's String.hashCode of s (UTF-16 code units), signed 32-bit."},
    {"lemma_row", lemma_row, METH_VARARGS,
     "lemma_row(hashes, rows, blob, offsets, word) -> int\n\n"
     "LemmaTable._row: the row whose UTF-8 bytes are word's among those with its crc32\n"
     "(hashes sorted, uint32; rows int32; offsets uint32 into blob), or -1."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "meteor_native._lexicon",
    "Per-word look-ups in C: String.hashCode and the WordNet lemma table's rows "
    "(meteor.rules and meteor.languages.lemma_table have the same in Python).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__lexicon(void) {
    make_crc_table();
    return PyModule_Create(&module);
}
