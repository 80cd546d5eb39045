/* The search of _beam.c for sides of any length (a document pair of thousands of words).
 *
 * The same search as _beam_search.h (see _beam.c for what it transcribes), with word
 * sets of a width chosen at run time.  What makes long sides cheap:
 *
 *  - Java appends every successor of a step, sorts them stably and keeps the first
 *    `beam`; that equals keeping the `beam` smallest (key, insertion order) in a bounded
 *    heap, so a successor the beam would cut is ranked and dropped without being built
 *    (as meteor.aligners.beam._heap_step does in Python);
 *  - a successor is (parent, candidate) until it is kept: only the kept ones get word
 *    sets, the parent's copied with the candidate's span set, into the next generation's
 *    pool of `beam` slots;
 *  - a candidate's clash with a path's words is a test of the bits of its span, not of
 *    the whole set;
 *  - the chosen list is a merge (definite matches ascending, the path's choices
 *    descending by reference start), not an insertion sort.
 *
 * tests/unit/test_native.py compares it with the Python search and with the literal
 * transcription of Java's on short and on long lattices (beam_choice_wide takes any).
 */

typedef struct {
    int32_t hs, he, rs, re, nix, nle;
    int64_t gain, dist;
} WSpan;

typedef struct {
    int64_t key;
    int32_t seq, parent, cid, ix, le;
} WSucc;

typedef struct {
    int64_t key;
    int32_t ix, le, node, seq;
} WPath;

/* 1 if any bit of [start, end) is set in mask. */
static int range_used(const uint64_t *mask, int start, int end) {
    int first = start >> 6, last = (end - 1) >> 6;
    for (int k = first; k <= last; k++) {
        uint64_t bits = ~(uint64_t)0;
        if (k == first) bits &= ~(uint64_t)0 << (start & 63);
        if (k == last && (end & 63)) bits &= ~(uint64_t)0 >> (64 - (end & 63));
        if (mask[k] & bits) return 1;
    }
    return 0;
}

static void range_set(uint64_t *mask, int start, int end) {
    for (int i = start; i < end; i++) mask[i >> 6] |= (uint64_t)1 << (i & 63);
}

/* (key, seq) order: a before b. */
static int succ_before(const WSucc *a, const WSucc *b) {
    return a->key < b->key || (a->key == b->key && a->seq < b->seq);
}

/* Max-heap on (key, seq) of at most cap entries: the kept successors, worst on top. */
static void heap_sift_down(WSucc *heap, int n, int at) {
    for (;;) {
        int big = at, l = 2 * at + 1, r = l + 1;
        if (l < n && succ_before(&heap[big], &heap[l])) big = l;
        if (r < n && succ_before(&heap[big], &heap[r])) big = r;
        if (big == at) return;
        WSucc t = heap[at];
        heap[at] = heap[big];
        heap[big] = t;
        at = big;
    }
}

static void offer(WSucc *heap, int *n, int cap, const WSucc *s) {
    if (*n < cap) {
        int at = (*n)++;
        heap[at] = *s;
        while (at > 0) {
            int up = (at - 1) / 2;
            if (!succ_before(&heap[up], &heap[at])) break;
            WSucc t = heap[at];
            heap[at] = heap[up];
            heap[up] = t;
            at = up;
        }
    } else if (succ_before(s, &heap[0])) { /* later seq: only a smaller key gets in */
        heap[0] = *s;
        heap_sift_down(heap, *n, 0);
    }
}

static int cmp_succ(const void *a, const void *b) {
    const WSucc *p = a, *q = b;
    return succ_before(p, q) ? -1 : succ_before(q, p);
}

static int cmp_wpath(const void *a, const void *b) {
    const WPath *p = a, *q = b;
    if (p->key != q->key) return p->key < q->key ? -1 : 1;
    return p->seq < q->seq ? -1 : (p->seq > q->seq);
}

/* The chosen candidate indices (a new list), None when the pair is not a lattice this
 * search knows or its key would not fit in 62 bits, NULL with an exception set. */
static PyObject *search_wide(int n_hyp, int n_ref, PyObject *seq, Py_ssize_t n, int beam_size,
                             PyObject *exact) {
    PyObject *result = NULL;
    WSpan *spans = NULL;
    int32_t *row_start = NULL, *row_cids = NULL, *fill = NULL, *definite = NULL;
    int32_t *cov_h = NULL, *cov_r = NULL, *chosen = NULL;
    uint64_t *pool = NULL, *next_pool = NULL;
    WPath *paths = NULL, *next_paths = NULL;
    WSucc *heap = NULL;
    Nodes nodes = {NULL, NULL, 0, 0};
    int lattice_ok = 1;
    uint64_t total_dist = 0;
    int longest = n_hyp > n_ref ? n_hyp : n_ref;
    int words = (longest + 63) / 64; /* 64-bit words per side's set */
    int beam = beam_size;
    if (words < 1) words = 1;
    size_t slot = 2 * (size_t)words; /* a path's hypothesis set, then its reference set */

    spans = calloc((size_t)(n ? n : 1), sizeof(WSpan));
    row_start = calloc((size_t)n_ref + 1, sizeof(int32_t));
    row_cids = calloc((size_t)(n ? n : 1), sizeof(int32_t));
    fill = calloc((size_t)n_ref + 1, sizeof(int32_t));
    definite = malloc(((size_t)n_ref + 1) * sizeof(int32_t));
    cov_h = calloc((size_t)n_hyp + 1, sizeof(int32_t));
    cov_r = calloc((size_t)n_ref + 1, sizeof(int32_t));
    pool = calloc((size_t)beam * slot, sizeof(uint64_t));
    next_pool = calloc((size_t)beam * slot, sizeof(uint64_t));
    paths = malloc((size_t)beam * sizeof(WPath));
    next_paths = malloc((size_t)beam * sizeof(WPath));
    heap = malloc((size_t)beam * sizeof(WSucc));
    if (!spans || !row_start || !row_cids || !fill || !definite || !cov_h || !cov_r || !pool ||
        !next_pool || !paths || !next_paths || !heap)
        goto nomem;

    /* Parse the candidates: (module, hs, he, rs, re, ...). */
    for (Py_ssize_t c = 0; c < n; c++) {
        Cand cd;
        int ok = read_cand(PySequence_Fast_GET_ITEM(seq, c), n_hyp, n_ref, exact, &cd);
        if (ok < 0) goto done;
        if (!ok) {
            lattice_ok = 0;
            break;
        }
        long hs = cd.hs, he = cd.he, rs = cd.rs, re = cd.re;
        WSpan *s = &spans[c];
        s->hs = (int32_t)hs;
        s->he = (int32_t)he;
        s->rs = (int32_t)rs;
        s->re = (int32_t)re;
        s->nix = (int32_t)re;
        s->nle = (int32_t)he;
        s->gain = cd.gain;
        s->dist = cd.dist;
        total_dist += (uint64_t)s->dist;
        row_start[rs + 1]++;
        for (long i = hs; i < he; i++) cov_h[i]++;
        for (long j = rs; j < re; j++) cov_r[j]++;
    }
    if (!lattice_ok) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }

    /* key = (max_cov - cov) * cov_unit + chunks * chunk_unit + distance */
    int chunk_bits = bit_length(total_dist + 1);
    int cov_shift = chunk_bits + bit_length((uint64_t)n_ref + 2);
    int64_t max_cov = 2 * ((int64_t)n_hyp + n_ref) + 2;
    if (cov_shift + bit_length((uint64_t)max_cov) + 1 > 62) {
        result = Py_None; /* would not fit: Python's integers do */
        Py_INCREF(result);
        goto done;
    }
    int64_t chunk_unit = (int64_t)1 << chunk_bits;
    int64_t cov_unit = (int64_t)1 << cov_shift;
    for (Py_ssize_t c = 0; c < n; c++) spans[c].gain *= cov_unit;

    /* Lattice: candidate ids per reference start, in insertion order. */
    for (int j = 0; j < n_ref; j++) row_start[j + 1] += row_start[j];
    for (Py_ssize_t c = 0; c < n; c++) {
        int rs = spans[c].rs;
        row_cids[row_start[rs] + fill[rs]++] = (int32_t)c;
    }

    /* Definite matches (Aligner.java:199-218): the first path's word sets. */
    uint64_t *uh0 = pool, *ur0 = pool + words;
    for (int j = 0; j < n_ref; j++) {
        definite[j] = -1;
        if (row_start[j + 1] - row_start[j] != 1) continue;
        int32_t cid = row_cids[row_start[j]];
        const WSpan *s = &spans[cid];
        int ok = 1;
        for (int k = s->rs; ok && k < s->re; k++) ok = cov_r[k] == 1;
        for (int k = s->hs; ok && k < s->he; k++) ok = cov_h[k] == 1;
        if (ok) {
            definite[j] = cid;
            range_set(uh0, s->hs, s->he);
            range_set(ur0, s->rs, s->re);
        }
    }
    paths[0] = (WPath){max_cov * cov_unit, 0, -1, -1, 0};
    int np = 1;

    for (int current = 0; current < n_ref; current++) {
        /* paths are sorted by (key, insertion order) and at most beam: Java's sort and cut */
        const int32_t *row = row_cids + row_start[current];
        int32_t n_row = row_start[current + 1] - row_start[current];
        int nh = 0;
        int32_t order = 0;
        for (int p = 0; p < np; p++) {
            const WPath *path = &paths[p];
            const uint64_t *uh = pool + (size_t)p * slot, *ur = uh + words;
            WSucc s;
            s.parent = p;
            s.cid = -1;
            if (ur[current >> 6] & ((uint64_t)1 << (current & 63))) {
                if (current < path->ix) {
                    s.key = path->key;
                    s.ix = path->ix;
                    s.le = path->le;
                } else {
                    int32_t fixed = definite[path->ix];
                    if (fixed < 0) continue; /* Java drops the path */
                    const WSpan *f = &spans[fixed];
                    s.key = path->key + f->dist - f->gain +
                            ((path->le != -1 && f->hs != path->le) ? chunk_unit : 0);
                    s.ix = f->nix;
                    s.le = f->nle;
                }
                s.seq = order++;
                offer(heap, &nh, beam, &s);
                continue;
            }
            int64_t key = path->key;
            int32_t le = path->le;
            for (int32_t k = 0; k < n_row; k++) {
                int32_t cid = row[k];
                const WSpan *c = &spans[cid];
                if (range_used(uh, c->hs, c->he) || range_used(ur, c->rs, c->re)) continue;
                s.key = key - c->gain + ((le != -1 && c->hs != le) ? chunk_unit : 0);
                s.cid = cid;
                s.ix = c->nix;
                s.le = c->nle;
                s.seq = order++;
                offer(heap, &nh, beam, &s);
                key += c->dist; /* quirk 2: the distance goes to the parent */
            }
            if (le != -1) key += chunk_unit; /* the skip path closes its chunk */
            s.key = key;
            s.cid = -1;
            s.ix = path->ix + 1;
            s.le = -1;
            s.seq = order++;
            offer(heap, &nh, beam, &s);
        }
        if (nh == 0) { /* "unexpected conditions": keep the best path */
            if (np > 1) np = 1;
            continue;
        }
        /* Build the kept successors, best first, into the next generation. */
        qsort(heap, (size_t)nh, sizeof(WSucc), cmp_succ);
        for (int k = 0; k < nh; k++) {
            const WSucc *s = &heap[k];
            uint64_t *to = next_pool + (size_t)k * slot;
            memcpy(to, pool + (size_t)s->parent * slot, slot * sizeof(uint64_t));
            int32_t node = paths[s->parent].node;
            if (s->cid >= 0) {
                const WSpan *c = &spans[s->cid];
                range_set(to, c->hs, c->he);
                range_set(to + words, c->rs, c->re);
                node = add_node(&nodes, s->cid, node);
                if (node < 0) goto nomem;
            }
            next_paths[k] = (WPath){s->key, s->ix, s->le, node, 0};
        }
        WPath *tp = paths;
        paths = next_paths;
        next_paths = tp;
        uint64_t *tm = pool;
        pool = next_pool;
        next_pool = tm;
        np = nh;
    }
    /* last step: close the open chunk of every path in the beam, sort again (stable) */
    for (int p = 0; p < np; p++) {
        paths[p].seq = p;
        if (paths[p].le != -1) paths[p].key += chunk_unit;
    }
    qsort(paths, (size_t)np, sizeof(WPath), cmp_wpath);

    /* chosen: definite matches (ascending reference start) merged with the best path's
     * choices (last first: descending), stably by reference start */
    Py_ssize_t n_def = 0, n_path = 0;
    for (int j = 0; j < n_ref; j++) n_def += definite[j] >= 0;
    for (int32_t node = paths[0].node; node >= 0; node = nodes.next[node]) n_path++;
    Py_ssize_t total = n_def + n_path;
    chosen = malloc((size_t)(total + 1) * sizeof(int32_t));
    if (!chosen) goto nomem;
    Py_ssize_t m = 0;
    for (int j = 0; j < n_ref; j++)
        if (definite[j] >= 0) chosen[m++] = definite[j];
    for (int32_t node = paths[0].node; node >= 0; node = nodes.next[node])
        chosen[--total] = nodes.cid[node]; /* filled from the end: ascending */
    total = n_def + n_path;
    result = PyList_New(total);
    if (!result) goto done;
    Py_ssize_t a = 0, b = n_def, out = 0;
    while (out < total) {
        int32_t c;
        if (b >= total || (a < n_def && spans[chosen[a]].rs <= spans[chosen[b]].rs))
            c = chosen[a++];
        else
            c = chosen[b++];
        PyObject *v = PyLong_FromLong(c);
        if (!v) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, out++, v);
    }
    goto done;

nomem:
    PyErr_NoMemory();
done:
    free(spans);
    free(row_start);
    free(row_cids);
    free(fill);
    free(definite);
    free(cov_h);
    free(cov_r);
    free(chosen);
    free(pool);
    free(next_pool);
    free(paths);
    free(next_paths);
    free(heap);
    free(nodes.cid);
    free(nodes.next);
    return result;
}
