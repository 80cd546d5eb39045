/* nltk 3.10.4's METEOR alignment (_enum_align_words of nltk/translate/meteor_score.py):
 * three greedy stages on what the earlier ones left -- exact forms, Porter stems, WordNet
 * synonyms of the stems -- each taking hypothesis words right to left and giving each the
 * highest still-unused reference position whose key is equal (in the synonym stage: the
 * highest over the word's synonym names, the first name reaching it winning ties).
 *
 * A C transcription of meteor.aligners.greedy.nltk_candidates (the pure-Python reference,
 * which runs when this module is not installed or METEOR_PURE_PYTHON is set): the same
 * candidate tuples, in the same order (by reference position).  Stems and synonym names
 * come from the caller's functions, so their caches stay the caller's.  Every equal-key
 * look-up goes through one dict per stage (key -> the highest free reference entry with
 * that key) and a chain to the next lower one, so a stage costs O(n + m) look-ups instead
 * of Python's lists of tuples.  tests/unit/test_native_greedy.py compares the two.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_stats_tuple.h"

/* The words a stage works on: their positions in the sentence and their keys (owned). */
typedef struct {
    Py_ssize_t n;
    Py_ssize_t *pos;
    PyObject **key;
} Entries;

static int entries_alloc(Entries *e, Py_ssize_t n) {
    e->n = 0;
    e->pos = PyMem_Calloc(n ? n : 1, sizeof(Py_ssize_t));
    e->key = PyMem_Calloc(n ? n : 1, sizeof(PyObject *));
    if (e->pos == NULL || e->key == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void entries_free(Entries *e) {
    if (e->key != NULL)
        for (Py_ssize_t k = 0; k < e->n; k++) Py_XDECREF(e->key[k]);
    PyMem_Free(e->pos);
    PyMem_Free(e->key);
    e->pos = NULL;
    e->key = NULL;
    e->n = 0;
}

/* Free reference entries by key: slot_of[key] -> slot; top[slot] is the highest free entry
 * with that key (-1: none left), below[k] the next lower entry with the key of entry k. */
typedef struct {
    PyObject *slot_of;
    Py_ssize_t *top, *below;
    Py_ssize_t slots; /* distinct keys */
} FreeRefs;

static int free_refs_build(FreeRefs *f, const Entries *ref) {
    f->slot_of = PyDict_New();
    f->top = PyMem_Calloc(ref->n ? ref->n : 1, sizeof(Py_ssize_t));
    f->below = PyMem_Calloc(ref->n ? ref->n : 1, sizeof(Py_ssize_t));
    if (f->slot_of == NULL || f->top == NULL || f->below == NULL) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t slots = 0;
    for (Py_ssize_t k = 0; k < ref->n; k++) {
        PyObject *s = PyDict_GetItemWithError(f->slot_of, ref->key[k]);
        if (s == NULL) {
            if (PyErr_Occurred()) return -1;
            PyObject *num = PyLong_FromSsize_t(slots);
            if (num == NULL) return -1;
            int bad = PyDict_SetItem(f->slot_of, ref->key[k], num);
            Py_DECREF(num);
            if (bad) return -1;
            f->below[k] = -1;
            f->top[slots++] = k;
        } else {
            Py_ssize_t slot = PyLong_AsSsize_t(s);
            f->below[k] = f->top[slot];
            f->top[slot] = k;
        }
    }
    f->slots = slots;
    return 0;
}

static void free_refs_free(FreeRefs *f) {
    Py_XDECREF(f->slot_of);
    PyMem_Free(f->top);
    PyMem_Free(f->below);
    f->slot_of = NULL;
    f->top = f->below = NULL;
}

/* The slot of key (-1: no free reference entry ever had it; -2: an error). */
static Py_ssize_t slot_of(const FreeRefs *f, PyObject *key) {
    PyObject *s = PyDict_GetItemWithError(f->slot_of, key);
    if (s == NULL) return PyErr_Occurred() ? -2 : -1;
    return PyLong_AsSsize_t(s);
}

/* One greedy stage on equal keys (nltk _match_enums): hyp_to[i] = the reference entry hyp
 * entry i took, or -1.  ref_used[k] is set for each entry taken. */
static int greedy(const Entries *hyp, const Entries *ref, Py_ssize_t *hyp_to, char *ref_used) {
    FreeRefs f;
    int rc = free_refs_build(&f, ref);
    for (Py_ssize_t i = hyp->n - 1; rc == 0 && i >= 0; i--) {
        hyp_to[i] = -1;
        Py_ssize_t slot = slot_of(&f, hyp->key[i]);
        if (slot == -2) rc = -1;
        if (slot < 0 || f.top[slot] < 0) continue;
        Py_ssize_t k = f.top[slot];
        f.top[slot] = f.below[k];
        hyp_to[i] = k;
        ref_used[k] = 1;
    }
    free_refs_free(&f);
    return rc;
}

/* The entries of `from` that no match took, with new keys: key(word) for each (a new
 * reference), or the old key when key is NULL. */
static int leftovers(Entries *out, const Entries *from, const char *taken, PyObject *words,
                     PyObject *key) {
    if (entries_alloc(out, from->n)) return -1;
    for (Py_ssize_t k = 0; k < from->n; k++) {
        if (taken[k]) continue;
        PyObject *newkey;
        if (key == NULL)
            newkey = Py_NewRef(from->key[k]);
        else
            newkey = PyObject_CallOneArg(key, PyList_GET_ITEM(words, from->pos[k]));
        if (newkey == NULL) return -1;
        out->pos[out->n] = from->pos[k];
        out->key[out->n++] = newkey;
    }
    return 0;
}

/* What each reference position got: its module (0 exact, 1 stem, 2 synonym; -1 none), the
 * hypothesis position and the detail string (owned). */
typedef struct {
    int *module;
    Py_ssize_t *hyp;
    PyObject **detail;
} Chosen;

/* The synonym stage (nltk _enum_wordnetsyn_match) on the stems left by the stem stage. */
static int synonym_stage(const Entries *hyp, const Entries *ref, PyObject *hyp_words,
                         PyObject *ref_words, PyObject *cache, PyObject *synonyms,
                         PyObject *explain, Chosen *out) {
    FreeRefs f;
    int rc = free_refs_build(&f, ref);
    for (Py_ssize_t i = hyp->n - 1; rc == 0 && i >= 0; i--) {
        PyObject *hkey = hyp->key[i];
        PyObject *syns = NULL;
        if (cache != Py_None) {
            syns = PyDict_GetItemWithError(cache, hkey);
            if (syns == NULL && PyErr_Occurred()) { rc = -1; break; }
            Py_XINCREF(syns);
        }
        if (syns == NULL) syns = PyObject_CallOneArg(synonyms, hkey);
        if (syns == NULL) { rc = -1; break; }
        if (!PyDict_Check(syns)) {
            PyErr_SetString(PyExc_TypeError, "synonyms(key) must return a dict");
            Py_DECREF(syns);
            rc = -1;
            break;
        }
        /* The highest free reference entry whose key is a synonym name or the stem itself
         * (distinct keys have distinct entries: the order of the names cannot matter).
         * Found from the smaller side: each name looked up among the free keys, or each
         * free key's top entry looked up among the names. */
        Py_ssize_t best_k = -1, best_slot = -1, at = 0;
        PyObject *name, *value, *best_key = NULL;
        if (PyDict_GET_SIZE(syns) < f.slots) {
            int last = 0;
            while (!last) {
                if (!PyDict_Next(syns, &at, &name, &value)) { name = hkey; last = 1; }
                Py_ssize_t slot = slot_of(&f, name);
                if (slot == -2) { rc = -1; break; }
                if (slot >= 0 && f.top[slot] > best_k) {
                    best_k = f.top[slot];
                    best_slot = slot;
                    best_key = name;
                }
            }
        } else {
            for (Py_ssize_t slot = 0; slot < f.slots; slot++) {
                Py_ssize_t k = f.top[slot];
                if (k <= best_k) continue;
                PyObject *key = ref->key[k];
                int hit = PyDict_Contains(syns, key);
                if (hit == 0) hit = PyObject_RichCompareBool(key, hkey, Py_EQ);
                if (hit < 0) { rc = -1; break; }
                if (hit) {
                    best_k = k;
                    best_slot = slot;
                    best_key = key;
                }
            }
        }
        if (rc == 0 && best_k >= 0) {
            f.top[best_slot] = f.below[best_k];
            Py_ssize_t h = hyp->pos[i], r = ref->pos[best_k];
            PyObject *detail = PyObject_CallFunctionObjArgs(
                explain, PyList_GET_ITEM(hyp_words, h), hkey, PyList_GET_ITEM(ref_words, r),
                best_key, syns, NULL);
            if (detail == NULL) rc = -1;
            else {
                out->module[r] = 2;
                out->hyp[r] = h;
                out->detail[r] = detail;
            }
        }
        Py_DECREF(syns);
    }
    free_refs_free(&f);
    return rc;
}

/* Record the matches of a greedy stage: detail = prefix + key of the hypothesis entry. */
static int record(const Entries *hyp, const Entries *ref, const Py_ssize_t *hyp_to, int module,
                  PyObject *prefix, Chosen *out) {
    for (Py_ssize_t i = 0; i < hyp->n; i++) {
        if (hyp_to[i] < 0) continue;
        Py_ssize_t r = ref->pos[hyp_to[i]];
        PyObject *key = hyp->key[i];
        PyObject *detail = PyUnicode_CheckExact(key) ? PyUnicode_Concat(prefix, key)
                                                     : PyUnicode_FromFormat("%U%S", prefix, key);
        if (detail == NULL) return -1;
        out->module[r] = module;
        out->hyp[r] = hyp->pos[i];
        out->detail[r] = detail;
    }
    return 0;
}

static int check_words(PyObject *words, const char *side) {
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(words); k++)
        if (!PyUnicode_Check(PyList_GET_ITEM(words, k))) {
            PyErr_Format(PyExc_TypeError, "%s word %zd is not a str", side, k);
            return -1;
        }
    return 0;
}

/* The three stages on two lists of words (exact str): what each reference position got,
 * in out (module[j] = -1 where nothing).  out's arrays hold len(ref_words) entries. */
static int align_words(PyObject *hyp_words, PyObject *ref_words, PyObject *stem,
                       PyObject *cache, PyObject *synonyms, PyObject *exact_prefix,
                       PyObject *stem_prefix, PyObject *explain, Chosen *out) {
    Py_ssize_t n = PyList_GET_SIZE(hyp_words), m = PyList_GET_SIZE(ref_words);
    Entries h0 = {0}, r0 = {0}, h1 = {0}, r1 = {0}, h2 = {0}, r2 = {0};
    int rc = -1;
    Py_ssize_t *hyp_to = PyMem_Calloc(n ? n : 1, sizeof(Py_ssize_t));
    char *h_taken = PyMem_Calloc(n ? n : 1, 1), *r_taken = PyMem_Calloc(m ? m : 1, 1);
    if (hyp_to == NULL || h_taken == NULL || r_taken == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t j = 0; j < m; j++) out->module[j] = -1;
    if (entries_alloc(&h0, n) || entries_alloc(&r0, m)) goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        h0.pos[i] = i;
        h0.key[i] = Py_NewRef(PyList_GET_ITEM(hyp_words, i));
    }
    h0.n = n;
    for (Py_ssize_t j = 0; j < m; j++) {
        r0.pos[j] = j;
        r0.key[j] = Py_NewRef(PyList_GET_ITEM(ref_words, j));
    }
    r0.n = m;

    /* Stage 1: exact forms. */
    if (greedy(&h0, &r0, hyp_to, r_taken)) goto done;
    for (Py_ssize_t i = 0; i < n; i++) h_taken[i] = hyp_to[i] >= 0;
    if (record(&h0, &r0, hyp_to, 0, exact_prefix, out)) goto done;

    /* Stage 2: Porter stems of what is left (nltk stems both sides; with one side empty
     * nothing can match, and the stems are not needed). */
    Py_ssize_t free_h = 0, free_r = 0;
    for (Py_ssize_t i = 0; i < n; i++) free_h += !h_taken[i];
    for (Py_ssize_t j = 0; j < m; j++) free_r += !r_taken[j];
    if (free_h == 0 || free_r == 0) {
        rc = 0;
        goto done;
    }
    if (leftovers(&h1, &h0, h_taken, hyp_words, stem) ||
        leftovers(&r1, &r0, r_taken, ref_words, stem))
        goto done;
    memset(h_taken, 0, n ? n : 1);
    memset(r_taken, 0, m ? m : 1);
    if (greedy(&h1, &r1, hyp_to, r_taken)) goto done;
    for (Py_ssize_t i = 0; i < h1.n; i++) h_taken[i] = hyp_to[i] >= 0;
    if (record(&h1, &r1, hyp_to, 1, stem_prefix, out)) goto done;

    /* Stage 3: WordNet synonyms of the hypothesis stems, against the reference stems. */
    if (leftovers(&h2, &h1, h_taken, NULL, NULL) || leftovers(&r2, &r1, r_taken, NULL, NULL))
        goto done;
    if (h2.n && r2.n &&
        synonym_stage(&h2, &r2, hyp_words, ref_words, cache, synonyms, explain, out))
        goto done;
    rc = 0;

done:
    entries_free(&h0);
    entries_free(&r0);
    entries_free(&h1);
    entries_free(&r1);
    entries_free(&h2);
    entries_free(&r2);
    PyMem_Free(hyp_to);
    PyMem_Free(h_taken);
    PyMem_Free(r_taken);
    return rc;
}

static int chosen_alloc(Chosen *out, Py_ssize_t m) {
    out->module = PyMem_Calloc(m ? m : 1, sizeof(int));
    out->hyp = PyMem_Calloc(m ? m : 1, sizeof(Py_ssize_t));
    out->detail = PyMem_Calloc(m ? m : 1, sizeof(PyObject *));
    if (out->module == NULL || out->hyp == NULL || out->detail == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void chosen_free(Chosen *out, Py_ssize_t m) {
    if (out->detail != NULL)
        for (Py_ssize_t j = 0; j < m; j++) Py_XDECREF(out->detail[j]);
    PyMem_Free(out->module);
    PyMem_Free(out->hyp);
    PyMem_Free(out->detail);
}

static int check_cache_modules(PyObject *cache, PyObject *modules) {
    if (PyTuple_GET_SIZE(modules) != 3) {
        PyErr_SetString(PyExc_ValueError, "modules must be (exact, stem, synonym)");
        return -1;
    }
    if (cache != Py_None && !PyDict_Check(cache)) {
        PyErr_SetString(PyExc_TypeError, "cache must be a dict or None");
        return -1;
    }
    return 0;
}

static PyObject *nltk_align(PyObject *self, PyObject *args) {
    PyObject *hyp_words, *ref_words, *stem, *cache, *synonyms, *modules, *exact_prefix,
        *stem_prefix, *explain;
    if (!PyArg_ParseTuple(args, "O!O!OOOO!UUO:nltk_align", &PyList_Type, &hyp_words,
                          &PyList_Type, &ref_words, &stem, &cache, &synonyms, &PyTuple_Type,
                          &modules, &exact_prefix, &stem_prefix, &explain))
        return NULL;
    if (check_cache_modules(cache, modules)) return NULL;
    if (check_words(hyp_words, "hypothesis") || check_words(ref_words, "reference")) return NULL;
    Py_ssize_t m = PyList_GET_SIZE(ref_words);
    Chosen out = {NULL, NULL, NULL};
    PyObject *result = NULL;
    if (chosen_alloc(&out, m) ||
        align_words(hyp_words, ref_words, stem, cache, synonyms, exact_prefix, stem_prefix,
                    explain, &out))
        goto done;
    result = PyList_New(0);
    if (result == NULL) goto done;
    for (Py_ssize_t j = 0; j < m; j++) {
        if (out.module[j] < 0) continue;
        Py_ssize_t i = out.hyp[j];
        PyObject *c = Py_BuildValue("(OnnnnOO)", PyTuple_GET_ITEM(modules, out.module[j]), i,
                                    i + 1, j, j + 1, out.detail[j], Py_None);
        if (c == NULL || PyList_Append(result, c)) {
            Py_XDECREF(c);
            Py_CLEAR(result);
            goto done;
        }
        Py_DECREF(c);
    }

done:
    chosen_free(&out, m);
    return result;
}

/* The words of a tuple of Token records (their `text`, each an exact str) and their
 * `function_word` flags (0/1). */
static PyObject *token_words(PyObject *tokens, const char *side, char **flags) {
    static PyObject *text_name = NULL, *fw_name = NULL;
    if (text_name == NULL) {
        text_name = PyUnicode_InternFromString("text");
        fw_name = PyUnicode_InternFromString("function_word");
        if (text_name == NULL || fw_name == NULL) return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(tokens);
    PyObject *words = PyList_New(n);
    *flags = PyMem_Calloc(n ? n : 1, 1);
    if (words == NULL || *flags == NULL) {
        Py_XDECREF(words);
        if (!PyErr_Occurred()) PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *tok = PyTuple_GET_ITEM(tokens, k);
        PyObject *text = PyObject_GetAttr(tok, text_name);
        if (text == NULL) goto bad;
        PyList_SET_ITEM(words, k, text);
        if (!PyUnicode_CheckExact(text)) {
            PyErr_Format(PyExc_TypeError, "%s token %zd's text is not a str", side, k);
            goto bad;
        }
        PyObject *fw = PyObject_GetAttr(tok, fw_name);
        if (fw == NULL) goto bad;
        int truth = PyObject_IsTrue(fw);
        Py_DECREF(fw);
        if (truth < 0) goto bad;
        (*flags)[k] = (char)truth;
    }
    return words;
bad:
    Py_DECREF(words);
    return NULL;
}

/* The chosen matches packed as meteor.match_tuples.pack_raw packs them (positions as
 * native 32-bit integers, the modules, the interned details, no similarities). */
static PyObject *packed_matches(const Chosen *out, Py_ssize_t m, PyObject *modules) {
    Py_ssize_t count = 0;
    for (Py_ssize_t j = 0; j < m; j++) count += out->module[j] >= 0;
    PyObject *flat = PyBytes_FromStringAndSize(NULL, 16 * count);
    PyObject *mods = PyTuple_New(count), *details = PyTuple_New(count);
    PyObject *packed = NULL;
    if (flat == NULL || mods == NULL || details == NULL) goto done;
    int32_t *pos = (int32_t *)PyBytes_AS_STRING(flat);
    Py_ssize_t c = 0;
    for (Py_ssize_t j = 0; j < m; j++) {
        if (out->module[j] < 0) continue;
        if (out->hyp[j] > INT32_MAX - 1 || j > INT32_MAX - 1) {
            PyErr_SetString(PyExc_OverflowError, "a position does not fit 32 bits");
            goto done;
        }
        pos[4 * c] = (int32_t)out->hyp[j];
        pos[4 * c + 1] = (int32_t)out->hyp[j] + 1;
        pos[4 * c + 2] = (int32_t)j;
        pos[4 * c + 3] = (int32_t)j + 1;
        PyTuple_SET_ITEM(mods, c, Py_NewRef(PyTuple_GET_ITEM(modules, out->module[j])));
        PyObject *detail = Py_NewRef(out->detail[j]);
        if (PyUnicode_CheckExact(detail)) PyUnicode_InternInPlace(&detail);
        PyTuple_SET_ITEM(details, c, detail);
        c++;
    }
    int any_detail = 0;
    for (Py_ssize_t k = 0; k < count && !any_detail; k++) {
        int truth = PyObject_IsTrue(PyTuple_GET_ITEM(details, k));
        if (truth < 0) goto done;
        any_detail = truth;
    }
    if (!any_detail) { /* pack_raw: () when every detail is "" (or there is no match) */
        Py_DECREF(details);
        details = PyTuple_New(0);
        if (details == NULL) goto done;
    }
    packed = Py_BuildValue("(OOO())", flat, mods, details);
done:
    Py_XDECREF(flat);
    Py_XDECREF(mods);
    Py_XDECREF(details);
    return packed;
}

static PyObject *nltk_pair(PyObject *self, PyObject *args) {
    PyObject *hyp_tokens, *ref_tokens, *stem, *cache, *synonyms, *modules, *exact_prefix,
        *stem_prefix, *explain;
    Py_ssize_t slot[3], width;
    if (!PyArg_ParseTuple(args, "O!O!OOOO!UUO(nnn)n:nltk_pair", &PyTuple_Type, &hyp_tokens,
                          &PyTuple_Type, &ref_tokens, &stem, &cache, &synonyms, &PyTuple_Type,
                          &modules, &exact_prefix, &stem_prefix, &explain, &slot[0], &slot[1],
                          &slot[2], &width))
        return NULL;
    if (check_cache_modules(cache, modules)) return NULL;
    if (check_slots(slot, 3, width)) return NULL;
    char *fh = NULL, *fr = NULL;
    Py_ssize_t *counts = NULL;
    Chosen out = {NULL, NULL, NULL};
    PyObject *result = NULL, *hyp_words = NULL, *ref_words = NULL, *packed = NULL;
    Py_ssize_t m = PyTuple_GET_SIZE(ref_tokens);
    hyp_words = token_words(hyp_tokens, "hypothesis", &fh);
    if (hyp_words == NULL) goto done;
    ref_words = token_words(ref_tokens, "reference", &fr);
    if (ref_words == NULL) goto done;
    if (chosen_alloc(&out, m) ||
        align_words(hyp_words, ref_words, stem, cache, synonyms, exact_prefix, stem_prefix,
                    explain, &out))
        goto done;
    packed = packed_matches(&out, m, modules);
    if (packed == NULL) goto done;
    /* meteor.scoring.stats_from_raw on the matches in reference order. */
    counts = PyMem_Calloc(4 * width, sizeof(Py_ssize_t));
    if (counts == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t *hc = counts, *rc = counts + width, *hf = counts + 2 * width,
               *rf = counts + 3 * width;
    Py_ssize_t n_h = PyTuple_GET_SIZE(hyp_tokens), fw_h = 0, fw_r = 0, matched = 0, chunks = 0;
    Py_ssize_t prev_he = -1, prev_re = -1;
    for (Py_ssize_t i = 0; i < n_h; i++) fw_h += fh[i];
    for (Py_ssize_t j = 0; j < m; j++) fw_r += fr[j];
    for (Py_ssize_t j = 0; j < m; j++) {
        if (out.module[j] < 0) continue;
        Py_ssize_t i = out.hyp[j], k = slot[out.module[j]];
        hf[k] += fh[i];
        hc[k] += 1 - fh[i];
        rf[k] += fr[j];
        rc[k] += 1 - fr[j];
        matched++;
        if (j != prev_re || i != prev_he) chunks++; /* meteor.types.chunk_starts */
        prev_he = i + 1;
        prev_re = j + 1;
    }
    Py_ssize_t lengths[4] = {n_h, m, fw_h, fw_r};
    result = stats_tuple(packed, lengths, counts, width, chunks, matched, matched);

done:
    chosen_free(&out, m);
    PyMem_Free(fh);
    PyMem_Free(fr);
    PyMem_Free(counts);
    Py_XDECREF(hyp_words);
    Py_XDECREF(ref_words);
    Py_XDECREF(packed);
    return result;
}

static PyMethodDef methods[] = {
    {"nltk_align", nltk_align, METH_VARARGS,
     "nltk_align(hyp, ref, stem, cache, synonyms, modules, exact_prefix, stem_prefix, explain)\n"
     "-> list of (module, i, i + 1, j, j + 1, detail, None) by reference position\n\n"
     "nltk 3.10.4's greedy exact / stem / synonym alignment of two lists of lowercased words.\n"
     "stem(word) gives a stem; synonyms(stem) a dict whose keys are its synonym names\n"
     "(cache: a dict of those already known, or None); modules the three module values;\n"
     "an exact match's detail is exact_prefix + word, a stem match's stem_prefix + stem,\n"
     "a synonym match's explain(hyp_word, hyp_stem, ref_word, ref_stem, synonyms)."},
    {"nltk_pair", nltk_pair, METH_VARARGS,
     "nltk_pair(hyp_tokens, ref_tokens, stem, cache, synonyms, modules, exact_prefix,\n"
     "          stem_prefix, explain, slots, width)\n"
     "-> (packed, hyp_len, ref_len, hyp_function_words, ref_function_words,\n"
     "    (hyp_content, ref_content, hyp_function, ref_function), chunks, hyp_matches,\n"
     "    ref_matches)\n\n"
     "nltk_align on the texts of two tuples of Token records, its matches packed as\n"
     "meteor.match_tuples.pack_raw packs them and counted as meteor.scoring.stats_from_raw\n"
     "counts them (each module's counts at its slot of slots, vectors of width entries)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "meteor_native._greedy",
    "nltk's greedy METEOR alignment in C (meteor.aligners.greedy has the same stages in Python).",
    -1, methods, NULL, NULL, NULL, NULL,
};

/* API: the version of these functions the Python code asks for (meteor.runtime.PART_API):
 * 2 since nltk_pair. */
PyMODINIT_FUNC PyInit__greedy(void) {
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddIntConstant(m, "API", 2) < 0) Py_CLEAR(m);
    return m;
}
