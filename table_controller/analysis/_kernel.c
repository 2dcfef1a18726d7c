/* The double-dummy solver's search in C (issue 21): table_controller/analysis/solver.py.
 *
 * The same algorithm as the pure-Python search in solver.py (`_Search.play`, `close`,
 * `trick_start`, `moves`, `child`, `line`), written out in C: the same nodes, in the same
 * order, the same memo (hands with relative ranks at trick starts, and the leader), the same
 * touching-card grouping, the same shallow max^n pruning and the same tie rules.  So the
 * results are identical, and so is the node count (the tests check both).  The Python side
 * still builds the outcome tables (who gets what, the keys a player maximises), checks the
 * position and makes the Verdict; this module only searches.
 *
 * Cards are bits 0-51 of a uint64, suit-major (spades, hearts, diamonds, clubs), 2 to ace
 * (the index into FULL_DECK).  Outcomes are small ints indexing the Python side's tables.
 *
 * Why C: the Raspberry Pi that serves the broadcast overlay should solve a deal from its
 * first trick in well under a millisecond; CPython needs ~2 us a node (25,000 nodes for a
 * hard deal).  Plain C99 and the CPython API, no dependency; built by setuptools at install
 * (pyproject.toml), and when it is not built solver.py runs its own search.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TRICKS 5
#define MAXP 4
#define MAXO 16
#define MAXLINE 32
#define NEG (-(INT64_C(1) << 60))

static const uint64_t SUIT[4] = {
    UINT64_C(0x1FFF), UINT64_C(0x1FFF) << 13, UINT64_C(0x1FFF) << 26, UINT64_C(0x1FFF) << 39};
#define TWOS (UINT64_C(1) | UINT64_C(1) << 13 | UINT64_C(1) << 26 | UINT64_C(1) << 39)

/* A trick being played: its cards, and kept as they come, the led suit, the Chicago
 * player's card if she led (else -1), and the best card so far that can take the trick
 * (w, wc; -1 while none can: a dead hand's card, or on the last trick a sm2019 revoker's). */
typedef struct {
    int p[MAXP];
    int c[MAXP];
    int n, last, led, cc, w, wc;
    int no;         /* the trick's number, 1-5 */
    uint64_t alive; /* the cards held at its start (its cards too: a card touching one in the
                       trick is not touching the next one below it) */
} Trick;

/* BELOW[c]: the cards of c's suit below c; filled at import. */
static uint64_t BELOW[52];

typedef struct {
    uint64_t k[3]; /* the memo key (memo_key) */
    int32_t val;
    uint32_t gen; /* the search that wrote it: older entries count as empty */
} Entry;

/* The memo, kept from one search to the next (one search at a time: search_lock, since the
 * search runs without the GIL): a new search takes the next generation instead of clearing
 * the table, and the table keeps the size it grew to.  Open addressing, grown at half full. */
static PyThread_type_lock search_lock; /* the memo below is one table: one search at a time */
static Entry *memo_tab;
static size_t memo_size, memo_used; /* memo_size a power of two */
static uint32_t memo_gen;

typedef struct {
    int n, chic, nout;
    int64_t key[MAXO][MAXP];
    int64_t cap[MAXP][MAXP][MAXO]; /* cap[p][q][o]: the best key q can get once p has key[o][p] */
    int o_last[MAXP][2];
    int o_stands;
    int o_broken[MAXP];
    int64_t static_bound[MAXP];
    int64_t bound[MAXP][2]; /* the best key p can ever get, by whether p holds a 2 */
    int dead[MAXP], nolast[MAXP];
    int can_win[2][MAXP]; /* can p's card take a trick: [0] tricks 1-4, [1] the last trick */
    int rot[MAXP][MAXP];
    int rotn[MAXP];
    uint64_t hands[MAXP];
    long long nodes;
} Search;

static inline int top_bit(uint64_t x) { return 63 - __builtin_clzll(x); }
static inline int low_bit(uint64_t x) { return __builtin_ctzll(x); }

static int play(Search *s, const int *tp, int ntp, Trick *t, int q, int64_t best_q);
static int play_open(Search *s, const int *tp, int ntp, Trick *t, int q, int64_t best_q);

/* --- the memo: open addressing, grown at half full ------------------------------------- */

static inline size_t entry_hash(const uint64_t *k) {
    uint64_t h = k[0] * UINT64_C(0x9E3779B97F4A7C15);
    h ^= (k[1] + (h >> 29)) * UINT64_C(0xBF58476D1CE4E5B9);
    h ^= (k[2] + (h >> 31)) * UINT64_C(0x94D049BB133111EB);
    return (size_t)(h ^ (h >> 32));
}

static Entry *memo_slot(Entry *tab, size_t size, const uint64_t *k) {
    size_t i = entry_hash(k) & (size - 1);
    for (;;) {
        Entry *e = &tab[i];
        if (e->gen != memo_gen || (e->k[0] == k[0] && e->k[1] == k[1] && e->k[2] == k[2]))
            return e;
        i = (i + 1) & (size - 1);
    }
}

/* A new search: an empty memo.  0 without memory (the first table). */
static int memo_clear(void) {
    if (!memo_tab) {
        memo_size = 1 << 12;
        memo_tab = calloc(memo_size, sizeof(Entry));
        if (!memo_tab)
            return 0;
    }
    if (++memo_gen == 0) { /* after 2^32 searches: clear it once */
        memset(memo_tab, 0, memo_size * sizeof(Entry));
        memo_gen = 1;
    }
    memo_used = 0;
    return 1;
}

static void memo_put(const uint64_t *k, int val) {
    if ((memo_used + 1) * 2 > memo_size) { /* grow; without memory the search goes on unmemoised */
        size_t size = memo_size * 2;
        Entry *tab = calloc(size, sizeof(Entry));
        if (!tab)
            return;
        for (size_t i = 0; i < memo_size; i++)
            if (memo_tab[i].gen == memo_gen)
                *memo_slot(tab, size, memo_tab[i].k) = memo_tab[i];
        free(memo_tab);
        memo_tab = tab;
        memo_size = size;
    }
    Entry *e = memo_slot(memo_tab, memo_size, k);
    if (e->gen != memo_gen)
        memo_used++;
    memcpy(e->k, k, sizeof e->k);
    e->val = val;
    e->gen = memo_gen;
}

static uint8_t COMPRESS7[1 << 14], POPCOUNT7[1 << 7];

/* The bits of the 13-bit v where the 13-bit m has a 1, packed into the low bits. */
static inline uint64_t compress13(uint64_t v, uint64_t m) {
    return COMPRESS7[(m & 127) << 7 | (v & 127)] | (uint64_t)COMPRESS7[(m >> 7) << 7 | (v >> 7)] << POPCOUNT7[m & 127];
}

/* The memo key of a trick start: the hands with ranks made relative to the cards still held
 * (solver._relative: a 2 stays a 2, it counts 10 in the last trick), and the leader.  The
 * relative hands are written per suit as who holds each card still held, in card order
 * (two bit planes: k[0] the low bits of the holders' numbers, k[1] the high bits, 13 bits a
 * suit), and the suits' shapes (k[2]: per suit whether its 2 is held, and how many cards
 * are): the same relative hands give the same key and different ones a different key, so
 * the memo hits exactly where the Python search's does. */
static void memo_key(const Search *s, uint64_t alive, int leader, uint64_t *k) {
    uint64_t p0 = s->hands[1] | s->hands[3], p1 = s->hands[2] | s->hands[3], o0 = 0, o1 = 0;
    uint64_t shape = (uint64_t)leader << 32 | UINT64_C(1) << 63;
    for (int su = 0; su < 4; su++) {
        int sh = 13 * su;
        uint64_t m = (alive >> sh) & 0x1FFF;
        o0 |= compress13((p0 >> sh) & 0x1FFF, m) << sh;
        o1 |= compress13((p1 >> sh) & 0x1FFF, m) << sh;
        shape |= ((m & 1) << (16 + su)) | (uint64_t)(POPCOUNT7[m & 127] + POPCOUNT7[m >> 7]) << (4 * su);
    }
    k[0] = o0;
    k[1] = o1;
    k[2] = shape;
}

/* --- the search ------------------------------------------------------------------------- */

static inline void new_trick(Trick *t, int trick_no, uint64_t alive) {
    t->n = 0;
    t->no = trick_no;
    t->last = trick_no >= TRICKS;
    t->alive = alive;
}

/* p plays c to the trick.  The caller saves t->w and t->wc to take the card back. */
static inline void push(const Search *s, Trick *t, int p, int c) {
    if (!t->n) {
        t->led = c / 13;
        t->cc = (s->chic >= 0 && p == s->chic) ? c : -1;
        t->w = t->wc = -1;
    }
    const int better = (c / 13 == t->led) & (c > t->wc) & s->can_win[t->last][p];
    t->w = better ? p : t->w;
    t->wc = better ? c : t->wc;
    t->p[t->n] = p;
    t->c[t->n++] = c;
}

/* The cards of `legal` worth looking at: one of each run of touching cards of a suit (a 2
 * stays itself: it counts 10 in the last trick).  A card is left out when the next card
 * below it still held (`alive`) is in `legal` too and is not a 2; without a card below,
 * top_bit(0 | 1) points at the 2 of spades, which is a 2: kept.  No branch per card. */
static inline uint64_t representatives(uint64_t legal, uint64_t alive) {
    uint64_t out = 0, m = legal;
    while (m) {
        const int c = low_bit(m);
        m &= m - 1;
        const int top = top_bit((alive & BELOW[c]) | 1);
        const uint64_t skip = (legal >> top) & ~(TWOS >> top) & 1;
        out |= (skip ^ 1) << c;
    }
    return out;
}

/* The highest card of the led suit, not a dead hand's, nor on the last trick a sm2019
 * revoker's; none such: the leader's card (solver._Search.winner). */
static inline void winner(const Trick *t, int *win, int *wc) {
    if (t->w >= 0)
        *win = t->w, *wc = t->wc;
    else
        *win = t->p[0], *wc = t->c[0];
}

/* The last trick, one card each (card[x]; -1: none), led by `leader`: who takes it (r27;
 * not a sm2019 revoker), or with Chicago whether it stands (solver._Search.trick_start at
 * trick 5: the first card to beat hers breaks it, r24). */
static inline int last_trick(const Search *s, int leader, const int *card) {
    const int *rot = s->rot[leader];
    const int rn = s->rotn[leader], first = rot[0], lead = card[first], led = lead / 13;
    if (s->chic >= 0) {
        for (int i = 0; i < rn; i++) {
            int c = card[rot[i]];
            if (c >= 0 && c / 13 == led && c > lead)
                return s->o_broken[rot[i]];
        }
        return s->o_stands;
    }
    int win = -1, wc = -1;
    for (int i = 0; i < rn; i++) {
        const int x = rot[i], c = card[x];
        const int better = (c >= 0) & (c / 13 == led) & (c > wc) & !s->nolast[x];
        win = better ? x : win;
        wc = better ? c : wc;
    }
    if (win < 0)
        win = first, wc = lead;
    return s->o_last[win][wc % 13 == 0 ? 1 : 0];
}

static int trick_start(Search *s, int leader, int trick_no) {
    if (trick_no == TRICKS) { /* one card each: no choice is left */
        int card[MAXP];
        for (int x = 0; x < s->n; x++)
            card[x] = s->hands[x] ? top_bit(s->hands[x]) : -1;
        return last_trick(s, leader, card);
    }
    uint64_t alive = 0;
    for (int i = 0; i < s->n; i++)
        alive |= s->hands[i];
    uint64_t k[3];
    memo_key(s, alive, leader, k);
    Entry *e = memo_slot(memo_tab, memo_size, k);
    if (e->gen == memo_gen)
        return e->val;
    Trick t;
    new_trick(&t, trick_no, alive);
    int v = play_open(s, s->rot[leader], s->rotn[leader], &t, -1, 0);
    memo_put(k, v);
    return v;
}

static int close_trick(Search *s, Trick *t) {
    const int trick_no = t->no;
    int win, wc;
    if (trick_no >= TRICKS) {
        if (s->chic >= 0)
            return s->o_stands; /* not broken by the last card: she won every trick (r23) */
        winner(t, &win, &wc);
        return s->o_last[win][wc % 13 == 0 ? 1 : 0];
    }
    winner(t, &win, &wc);
    return trick_start(s, win, trick_no + 1);
}

/* play() for the trick's last card (p is the last to play to it): each card settles the
 * trick; the last trick, which follows trick 4, is played out at once (last_trick). */
static int play_close(Search *s, int p, Trick *t, int q, int64_t best_q) {
    s->nodes++;
    const int trick_no = t->no;
    const uint64_t alive = t->alive;
    const uint64_t hand = s->hands[p];
    const int64_t bound = s->bound[p][(hand & TWOS) != 0];
    uint64_t legal = hand & SUIT[t->led];
    if (!legal)
        legal = hand;
    const int cc = t->cc, led = t->led, sw = t->w, swc = t->wc, last = t->last;
    const int mine = s->can_win[last][p]; /* can p's card take this trick */
    const int before_last = !last && trick_no + 1 == TRICKS;
    int card[MAXP];
    if (before_last)
        for (int x = 0; x < s->n; x++)
            card[x] = s->hands[x] ? top_bit(s->hands[x]) : -1;
    int best = -1;
    int64_t best_key = NEG;
    const int w0 = sw >= 0 ? sw : t->p[0], wc0 = sw >= 0 ? swc : t->c[0];
    uint64_t m = representatives(legal, alive); /* touching cards of a suit in one hand are one card */
    while (m) {
        const uint64_t low = m & (~m + 1);
        m ^= low;
        const int c = low_bit(low);
        int o;
        if (cc >= 0 && c / 13 == led && c > cc) {
            o = s->o_broken[p]; /* r24, D8: broken, the trick play ends at this card */
        } else { /* who takes the trick (r25, r26) */
            const int takes = mine & (c / 13 == led) & (c > swc);
            const int w = takes ? p : w0, wc = takes ? c : wc0;
            if (before_last) {
                const uint64_t keep = hand ^ low;
                card[p] = keep ? top_bit(keep) : -1;
                o = last_trick(s, w, card);
            } else if (!last) {
                s->hands[p] = hand ^ low;
                o = trick_start(s, w, trick_no + 1);
                s->hands[p] = hand;
            } else if (s->chic >= 0) {
                o = s->o_stands; /* not broken by the last card: she won every trick (r23) */
            } else {
                o = s->o_last[w][wc % 13 == 0 ? 1 : 0]; /* r27 */
            }
        }
        const int64_t kk = s->key[o][p];
        if (kk > best_key) {
            best_key = kk;
            best = o;
            if (kk >= bound)
                break;
            if (q >= 0 && s->cap[p][q][o] <= best_q)
                return -1; /* q has as good already (from a lower card, which wins ties) */
        }
    }
    return best;
}

/* The outcome of best play from here (a node, counted as solver.py counts them); -1 when
 * the player q who chose this node (earlier in the same trick) will not take it whatever
 * happens here (solver._Search.play). */
static int play(Search *s, const int *tp, int ntp, Trick *t, int q, int64_t best_q) {
    if (!ntp) {
        s->nodes++;
        return close_trick(s, t);
    }
    if (ntp == 1 && t->n)
        return play_close(s, tp[0], t, q, best_q);
    return play_open(s, tp, ntp, t, q, best_q);
}

/* play() for a player who is not the last to play to the trick (or the only one). */
static int play_open(Search *s, const int *tp, int ntp, Trick *t, int q, int64_t best_q) {
    s->nodes++;
    const uint64_t alive = t->alive;
    const int p = tp[0], nrest = ntp - 1;
    const int *rest = tp + 1;
    const uint64_t hand = s->hands[p];
    const int64_t bound = s->bound[p][(hand & TWOS) != 0];
    uint64_t legal = hand;
    int cc = -1;
    if (t->n) {
        uint64_t follow = hand & SUIT[t->led];
        if (follow)
            legal = follow;
        cc = t->cc; /* she led: the first to beat her card breaks the Chicago (r24) */
    }
    int best = -1;
    int64_t best_key = NEG;
    const int sw = t->w, swc = t->wc;
    uint64_t m = representatives(legal, alive); /* touching cards of a suit in one hand are one card */
    while (m) {
        const uint64_t low = m & (~m + 1);
        m ^= low;
        const int c = low_bit(low);
        int o;
        if (cc >= 0 && c / 13 == t->led && c > cc) {
            o = s->o_broken[p]; /* r24, D8: broken, the trick play ends at this card */
        } else {
            s->hands[p] = hand ^ low;
            push(s, t, p, c);
            o = !nrest        ? close_trick(s, t) /* a trick of one: everyone else is out */
                : nrest == 1 ? play_close(s, rest[0], t, p, best_key)
                             : play_open(s, rest, nrest, t, p, best_key);
            t->n--;
            t->w = sw;
            t->wc = swc;
            s->hands[p] = hand;
            if (o < 0) /* only from the players after p: a closed trick always has an outcome */
                continue;
        }
        const int64_t kk = s->key[o][p];
        if (kk > best_key) {
            best_key = kk;
            best = o;
            if (kk >= bound)
                break;
            if (q >= 0 && s->cap[p][q][o] <= best_q)
                return -1; /* q has as good already (from a lower card, which wins ties) */
        }
    }
    return best;
}

/* The legal cards of p worth looking at: one of each run of touching cards (solver moves). */
static uint64_t moves(const Search *s, const Trick *t, int p, uint64_t alive) {
    uint64_t hand = s->hands[p], legal = hand, out = 0;
    if (t->n) {
        legal = hand & SUIT[t->c[0] / 13];
        if (!legal)
            legal = hand;
    }
    uint64_t m = legal;
    while (m) {
        uint64_t low = m & (~m + 1);
        m ^= low;
        int c = low_bit(low);
        if (c % 13) {
            uint64_t below = alive & SUIT[c / 13] & (low - 1);
            if (below) {
                int top = top_bit(below);
                if ((legal >> top) & 1 && top % 13)
                    continue;
            }
        }
        out |= low;
    }
    return out;
}

/* The outcome after the player to act, tp[0], plays card c (solver._Search.child). */
static int child(Search *s, Trick *t, const int *tp, int ntp, int c) {
    int p = tp[0];
    if (s->chic >= 0 && p != s->chic && t->n && t->p[0] == s->chic) {
        int cc = t->c[0];
        if (c / 13 == cc / 13 && c > cc)
            return s->o_broken[p];
    }
    uint64_t hand = s->hands[p];
    int sw = t->w, swc = t->wc;
    s->hands[p] = hand ^ (UINT64_C(1) << c);
    push(s, t, p, c);
    int o = play(s, tp + 1, ntp - 1, t, -1, 0);
    t->n--;
    t->w = sw;
    t->wc = swc;
    s->hands[p] = hand;
    return o;
}

/* The best-play line (solver._Search.line): at every turn the first card with the best key;
 * `first` fixes the first card.  Plays on s->hands and the trick; returns the length. */
static int line(Search *s, Trick *t, const int *tp0, int ntp, int first, int *lp,
                int *lc) {
    int tp[MAXP], len = 0;
    memcpy(tp, tp0, sizeof(int) * ntp);
    for (;;) {
        if (!ntp) {
            if (t->no >= TRICKS)
                return len;
            int win, wc;
            winner(t, &win, &wc);
            uint64_t alive = 0;
            for (int i = 0; i < s->n; i++)
                alive |= s->hands[i];
            new_trick(t, t->no + 1, alive);
            ntp = s->rotn[win];
            memcpy(tp, s->rot[win], sizeof(int) * ntp);
            continue;
        }
        int p = tp[0], c = -1;
        if (first >= 0) {
            c = first;
            first = -1;
        } else {
            int64_t best_key = NEG;
            uint64_t m = moves(s, t, p, t->alive);
            while (m) {
                int x = low_bit(m);
                m &= m - 1;
                int64_t kk = s->key[child(s, t, tp, ntp, x)][p];
                if (kk > best_key)
                    best_key = kk, c = x;
            }
        }
        if (len >= MAXLINE || c < 0)
            return -1;
        lp[len] = p;
        lc[len++] = c;
        if (s->chic >= 0 && p != s->chic && t->n && t->p[0] == s->chic) {
            int cc = t->c[0];
            if (c / 13 == cc / 13 && c > cc)
                return len;
        }
        s->hands[p] ^= UINT64_C(1) << c;
        push(s, t, p, c);
        memmove(tp, tp + 1, sizeof(int) * --ntp);
    }
}

/* --- the Python entry point ------------------------------------------------------------- */

/* A sequence of at most `max` ints into out; the count, or -1 with an exception set. */
static Py_ssize_t ints(PyObject *obj, int64_t *out, Py_ssize_t max, const char *what) {
    PyObject *seq = PySequence_Fast(obj, what);
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > max) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s: at most %zd items", what, max);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        out[i] = v;
    }
    Py_DECREF(seq);
    return n;
}

/* [(a[0], b[0]), ...] as a new list, or NULL with an exception set. */
static PyObject *pairs(const int *a, const int *b, int n) {
    PyObject *out = PyList_New(n);
    for (int i = 0; out && i < n; i++) {
        PyObject *item = Py_BuildValue("(ii)", a[i], b[i]);
        if (!item) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, i, item);
    }
    return out;
}

static int in_range(int64_t v, int64_t lo, int64_t hi) { return lo <= v && v < hi; }

#define BAD(msg)                                                                                                   \
    do {                                                                                                           \
        PyErr_SetString(PyExc_ValueError, msg);                                                                    \
        goto fail;                                                                                                 \
    } while (0)

static PyObject *search(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *keys_o, *olast_o, *obroken_o, *bound_o, *dead_o, *nolast_o, *rot_o, *hands_o, *trick_o, *tp_o;
    int n, chic, o_stands, trick_no;
    unsigned long long alive_u;
    if (!PyArg_ParseTuple(args, "iiOOiOOOOOOOOiK:search", &n, &chic, &keys_o, &olast_o, &o_stands, &obroken_o,
                          &bound_o, &dead_o, &nolast_o, &rot_o, &hands_o, &trick_o, &tp_o, &trick_no, &alive_u))
        return NULL;
    Search *s = calloc(1, sizeof(Search));
    if (!s)
        return PyErr_NoMemory();
    int64_t buf[MAXO * MAXP];
    Py_ssize_t k;
    PyObject *result = NULL;
    if (n < 2 || n > MAXP)
        BAD("2-4 players");
    s->n = n;
    if (!in_range(chic, -1, n))
        BAD("chic: a player or -1");
    s->chic = chic;
    if ((k = ints(keys_o, buf, MAXO * MAXP, "keys")) < 0)
        goto fail;
    if (k % n || k == 0)
        BAD("keys: one per outcome and player");
    s->nout = (int)(k / n);
    for (int o = 0; o < s->nout; o++)
        for (int p = 0; p < n; p++) {
            if (!in_range(buf[o * n + p], -(INT64_C(1) << 40), INT64_C(1) << 40))
                BAD("keys: out of range");
            s->key[o][p] = buf[o * n + p];
        }
    if (ints(olast_o, buf, 2 * MAXP, "o_last") != 2 * n)
        BAD("o_last: two outcomes per player");
    for (int i = 0; i < 2 * n; i++) {
        if (!in_range(buf[i], 0, s->nout))
            BAD("o_last: not an outcome");
        s->o_last[i / 2][i % 2] = (int)buf[i];
    }
    if (chic >= 0) {
        if (!in_range(o_stands, 0, s->nout))
            BAD("o_stands: not an outcome");
        s->o_stands = o_stands;
        if (ints(obroken_o, buf, MAXP, "o_broken") != n)
            BAD("o_broken: one outcome per player");
        for (int i = 0; i < n; i++) {
            if (!in_range(buf[i], 0, s->nout))
                BAD("o_broken: not an outcome");
            s->o_broken[i] = (int)buf[i];
        }
        if (ints(bound_o, buf, MAXP, "static_bound") != n)
            BAD("static_bound: one per player");
        for (int i = 0; i < n; i++)
            s->static_bound[i] = buf[i];
    }
    if (ints(dead_o, buf, MAXP, "dead") != n)
        BAD("dead: one per player");
    for (int i = 0; i < n; i++)
        s->dead[i] = buf[i] != 0;
    if (ints(nolast_o, buf, MAXP, "nolast") != n)
        BAD("nolast: one per player");
    for (int i = 0; i < n; i++)
        s->nolast[i] = buf[i] != 0;
    {
        PyObject *rot = PySequence_Fast(rot_o, "rot");
        if (!rot)
            goto fail;
        if (PySequence_Fast_GET_SIZE(rot) != n) {
            Py_DECREF(rot);
            BAD("rot: one rotation per player");
        }
        for (int i = 0; i < n; i++) {
            Py_ssize_t r = ints(PySequence_Fast_GET_ITEM(rot, i), buf, MAXP, "rot");
            if (r < 1) {
                Py_DECREF(rot);
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "rot: empty");
                goto fail;
            }
            s->rotn[i] = (int)r;
            for (int j = 0; j < r; j++) {
                if (!in_range(buf[j], 0, n)) {
                    Py_DECREF(rot);
                    BAD("rot: not a player");
                }
                s->rot[i][j] = (int)buf[j];
            }
        }
        Py_DECREF(rot);
    }
    if (ints(hands_o, buf, MAXP, "hands") != n)
        BAD("hands: one per player");
    for (int i = 0; i < n; i++) {
        if (!in_range(buf[i], 0, INT64_C(1) << 52))
            BAD("hands: 52-bit masks");
        s->hands[i] = (uint64_t)buf[i];
    }
    Trick t;
    int trick_p[MAXP], trick_c[MAXP];
    Py_ssize_t tn;
    {
        PyObject *tr = PySequence_Fast(trick_o, "trick");
        if (!tr)
            goto fail;
        tn = PySequence_Fast_GET_SIZE(tr);
        if (tn >= MAXP) {
            Py_DECREF(tr);
            BAD("trick: at most 3 cards before the player to act");
        }
        for (Py_ssize_t i = 0; i < tn; i++) {
            if (ints(PySequence_Fast_GET_ITEM(tr, i), buf, 2, "trick card") != 2 || !in_range(buf[0], 0, n) ||
                !in_range(buf[1], 0, 52)) {
                Py_DECREF(tr);
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "trick: (player, card) pairs");
                goto fail;
            }
            trick_p[i] = (int)buf[0];
            trick_c[i] = (int)buf[1];
        }
        Py_DECREF(tr);
    }
    int tp[MAXP];
    Py_ssize_t ntp = ints(tp_o, buf, MAXP, "to_play");
    if (ntp < 1)
        BAD("to_play: the players still to play to the trick");
    for (int i = 0; i < ntp; i++) {
        if (!in_range(buf[i], 0, n))
            BAD("to_play: not a player");
        tp[i] = (int)buf[i];
    }
    if (!in_range(trick_no, 1, TRICKS + 1))
        BAD("trick_no: 1-5");
    /* every player in play holds a card for each trick left (the one in this trick played),
     * as solver._check makes sure: a node never meets an empty hand */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < s->rotn[i] + (i == 0 ? (int)ntp : 0); j++) {
            const int x = j < s->rotn[i] ? s->rot[i][j] : tp[j - s->rotn[i]];
            int played = 0;
            for (int k = 0; k < tn; k++)
                played |= trick_p[k] == x;
            if (__builtin_popcountll(s->hands[x]) != TRICKS - trick_no + 1 - played)
                BAD("a player in play holds a card for each trick left");
        }
    for (int p = 0; p < n; p++) {
        for (int two = 0; two < 2; two++) /* solver._Search.play's bound */
            s->bound[p][two] = chic >= 0 ? s->static_bound[p]
                               : s->nolast[p] ? INT64_C(1) << 40
                                              : s->key[s->o_last[p][two]][p];
        s->can_win[0][p] = !s->dead[p];
        s->can_win[1][p] = !s->dead[p] && !s->nolast[p];
    }
    new_trick(&t, trick_no, (uint64_t)alive_u);
    for (int i = 0; i < tn; i++)
        push(s, &t, trick_p[i], trick_c[i]);
    for (int p = 0; p < n; p++) /* cap[p][q][o] for every outcome o p may have in hand */
        for (int q = 0; q < n; q++)
            for (int o = 0; o < s->nout; o++) {
                int64_t v = NEG - 1;
                for (int x = 0; x < s->nout; x++)
                    if (s->key[x][p] >= s->key[o][p] && s->key[x][q] > v)
                        v = s->key[x][q];
                s->cap[p][q][o] = v;
            }
    /* The search touches no Python object: it runs without the GIL, so the server's event
     * loop (and every other thread) goes on while it works (stop 64's audit: a search that
     * held the GIL stalled every answer for as long as a hand took).  One search at a time:
     * the memo is one table (search_lock). */
    uint64_t alive = (uint64_t)alive_u;
    int me = tp[0], cards[MAXLINE], oids[MAXLINE], nc = 0, best = -1;
    int64_t best_key = NEG;
    int lp[MAXLINE], lc[MAXLINE];
    int len = -1, memo_ok;
    Py_BEGIN_ALLOW_THREADS
    PyThread_acquire_lock(search_lock, WAIT_LOCK);
    memo_ok = memo_clear();
    if (memo_ok) {
        uint64_t reps = moves(s, &t, me, alive);
        while (reps) {
            int c = low_bit(reps);
            reps &= reps - 1;
            int o = child(s, &t, tp, (int)ntp, c);
            cards[nc] = c;
            oids[nc++] = o;
            if (s->key[o][me] > best_key)
                best_key = s->key[o][me], best = c;
        }
        len = line(s, &t, tp, (int)ntp, best, lp, lc);
    }
    PyThread_release_lock(search_lock);
    Py_END_ALLOW_THREADS
    if (!memo_ok) {
        PyErr_NoMemory();
        goto fail;
    }
    if (len < 0)
        BAD("the line did not end");
    PyObject *children = pairs(cards, oids, nc), *ln = children ? pairs(lp, lc, len) : NULL;
    if (ln)
        result = Py_BuildValue("(NNL)", children, ln, s->nodes);
    else
        Py_XDECREF(children);
fail:
    free(s);
    return result;
}

static PyMethodDef methods[] = {
    {"search", search, METH_VARARGS,
     "search(n, chic, keys, o_last, o_stands, o_broken, static_bound, dead, nolast, rot, hands, trick, to_play,\n"
     "       trick_no, alive) -> (children, line, nodes)\n\n"
     "The solver's search from a position (see solver.py, _Search and solve): the outcome of each\n"
     "legal card worth looking at, as (card, outcome), the best-play line as (player, card), and\n"
     "the number of nodes searched."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_kernel",
    .m_doc = "The double-dummy solver's search in C (see solver.py).",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__kernel(void) {
    for (int c = 0; c < 52; c++)
        BELOW[c] = SUIT[c / 13] & ((UINT64_C(1) << c) - 1);
    for (int m = 0; m < 128; m++) {
        POPCOUNT7[m] = (uint8_t)((m & 1) + (m >> 1 & 1) + (m >> 2 & 1) + (m >> 3 & 1) + (m >> 4 & 1) + (m >> 5 & 1) + (m >> 6));
        for (int v = 0; v < 128; v++) {
            int out = 0, j = 0;
            for (int b = 0; b < 7; b++)
                if (m >> b & 1)
                    out |= (v >> b & 1) << j++;
            COMPRESS7[m << 7 | v] = (uint8_t)out;
        }
    }
    search_lock = PyThread_allocate_lock();
    if (!search_lock)
        return PyErr_NoMemory();
    return PyModule_Create(&module);
}
