/* One sentence pair's candidates, alignment and statistics in one call (pair_stats),
 * included by _beam.c after the searches.
 *
 * The candidates of Meteor 1.5's matchers, in the order Aligner.java adds them to its
 * lattice, made from integer arrays each sentence keeps once
 * (meteor.aligners.beam.pack_sentence) instead of one Python tuple each:
 *   exact      ExactMatcher.java: equal word keys (String.hashCode), reference outer;
 *   stem       StemMatcher.java: equal stem keys, different word keys;
 *   synonym    SynonymMatcher.java: intersecting synsets (sorted ids per word; the
 *              smallest shared one names the match), different word keys;
 *   paraphrase ParaphraseMatcher.java:31-101: each record walked from the reference
 *              whose B phrase occurs in the hypothesis (each start ascending), then the
 *              same from the hypothesis.
 * The Python stages (meteor/stages/) are the reference: tests/unit/test_native.py holds
 * this to them.  Then the narrow search of _beam_search.h chooses; the chosen matches
 * are packed and counted, with no Python tuple per match. */

enum { MOD_EXACT = 0, MOD_STEM = 1, MOD_SYNONYM = 2, MOD_PARAPHRASE = 3, N_PACK = 5 };

/* One side: its arrays, read from its pack; keys, stem_keys, syn_off and syn_ids are
 * owned (free_side). */
typedef struct {
    Py_ssize_t n, n_occ, n_wants, n_occ_pos;
    int32_t occ_base; /* occ_off[0]: the offsets count from it */
    int32_t *keys, *stem_keys, *syn_off;
    int64_t *syn_ids;
    const int32_t *occ_pids, *occ_off, *occ_pos, *wants;
} Side;

static void free_side(Side *s) {
    free(s->keys);
    free(s->stem_keys);
    free(s->syn_off);
    free(s->syn_ids);
}

typedef struct {
    Cand *c;
    uint8_t *mod;
    int64_t *extra;
    Py_ssize_t n, cap;
} CandBuf;

static int cb_add(CandBuf *b, int mod, long hs, long he, long rs, long re, int64_t extra) {
    if (b->n == b->cap) {
        Py_ssize_t cap = b->cap ? 2 * b->cap : 128;
        Cand *c = realloc(b->c, (size_t)cap * sizeof(Cand));
        if (!c) return -1;
        b->c = c;
        uint8_t *m = realloc(b->mod, (size_t)cap);
        if (!m) return -1;
        b->mod = m;
        int64_t *x = realloc(b->extra, (size_t)cap * sizeof(int64_t));
        if (!x) return -1;
        b->extra = x;
        b->cap = cap;
    }
    Cand *c = &b->c[b->n];
    c->hs = hs;
    c->he = he;
    c->rs = rs;
    c->re = re;
    c->gain = mod == MOD_EXACT ? (he - hs) + (re - rs) : (he - hs) / 2 + (re - rs) / 2;
    c->dist = rs > hs ? rs - hs : hs - rs;
    b->mod[b->n] = (uint8_t)mod;
    b->extra[b->n] = extra;
    b->n++;
    return 0;
}

static int bad_pack(const char *what) {
    PyErr_Format(PyExc_ValueError, "a sentence pack %s", what);
    return 0;
}

/* The side's arrays from its pack: (one bytes per word: int32 key, int32 stem key, then
 * its synsets ascending as int64; the sentence's phrases that occur, ascending, int32;
 * the offsets of their starts, int32, one more, counted from the first; the starts,
 * int32; the wanted records,
 * 4 int32 each).  1, or 0 with an exception set (a malformed pack). */
static int read_side(PyObject *pack, Side *s) {
    memset(s, 0, sizeof(Side));
    if (!PyTuple_Check(pack) || PyTuple_GET_SIZE(pack) != N_PACK ||
        !PyTuple_Check(PyTuple_GET_ITEM(pack, 0))) {
        PyErr_SetString(PyExc_TypeError, "a sentence pack is a tuple (word records, 4 bytes)");
        return 0;
    }
    const char *p[N_PACK];
    Py_ssize_t len[N_PACK];
    for (int k = 1; k < N_PACK; k++) {
        PyObject *b = PyTuple_GET_ITEM(pack, k);
        if (!PyBytes_Check(b)) {
            PyErr_SetString(PyExc_TypeError, "a sentence pack is a tuple (word records, 4 bytes)");
            return 0;
        }
        p[k] = PyBytes_AS_STRING(b);
        len[k] = PyBytes_GET_SIZE(b);
    }
    PyObject *words = PyTuple_GET_ITEM(pack, 0);
    Py_ssize_t n = PyTuple_GET_SIZE(words), n_ids = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *w = PyTuple_GET_ITEM(words, i);
        if (!PyBytes_Check(w) || PyBytes_GET_SIZE(w) < 8 || PyBytes_GET_SIZE(w) % 8)
            return bad_pack("word record is not 8 bytes and 8 per synset");
        n_ids += PyBytes_GET_SIZE(w) / 8 - 1;
    }
    s->n = n;
    s->keys = malloc((size_t)(n ? n : 1) * sizeof(int32_t));
    s->stem_keys = malloc((size_t)(n ? n : 1) * sizeof(int32_t));
    s->syn_off = malloc((size_t)(n + 1) * sizeof(int32_t));
    s->syn_ids = malloc((size_t)(n_ids ? n_ids : 1) * sizeof(int64_t));
    if (!s->keys || !s->stem_keys || !s->syn_off || !s->syn_ids) {
        PyErr_NoMemory();
        return 0;
    }
    Py_ssize_t at = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *w = PyTuple_GET_ITEM(words, i);
        const char *b = PyBytes_AS_STRING(w);
        Py_ssize_t k = PyBytes_GET_SIZE(w) / 8 - 1;
        memcpy(&s->keys[i], b, 4);
        memcpy(&s->stem_keys[i], b + 4, 4);
        s->syn_off[i] = (int32_t)at;
        if (k) memcpy(&s->syn_ids[at], b + 8, (size_t)k * 8);
        for (Py_ssize_t x = 1; x < k; x++)
            if (s->syn_ids[at + x - 1] >= s->syn_ids[at + x]) return bad_pack("synset list is not ascending");
        at += k;
    }
    s->syn_off[n] = (int32_t)at;
    s->occ_pids = (const int32_t *)p[1];
    s->n_occ = len[1] / 4;
    s->occ_off = (const int32_t *)p[2];
    s->occ_pos = (const int32_t *)p[3];
    s->n_occ_pos = len[3] / 4;
    s->wants = (const int32_t *)p[4];
    s->n_wants = len[4] / 16;
    if (len[1] % 4 || len[2] % 4 || len[3] % 4 || len[4] % 16 ||
        len[2] / 4 != (s->n_occ ? s->n_occ + 1 : 0))
        return bad_pack("has arrays that disagree in length");
    if (s->n_occ && s->occ_off[s->n_occ] - s->occ_off[0] != s->n_occ_pos)
        return bad_pack("has phrase offsets that are not its starts'");
    s->occ_base = s->n_occ ? s->occ_off[0] : 0;
    for (Py_ssize_t k = 0; k < s->n_occ; k++)
        if (s->occ_off[k] > s->occ_off[k + 1] || (k && s->occ_pids[k - 1] >= s->occ_pids[k]))
            return bad_pack("has phrases that are not sorted");
    return 1;
}

/* Index of phrase `pid` in the side's sorted phrase ids, -1 when it does not occur. */
static Py_ssize_t find_phrase(const Side *s, int32_t pid) {
    Py_ssize_t lo = 0, hi = s->n_occ;
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        if (s->occ_pids[mid] < pid) lo = mid + 1;
        else hi = mid;
    }
    return lo < s->n_occ && s->occ_pids[lo] == pid ? lo : -1;
}

/* One paraphrase direction: every record of `from` (walk order) whose B phrase occurs in
 * `to`, each of its starts there ascending.  from_ref: `from` is the reference side.
 * 1, or -1 when out of memory, or 0 when the limit is passed. */
static int paraphrase_dir(CandBuf *b, const Side *from, const Side *to, int from_ref,
                          Py_ssize_t limit) {
    if (!to->n_occ) return 1;
    for (Py_ssize_t r = 0; r < from->n_wants; r++) {
        const int32_t *w = from->wants + 4 * r;
        long start = w[0], len = w[1], blen = w[3];
        Py_ssize_t at = find_phrase(to, w[2]);
        if (at < 0) continue;
        for (int32_t k = to->occ_off[at] - to->occ_base; k < to->occ_off[at + 1] - to->occ_base; k++) {
            long other = to->occ_pos[k];
            long hs = from_ref ? other : start, hl = from_ref ? blen : len;
            long rs = from_ref ? start : other, rl = from_ref ? len : blen;
            if (hs < 0 || rs < 0 || hl < 1 || rl < 1) return -2;
            if (cb_add(b, MOD_PARAPHRASE, hs, hs + hl, rs, rs + rl, 0) < 0) return -1;
            if (b->n > limit) return 0;
        }
    }
    return 1;
}

/* Every requested stage's candidates, in stage order.  1; 0 when the limit is passed;
 * -1 out of memory; -2 a span outside the pair (a bad pack). */
static int pair_candidates(CandBuf *b, const Side *h, const Side *r, const char *mods,
                           Py_ssize_t n_mods, Py_ssize_t limit) {
    long nh = (long)h->n, nr = (long)r->n;
    for (Py_ssize_t s = 0; s < n_mods; s++) {
        switch (mods[s]) {
        case MOD_EXACT:
            for (long j = 0; j < nr; j++)
                for (long i = 0; i < nh; i++)
                    if (h->keys[i] == r->keys[j]) {
                        if (cb_add(b, MOD_EXACT, i, i + 1, j, j + 1, 0) < 0) return -1;
                        if (b->n > limit) return 0;
                    }
            break;
        case MOD_STEM:
            for (long j = 0; j < nr; j++)
                for (long i = 0; i < nh; i++)
                    if (h->stem_keys[i] == r->stem_keys[j] && h->keys[i] != r->keys[j]) {
                        if (cb_add(b, MOD_STEM, i, i + 1, j, j + 1, 0) < 0) return -1;
                        if (b->n > limit) return 0;
                    }
            break;
        case MOD_SYNONYM:
            for (long j = 0; j < nr; j++) {
                const int64_t *rb = r->syn_ids + r->syn_off[j], *re = r->syn_ids + r->syn_off[j + 1];
                if (rb == re) continue;
                for (long i = 0; i < nh; i++) {
                    const int64_t *hb = h->syn_ids + h->syn_off[i];
                    const int64_t *he = h->syn_ids + h->syn_off[i + 1];
                    if (hb == he || h->keys[i] == r->keys[j]) continue;
                    const int64_t *x = rb, *y = hb; /* the smallest shared id, if any */
                    while (x < re && y < he && *x != *y) {
                        if (*x < *y) x++;
                        else y++;
                    }
                    if (x < re && y < he) {
                        if (cb_add(b, MOD_SYNONYM, i, i + 1, j, j + 1, *x) < 0) return -1;
                        if (b->n > limit) return 0;
                    }
                }
            }
            break;
        case MOD_PARAPHRASE: {
            int got = paraphrase_dir(b, r, h, 1, limit);
            if (got == 1) got = paraphrase_dir(b, h, r, 0, limit);
            if (got != 1) return got;
            break;
        }
        default:
            return -2;
        }
    }
    for (Py_ssize_t c = 0; c < b->n; c++)
        if (b->c[c].he > nh || b->c[c].re > nr) return -2;
    return 1;
}

/* The pair's sides read from their packs, its candidates and the narrow search: 1 with
 * *chosen (m indices, reference order) and the sides and candidates filled, the caller then
 * frees them (pair_free); 0 when the caller returns None (over the limit, a side over
 * NARROW_WORDS words, a key over 62 bits); -1 with an exception set. */
static int pair_search(PyObject *hpack, PyObject *rpack, const char *mods, Py_ssize_t n_mods,
                       int beam_size, Py_ssize_t limit, Side *h, Side *r, CandBuf *b,
                       int32_t **chosen, Py_ssize_t *m) {
    memset(h, 0, sizeof(Side));
    memset(r, 0, sizeof(Side));
    memset(b, 0, sizeof(CandBuf));
    *chosen = NULL;
    *m = 0;
    if (!read_side(hpack, h) || !read_side(rpack, r)) return -1;
    if (h->n > NARROW_WORDS || r->n > NARROW_WORDS || beam_size < 1) return 0;
    int got = pair_candidates(b, h, r, mods, n_mods, limit);
    if (got == 1) got = search_narrow((int)h->n, (int)r->n, b->c, b->n, beam_size, chosen, m);
    if (got == -1) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        return -1;
    }
    if (got == -2) {
        PyErr_SetString(PyExc_ValueError, "a sentence pack does not fit its pair");
        return -1;
    }
    return got; /* 0: over the limit, or a key over 62 bits: the Python path decides */
}

static void pair_free(Side *h, Side *r, CandBuf *b, int32_t *chosen) {
    free(chosen);
    free_side(h);
    free_side(r);
    free(b->c);
    free(b->mod);
    free(b->extra);
}

static int check_modules(PyObject *modules, PyObject *details) {
    if (!PyTuple_Check(modules) || PyTuple_GET_SIZE(modules) != 4 || !PyTuple_Check(details) ||
        PyTuple_GET_SIZE(details) != 4) {
        PyErr_SetString(PyExc_TypeError, "modules and details are tuples of 4");
        return -1;
    }
    return 0;
}

/* The `function_word` flags (0/1) of a tuple of n Token records into flags. */
static int token_flags(PyObject *tokens, Py_ssize_t n, char *flags, const char *side) {
    static PyObject *fw_name = NULL;
    if (fw_name == NULL && (fw_name = PyUnicode_InternFromString("function_word")) == NULL)
        return -1;
    if (!PyTuple_Check(tokens) || PyTuple_GET_SIZE(tokens) != n) {
        PyErr_Format(PyExc_ValueError, "the %s tokens are not a tuple as long as its pack", side);
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *fw = PyObject_GetAttr(PyTuple_GET_ITEM(tokens, k), fw_name);
        if (fw == NULL) return -1;
        int truth = PyObject_IsTrue(fw);
        Py_DECREF(fw);
        if (truth < 0) return -1;
        flags[k] = (char)truth;
    }
    return 0;
}

/* The detail string of chosen match k, interned when it is an exact str (as
 * meteor.match_tuples.pack_raw keeps it): exact's and paraphrase's as given, stem's
 * details[1](stem_arg, ref_start), synonym's details[2](synset). */
static PyObject *chosen_detail(const CandBuf *b, int32_t k, PyObject *details, PyObject *stem_arg) {
    int mod = b->mod[k];
    PyObject *detail;
    if (mod == MOD_STEM)
        detail = PyObject_CallFunction(PyTuple_GET_ITEM(details, mod), "Ol", stem_arg, b->c[k].rs);
    else if (mod == MOD_SYNONYM)
        detail = PyObject_CallFunction(PyTuple_GET_ITEM(details, mod), "L", (long long)b->extra[k]);
    else
        detail = Py_NewRef(PyTuple_GET_ITEM(details, mod));
    if (detail != NULL && PyUnicode_CheckExact(detail)) PyUnicode_InternInPlace(&detail);
    return detail;
}

/* The chosen matches packed (meteor.match_tuples.pack_raw) and counted
 * (meteor.scoring.stats_from_raw): the tuple pair_stats returns. */
static PyObject *packed_stats(const CandBuf *b, const int32_t *chosen, Py_ssize_t m,
                              const char *fh, Py_ssize_t n_h, const char *fr, Py_ssize_t n_r,
                              PyObject *modules, PyObject *details, PyObject *stem_arg,
                              const Py_ssize_t *slot, Py_ssize_t width) {
    PyObject *flat = PyBytes_FromStringAndSize(NULL, 16 * m);
    PyObject *mods = PyTuple_New(m), *dets = PyTuple_New(m), *packed = NULL, *result = NULL;
    Py_ssize_t *counts = PyMem_Calloc(4 * (size_t)width, sizeof(Py_ssize_t));
    if (flat == NULL || mods == NULL || dets == NULL || counts == NULL) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    int32_t *pos = (int32_t *)PyBytes_AS_STRING(flat);
    Py_ssize_t *hc = counts, *rc = counts + width, *hf = counts + 2 * width, *rf = counts + 3 * width;
    Py_ssize_t fw_h = 0, fw_r = 0, hm = 0, rm = 0, chunks = 0, prev_he = -1, prev_re = -1;
    int any_detail = 0;
    for (Py_ssize_t i = 0; i < n_h; i++) fw_h += fh[i];
    for (Py_ssize_t j = 0; j < n_r; j++) fw_r += fr[j];
    for (Py_ssize_t a = 0; a < m; a++) {
        const Cand *c = &b->c[chosen[a]];
        int mod = b->mod[chosen[a]];
        pos[4 * a] = (int32_t)c->hs;
        pos[4 * a + 1] = (int32_t)c->he;
        pos[4 * a + 2] = (int32_t)c->rs;
        pos[4 * a + 3] = (int32_t)c->re;
        PyTuple_SET_ITEM(mods, a, Py_NewRef(PyTuple_GET_ITEM(modules, mod)));
        PyObject *detail = chosen_detail(b, chosen[a], details, stem_arg);
        if (detail == NULL) goto done;
        PyTuple_SET_ITEM(dets, a, detail);
        if (!any_detail && (any_detail = PyObject_IsTrue(detail)) < 0) goto done;
        Py_ssize_t k = slot[mod], f = 0;
        for (long i = c->hs; i < c->he; i++) f += fh[i];
        hf[k] += f;
        hc[k] += (c->he - c->hs) - f;
        f = 0;
        for (long j = c->rs; j < c->re; j++) f += fr[j];
        rf[k] += f;
        rc[k] += (c->re - c->rs) - f;
        hm += c->he - c->hs;
        rm += c->re - c->rs;
        if (c->rs != prev_re || c->hs != prev_he) chunks++; /* meteor.types.chunk_starts */
        prev_he = c->he;
        prev_re = c->re;
    }
    if (!any_detail) { /* pack_raw: () when every detail is "" (or there is no match) */
        Py_SETREF(dets, PyTuple_New(0));
        if (dets == NULL) goto done;
    }
    if ((packed = Py_BuildValue("(OOO())", flat, mods, dets)) == NULL) goto done;
    Py_ssize_t lengths[4] = {n_h, n_r, fw_h, fw_r};
    result = stats_tuple(packed, lengths, counts, width, chunks, hm, rm);
done:
    Py_XDECREF(flat);
    Py_XDECREF(mods);
    Py_XDECREF(dets);
    Py_XDECREF(packed);
    PyMem_Free(counts);
    return result;
}

static PyObject *pair_stats(PyObject *self, PyObject *args) {
    PyObject *hpack, *rpack, *modules, *details, *stem_arg, *hyp_tokens, *ref_tokens;
    const char *mods;
    Py_ssize_t n_mods, limit, slot[4], width;
    int beam_size;
    if (!PyArg_ParseTuple(args, "OOy#inOOOOO(nnnn)n:pair_stats", &hpack, &rpack, &mods, &n_mods,
                          &beam_size, &limit, &modules, &details, &stem_arg, &hyp_tokens,
                          &ref_tokens, &slot[0], &slot[1], &slot[2], &slot[3], &width))
        return NULL;
    if (check_modules(modules, details)) return NULL;
    if (check_slots(slot, 4, width)) return NULL;
    Side h, r;
    CandBuf b;
    int32_t *chosen;
    Py_ssize_t m;
    PyObject *result = NULL;
    char *fh = NULL, *fr = NULL;
    int got = pair_search(hpack, rpack, mods, n_mods, beam_size, limit, &h, &r, &b, &chosen, &m);
    if (got == 0) {
        result = Py_NewRef(Py_None);
    } else if (got == 1) {
        fh = PyMem_Calloc(h.n ? h.n : 1, 1);
        fr = PyMem_Calloc(r.n ? r.n : 1, 1);
        if (fh == NULL || fr == NULL)
            PyErr_NoMemory();
        else if (!token_flags(hyp_tokens, h.n, fh, "hypothesis") &&
                 !token_flags(ref_tokens, r.n, fr, "reference"))
            result = packed_stats(&b, chosen, m, fh, h.n, fr, r.n, modules, details, stem_arg,
                                  slot, width);
    }
    PyMem_Free(fh);
    PyMem_Free(fr);
    pair_free(&h, &r, &b, chosen);
    return result;
}
