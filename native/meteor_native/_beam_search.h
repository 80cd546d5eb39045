/* The search of _beam.c for word sets of W 64-bit words (sides of at most 64·W words).
 *
 * Included once per width by _beam.c, with W and the names SUFFIXED(x) defined; W is a
 * compile-time constant, so the loops over mask words unroll and the one-word search
 * is the plain 64-bit one.  See _beam.c for what the search is a transcription of.
 */

typedef struct {
    int64_t key;
    uint64_t uh[W], ur[W];
    int32_t ix, le, node;
} SUFFIXED(Path);

typedef struct {
    int32_t hs, rs, nix, nle;
    uint64_t mh[W], mr[W];
    int64_t gain, dist;
} SUFFIXED(Span);

static void SUFFIXED(set_range)(uint64_t *mask, int start, int end) {
    for (int k = 0; k < W; k++) mask[k] = 0;
    for (int i = start; i < end; i++) mask[i >> 6] |= (uint64_t)1 << (i & 63);
}

static int SUFFIXED(overlaps)(const uint64_t *a, const uint64_t *b) {
    uint64_t any = 0;
    for (int k = 0; k < W; k++) any |= a[k] & b[k];
    return any != 0;
}

static void SUFFIXED(or_into)(uint64_t *into, const uint64_t *a, const uint64_t *b) {
    for (int k = 0; k < W; k++) into[k] = a[k] | b[k];
}

/* What sorting the paths needs: the ranks and the paths in their new order. */
typedef struct {
    Ranked *rank, *tmp;
    Py_ssize_t rank_cap, tmp_cap;
    SUFFIXED(Path) *spare;
    Py_ssize_t spare_cap;
} SUFFIXED(Sorter);

/* Sorts *paths (*np of them) stably by key (Collections.sort) and keeps the first
 * `keep`: the kept paths end up in the sorter's spare buffer, which is swapped with
 * *paths.  -1 when out of memory. */
static int SUFFIXED(sort_paths)(SUFFIXED(Sorter) *so, SUFFIXED(Path) **paths, Py_ssize_t *cap,
                                Py_ssize_t *np, Py_ssize_t keep) {
    Py_ssize_t n = *np;
    if (reserve((void **)&so->rank, &so->rank_cap, n, sizeof(Ranked)) < 0 ||
        reserve((void **)&so->tmp, &so->tmp_cap, n, sizeof(Ranked)) < 0)
        return -1;
    const SUFFIXED(Path) *p = *paths;
    for (Py_ssize_t k = 0; k < n; k++) {
        so->rank[k].key = p[k].key;
        so->rank[k].idx = (int32_t)k;
    }
    rank_stable(so->rank, so->tmp, n);
    if (keep > n) keep = n;
    if (reserve((void **)&so->spare, &so->spare_cap, keep ? keep : 1, sizeof(SUFFIXED(Path))) < 0)
        return -1;
    for (Py_ssize_t k = 0; k < keep; k++) so->spare[k] = p[so->rank[k].idx];
    SUFFIXED(Path) *t = *paths;
    *paths = so->spare;
    so->spare = t;
    Py_ssize_t c = *cap;
    *cap = so->spare_cap;
    so->spare_cap = c;
    *np = keep;
    return 0;
}

static int SUFFIXED(grow)(SUFFIXED(Path) **buf, Py_ssize_t *cap) {
    Py_ssize_t c = *cap ? 2 * *cap : 256;
    SUFFIXED(Path) *b = realloc(*buf, (size_t)c * sizeof(SUFFIXED(Path)));
    if (!b) return -1;
    *buf = b;
    *cap = c;
    return 0;
}

static inline int SUFFIXED(push)(SUFFIXED(Path) **buf, Py_ssize_t *len, Py_ssize_t *cap,
                                 const SUFFIXED(Path) *p) {
    if (*len == *cap && SUFFIXED(grow)(buf, cap) < 0) return -1;
    (*buf)[(*len)++] = *p;
    return 0;
}

/* The search over n candidates (checked spans of this pair): 1 with *chosen_out (malloc'd,
 * the caller frees it) holding the chosen candidate indices in reference order and
 * *n_out their number; 0 when the key would not fit in 62 bits (the caller runs the
 * Python search); -1 with an exception set. */
static int SUFFIXED(search)(int n_hyp, int n_ref, const Cand *cands, Py_ssize_t n,
                            int beam_size, int32_t **chosen_out, Py_ssize_t *n_out) {
    typedef SUFFIXED(Path) Path;
    typedef SUFFIXED(Span) Span;
    int result = -1;
    Span *spans = NULL;
    int32_t *row_start = NULL, *row_cids = NULL, *fill = NULL, *definite = NULL;
    int32_t *chosen = NULL;
    Path *paths = NULL, *nxt = NULL;
    Py_ssize_t np = 0, pcap = 0, nn = 0, ncap = 0;
    Nodes nodes = {NULL, NULL, 0, 0};
    SUFFIXED(Sorter) so = {NULL, NULL, 0, 0, NULL, 0};
    int cov_h[64 * W] = {0}, cov_r[64 * W] = {0};
    uint64_t total_dist = 0;

    spans = calloc((size_t)(n ? n : 1), sizeof(Span));
    row_start = calloc((size_t)n_ref + 1, sizeof(int32_t));
    row_cids = calloc((size_t)(n ? n : 1), sizeof(int32_t));
    fill = calloc((size_t)n_ref + 1, sizeof(int32_t));
    definite = malloc(((size_t)n_ref + 1) * sizeof(int32_t));
    if (!spans || !row_start || !row_cids || !fill || !definite) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t c = 0; c < n; c++) {
        const Cand *cd = &cands[c];
        long hs = cd->hs, he = cd->he, rs = cd->rs, re = cd->re;
        Span *s = &spans[c];
        s->hs = (int32_t)hs;
        s->rs = (int32_t)rs;
        s->nix = (int32_t)re;
        s->nle = (int32_t)he;
        SUFFIXED(set_range)(s->mh, (int)hs, (int)he);
        SUFFIXED(set_range)(s->mr, (int)rs, (int)re);
        s->gain = cd->gain;
        s->dist = cd->dist;
        total_dist += (uint64_t)s->dist;
        row_start[rs + 1]++;
        for (long i = hs; i < he; i++) cov_h[i]++;
        for (long j = rs; j < re; j++) cov_r[j]++;
    }

    /* key = (max_cov - cov) * cov_unit + chunks * chunk_unit + distance */
    int chunk_bits = bit_length(total_dist + 1);
    int cov_shift = chunk_bits + bit_length((uint64_t)n_ref + 2);
    int64_t max_cov = 2 * ((int64_t)n_hyp + n_ref) + 2;
    if (cov_shift + bit_length((uint64_t)max_cov) + 1 > 62) {
        result = 0; /* would not fit: Python's integers do */
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

    /* Definite matches (Aligner.java:199-218). */
    Path first = {max_cov * cov_unit, {0}, {0}, 0, -1, -1};
    for (int j = 0; j < n_ref; j++) {
        definite[j] = -1;
        if (row_start[j + 1] - row_start[j] != 1) continue;
        int32_t cid = row_cids[row_start[j]];
        const Span *s = &spans[cid];
        int ok = 1;
        for (int k = s->rs; ok && k < s->nix; k++) ok = cov_r[k] == 1;
        for (int k = s->hs; ok && k < s->nle; k++) ok = cov_h[k] == 1;
        if (ok) {
            definite[j] = cid;
            SUFFIXED(or_into)(first.uh, first.uh, s->mh);
            SUFFIXED(or_into)(first.ur, first.ur, s->mr);
        }
    }

    if (SUFFIXED(push)(&paths, &np, &pcap, &first) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    for (int current = 0; current < n_ref; current++) {
        if (np > 1 && SUFFIXED(sort_paths)(&so, &paths, &pcap, &np, beam_size) < 0) goto nomem;
        uint64_t bit = (uint64_t)1 << (current & 63);
        int word = current >> 6;
        const int32_t *row = row_cids + row_start[current];
        int32_t n_row = row_start[current + 1] - row_start[current];
        nn = 0;
        for (Py_ssize_t p = 0; p < np; p++) {
            Path path = paths[p];
            if (path.ur[word] & bit) {
                if (current < path.ix) {
                    if (SUFFIXED(push)(&nxt, &nn, &ncap, &path) < 0) goto nomem;
                    continue;
                }
                int32_t fixed = definite[path.ix];
                if (fixed < 0) continue; /* Java drops the path */
                const Span *s = &spans[fixed];
                path.key += s->dist - s->gain + ((path.le != -1 && s->hs != path.le) ? chunk_unit : 0);
                path.ix = s->nix;
                path.le = s->nle;
                if (SUFFIXED(push)(&nxt, &nn, &ncap, &path) < 0) goto nomem;
                continue;
            }
            int64_t key = path.key;
            int32_t le = path.le;
            for (int32_t k = 0; k < n_row; k++) {
                int32_t cid = row[k];
                const Span *s = &spans[cid];
                if (SUFFIXED(overlaps)(path.uh, s->mh) || SUFFIXED(overlaps)(path.ur, s->mr)) continue;
                int32_t node = add_node(&nodes, cid, path.node);
                if (node < 0) goto nomem;
                Path child;
                child.key = key - s->gain + ((le != -1 && s->hs != le) ? chunk_unit : 0);
                SUFFIXED(or_into)(child.uh, path.uh, s->mh);
                SUFFIXED(or_into)(child.ur, path.ur, s->mr);
                child.ix = s->nix;
                child.le = s->nle;
                child.node = node;
                if (SUFFIXED(push)(&nxt, &nn, &ncap, &child) < 0) goto nomem;
                key += s->dist; /* quirk 2: the distance goes to the parent */
            }
            if (le != -1) { /* the skip path closes its chunk */
                key += chunk_unit;
                path.le = -1;
            }
            path.key = key;
            path.ix += 1;
            if (SUFFIXED(push)(&nxt, &nn, &ncap, &path) < 0) goto nomem;
        }
        if (nn == 0) { /* "unexpected conditions": keep the best path */
            if (SUFFIXED(push)(&nxt, &nn, &ncap, &paths[0]) < 0) goto nomem;
        }
        Path *tmp = paths;
        paths = nxt;
        nxt = tmp;
        Py_ssize_t tc = pcap;
        pcap = ncap;
        ncap = tc;
        np = nn;
    }
    /* last step: close the open chunk of every path in the beam */
    if (SUFFIXED(sort_paths)(&so, &paths, &pcap, &np, beam_size) < 0) goto nomem;
    for (Py_ssize_t p = 0; p < np; p++)
        if (paths[p].le != -1) paths[p].key += chunk_unit;
    if (SUFFIXED(sort_paths)(&so, &paths, &pcap, &np, beam_size) < 0) goto nomem;

    /* chosen: definite matches in reference order, then the best path's choices
     * (last first), stably sorted by reference start */
    Py_ssize_t n_chosen = 0;
    for (int j = 0; j < n_ref; j++) n_chosen += definite[j] >= 0;
    for (int32_t node = paths[0].node; node >= 0; node = nodes.next[node]) n_chosen++;
    chosen = malloc((size_t)(n_chosen ? n_chosen : 1) * sizeof(int32_t));
    if (!chosen) goto nomem;
    Py_ssize_t m = 0;
    for (int j = 0; j < n_ref; j++)
        if (definite[j] >= 0) chosen[m++] = definite[j];
    for (int32_t node = paths[0].node; node >= 0; node = nodes.next[node]) chosen[m++] = nodes.cid[node];
    /* stable insertion sort by reference start (at most one entry per word of a side) */
    for (Py_ssize_t a = 1; a < m; a++) {
        int32_t c = chosen[a];
        int32_t r = spans[c].rs;
        Py_ssize_t b = a - 1;
        while (b >= 0 && spans[chosen[b]].rs > r) {
            chosen[b + 1] = chosen[b];
            b--;
        }
        chosen[b + 1] = c;
    }
    *chosen_out = chosen;
    *n_out = m;
    chosen = NULL;
    result = 1;
    goto done;

nomem:
    PyErr_NoMemory();
done:
    free(spans);
    free(row_start);
    free(row_cids);
    free(fill);
    free(definite);
    free(chosen);
    free(paths);
    free(nxt);
    free(nodes.cid);
    free(nodes.next);
    free(so.rank);
    free(so.tmp);
    free(so.spare);
    return result;
}
