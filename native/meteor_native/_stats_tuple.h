/* The statistics tuple of a pair packed and counted in one C call, shared by
 * _greedy.nltk_pair and _beam.pair_stats (both included once per extension):
 * (packed, hyp_len, ref_len, hyp_function_words, ref_function_words,
 *  (hyp_content, ref_content, hyp_function, ref_function), chunks, hyp_matches, ref_matches),
 * the vectors `width` entries each from counts (4 * width: the four in that order), as
 * meteor.stats.counted_stats takes them. */

/* -1 with an exception set when a module's slot lies outside the vectors' width. */
static int check_slots(const Py_ssize_t *slot, int n, Py_ssize_t width) {
    for (int k = 0; k < n; k++)
        if (slot[k] < 0 || slot[k] >= width) {
            PyErr_SetString(PyExc_ValueError, "a module slot lies outside the width");
            return -1;
        }
    return 0;
}

static PyObject *int_tuple(const Py_ssize_t *v, Py_ssize_t n) {
    PyObject *t = PyTuple_New(n);
    if (t == NULL) return NULL;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *x = PyLong_FromSsize_t(v[k]);
        if (x == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, k, x);
    }
    return t;
}

static PyObject *stats_tuple(PyObject *packed, const Py_ssize_t lengths[4], const Py_ssize_t *counts,
                             Py_ssize_t width, Py_ssize_t chunks, Py_ssize_t hyp_matches,
                             Py_ssize_t ref_matches) {
    PyObject *vec[4] = {NULL, NULL, NULL, NULL}, *result = NULL;
    for (int v = 0; v < 4; v++)
        if ((vec[v] = int_tuple(counts + v * width, width)) == NULL) goto done;
    result = Py_BuildValue("(Onnnn(OOOO)nnn)", packed, lengths[0], lengths[1], lengths[2],
                           lengths[3], vec[0], vec[1], vec[2], vec[3], chunks, hyp_matches,
                           ref_matches);
done:
    for (int v = 0; v < 4; v++) Py_XDECREF(vec[v]);
    return result;
}
