/* The integer counts behind Kendall's tau-b (scipy.stats.kendalltau, variant "b") for many
 * samples of one pair of variables at once: the bootstrap resamples of items and the
 * PERM-BOTH permutations of meteor.analysis.agreement_stats.
 *
 * For each sample the five counts scipy's kendalltau computes (scipy 1.17,
 * stats/_stats_py.py): tot = N(N-1)/2 pairs, xtie and ytie (pairs tied in x, in y), ntie
 * (pairs tied in both) and dis (discordant pairs: x_i < x_j and y_i > y_j).  A row of
 * weight w stands for w copies of itself (a row drawn w times); copies of one row are tied in
 * both.  meteor.analysis.agreement_stats turns the counts into tau-b with scipy's own
 * formula; the pure-Python path calls scipy.stats.kendalltau on every sample, and
 * tests/unit/test_native_kendall.py holds the two equal.
 *
 * Rows come grouped by x: gx is a dense rank of x, non-decreasing; gy a dense rank of y
 * below k (any order within an x group).  Discordant pairs by a Fenwick tree over gy of the
 * weights of the rows of earlier (smaller) x groups: each row of a group is queried before
 * the group is added.  Pairs tied in both by a stamp per y value (the x group it was last
 * seen in) and the weight seen there.  O(n log k) a sample; the GIL is released.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int64_t *tree;  /* Fenwick tree over 1..k */
    int64_t *stamp; /* per y: the x group it was last seen in (-1: none) */
    int64_t *seen;  /* per y: the weight seen in that group */
    int64_t *wy;    /* per y: the whole weight */
} Work;

static void counts(Py_ssize_t n, const int64_t *gx, const int64_t *gy, const int64_t *w,
                   int64_t k, Work *s, int64_t out[5]) {
    int64_t total = 0, xtie = 0, ytie = 0, ntie = 0, dis = 0, added = 0;
    memset(s->tree, 0, (size_t)(k + 1) * sizeof(int64_t));
    memset(s->wy, 0, (size_t)k * sizeof(int64_t));
    for (int64_t v = 0; v < k; v++) s->stamp[v] = -1;
    Py_ssize_t start = 0;
    while (start < n) {
        Py_ssize_t end = start;
        int64_t group = gx[start], wx = 0;
        while (end < n && gx[end] == group) end++;
        for (Py_ssize_t j = start; j < end; j++) {
            int64_t c = w ? w[j] : 1;
            if (c == 0) continue;
            int64_t below = 0; /* weight of earlier groups with y <= gy[j] */
            for (int64_t i = gy[j] + 1; i > 0; i -= i & -i) below += s->tree[i];
            dis += c * (added - below);
            int64_t y = gy[j];
            if (s->stamp[y] != group) {
                s->stamp[y] = group;
                s->seen[y] = 0;
            }
            ntie += c * s->seen[y] + c * (c - 1) / 2;
            s->seen[y] += c;
            s->wy[y] += c;
            wx += c;
        }
        for (Py_ssize_t j = start; j < end; j++) {
            int64_t c = w ? w[j] : 1;
            if (c == 0) continue;
            for (int64_t i = gy[j] + 1; i <= k; i += i & -i) s->tree[i] += c;
        }
        added += wx;
        total += wx;
        xtie += wx * (wx - 1) / 2;
        start = end;
    }
    for (int64_t v = 0; v < k; v++) ytie += s->wy[v] * (s->wy[v] - 1) / 2;
    out[0] = total * (total - 1) / 2;
    out[1] = xtie;
    out[2] = ytie;
    out[3] = ntie;
    out[4] = dis;
}

/* The work arrays of counts() for y ranks below k: 1 when all are there. */
static int work_alloc(Work *s, int64_t k) {
    s->tree = malloc((size_t)(k + 1) * sizeof(int64_t));
    s->stamp = malloc((size_t)k * sizeof(int64_t));
    s->seen = malloc((size_t)k * sizeof(int64_t));
    s->wy = malloc((size_t)k * sizeof(int64_t));
    return s->tree && s->stamp && s->seen && s->wy;
}

static void work_free(Work *s) {
    free(s->tree);
    free(s->stamp);
    free(s->seen);
    free(s->wy);
}

static int get_buffer(PyObject *obj, Py_buffer *view, const char *name) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    if (view->itemsize != 8 || view->format == NULL ||
        (strcmp(view->format, "q") != 0 && strcmp(view->format, "l") != 0 &&
         strcmp(view->format, "<q") != 0 && strcmp(view->format, "<l") != 0)) {
        PyErr_Format(PyExc_TypeError, "%s: a contiguous buffer of 64-bit integers", name);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* 0 when every one of the n values is in [0, hi); else -1 with ValueError(message). */
static int check_below(const int64_t *v, Py_ssize_t n, int64_t hi, const char *message) {
    for (Py_ssize_t j = 0; j < n; j++) {
        if (v[j] < 0 || v[j] >= hi) {
            PyErr_SetString(PyExc_ValueError, message);
            return -1;
        }
    }
    return 0;
}

/* tau_counts(gx, gy, k, samples, items, n_items, draws) -> bytes of samples x 5 int64.
 *
 * gx: n rows' x groups (non-decreasing).  gy: n values shared by every sample, or
 * samples x n (a sample's own y ranks, row-major), each below k.  draws: None (every row
 * once), or samples x d item indices (a resample of items: a row's weight is how often its
 * item, items[row] below n_items, was drawn). */
static PyObject *tau_counts(PyObject *self, PyObject *args) {
    PyObject *gx_o, *gy_o, *items_o, *draws_o;
    long long k_ll, n_items_ll;
    Py_ssize_t samples;
    if (!PyArg_ParseTuple(args, "OOLnOLO", &gx_o, &gy_o, &k_ll, &samples, &items_o,
                          &n_items_ll, &draws_o))
        return NULL;
    int64_t k = (int64_t)k_ll, n_items = (int64_t)n_items_ll;
    if (k < 1 || samples < 0 || n_items < 0) {
        PyErr_SetString(PyExc_ValueError, "k >= 1, samples >= 0 and n_items >= 0");
        return NULL;
    }
    Py_buffer gx = {0}, gy = {0}, items = {0}, draws = {0};
    int have_items = 0, have_draws = 0;
    PyObject *result = NULL;
    int64_t *weights = NULL;
    Work s = {0};
    if (get_buffer(gx_o, &gx, "gx") < 0) return NULL;
    if (get_buffer(gy_o, &gy, "gy") < 0) goto done;
    Py_ssize_t n = gx.len / 8;
    Py_ssize_t gy_len = gy.len / 8;
    int shared_y = gy_len == n;
    if (!shared_y && gy_len != n * samples) {
        PyErr_SetString(PyExc_ValueError, "gy: n values, or samples x n");
        goto done;
    }
    Py_ssize_t d = 0;
    if (draws_o != Py_None) {
        if (get_buffer(items_o, &items, "items") < 0) goto done;
        have_items = 1;
        if (get_buffer(draws_o, &draws, "draws") < 0) goto done;
        have_draws = 1;
        if (items.len / 8 != n || (samples > 0 && (draws.len / 8) % samples != 0)) {
            PyErr_SetString(PyExc_ValueError, "items: n values; draws: samples x d");
            goto done;
        }
        d = samples > 0 ? draws.len / 8 / samples : 0;
    }
    const int64_t *X = gx.buf, *Y = gy.buf;
    const int64_t *I = have_items ? items.buf : NULL, *D = have_draws ? draws.buf : NULL;
    for (Py_ssize_t j = 0; j < n; j++) {
        if ((j > 0 && X[j] < X[j - 1]) || (I && (I[j] < 0 || I[j] >= n_items))) {
            PyErr_SetString(PyExc_ValueError, "gx must not decrease; items below n_items");
            goto done;
        }
    }
    if (check_below(Y, gy_len, k, "gy values below k") < 0) goto done;
    if (D && check_below(D, d * samples, n_items, "draws below n_items") < 0) goto done;
    result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(samples * 5 * 8));
    int work_ok = work_alloc(&s, k);
    int64_t *per_item = D ? calloc((size_t)(n_items ? n_items : 1), sizeof(int64_t)) : NULL;
    weights = D ? malloc((size_t)(n ? n : 1) * sizeof(int64_t)) : NULL;
    if (result == NULL || !work_ok || (D && (!per_item || !weights))) {
        free(per_item);
        Py_CLEAR(result);
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    int64_t *out = (int64_t *)PyBytes_AS_STRING(result);
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t b = 0; b < samples; b++) {
        if (D) {
            memset(per_item, 0, (size_t)(n_items ? n_items : 1) * sizeof(int64_t));
            for (Py_ssize_t t = 0; t < d; t++) per_item[D[b * d + t]]++;
            for (Py_ssize_t j = 0; j < n; j++) weights[j] = per_item[I[j]];
        }
        counts(n, X, shared_y ? Y : Y + b * n, weights, k, &s, out + b * 5);
    }
    Py_END_ALLOW_THREADS
    free(per_item);
done:
    free(weights);
    work_free(&s);
    if (have_draws) PyBuffer_Release(&draws);
    if (have_items) PyBuffer_Release(&items);
    if (gy.obj) PyBuffer_Release(&gy);
    PyBuffer_Release(&gx);
    return result;
}

/* The pairs tied in y (ytie) and tied in both x and y (ntie) of one column, every row once:
 * counts()'s tie counts without its Fenwick walk. */
static void ties(Py_ssize_t n, const int64_t *gx, const int64_t *gy, int64_t k, Work *s,
                 int64_t *ytie, int64_t *ntie) {
    int64_t both = 0, tied = 0;
    memset(s->wy, 0, (size_t)k * sizeof(int64_t));
    for (int64_t v = 0; v < k; v++) s->stamp[v] = -1;
    for (Py_ssize_t j = 0; j < n; j++) {
        int64_t y = gy[j];
        if (s->stamp[y] != gx[j]) {
            s->stamp[y] = gx[j];
            s->seen[y] = 0;
        }
        both += s->seen[y]++;
        s->wy[y]++;
    }
    for (int64_t v = 0; v < k; v++) tied += s->wy[v] * (s->wy[v] - 1) / 2;
    *ytie = tied;
    *ntie = both;
}

/* Fenwick tree over codes 0..k-1 in t[1..k]: how many codes below v were added. */
static int64_t below(const int64_t *t, int64_t v) {
    int64_t sum = 0;
    for (int64_t i = v; i > 0; i -= i & -i) sum += t[i];
    return sum;
}

static void add(int64_t *t, int64_t k, int64_t v) {
    for (int64_t i = v + 1; i <= k; i += i & -i) t[i]++;
}

/* The swap weights of a PERM-BOTH pair.  For the pairs of rows i, j with x_i < x_j, let
 * D = [A_i > A_j] - [B_i > B_j] and E = [A_i > B_j] - [B_i > A_j].  A permutation m (m_i = 1:
 * row i's scores swapped) gives the pair (i, j) the difference of discordances
 * dis(A') - dis(B') = (1 - m_i - m_j) D + (m_j - m_i) E (the four cases of (m_i, m_j)), so
 *     dis(A') - dis(B') = c0 + sum_i m_i w_i,   c0 = sum D,
 *     w_i = -sum_{j after i} (D_ij + E_ij) + sum_{j before i} (E_ji - D_ji):
 * linear in m, exact in integers.  Counted here once, by two Fenwick trees (A's and B's codes)
 * over the earlier x groups, then over the later ones.  tree: 2 (k + 1) values. */
static void swap_weights(Py_ssize_t n, const int64_t *gx, const int64_t *A, const int64_t *B,
                         int64_t k, int64_t *tree, int64_t *w, int64_t *c0) {
    int64_t *ta = tree, *tb = tree + k + 1, added = 0, c = 0;
    memset(tree, 0, (size_t)(2 * (k + 1)) * sizeof(int64_t));
    for (Py_ssize_t start = 0, end; start < n; start = end) {
        for (end = start; end < n && gx[end] == gx[start]; end++) {
            /* rows of earlier groups above A_j, above B_j: of A and of B */
            int64_t a_above_a = added - below(ta, A[end] + 1);
            int64_t b_above_b = added - below(tb, B[end] + 1);
            int64_t a_above_b = added - below(ta, B[end] + 1);
            int64_t b_above_a = added - below(tb, A[end] + 1);
            w[end] = (a_above_b - b_above_a) - (a_above_a - b_above_b);
        }
        for (Py_ssize_t j = start; j < end; j++) {
            add(ta, k, A[j]);
            add(tb, k, B[j]);
        }
        added += end - start;
    }
    memset(tree, 0, (size_t)(2 * (k + 1)) * sizeof(int64_t));
    for (Py_ssize_t end = n, start; end > 0; end = start) {
        for (start = end; start > 0 && gx[start - 1] == gx[end - 1]; start--) {
            Py_ssize_t j = start - 1; /* rows of later groups below A_j, below B_j */
            int64_t d = below(ta, A[j]) - below(tb, B[j]);
            int64_t e = below(tb, A[j]) - below(ta, B[j]);
            w[j] -= d + e;
            c += d;
        }
        for (Py_ssize_t j = start; j < end; j++) {
            add(ta, k, A[j]);
            add(tb, k, B[j]);
        }
    }
    *c0 = c;
}

/* swap_counts(gx, ca, cb, k, masks) -> bytes of samples x 2 x 5 int64.
 *
 * PERM-BOTH's permutations of one pair of metrics, both sides in one call: gx as in
 * tau_counts; ca and cb the n rows' y ranks (below k) of metrics A and B, in gx's order;
 * masks samples x n bytes, in gx's order (non-zero: the row's scores swapped).  Per sample
 * the counts of A' (cb where swapped, else ca), then those of B' (the other one): what
 * tau_counts gives for each permuted column, without building the columns in Python.  A' is
 * counted by counts(); B' shares tot and xtie, its ties are counted apart and its discordant
 * pairs are A''s less the swap weights' difference (swap_weights): one Fenwick walk a
 * sample instead of two. */
static PyObject *swap_counts(PyObject *self, PyObject *args) {
    PyObject *gx_o, *ca_o, *cb_o, *masks_o;
    long long k_ll;
    if (!PyArg_ParseTuple(args, "OOOLO", &gx_o, &ca_o, &cb_o, &k_ll, &masks_o)) return NULL;
    int64_t k = (int64_t)k_ll;
    if (k < 1) {
        PyErr_SetString(PyExc_ValueError, "k >= 1");
        return NULL;
    }
    Py_buffer gx = {0}, ca = {0}, cb = {0}, masks = {0};
    PyObject *result = NULL;
    int64_t *ya = NULL, *w = NULL, *tree = NULL;
    Work s = {0};
    if (get_buffer(gx_o, &gx, "gx") < 0) return NULL;
    if (get_buffer(ca_o, &ca, "ca") < 0) goto done;
    if (get_buffer(cb_o, &cb, "cb") < 0) goto done;
    if (PyObject_GetBuffer(masks_o, &masks, PyBUF_C_CONTIGUOUS) < 0) goto done;
    Py_ssize_t n = gx.len / 8;
    if (ca.len / 8 != n || cb.len / 8 != n || masks.itemsize != 1 || (n > 0 && masks.len % n != 0) ||
        (n == 0 && masks.len != 0)) {
        PyErr_SetString(PyExc_ValueError, "ca, cb: n values; masks: samples x n bytes (1 each)");
        goto done;
    }
    Py_ssize_t samples = n > 0 ? masks.len / n : 0;
    const int64_t *X = gx.buf, *A = ca.buf, *B = cb.buf;
    const unsigned char *M = masks.buf;
    for (Py_ssize_t j = 0; j < n; j++) {
        if ((j > 0 && X[j] < X[j - 1]) || A[j] < 0 || A[j] >= k || B[j] < 0 || B[j] >= k) {
            PyErr_SetString(PyExc_ValueError, "gx must not decrease; ca, cb below k");
            goto done;
        }
    }
    result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(samples * 10 * 8));
    ya = malloc((size_t)(2 * n + 1) * sizeof(int64_t)); /* A' then B' */
    w = malloc((size_t)(n + 1) * sizeof(int64_t));
    tree = malloc((size_t)(2 * (k + 1)) * sizeof(int64_t));
    if (!work_alloc(&s, k) || ya == NULL || w == NULL || tree == NULL || result == NULL) {
        Py_CLEAR(result);
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    int64_t *yb = ya + n, *out = (int64_t *)PyBytes_AS_STRING(result), c0 = 0;
    Py_BEGIN_ALLOW_THREADS
    swap_weights(n, X, A, B, k, tree, w, &c0);
    for (const unsigned char *m = M; m < M + samples * n; m += n, out += 10) {
        int64_t diff = c0;
        for (Py_ssize_t j = 0; j < n; j++) {
            int64_t swapped = m[j] != 0;
            ya[j] = swapped ? B[j] : A[j];
            yb[j] = swapped ? A[j] : B[j];
            diff += swapped * w[j];
        }
        counts(n, X, ya, NULL, k, &s, out);
        out[5] = out[0]; /* tot and xtie: x's alone */
        out[6] = out[1];
        ties(n, X, yb, k, &s, out + 7, out + 8);
        out[9] = out[4] - diff;
    }
    Py_END_ALLOW_THREADS
done:
    free(tree);
    free(w);
    free(ya);
    work_free(&s);
    if (masks.obj) PyBuffer_Release(&masks);
    if (cb.obj) PyBuffer_Release(&cb);
    if (ca.obj) PyBuffer_Release(&ca);
    PyBuffer_Release(&gx);
    return result;
}

/* spearman_sums(gx, gy, kx, ky, items, n_items, draws) -> bytes of samples x 6 int64.
 *
 * Spearman's rho on resamples of items, the exact part: gx, gy the n rows' dense ranks of x
 * and y (below kx, ky; any row order), items[row] below n_items, draws samples x d item
 * indices (a row counts as often as its item is drawn).  Per resample: L (its rows), how many
 * distinct x and y values it has, and four times the sums over its rows of the products of
 * the centred average ranks, xx, yy and xy.  An average rank is the weight of the smaller
 * values plus (its own weight + 1) / 2 (scipy.stats.rankdata), their mean (L + 1) / 2: twice
 * each is an integer, so the sums are exact integers (meteor.analysis.agreement_stats.
 * spearman_resamples does the float steps of numpy.corrcoef on them). */
static PyObject *spearman_sums(PyObject *self, PyObject *args) {
    PyObject *gx_o, *gy_o, *items_o, *draws_o;
    long long kx_ll, ky_ll, n_items_ll;
    if (!PyArg_ParseTuple(args, "OOLLOLO", &gx_o, &gy_o, &kx_ll, &ky_ll, &items_o, &n_items_ll,
                          &draws_o))
        return NULL;
    int64_t kx = (int64_t)kx_ll, ky = (int64_t)ky_ll, n_items = (int64_t)n_items_ll;
    if (kx < 1 || ky < 1 || n_items < 1) {
        PyErr_SetString(PyExc_ValueError, "kx, ky and n_items >= 1");
        return NULL;
    }
    Py_buffer gx = {0}, gy = {0}, items = {0}, draws = {0};
    PyObject *result = NULL;
    int64_t *weight = NULL, *per_item = NULL, *wx = NULL, *wy = NULL;
    if (get_buffer(gx_o, &gx, "gx") < 0) return NULL;
    if (get_buffer(gy_o, &gy, "gy") < 0) goto done;
    if (get_buffer(items_o, &items, "items") < 0) goto done;
    if (get_buffer(draws_o, &draws, "draws") < 0) goto done;
    Py_ssize_t n = gx.len / 8, total = draws.len / 8;
    if (gy.len / 8 != n || items.len / 8 != n) {
        PyErr_SetString(PyExc_ValueError, "gx, gy, items: n values each");
        goto done;
    }
    const int64_t *X = gx.buf, *Y = gy.buf, *I = items.buf, *D = draws.buf;
    for (Py_ssize_t j = 0; j < n; j++) {
        if (X[j] < 0 || X[j] >= kx || Y[j] < 0 || Y[j] >= ky || I[j] < 0 || I[j] >= n_items) {
            PyErr_SetString(PyExc_ValueError, "gx below kx, gy below ky, items below n_items");
            goto done;
        }
    }
    if (check_below(D, total, n_items, "draws below n_items") < 0) goto done;
    Py_ssize_t d = n_items, samples = total / d;
    if (samples * d != total) {
        PyErr_SetString(PyExc_ValueError, "draws: samples x n_items");
        goto done;
    }
    result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(samples * 6 * 8));
    weight = malloc((size_t)(n + 1) * sizeof(int64_t));
    per_item = malloc((size_t)n_items * sizeof(int64_t));
    wx = malloc((size_t)kx * sizeof(int64_t));
    wy = malloc((size_t)ky * sizeof(int64_t));
    if (result == NULL || !weight || !per_item || !wx || !wy) {
        Py_CLEAR(result);
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    int64_t *out = (int64_t *)PyBytes_AS_STRING(result);
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t b = 0; b < samples; b++, out += 6) {
        memset(per_item, 0, (size_t)n_items * sizeof(int64_t));
        memset(wx, 0, (size_t)kx * sizeof(int64_t));
        memset(wy, 0, (size_t)ky * sizeof(int64_t));
        for (Py_ssize_t t = 0; t < d; t++) per_item[D[b * d + t]]++;
        int64_t rows = 0;
        for (Py_ssize_t j = 0; j < n; j++) {
            weight[j] = per_item[I[j]];
            wx[X[j]] += weight[j];
            wy[Y[j]] += weight[j];
            rows += weight[j];
        }
        /* wx, wy become twice each value's centred average rank: 2 (below) + w + 1 - (L + 1) */
        int64_t xx = 0, yy = 0, xy = 0, distinct_x = 0, distinct_y = 0, below = 0;
        for (int64_t g = 0; g < kx; g++) {
            int64_t w = wx[g];
            distinct_x += w > 0;
            wx[g] = 2 * below + w - rows;
            xx += w * wx[g] * wx[g];
            below += w;
        }
        below = 0;
        for (int64_t g = 0; g < ky; g++) {
            int64_t w = wy[g];
            distinct_y += w > 0;
            wy[g] = 2 * below + w - rows;
            yy += w * wy[g] * wy[g];
            below += w;
        }
        for (Py_ssize_t j = 0; j < n; j++) xy += weight[j] * wx[X[j]] * wy[Y[j]];
        out[0] = rows;
        out[1] = distinct_x;
        out[2] = distinct_y;
        out[3] = xx;
        out[4] = yy;
        out[5] = xy;
    }
    Py_END_ALLOW_THREADS
done:
    free(wy);
    free(wx);
    free(per_item);
    free(weight);
    if (draws.obj) PyBuffer_Release(&draws);
    if (items.obj) PyBuffer_Release(&items);
    if (gy.obj) PyBuffer_Release(&gy);
    PyBuffer_Release(&gx);
    return result;
}

static PyMethodDef methods[] = {
    {"tau_counts", tau_counts, METH_VARARGS,
     "tau_counts(gx, gy, k, samples, items, n_items, draws) -> bytes: per sample the int64 "
     "counts (tot, xtie, ytie, ntie, dis) of scipy.stats.kendalltau."},
    {"swap_counts", swap_counts, METH_VARARGS,
     "swap_counts(gx, ca, cb, k, masks) -> bytes: per sample the tau_counts of the two "
     "columns of one PERM-BOTH permutation."},
    {"spearman_sums", spearman_sums, METH_VARARGS,
     "spearman_sums(gx, gy, kx, ky, items, n_items, draws) -> bytes: per resample of items "
     "the int64 (rows, distinct x, distinct y, 4 Sxx, 4 Syy, 4 Sxy) of its average ranks."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kendall", NULL, -1, methods};

/* API: the version of these functions the Python code asks for (meteor.runtime.PART_API):
 * 2 since swap_counts and spearman_sums. */
PyMODINIT_FUNC PyInit__kendall(void) {
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddIntConstant(m, "API", 2) < 0) Py_CLEAR(m);
    return m;
}
