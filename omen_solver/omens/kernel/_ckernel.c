/* The compiled Omens search kernel: the rules (_ckernel_machine.h) and the search of
 * omen_solver/omens/kernel/search.py, in C, for CPython.
 *
 * Module omen_solver.omens.kernel._ckernel:
 *   legal(spec, state, player) -> list of actions      (the machine, for differential tests)
 *   legal_count(spec, state, player) -> int             (how many, as a seed's mobility counts)
 *   child(spec, state, action) -> state
 *   joint_child(spec, state, a, b) -> state
 *   playout_step(spec, state, x, listed) -> (state or None, x)  (differential tests)
 *   Search(spec, maximising, constant_sum, mode, max_nodes, max_seconds, table_limit,
 *          progress, matrix_value, payoff, tuning)
 *     .search(state, alpha, beta) -> int | Fraction      (fail-soft alpha-beta)
 *     .entry(state) -> (low, high, best) | None           (the transposition table)
 *     .nodes, .states, .table_bytes, .gap_seen, .stopped
 * A state is the tuple of KState.key(); values cross as int or fractions.Fraction.
 * Every value, best action and node count equals the Python kernel's (tests compare them).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <math.h>

#include "_ckernel_machine.h"

/* The digest of the sources this build was compiled from (setup.py; source_digest.py). */
#ifndef CKERNEL_SOURCE
#define CKERNEL_SOURCE ""
#endif

/* ---------------------------------------------------------------- exact values */

typedef struct { int64_t n, d; } Q;

static const Q Q0 = {0, 1}, Q1 = {1, 1}, QNEG = {-1, 1}, QTWO = {2, 1};

static _Thread_local int q_overflow = 0;

static Q q_make(__int128 n, __int128 d) {
    if (d < 0) { n = -n; d = -d; }
    __int128 a = n < 0 ? -n : n, b = d;
    while (b) { __int128 t = a % b; a = b; b = t; }
    if (a > 1) { n /= a; d /= a; }
    Q q;
    if (n > INT64_MAX || n < INT64_MIN || d > INT64_MAX) { q_overflow = 1; q.n = 0; q.d = 1; return q; }
    q.n = (int64_t)n; q.d = (int64_t)d;
    return q;
}
static inline int q_cmp(Q a, Q b) {
    if (a.d == b.d) return (a.n > b.n) - (a.n < b.n);
    __int128 x = (__int128)a.n * b.d, y = (__int128)b.n * a.d;
    return (x > y) - (x < y);
}
static inline int q_lt(Q a, Q b) { return q_cmp(a, b) < 0; }
static inline int q_le(Q a, Q b) { return q_cmp(a, b) <= 0; }
static inline int q_eq(Q a, Q b) { return a.n == b.n && a.d == b.d; }
static Q q_add(Q a, Q b) { return q_make((__int128)a.n * b.d + (__int128)b.n * a.d, (__int128)a.d * b.d); }
static Q q_sub(Q a, Q b) { return q_make((__int128)a.n * b.d - (__int128)b.n * a.d, (__int128)a.d * b.d); }
static Q q_mul(Q a, Q b) { return q_make((__int128)a.n * b.n, (__int128)a.d * b.d); }
static Q q_div(Q a, Q b) { return q_make((__int128)a.n * b.d, (__int128)a.d * b.n); }

static PyObject *FractionType = NULL;

static PyObject *q_to_py(Q q) {
    if (q.d == 1) return PyLong_FromLongLong(q.n);
    return PyObject_CallFunction(FractionType, "LL", (long long)q.n, (long long)q.d);
}

static int q_from_py(PyObject *o, Q *q) {
    if (PyLong_Check(o)) {
        q->n = PyLong_AsLongLong(o); q->d = 1;
        return PyErr_Occurred() ? -1 : 0;
    }
    PyObject *n = PyObject_GetAttrString(o, "numerator");
    PyObject *d = n ? PyObject_GetAttrString(o, "denominator") : NULL;
    if (!n || !d) { Py_XDECREF(n); Py_XDECREF(d); return -1; }
    long long nn = PyLong_AsLongLong(n), dd = PyLong_AsLongLong(d);
    Py_DECREF(n); Py_DECREF(d);
    if (PyErr_Occurred()) return -1;
    q->n = nn; q->d = dd;
    return 0;
}

/* ---------------------------------------------------------------- spec and states from Python */

static int get_ints(PyObject *seq, int *out, int count) {
    PyObject *fast = PySequence_Fast(seq, "expected a sequence");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) < count) { Py_DECREF(fast); PyErr_SetString(PyExc_ValueError, "short sequence"); return -1; }
    for (int i = 0; i < count; i++) {
        out[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
    }
    Py_DECREF(fast);
    return PyErr_Occurred() ? -1 : 0;
}

static int get_u64s(PyObject *seq, uint64_t *out, int count) {
    PyObject *fast = PySequence_Fast(seq, "expected a sequence");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) < count) { Py_DECREF(fast); PyErr_SetString(PyExc_ValueError, "short sequence"); return -1; }
    for (int i = 0; i < count; i++) out[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
    Py_DECREF(fast);
    return PyErr_Occurred() ? -1 : 0;
}

/* spec: (players, n, scope, effect, param_colour, param_highest, param_condition, param_effect,
 *        colour_mask[5], effect_mask[16], now_mask, fear_mask, full, team_of, options[19]) */
static int spec_from_py(PyObject *o, Spec *s) {
    memset(s, 0, sizeof *s);
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 15) { PyErr_SetString(PyExc_TypeError, "bad spec tuple"); return -1; }
    s->players = (int)PyLong_AsLong(PyTuple_GET_ITEM(o, 0));
    s->n = (int)PyLong_AsLong(PyTuple_GET_ITEM(o, 1));
    s->scope = (int)PyLong_AsLong(PyTuple_GET_ITEM(o, 2));
    if (PyErr_Occurred()) return -1;
    if (s->players < 1 || s->players > MAXP || s->n < 1 || s->n > 64) { PyErr_SetString(PyExc_ValueError, "spec out of range"); return -1; }
    if (get_ints(PyTuple_GET_ITEM(o, 3), s->effect, s->n) < 0) return -1;
    if (get_ints(PyTuple_GET_ITEM(o, 4), s->param_colour, s->n) < 0) return -1;
    if (get_ints(PyTuple_GET_ITEM(o, 5), s->param_highest, s->n) < 0) return -1;
    if (get_ints(PyTuple_GET_ITEM(o, 6), s->param_condition, s->n) < 0) return -1;
    if (get_ints(PyTuple_GET_ITEM(o, 7), s->param_effect, s->n) < 0) return -1;
    if (get_u64s(PyTuple_GET_ITEM(o, 8), s->colour_mask, 5) < 0) return -1;
    if (get_u64s(PyTuple_GET_ITEM(o, 9), s->effect_mask, E_COUNT) < 0) return -1;
    s->now_mask = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(o, 10));
    s->fear_mask = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(o, 11));
    s->full = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(o, 12));
    if (PyErr_Occurred()) return -1;
    if (get_ints(PyTuple_GET_ITEM(o, 13), s->team_of, s->players) < 0) return -1;
    int opt[19];
    if (get_ints(PyTuple_GET_ITEM(o, 14), opt, 19) < 0) return -1;
    s->absolute_end = opt[0]; s->exchange_open = opt[1]; s->law_turns_only = opt[2];
    s->law_ends_on_jealousy = opt[3]; s->law_skip_when_last = opt[4]; s->wrath_replay_allowed = opt[5];
    s->jealousy_own_forbidden = opt[6]; s->dream_plays_again = opt[7]; s->resolver_placer = opt[8];
    s->give_back_forbidden = opt[9]; s->owner_placer = opt[10]; s->return_placer = opt[11];
    s->sadness_no_winner = opt[12]; s->fear_pass_on = opt[13]; s->luck_random = opt[14];
    s->luck_after_return = opt[15]; s->zero_any = opt[16]; s->pride_next_round = opt[17];
    s->extreme_excludes_self = opt[18];
    return 0;
}

static long item_long(PyObject *t, Py_ssize_t i) { return PyLong_AsLong(PyTuple_GET_ITEM(t, i)); }

/* state: KState.key() = (phase, hands, front, played, leader, law, pending, stages,
 *        outcome[1:] | None, victim, end_abs, won, winner) */
static int state_from_py(const Spec *s, PyObject *o, KS *k) {
    memset(k, 0, sizeof *k);
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 13) { PyErr_SetString(PyExc_TypeError, "bad state tuple"); return -1; }
    k->phase = (uint8_t)item_long(o, 0);
    PyObject *hands = PyTuple_GET_ITEM(o, 1), *front = PyTuple_GET_ITEM(o, 2);
    PyObject *pending = PyTuple_GET_ITEM(o, 6), *stages = PyTuple_GET_ITEM(o, 7);
    PyObject *outcome = PyTuple_GET_ITEM(o, 8), *end_abs = PyTuple_GET_ITEM(o, 10), *won = PyTuple_GET_ITEM(o, 11);
    if (!PyTuple_Check(hands) || PyTuple_GET_SIZE(hands) != s->players || !PyTuple_Check(front)
        || !PyTuple_Check(pending) || !PyTuple_Check(stages) || !PyTuple_Check(end_abs) || !PyTuple_Check(won)
        || PyTuple_GET_SIZE(front) > MAXFRONT || PyTuple_GET_SIZE(pending) > MAXPEND
        || PyTuple_GET_SIZE(stages) > MAXSTAGES || PyTuple_GET_SIZE(end_abs) > MAXFRONT
        || PyTuple_GET_SIZE(won) > 3) {
        PyErr_SetString(PyExc_ValueError, "state out of the compiled kernel's range");
        return -1;
    }
    for (int i = 0; i < s->players; i++) k->hands[i] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(hands, i));
    k->nfront = (uint8_t)PyTuple_GET_SIZE(front);
    for (int i = 0; i < k->nfront; i++) k->front[i] = (uint16_t)item_long(front, i);
    k->played = (uint8_t)item_long(o, 3);
    k->leader = (uint8_t)item_long(o, 4);
    k->law = (int8_t)item_long(o, 5);
    k->npending = (uint8_t)PyTuple_GET_SIZE(pending);
    for (int i = 0; i < k->npending; i++) {
        PyObject *p = PyTuple_GET_ITEM(pending, i);
        if (!PyTuple_Check(p) || PyTuple_GET_SIZE(p) != 4) { PyErr_SetString(PyExc_ValueError, "bad pending"); return -1; }
        k->pending[i].kind = (uint8_t)item_long(p, 0); k->pending[i].seat = (uint8_t)item_long(p, 1);
        k->pending[i].a = (uint8_t)item_long(p, 2); k->pending[i].b = (uint8_t)item_long(p, 3);
    }
    k->nstages = (uint8_t)PyTuple_GET_SIZE(stages);
    for (int i = 0; i < k->nstages; i++) k->stages[i] = (uint8_t)item_long(stages, i);
    if (outcome != Py_None) {
        if (!PyTuple_Check(outcome) || PyTuple_GET_SIZE(outcome) != 5) { PyErr_SetString(PyExc_ValueError, "bad outcome"); return -1; }
        k->has_outcome = 1;
        k->out_winning = -1;
        k->out_winner = (int8_t)item_long(outcome, 0);
        k->out_discarded = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(outcome, 1));
        k->out_luck_seat = (int8_t)item_long(outcome, 2);
        k->out_next_leader = (uint8_t)item_long(outcome, 3);
        k->out_pride = (uint8_t)item_long(outcome, 4);
    }
    k->victim = (int16_t)item_long(o, 9);
    k->n_end_abs = (uint8_t)PyTuple_GET_SIZE(end_abs);
    for (int i = 0; i < k->n_end_abs; i++) {
        PyObject *e = PyTuple_GET_ITEM(end_abs, i);
        k->end_abs_card[i] = (uint8_t)item_long(e, 0);
        k->end_abs_seat[i] = (uint8_t)item_long(e, 1);
    }
    for (int i = 0; i < PyTuple_GET_SIZE(won); i++) k->won[i] = (uint8_t)item_long(won, i);
    k->winner = (int8_t)item_long(o, 12);
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *state_to_py(const Spec *s, const KS *k, int nteams) {
    PyObject *hands = PyTuple_New(s->players);
    for (int i = 0; i < s->players; i++) PyTuple_SET_ITEM(hands, i, PyLong_FromUnsignedLongLong(k->hands[i]));
    PyObject *front = PyTuple_New(k->nfront);
    for (int i = 0; i < k->nfront; i++) PyTuple_SET_ITEM(front, i, PyLong_FromLong(k->front[i]));
    PyObject *pending = PyTuple_New(k->npending);
    for (int i = 0; i < k->npending; i++) {
        const Pending *p = &k->pending[i];
        PyTuple_SET_ITEM(pending, i, Py_BuildValue("(iiii)", p->kind, p->seat, p->a, p->b));
    }
    PyObject *stages = PyTuple_New(k->nstages);
    for (int i = 0; i < k->nstages; i++) PyTuple_SET_ITEM(stages, i, PyLong_FromLong(k->stages[i]));
    PyObject *outcome;
    if (k->has_outcome) {
        outcome = Py_BuildValue("(iKiii)", k->out_winner, (unsigned long long)k->out_discarded,
                                k->out_luck_seat, k->out_next_leader, k->out_pride);
    } else {
        outcome = Py_None; Py_INCREF(outcome);
    }
    PyObject *end_abs = PyTuple_New(k->n_end_abs);
    for (int i = 0; i < k->n_end_abs; i++)
        PyTuple_SET_ITEM(end_abs, i, Py_BuildValue("(ii)", k->end_abs_card[i], k->end_abs_seat[i]));
    PyObject *won = PyTuple_New(nteams);
    for (int i = 0; i < nteams; i++) PyTuple_SET_ITEM(won, i, PyLong_FromLong(k->won[i]));
    return Py_BuildValue("(iNNiiiNNNiNNi)", k->phase, hands, front, k->played, k->leader, k->law,
                         pending, stages, outcome, k->victim, end_abs, won, k->winner);
}

/* ---------------------------------------------------------------- machine functions */

static int parse_spec_state(PyObject *spec_o, PyObject *state_o, Spec *s, KS *k, int *nteams) {
    if (spec_from_py(spec_o, s) < 0) return -1;
    if (state_from_py(s, state_o, k) < 0) return -1;
    *nteams = (int)PyTuple_GET_SIZE(PyTuple_GET_ITEM(state_o, 11));
    return 0;
}

/* The arguments (spec, state, player) of legal() and legal_count(). */
static int parse_legal_args(PyObject *args, Spec *s, KS *k, int *player) {
    PyObject *spec_o, *state_o;
    int nteams;
    if (!PyArg_ParseTuple(args, "OOi", &spec_o, &state_o, player)) return -1;
    if (parse_spec_state(spec_o, state_o, s, k, &nteams) < 0) return -1;
    if (!k->npending) *player = -1; /* the player counts in an exchange only */
    return 0;
}

static PyObject *py_legal(PyObject *self, PyObject *args) {
    Spec s; KS k; int player;
    if (parse_legal_args(args, &s, &k, &player) < 0) return NULL;
    int moves[MAXMOVES];
    int n = legal(&s, &k, player, moves);
    if (n < 0) { PyErr_SetString(PyExc_OverflowError, "too many legal actions for the compiled kernel"); return NULL; }
    PyObject *list = PyList_New(n);
    for (int i = 0; i < n; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(moves[i]));
    return list;
}

static PyObject *py_legal_count(PyObject *self, PyObject *args) {
    Spec s; KS k; int player;
    if (parse_legal_args(args, &s, &k, &player) < 0) return NULL;
    return PyLong_FromLong(legal_count(&s, &k, player));
}

static PyObject *py_child(PyObject *self, PyObject *args) {
    PyObject *spec_o, *state_o;
    int move;
    if (!PyArg_ParseTuple(args, "OOi", &spec_o, &state_o, &move)) return NULL;
    Spec s; KS k, out; int nteams;
    if (parse_spec_state(spec_o, state_o, &s, &k, &nteams) < 0) return NULL;
    child(&s, NULL, &k, move, &out);
    if (out.error) { PyErr_SetString(PyExc_OverflowError, "state out of the compiled kernel's range"); return NULL; }
    return state_to_py(&s, &out, nteams);
}

static PyObject *py_joint_child(PyObject *self, PyObject *args) {
    PyObject *spec_o, *state_o;
    int a, b;
    if (!PyArg_ParseTuple(args, "OOii", &spec_o, &state_o, &a, &b)) return NULL;
    Spec s; KS k, out; int nteams;
    if (parse_spec_state(spec_o, state_o, &s, &k, &nteams) < 0) return NULL;
    joint_child(&s, NULL, &k, a, b, &out);
    if (out.error) { PyErr_SetString(PyExc_OverflowError, "state out of the compiled kernel's range"); return NULL; }
    return state_to_py(&s, &out, nteams);
}

/* ---------------------------------------------------------------- memory */

/* A solve's memos of playouts (df-pn's seeds at bout starts, playout_wins_memo): at most
 * PMEMO_MAX of them, one for each search running at once (a thread holds one while it proves,
 * whichever of its searches that is), their bytes counted in the pool that holds them. */
#define PMEMO_MAX 8
struct PlayoutMemo;
typedef struct {
    struct PlayoutMemo *_Atomic memo[PMEMO_MAX]; /* made when first held (NULL: not yet) */
    _Atomic int held[PMEMO_MAX];                 /* 1 while a search holds it */
    size_t slots;                                /* each memo's slots, a power of two */
    struct Pool *pool;                           /* where their bytes are counted (or NULL) */
} PlayoutMemos;

/* A pool counts the bytes the tables and memos of one solve hold, so that together they never
 * pass its limit (kernel/tables.py: MemoryPlan). Searches running in several threads take
 * from the same pool, hence the atomics. */
typedef struct Pool {
    PyObject_HEAD
    long long limit;  /* bytes; 0: no limit */
    _Atomic long long used, peak;
    PlayoutMemos memos; /* the solve's memos of playouts, shared by its searches */
} Pool;

static int pool_take(Pool *p, size_t bytes) {
    if (!p || !bytes) return 1;
    long long now = atomic_fetch_add(&p->used, (long long)bytes) + (long long)bytes;
    if (p->limit > 0 && now > p->limit) {
        atomic_fetch_sub(&p->used, (long long)bytes);
        return 0;
    }
    long long peak = atomic_load(&p->peak);
    while (now > peak && !atomic_compare_exchange_weak(&p->peak, &peak, now)) {}
    return 1;
}

static void pool_give(Pool *p, size_t bytes) {
    if (p && bytes) atomic_fetch_sub(&p->used, (long long)bytes);
}

/* ---------------------------------------------------------------- the transposition table */

#define KEYWORDS 64
#define WORK_MAX 0xFFFFFFFFu

/* One slot, 32 bytes (two a cache line): everything a probe reads is on one cache line (a hit
 * then reads the key's words). A bound is kept as its numerator here and its denominator in the
 * table's ``dens``, which a table has only once it stores a bound that is not a whole number
 * (df-pn's proof and disproof numbers always are: its tables have no ``dens``).
 * The key's words are kept apart, each key preceded by its length, in the order the keys were
 * first stored (which replacement uses as its tie-break, as kernel/tables.py does). Beside the
 * slots, one byte a slot (a tag: 0 empty, else seven bits of the hash) lets a probe for a key
 * that is not there read only the tags, 64 slots a cache line, instead of the slots. */
typedef struct {
    uint32_t check;     /* the low bits of the key's hash, odd; 0 = empty slot */
    uint32_t offset;    /* into words: the length, then the key */
    int32_t best;
    uint32_t work;      /* nodes spent on the entry (saturating): what replacement keeps */
    int64_t low, high;  /* the bounds' numerators (df-pn: the proof and disproof numbers) */
} Entry;
_Static_assert(sizeof(Entry) == 32, "two slots a cache line");

struct Group;

typedef struct {
    Entry *slots;
    uint8_t *tags;      /* one a slot: 0 empty, TAG_BUSY while being written, else tag_of(check) */
    Q *third;           /* max-n with three teams: the third component (else NULL) */
    int64_t *dens;      /* the bounds' denominators, two a slot, where with_dens (else NULL:
                         * every bound stored is a whole number) */
    size_t cap, size;
    uint64_t *words;
    size_t nwords, capwords;
    int with_third, with_dens;
    long long limit;    /* entries kept at most (0: none); past it the cheapest half goes */
    long long collections;
    Pool *pool;         /* borrowed from the owner */
    struct Group *group; /* the searches writing it at once (a parallel df-pn), or NULL */
    uint64_t epoch;     /* counts the times entries moved (grow, collect, free): a slot found
                         * while it stays the same still holds the same key */
    size_t added;       /* the slot of the entry added last */
} Table;

static uint64_t hash_words(const uint64_t *w, int n) {
    uint64_t h = 0x84222325CBF29CE4ULL ^ (uint64_t)n;
    for (int i = 0; i < n; i++) {
        h ^= w[i];
        h *= 0x9E3779B97F4A7C15ULL;
        h ^= h >> 31;
    }
    return h | 1;
}

static inline uint32_t check_of(uint64_t h) { return (uint32_t)h | 1u; }
static inline uint8_t tag_of(uint32_t check) { return (uint8_t)(check >> 24 | 0x80u); }
#define TAG_BUSY 1 /* a slot claimed by one of several searches writing at once (a group) */
/* A key's home slot follows from its check alone (mixed by a multiplication), so that a table
 * that grows or drops entries places them again from their slots without reading and hashing
 * their keys' words; keys with the same home still differ in their checks and tags. */
static inline size_t home_of(uint32_t check, size_t cap) {
    return (size_t)(((uint64_t)check * 0x9E3779B97F4A7C15ULL) >> 32) & (cap - 1);
}

static size_t slot_bytes(const Table *t, size_t cap) {
    return cap * (sizeof(Entry) + 1 + (t->with_third ? sizeof(Q) : 0)
                  + (t->with_dens ? 2 * sizeof(int64_t) : 0));
}

static inline Q entry_low(const Table *t, size_t i) {
    Q q = {t->slots[i].low, t->dens ? t->dens[2 * i] : 1};
    return q;
}
static inline Q entry_high(const Table *t, size_t i) {
    Q q = {t->slots[i].high, t->dens ? t->dens[2 * i + 1] : 1};
    return q;
}

/* The table keeps denominators from now on (every bound stored so far: a whole number).
 * Returns 0 when the memory is not there. */
static int table_dens(Table *t) {
    if (t->with_dens) return 1;
    if (t->cap) {
        size_t bytes = t->cap * 2 * sizeof(int64_t);
        if (!pool_take(t->pool, bytes)) return 0;
        int64_t *dens = malloc(bytes);
        if (!dens) { pool_give(t->pool, bytes); return 0; }
        for (size_t i = 0; i < 2 * t->cap; i++) dens[i] = 1;
        t->dens = dens;
    }
    t->with_dens = 1;
    return 1;
}

/* The bounds of the entry at slot ``i``. Returns 0 when a bound that is not a whole number
 * needs denominators the memory does not hold. */
static inline int entry_set(Table *t, size_t i, Q low, Q high) {
    if ((low.d != 1 || high.d != 1) && !t->with_dens && !table_dens(t)) return 0;
    t->slots[i].low = low.n;
    t->slots[i].high = high.n;
    if (t->dens) { t->dens[2 * i] = low.d; t->dens[2 * i + 1] = high.d; }
    return 1;
}

static size_t table_bytes_of(const Table *t) {
    return slot_bytes(t, t->cap) + t->capwords * sizeof(uint64_t);
}

/* Put the entry ``e`` (its third component, its denominators ``d``) into an empty slot of
 * ``slots``. */
static void place(Table *t, Entry *slots, uint8_t *tags, Q *third, int64_t *dens, size_t cap,
                  const Entry *e, Q q3, const int64_t *d) {
    size_t i = home_of(e->check, cap);
    while (tags[i]) i = (i + 1) & (cap - 1);
    slots[i] = *e;
    tags[i] = tag_of(e->check);
    if (third) third[i] = q3;
    if (dens) { dens[2 * i] = d[0]; dens[2 * i + 1] = d[1]; }
}

/* The table's slots made ``cap`` (a power of two, more than twice its entries), its entries
 * placed again. Returns 0 when the memory is not there. */
static int table_resize(Table *t, size_t cap) {
    if (!pool_take(t->pool, slot_bytes(t, cap))) return 0;
    Entry *slots = malloc(cap * sizeof(Entry));
    uint8_t *tags = calloc(cap, 1);
    Q *third = t->with_third ? malloc(cap * sizeof(Q)) : NULL;
    int64_t *dens = t->with_dens ? malloc(cap * 2 * sizeof(int64_t)) : NULL;
    if (!slots || !tags || (t->with_third && !third) || (t->with_dens && !dens)) {
        free(slots); free(tags); free(third); free(dens);
        pool_give(t->pool, slot_bytes(t, cap));
        return 0;
    }
    static const int64_t whole[2] = {1, 1};
    for (size_t j = 0; j < t->cap; j++)
        if (t->tags[j])
            place(t, slots, tags, third, dens, cap, &t->slots[j], t->third ? t->third[j] : Q0,
                  t->dens ? t->dens + 2 * j : whole);
    free(t->slots); free(t->tags); free(t->third); free(t->dens);
    pool_give(t->pool, slot_bytes(t, t->cap));
    t->slots = slots; t->tags = tags; t->third = third; t->dens = dens; t->cap = cap;
    t->epoch++;
    return 1;
}

static int table_grow(Table *t) { return table_resize(t, t->cap ? t->cap * 2 : (1 << 12)); }

static void table_free(Table *t) {
    pool_give(t->pool, table_bytes_of(t));
    free(t->slots); free(t->tags); free(t->third); free(t->dens);
    free(t->words);
    Pool *pool = t->pool;
    long long limit = t->limit, collections = t->collections;
    int with_third = t->with_third;
    uint64_t epoch = t->epoch + 1;
    memset(t, 0, sizeof *t);
    t->pool = pool; t->limit = limit; t->with_third = with_third; t->epoch = epoch;
    t->collections = collections; /* what was dropped stays counted (tables.py: clear) */
}

static int table_probe(const Table *t, const uint64_t *w, int n, uint32_t check, size_t i,
                       size_t *slot);

/* The slot of a key: found (returns 1) or where it would go (returns 0). Inline: a key whose
 * home slot is empty (most keys looked for and not there) costs no call. */
static inline int table_find(const Table *t, const uint64_t *w, int n, uint64_t h, size_t *slot) {
    if (!t || !t->cap) { *slot = 0; return 0; }
    uint32_t check = check_of(h);
    size_t i = home_of(check, t->cap);
    if (!__atomic_load_n(&t->tags[i], __ATOMIC_ACQUIRE)) { *slot = i; return 0; }
    return table_probe(t, w, n, check, i, slot);
}

/* table_find from the home slot ``i`` on. */
static int table_probe(const Table *t, const uint64_t *w, int n, uint32_t check, size_t i,
                       size_t *slot) {
    size_t mask = t->cap - 1;
    uint8_t tag = tag_of(check), seen;
    const uint8_t *tags = t->tags;
    while ((seen = __atomic_load_n(&tags[i], __ATOMIC_ACQUIRE))) {
        if (seen == TAG_BUSY) continue; /* another search of the group writes it: wait */
        if (seen == tag) {
            const Entry *e = &t->slots[i];
            if (e->check == check) {
                const uint64_t *stored = t->words + e->offset;
                if (stored[0] == (uint64_t)n
                    && memcmp(stored + 1, w, n * sizeof(uint64_t)) == 0) {
                    *slot = i;
                    return 1;
                }
            }
        }
        i = (i + 1) & mask;
    }
    *slot = i;
    return 0;
}

/* Probes issued ahead: the processor fetches the tag line of a key's home slot (or a slot
 * already found) while other work goes on, so that the probes of a node's children wait for
 * their cache misses together instead of one after the other. */
#define NO_SLOT SIZE_MAX
/* (GCC 12 drops some __builtin_prefetch calls it inlines: on x86 the instruction itself) */
static inline void prefetch_line(const void *p) {
#if defined(__GNUC__) && defined(__x86_64__)
    __asm__ volatile("prefetcht0 %0" : : "m"(*(const char *)p));
#else
    __builtin_prefetch(p);
#endif
}
static inline void table_prefetch(const Table *t, uint64_t h) {
    if (t && t->cap) prefetch_line(&t->tags[home_of(check_of(h), t->cap)]);
}
static inline void slot_prefetch(const Table *t, size_t slot) {
    const char *e = (const char *)&t->slots[slot];
    prefetch_line(e);
    prefetch_line(e + sizeof(Entry) - 1);
}
/* the slot of a key's home (where a key is found most often, the load being at most half) */
static inline void home_prefetch(const Table *t, uint64_t h) {
    if (t && t->cap) slot_prefetch(t, home_of(check_of(h), t->cap));
}
#define MERGE_AHEAD 8

#define COLLECT_AGE 64 /* see table_collect */

static inline int work_bucket(uint32_t work) { return work ? 32 - __builtin_clz(work) : 0; }

/* Sort ``n`` values by their high 32 bits (least significant digit first, 12 bits a pass);
 * ``spare`` as many. Returns where they are sorted (``v`` or ``spare``). */
static uint64_t *sort_high(uint64_t *v, uint64_t *spare, size_t n) {
    uint64_t most = 0;
    for (size_t i = 0; i < n; i++) most |= v[i] >> 32;
    for (int shift = 32; shift < 64 && (most >> (shift - 32)); shift += 12) {
        size_t at[1 << 12] = {0};
        for (size_t i = 0; i < n; i++) at[(v[i] >> shift) & 0xFFF]++;
        size_t sum = 0;
        for (int d = 0; d < (1 << 12); d++) { size_t c = at[d]; at[d] = sum; sum += c; }
        for (size_t i = 0; i < n; i++) spare[at[(v[i] >> shift) & 0xFFF]++] = v[i];
        uint64_t *swap = v; v = spare; spare = swap;
    }
    return v;
}

/* Replacement (kernel/tables.py: Table.collect): keep the ``keep`` entries that cost most,
 * by the bit length of their work, and within the last bucket kept the most recently stored;
 * the others go. Keys are compacted in their order and the slots rebuilt. Returns 0 when the
 * memory to rebuild is not there. */
static int table_collect(Table *t, size_t keep) {
    if (t->size <= keep) return 1;
    size_t buckets[34] = {0};
    for (size_t i = 0; i < t->cap; i++)
        if (t->tags[i]) buckets[work_bucket(t->slots[i].work)]++;
    size_t total = 0;
    int top = 33;
    for (; top > 0; top--) {
        if (total + buckets[top] >= keep) break;
        total += buckets[top];
    }
    size_t skip = buckets[top] - (keep - total < buckets[top] ? keep - total : buckets[top]);
    /* the third components and the denominators only where the table has them */
    size_t bytes = keep * (sizeof(size_t) + sizeof(Entry) + (t->third ? sizeof(Q) : 0)
                           + (t->dens ? 2 * sizeof(int64_t) : 0));
    if (!pool_take(t->pool, bytes)) return 0;
    size_t *slots = malloc(keep * sizeof(size_t));
    Entry *kept = malloc(keep * sizeof(Entry));
    Q *third = t->third ? malloc(keep * sizeof(Q)) : NULL;
    int64_t *dens = t->dens ? malloc(keep * 2 * sizeof(int64_t)) : NULL;
    if (!slots || !kept || (t->third && !third) || (t->dens && !dens)) {
        free(slots); free(kept); free(third); free(dens);
        pool_give(t->pool, bytes);
        return 0;
    }
    /* which entries stay, in the order their keys were stored (nothing moves yet): the order
     * of their words. The entries of the buckets that stay are sorted by where their words
     * are; without the memory for that, the words are read in order and their entries found */
    size_t count = 0, ncand = total + buckets[top];
    size_t sort_bytes = 2 * ncand * sizeof(uint64_t);
    uint64_t *cand = NULL, *spare = NULL;
    if (t->cap <= ((size_t)1 << 32) && pool_take(t->pool, sort_bytes)) {
        cand = malloc(ncand * sizeof(uint64_t));
        spare = malloc(ncand * sizeof(uint64_t));
        if (!cand || !spare) {
            free(cand); free(spare);
            cand = spare = NULL;
            pool_give(t->pool, sort_bytes);
        }
    }
    if (cand) {
        size_t c = 0;
        for (size_t i = 0; i < t->cap; i++)
            if (t->tags[i] && work_bucket(t->slots[i].work) >= top)
                cand[c++] = (uint64_t)t->slots[i].offset << 32 | i;
        const uint64_t *sorted = sort_high(cand, spare, c);
        for (size_t j = 0; j < c && count < keep; j++) {
            size_t slot = (size_t)(uint32_t)sorted[j];
            int b = work_bucket(t->slots[slot].work);
            if (b > top || (b == top && (skip == 0 || (skip--, 0)))) slots[count++] = slot;
        }
        free(cand); free(spare);
        pool_give(t->pool, sort_bytes);
    }
    for (size_t read = 0; !cand && read < t->nwords && count < keep;) {
        int n = (int)t->words[read];
        const uint64_t *key = t->words + read + 1;
        size_t slot;
        /* an entry counts once, at its own words (searches writing at once may have left
         * a second copy of a key's words, which no entry points at) */
        if (table_find(t, key, n, hash_words(key, n), &slot) && t->slots[slot].offset == read) {
            int b = work_bucket(t->slots[slot].work);
            if (b > top || (b == top && (skip == 0 || (skip--, 0)))) slots[count++] = slot;
        }
        read += n + 1;
    }
    /* their keys moved down in the same order, then the slots rebuilt. A parallel df-pn's
     * table halves the work of what it keeps at every COLLECT_AGE-th collection: an entry's
     * work only grows, and without ageing, entries that cost much once but are searched no
     * more can fill the whole kept half, so that every entry stored since goes at the next
     * collection (its work, that of one visit, below theirs) and the threads search the same
     * subtrees again and again (docs/benchmarks.md, "Two threads on a small table") */
    int age = t->group && (t->collections + 1) % COLLECT_AGE == 0;
    size_t write = 0;
    for (size_t j = 0; j < count; j++) {
        kept[j] = t->slots[slots[j]];
        if (age) kept[j].work >>= 1;
        if (third) third[j] = t->third[slots[j]];
        if (dens) { dens[2 * j] = t->dens[2 * slots[j]]; dens[2 * j + 1] = t->dens[2 * slots[j] + 1]; }
        size_t read = kept[j].offset, n = (size_t)t->words[read] + 1;
        memmove(t->words + write, t->words + read, n * sizeof(uint64_t));
        kept[j].offset = (uint32_t)write;
        write += n;
    }
    memset(t->tags, 0, t->cap);
    t->epoch++;
    t->nwords = write;
    for (size_t j = 0; j < count; j++)
        place(t, t->slots, t->tags, t->third, t->dens, t->cap, &kept[j], third ? third[j] : Q0,
              dens ? dens + 2 * j : NULL);
    t->size = count;
    t->collections++;
    free(slots); free(kept); free(third); free(dens);
    pool_give(t->pool, bytes);
    return 1;
}

/* Add an entry for a key the table does not hold (its work already added up); a full table
 * makes room first. ``slot`` is where table_find said the key would go, valid while the table
 * neither grows nor drops entries. Returns 0 when memory runs out. */
static int table_add(Table *t, const uint64_t *w, int n, uint64_t h, size_t slot, Q low, Q high,
                     int best, Q third, uint32_t work) {
    int moved = 0;
    if ((low.d != 1 || high.d != 1) && !table_dens(t)) return 0;
    if (t->limit > 0 && (long long)t->size >= t->limit) {
        if (!table_collect(t, (size_t)(t->limit / 2))) return 0;
        moved = 1;
    }
    if (!t->cap || (t->size + 1) * 2 > t->cap) {
        if (!table_grow(t) && !(table_collect(t, t->size / 2) && t->cap && (t->size + 1) * 2 <= t->cap))
            return 0;
        moved = 1;
    }
    if (t->nwords + n + 1 > t->capwords) {
        size_t capwords = t->capwords ? t->capwords * 2 : (1 << 14);
        while (capwords < t->nwords + n + 1) capwords *= 2;
        if (capwords > UINT32_MAX) return 0;
        if (!pool_take(t->pool, capwords * sizeof(uint64_t))) {
            if (!table_collect(t, t->size / 2) || t->nwords + n + 1 > t->capwords) return 0;
            moved = 1;
        } else {
            uint64_t *words = realloc(t->words, capwords * sizeof(uint64_t));
            if (!words) { pool_give(t->pool, capwords * sizeof(uint64_t)); return 0; }
            pool_give(t->pool, t->capwords * sizeof(uint64_t));
            t->words = words; t->capwords = capwords;
        }
    }
    if (moved) table_find(t, w, n, h, &slot);
    t->words[t->nwords] = (uint64_t)n;
    memcpy(t->words + t->nwords + 1, w, n * sizeof(uint64_t));
    Entry *e = &t->slots[slot];
    e->check = check_of(h); e->offset = (uint32_t)t->nwords;
    e->best = best; e->work = work;
    entry_set(t, slot, low, high); /* (the denominators' memory made above) */
    t->tags[slot] = tag_of(e->check);
    if (t->third) t->third[slot] = third;
    t->nwords += n + 1;
    t->size++;
    t->added = slot;
    return 1;
}

/* Store an entry (its work already added up); a new key in a full table makes room first.
 * Returns 0 when memory runs out. */
static int table_insert(Table *t, const uint64_t *w, int n, uint64_t h, Q low, Q high, int best,
                        Q third, uint32_t work) {
    size_t slot;
    if (table_find(t, w, n, h, &slot)) {
        Entry *e = &t->slots[slot];
        if (!entry_set(t, slot, low, high)) return 0;
        e->best = best; e->work = work;
        if (t->third) t->third[slot] = third;
        return 1;
    }
    return table_add(t, w, n, h, slot, low, high, best, third, work);
}

/* A table as a Python object, so that the searches of one solve can share it: the searches of
 * the root's moves read it (and write their own), and their entries are merged into it in a
 * fixed order between rounds (kernel/tables.py). */
typedef struct {
    PyObject_HEAD
    Table t;
    PyObject *pool;
} TableObject;

static PyTypeObject TableType;
static PyTypeObject PoolType;

/* ---------------------------------------------------------------- several searches on one table */

/* A parallel df-pn (kernel/dfpn.py: DfpnSearch, with ``workers``): several threads search one
 * question from the same root on the same table, as in Kaneko's parallel df-pn. The table is
 * made first as large as the proof may fill it (group_presize), so that the threads seldom
 * stop each other. Each thread holds the group's lock to read while it searches; one that must
 * still collect the table or give it more words says so (``want``), and the others let go of
 * the lock at their next node (and at every check) so that it has the table alone. A new key
 * claims an empty slot with one atomic step (its tag TAG_BUSY while it is written), and an
 * entry is updated under a lock held in its own move field (BEST_LOCKED: the line written
 * anyway), never from a proof or a disproof back to open numbers. The threads read each
 * other's memos of playouts (memos_read).
 * A thread takes the words of its new keys GROUP_WORDS at a time and adds its new entries to
 * the table's size GROUP_SIZES at a time (and at every check), so that the table's counters
 * are seldom written by all; the room kept for the others (group_slack) covers what a thread
 * has not counted yet. While the table's entries do not move (its epoch), a thread stores a
 * node where its parent found it, as one thread does (dfpn_parent_slot).
 * While a thread searches a node, its count in its own row of ``busy`` makes the node look
 * dearer to the others (virtual proof and disproof numbers), so that they spread over other
 * subtrees; a thread writes only its own row, without an atomic step. */
#define BUSY_SLOTS 8192
#define GROUP_WORDS 512
#define GROUP_SIZES 32

typedef struct Group {
    pthread_rwlock_t rw;
    _Atomic long long nodes;   /* every thread's nodes, counted at their checks */
    _Atomic int done;          /* the root is settled, or a thread stopped: all return */
    _Atomic int stop;          /* the first stop of a thread (STOP_NONE: none) */
    _Atomic int *abort;        /* the first search's interrupt flag (Search.interrupt) */
    _Atomic int want;          /* threads waiting to have the table alone: the others let go of
                                * the lock at their next node */
    int workers;
    _Atomic uint16_t *busy;    /* BUSY_SLOTS a thread: the nodes it searches, by busy_slot */
} Group;

static Group *group_new(int workers, _Atomic int *abort) {
    Group *g = calloc(1, sizeof(Group));
    if (!g) return NULL;
    pthread_rwlockattr_t attr;
    pthread_rwlockattr_init(&attr);
    /* a thread that waits to write goes before those that come back to read */
    pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
    pthread_rwlock_init(&g->rw, &attr);
    pthread_rwlockattr_destroy(&attr);
    g->workers = workers;
    g->abort = abort;
    g->busy = alloc_written((size_t)workers * BUSY_SLOTS * sizeof(uint16_t));
    return g;
}

static void group_free(Group *g) {
    if (!g) return;
    pthread_rwlock_destroy(&g->rw);
    free((void *)g->busy);
    free(g);
}

/* The entries a thread of the group may add before the table's size counts them. */
static inline size_t group_slack(const Group *g) { return (size_t)g->workers * GROUP_SIZES; }

static inline size_t busy_slot(uint64_t h) { return (size_t)(h >> 20) & (BUSY_SLOTS - 1); }

/* An entry's new numbers from one of the group (df-pn's: a proof or disproof stays; whole
 * numbers, so that no denominators are kept). The entry is locked in its move field (df-pn's
 * moves are NO_MOVE; no move is BEST_LOCKED), on the cache line that is written anyway rather
 * than on a line of locks that the threads take from each other. */
#define BEST_LOCKED INT32_MIN
static void group_update(Table *t, size_t slot, Q low, Q high, int best, unsigned long long add) {
    Entry *e = &t->slots[slot];
    int32_t was = __atomic_load_n(&e->best, __ATOMIC_RELAXED);
    for (;;) {
        if (was == BEST_LOCKED) { was = __atomic_load_n(&e->best, __ATOMIC_RELAXED); continue; }
        if (__atomic_compare_exchange_n(&e->best, &was, BEST_LOCKED, 1, __ATOMIC_ACQUIRE,
                                        __ATOMIC_RELAXED))
            break;
    }
    if (!(e->low == 0 || e->high == 0) || low.n == 0 || high.n == 0) {
        e->low = low.n; e->high = high.n; was = best;
    }
    unsigned long long work = (unsigned long long)e->work + add;
    e->work = work > WORK_MAX ? WORK_MAX : (uint32_t)work;
    __atomic_store_n(&e->best, was, __ATOMIC_RELEASE);
}

/* Room for every thread of the group to add a key without growing anything (alone). */
static void group_make_room(Table *t) {
    size_t slack = group_slack(t->group);
    /* a table at its limit drops what cost least before it would grow (as table_add) */
    if (t->limit > 0 && (long long)(t->size + 1 + slack) >= t->limit)
        table_collect(t, (size_t)(t->limit / 2));
    while (!t->cap || (t->size + 1 + slack) * 2 > t->cap)
        if (!table_grow(t)) break;
    size_t need = t->nwords + KEYWORDS + 1 + GROUP_WORDS * (size_t)(t->group->workers + 1);
    if (need > t->capwords) {
        size_t capwords = t->capwords ? t->capwords * 2 : (1 << 14);
        while (capwords < need) capwords *= 2;
        if (capwords <= UINT32_MAX && pool_take(t->pool, capwords * sizeof(uint64_t))) {
            uint64_t *words = realloc(t->words, capwords * sizeof(uint64_t));
            if (!words) { pool_give(t->pool, capwords * sizeof(uint64_t)); return; }
            pool_give(t->pool, t->capwords * sizeof(uint64_t));
            t->words = words; t->capwords = capwords;
        }
    }
}

/* What one thread of a group holds of the table for itself: words taken for its new keys, and
 * entries added that the table's size does not count yet. */
typedef struct {
    size_t at, end;     /* the words taken and not used yet: [at, end) of the table's */
    uint64_t epoch;     /* the table's epoch when they were taken (a collection moves words) */
    size_t uncounted;   /* entries added, not in the table's size yet */
} GroupPart;

/* The entries a thread added, counted in the table's size (before it lets go of the group's
 * lock, so that one that has the table alone reads the true size). */
static inline void group_count(Table *t, GroupPart *my) {
    if (my->uncounted) __atomic_fetch_add(&t->size, my->uncounted, __ATOMIC_RELAXED);
    my->uncounted = 0;
}

/* Words of the table's for a thread's new keys. The words not used yet always read as one
 * key that no entry points at (its length first), so that a collection walking the words
 * (table_collect) steps over them. 0 when the table must make room first. */
static int group_words(Table *t, GroupPart *my, int n) {
    if (my->epoch != t->epoch) my->at = my->end = 0;
    if (my->end - my->at >= (size_t)n + 1) return 1;
    size_t at = __atomic_load_n(&t->nwords, __ATOMIC_RELAXED);
    while (at + GROUP_WORDS <= t->capwords) {
        if (__atomic_compare_exchange_n(&t->nwords, &at, at + GROUP_WORDS, 0, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED)) {
            my->at = at; my->end = at + GROUP_WORDS; my->epoch = t->epoch;
            t->words[at] = GROUP_WORDS - 1;
            return 1;
        }
    }
    return 0;
}

/* Store an entry of a table the group writes (its work, for a new key: the work already spent
 * on it in ``shared`` plus ``add``). ``*where``: the slot that holds it, or NO_SLOT when it
 * was stored with the table alone (the entries may have moved since). Returns 0 when memory
 * runs out. */
static int group_store(Table *t, GroupPart *my, const Table *shared, const uint64_t *w, int n,
                       uint64_t h, Q low, Q high, int best, unsigned long long add,
                       size_t *where) {
    Group *g = t->group;
    size_t slot;
    *where = NO_SLOT;
    if (table_find(t, w, n, h, &slot)) {
        group_update(t, slot, low, high, best, add);
        *where = slot;
        return 1;
    }
    unsigned long long work = add;
    if (shared && table_find(shared, w, n, h, &slot)) work += shared->slots[slot].work;
    if (work > WORK_MAX) work = WORK_MAX;
    size_t slack = group_slack(g);
    size_t size = __atomic_load_n(&t->size, __ATOMIC_RELAXED);
    if ((t->limit > 0 && (long long)(size + slack) >= t->limit) || !t->cap
        || (size + 1 + slack) * 2 > t->cap || !group_words(t, my, n)) {
        /* the table must grow, or drop what cost least: alone */
        group_count(t, my);
        atomic_fetch_add(&g->want, 1);
        pthread_rwlock_unlock(&g->rw);
        pthread_rwlock_wrlock(&g->rw);
        int ok = 1;
        if (table_find(t, w, n, h, &slot)) {
            group_update(t, slot, low, high, best, add);
        } else {
            group_make_room(t);
            table_find(t, w, n, h, &slot);
            ok = table_add(t, w, n, h, slot, low, high, best, Q0, (uint32_t)work);
        }
        atomic_fetch_sub(&g->want, 1);
        pthread_rwlock_unlock(&g->rw);
        pthread_rwlock_rdlock(&g->rw);
        return ok;
    }
    uint32_t check = check_of(h);
    uint8_t tag = tag_of(check);
    size_t mask = t->cap - 1, i = home_of(check, t->cap);
    prefetch_line(&t->slots[i]); /* where the entry most likely goes */
    for (;;) {
        uint8_t seen = __atomic_load_n(&t->tags[i], __ATOMIC_ACQUIRE);
        if (seen == 0) {
            uint8_t empty = 0;
            if (__atomic_compare_exchange_n(&t->tags[i], &empty, TAG_BUSY, 0, __ATOMIC_ACQ_REL,
                                            __ATOMIC_ACQUIRE))
                break;
            continue;
        }
        if (seen == TAG_BUSY) continue;
        if (seen == tag) {
            const Entry *e = &t->slots[i];
            const uint64_t *stored = t->words + e->offset;
            if (e->check == check && stored[0] == (uint64_t)n
                && memcmp(stored + 1, w, n * sizeof(uint64_t)) == 0) {
                /* another thread stored it meanwhile */
                group_update(t, i, low, high, best, add);
                *where = i;
                return 1;
            }
        }
        i = (i + 1) & mask;
    }
    /* the slot claimed first, then the key's words written (the claim, an atomic step, then
     * waits for fewer writes before it) */
    size_t off = my->at;
    t->words[off] = (uint64_t)n;
    memcpy(t->words + off + 1, w, n * sizeof(uint64_t));
    my->at += (size_t)n + 1;
    if (my->at < my->end) t->words[my->at] = my->end - my->at - 1;
    Entry *e = &t->slots[i];
    e->check = check; e->offset = (uint32_t)off;
    e->low = low.n; e->high = high.n; e->best = best; e->work = (uint32_t)work;
    if (++my->uncounted >= GROUP_SIZES) group_count(t, my);
    __atomic_store_n(&t->tags[i], tag, __ATOMIC_RELEASE);
    *where = i;
    return 1;
}

/* ---------------------------------------------------------------- the search */

enum { STOP_NONE, STOP_NODES, STOP_TIME, STOP_PYTHON, STOP_CAPACITY, STOP_MEMORY, STOP_DEPTH,
       STOP_CYCLE, STOP_ABORT, STOP_NOT_CONSTANT, STOP_DONE };
#define MAX_DEPTH 1000 /* search.py: MAX_DEPTH */
enum { MODE_MIXED, MODE_LOWER, MODE_UPPER };
#define CHECK_INTERVAL 4096
#define TUNE_MOBILITY 1 /* params.py: Tuning.mobility */
#define TUNE_DISTANCE(t) ((t) >> 1 & 7) /* params.py: Tuning.distance */
#define TUNE_SQUEEZE 16 /* params.py: Tuning.squeeze */
#define TUNE_PLAYOUTS(t) ((t) >> 5 & 15) /* params.py: Tuning.playouts */
#define TUNE_HINT_STORED 512 /* params.py: Tuning.hint_stored */
#define TUNE_TIES(t) ((t) >> 10 & 3) /* params.py: Tuning.ties */
#define TUNE_PRIOR(t) (((t) >> 12 & 7) + 1) /* params.py: 1 + Tuning.playout_prior */
#define TUNE_MODEL 32768 /* params.py: Tuning.seed_model */
#define PLAYOUT_STEPS 400 /* dfpn.py: PLAYOUT_STEPS */
#define SQUEEZE_SCALE 16 /* search.py: SQUEEZE_SCALE */
#define SEED_MAX (((int64_t)1) << 30)
#define NO_MOVE (-1)
/* df-pn's cycle check compares a child with the path only where a node of the path has the
 * same bits of the hash (dfpn_mid counts them), so that most children skip the scan. */
#define PATH_SEEN 4096
static inline size_t path_bits(uint64_t h) { return (size_t)(h >> 40) & (PATH_SEEN - 1); }

typedef struct {
    int legal[MAXMOVES], mine[MAXMOVES], theirs[MAXMOVES];
    uint64_t key[KEYWORDS];
    KS *kids;
    int *moves;
    int *order;
    int *score;
    uint64_t *keys;   /* KEYWORDS words per child */
    int *keylen;
    size_t *slots;    /* df-pn: where the search's table holds each child (NO_SLOT: not known) */
    uint64_t epoch;   /* the table's epoch when those slots were found */
    uint64_t *hashes;
    int64_t *seed_pn, *seed_dn; /* df-pn: the numbers of children not searched yet */
    int64_t *phi, *delta; /* df-pn: the children's numbers read last (the side to move's first) */
    uint8_t *found;   /* df-pn: where a child's first probe found it (FOUND_*) */
    int cap;
} Frame;

/* A search resolves each bout's end where it comes (resolve_now, a memo of NULL): cheaper than
 * a probe of a memo of the ends seen before, whose cache misses cost more than the
 * resolution (docs/benchmarks.md, "One thread's node rate, continued"). */
typedef struct Search {
    PyObject_HEAD
    Spec spec;
    Table own;
    Table *table;      /* where this search stores: its own table, or a shared Table's */
    Table *shared;     /* read after ``table`` and never written during a search (NULL: none) */
    PyObject *table_obj, *shared_obj, *pool_obj;
    PyObject *hint_obj; /* df-pn: the search of the other question, whose proofs settle
                         * children here (dfpn.py: DfpnSearch.use_hint; NULL: none) */
    int hint_target;    /* the value that search asks about (0 or 1) */
    PyObject *proof_obj[2]; /* alpha-beta: the df-pn searches of "value 0?" and "value 1?",
                             * whose proofs are exact values here (NULL: none) */
    int ask;    /* alpha-beta: ask those searches at each new state (Tuning.alpha_beta_asks) */
    int asking; /* ... in this search: its root is worth a fraction (both questions disproved) */
    Pool *pool;
    _Atomic int abort; /* set from another thread: stop at the next check */
    int threaded;      /* run without the GIL (progress is then not reported) */
    PyThreadState *released; /* the thread state while the search runs without the GIL */
    int maximising[MAXP];
    int constant_sum, mode, total, gap_seen, has_payoff;
    Q payoff[MAXP + 1][MAXP];  /* [winner + 1][next round leader] */
    long long nodes, next_check, max_nodes, table_limit;
    double started, deadline;
    PyObject *progress, *matrix_value;
    int stop;
    int maxn_mode, tie_last, nteams;
    Frame **frames; /* one allocation per depth: addresses stay put while deeper ones grow */
    int nframes, depth;
    /* df-pn (kernel/dfpn.py): the question's target value and the seats that prove it */
    int target, attacker[MAXP], mixed_seen;
    int tuning; /* params.py: Tuning.mask() */
    uint64_t path_hash[MAX_DEPTH + 1];
    const uint64_t *path_key[MAX_DEPTH + 1];
    int path_len[MAX_DEPTH + 1];
    uint16_t path_seen[PATH_SEEN]; /* df-pn: the nodes on the path by bits of their hashes */
    /* a parallel df-pn: how many threads prove (Search.workers), the other threads' searches
     * (plain structures, kept between proofs), and while they run, their group */
    int workers, nclones;
    struct Search **clones;
    PlayoutMemos *memos;  /* df-pn: the memos of playouts it shares (its pool's, or own_memos) */
    PlayoutMemos *own_memos; /* a search without a pool: memos of its own (else NULL) */
    struct PlayoutMemo *playouts; /* the memo it holds while it proves (NULL: none) */
    int memo_at, memo_tried; /* its place in memos; 1: it has asked for one in this proof */
    uint64_t spec_digest;    /* a digest of spec: memos are used by searches of the same rules */
    uint8_t sides;           /* the maximising seats, a bit each */
    const uint64_t *stored_key; /* df-pn: the key stored last (a child's in a frame), and where:
                                 * the parent's loop reads its numbers there (NULL: none) */
    size_t stored_slot;
    Group *group;
    long long flushed; /* nodes already added to the group's count */
    GroupPart part;    /* what this thread holds of the group's table */
    int worker;        /* this thread's row of the group's busy counts */
} Search;

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void schedule(Search *S) {
    long long following = S->nodes + CHECK_INTERVAL;
    if (S->group) {
        /* the node limit counts every thread's nodes: check sooner as it comes near */
        if (S->max_nodes > 0) {
            long long left = S->max_nodes - atomic_load(&S->group->nodes);
            long long share = left / S->group->workers + 1;
            if (share < CHECK_INTERVAL) following = S->nodes + (share > 0 ? share : 1);
        }
    } else if (S->max_nodes > 0 && following > S->max_nodes + 1) {
        following = S->max_nodes + 1;
    }
    S->next_check = following;
}

/* A thread of a parallel df-pn at its check: its nodes counted, the others' stops seen, and
 * the group's lock let go of a moment (one that waits to grow or collect the table has it). */
static int group_check(Search *S) {
    Group *g = S->group;
    long long total = atomic_fetch_add(&g->nodes, S->nodes - S->flushed) + (S->nodes - S->flushed);
    S->flushed = S->nodes;
    group_count(S->table, &S->part);
    if (atomic_load(&g->done)) { S->stop = STOP_DONE; return -1; }
    if (S->max_nodes > 0 && total > S->max_nodes) { S->stop = STOP_NODES; return -1; }
    if (atomic_load(g->abort)) { S->stop = STOP_ABORT; return -1; }
    if (S->deadline > 0 && now_seconds() > S->deadline) { S->stop = STOP_TIME; return -1; }
    pthread_rwlock_unlock(&g->rw);
    pthread_rwlock_rdlock(&g->rw);
    schedule(S);
    return 0;
}

/* A thread of a parallel df-pn lets go of the group's lock a moment for one that waits to
 * have the table alone (Group.want). A child's store made before may have moved. */
static void group_yield(Search *S) {
    Group *g = S->group;
    uint64_t epoch = S->table->epoch;
    group_count(S->table, &S->part);
    pthread_rwlock_unlock(&g->rw);
    pthread_rwlock_rdlock(&g->rw);
    if (S->table->epoch != epoch) S->stored_key = NULL;
}

/* Python is called with the GIL held: a search running without it takes it back for the call. */
static void gil_take(Search *S) { if (S->released) PyEval_RestoreThread(S->released); }
static void gil_drop(Search *S) { if (S->released) S->released = PyEval_SaveThread(); }

static int check_budget(Search *S) {
    if (S->group) return group_check(S);
    if (S->max_nodes > 0 && S->nodes > S->max_nodes) { S->nodes = S->max_nodes; S->stop = STOP_NODES; return -1; }
    if (atomic_load(&S->abort)) { S->stop = STOP_ABORT; return -1; }
    double now = now_seconds();
    if (S->deadline > 0 && now > S->deadline) { S->stop = STOP_TIME; return -1; }
    if (!S->released) {
        if (PyErr_CheckSignals() < 0) { S->stop = STOP_PYTHON; return -1; }
        if (S->progress != Py_None) {
            PyObject *r = PyObject_CallFunction(S->progress, "Ld", S->nodes, now - S->started);
            if (!r) { S->stop = STOP_PYTHON; return -1; }
            Py_DECREF(r);
        }
    }
    schedule(S);
    return 0;
}

/* ---------------------------------------------------------------- the table as searches see it */

typedef struct { Q low, high; int best; } Probe;

/* The entry of a key: the search's own table first, then the shared one. */
static int tt_probe(const Search *S, const uint64_t *w, int n, uint64_t h, Probe *p) {
    size_t slot;
    const Table *t = S->table;
    if (!table_find(t, w, n, h, &slot)) {
        t = S->shared;
        if (!t || !table_find(t, w, n, h, &slot)) return 0;
    }
    p->low = entry_low(t, slot); p->high = entry_high(t, slot); p->best = t->slots[slot].best;
    return 1;
}

/* Store an entry in the search's own table; its work is the work already spent on the key
 * (in either table) plus ``spent`` nodes. */
static int tt_store_at(Search *S, const uint64_t *w, int n, uint64_t h, Q low, Q high, int best,
                       long long spent, size_t slot);

static int tt_store(Search *S, const uint64_t *w, int n, uint64_t h, Q low, Q high, int best,
                    long long spent) {
    return tt_store_at(S, w, n, h, low, high, best, spent, NO_SLOT);
}

/* The same, ``slot`` where the table holds the key if known (else NO_SLOT); df-pn remembers
 * where it stored (stored_key, stored_slot). */
static int tt_store_at(Search *S, const uint64_t *w, int n, uint64_t h, Q low, Q high, int best,
                       long long spent, size_t slot) {
    size_t there;
    unsigned long long add = (unsigned long long)(spent > 0 ? spent : 0);
    Table *t = S->table;
    if (t->group) {
        if (slot != NO_SLOT) {
            group_update(t, slot, low, high, best, add);
        } else if (!group_store(t, &S->part, S->shared, w, n, h, low, high, best, add, &slot)) {
            S->stop = STOP_MEMORY;
            return -1;
        }
        if (slot != NO_SLOT) { S->stored_key = w; S->stored_slot = slot; }
        return 0;
    }
    if (slot != NO_SLOT || table_find(t, w, n, h, &slot)) {
        Entry *e = &t->slots[slot];
        unsigned long long work = (unsigned long long)e->work + add;
        if (!entry_set(t, slot, low, high)) { S->stop = STOP_MEMORY; return -1; }
        e->best = best;
        e->work = work > WORK_MAX ? WORK_MAX : (uint32_t)work;
        S->stored_key = w; S->stored_slot = slot;
        return 0;
    }
    uint32_t old = 0;
    if (S->shared && table_find(S->shared, w, n, h, &there)) old = S->shared->slots[there].work;
    unsigned long long work = (unsigned long long)old + add;
    if (work > WORK_MAX) work = WORK_MAX;
    if (!table_add(t, w, n, h, slot, low, high, best, Q0, (uint32_t)work)) {
        S->stop = STOP_MEMORY;
        return -1;
    }
    S->stored_key = w; S->stored_slot = t->added;
    return 0;
}

static Frame *frame_at(Search *S, int depth, int need) {
    if (depth >= S->nframes) {
        int count = S->nframes ? S->nframes * 2 : 64;
        while (count <= depth) count *= 2;
        Frame **frames = realloc(S->frames, count * sizeof(Frame *));
        if (!frames) return NULL;
        memset(frames + S->nframes, 0, (count - S->nframes) * sizeof(Frame *));
        S->frames = frames; S->nframes = count;
    }
    Frame *f = S->frames[depth];
    if (!f) {
        f = calloc(1, sizeof(Frame));
        if (!f) return NULL;
        S->frames[depth] = f;
    }
    if (f->cap < need) {
        int cap = need < 64 ? 64 : need;
        size_t *slots = realloc(f->slots, cap * sizeof(size_t));
        if (!slots) return NULL;
        f->slots = slots;
        KS *kids = realloc(f->kids, cap * sizeof(KS));
        if (!kids) return NULL;
        f->kids = kids;
        int *moves = realloc(f->moves, cap * sizeof(int));
        if (!moves) return NULL;
        f->moves = moves;
        int *order = realloc(f->order, cap * sizeof(int));
        if (!order) return NULL;
        f->order = order;
        int *score = realloc(f->score, cap * sizeof(int));
        if (!score) return NULL;
        f->score = score;
        uint64_t *keys = realloc(f->keys, (size_t)cap * KEYWORDS * sizeof(uint64_t));
        if (!keys) return NULL;
        f->keys = keys;
        int *keylen = realloc(f->keylen, cap * sizeof(int));
        if (!keylen) return NULL;
        f->keylen = keylen;
        uint64_t *hashes = realloc(f->hashes, cap * sizeof(uint64_t));
        if (!hashes) return NULL;
        f->hashes = hashes;
        int64_t *seed_pn = realloc(f->seed_pn, cap * sizeof(int64_t));
        if (!seed_pn) return NULL;
        f->seed_pn = seed_pn;
        int64_t *seed_dn = realloc(f->seed_dn, cap * sizeof(int64_t));
        if (!seed_dn) return NULL;
        f->seed_dn = seed_dn;
        int64_t *phi = realloc(f->phi, cap * sizeof(int64_t));
        if (!phi) return NULL;
        f->phi = phi;
        int64_t *delta = realloc(f->delta, cap * sizeof(int64_t));
        if (!delta) return NULL;
        f->delta = delta;
        uint8_t *found = realloc(f->found, cap);
        if (!found) return NULL;
        f->found = found;
        f->cap = cap;
    }
    return f;
}

static int search(Search *S, const KS *k, Q alpha, Q beta, Q *out);

/* ---------------------------------------------------------------- a benchmark's count of bout starts */

/* benchmarks/omens_waste.py counts the distinct bout starts (a bout's phase, no card in play,
 * nothing pending) the searches expand, alpha-beta's and df-pn's, beside those of the proof
 * they certify: a set of the keys' hashes with the cards still in the hands, kept while the
 * recording is on (off by default: a search then only tests a flag). */
static struct {
    _Atomic int on;
    PyThread_type_lock lock;
    uint64_t *hashes;
    uint8_t *cards;
    size_t cap, size;
} bouts;

static int is_bout_start(const KS *k) {
    return k->phase == BOUT && !k->played && !k->nfront && !k->npending;
}

static void bouts_add(uint64_t *hashes, uint8_t *cards, size_t cap, uint64_t h, uint8_t c) {
    size_t i = (size_t)(h >> 17) & (cap - 1);
    while (hashes[i] && hashes[i] != h) i = (i + 1) & (cap - 1);
    if (!hashes[i]) { hashes[i] = h; cards[i] = c; }
}

static void note_bout_start(const Search *S, const KS *k, uint64_t h) {
    if (!atomic_load(&bouts.on) || !is_bout_start(k)) return;
    int c = 0;
    for (int seat = 0; seat < S->spec.players; seat++) c += popcount(k->hands[seat]);
    PyThread_acquire_lock(bouts.lock, WAIT_LOCK);
    if ((bouts.size + 1) * 2 > bouts.cap) {
        size_t cap = bouts.cap ? bouts.cap * 2 : 1 << 12;
        uint64_t *hashes = calloc(cap, sizeof(uint64_t));
        uint8_t *cards = calloc(cap, 1);
        if (!hashes || !cards) { free(hashes); free(cards); PyThread_release_lock(bouts.lock); return; }
        for (size_t j = 0; j < bouts.cap; j++)
            if (bouts.hashes[j]) bouts_add(hashes, cards, cap, bouts.hashes[j], bouts.cards[j]);
        free(bouts.hashes); free(bouts.cards);
        bouts.hashes = hashes; bouts.cards = cards; bouts.cap = cap;
    }
    size_t before = bouts.size, i = (size_t)(h >> 17) & (bouts.cap - 1);
    while (bouts.hashes[i] && bouts.hashes[i] != h) i = (i + 1) & (bouts.cap - 1);
    if (!bouts.hashes[i]) { bouts.hashes[i] = h; bouts.cards[i] = (uint8_t)c; bouts.size = before + 1; }
    PyThread_release_lock(bouts.lock);
}

/* record_bout_starts(on) -> {cards in the hands: distinct bout starts expanded} since the
 * recording was last turned on (and clears it when turned on). */
static PyObject *py_record_bout_starts(PyObject *self, PyObject *args) {
    int on;
    if (!PyArg_ParseTuple(args, "p", &on)) return NULL;
    PyThread_acquire_lock(bouts.lock, WAIT_LOCK);
    PyObject *counted = PyDict_New();
    for (size_t i = 0; counted && i < bouts.cap; i++) {
        if (!bouts.hashes[i]) continue;
        PyObject *key = PyLong_FromLong(bouts.cards[i]);
        PyObject *old = key ? PyDict_GetItem(counted, key) : NULL;
        PyObject *count = PyLong_FromLong(old ? PyLong_AsLong(old) + 1 : 1);
        if (!key || !count || PyDict_SetItem(counted, key, count) < 0) Py_CLEAR(counted);
        Py_XDECREF(key); Py_XDECREF(count);
    }
    if (on) {
        free(bouts.hashes); free(bouts.cards);
        bouts.hashes = NULL; bouts.cards = NULL; bouts.cap = bouts.size = 0;
    }
    atomic_store(&bouts.on, on);
    PyThread_release_lock(bouts.lock);
    return counted;
}

/* With minimax: every leaf's returns must add up to the same total (search.py: terminal). */
static int check_total(Search *S, const KS *k) {
    if (!S->constant_sum) return 0;
    int total = k->winner < 0 ? 0 : 1;
    if (S->total < 0) S->total = total;
    else if (total != S->total) {
        /* raised once the GIL is held again (Search.search, Search.prove) */
        S->stop = STOP_NOT_CONSTANT;
        return -1;
    }
    return 0;
}

static int terminal(Search *S, const KS *k, Q *out) {
    int winner = k->winner;
    if (check_total(S, k) < 0) return -1;
    if (S->has_payoff) {
        /* search.py: leaf_value; machine.py: next_round_leader */
        int leader = winner < 0 ? 0 : winner;
        int setting = S->spec.pride_next_round;
        if (winner >= 0 && k->has_outcome && k->out_pride
            && (setting == 1 || (setting == 2 && k->victim < 0)
                || (setting == 3 && k->out_luck_seat < 0)))
            leader = k->out_next_leader;
        *out = S->payoff[winner + 1][leader];
        return 0;
    }
    *out = (winner >= 0 && S->maximising[winner]) ? Q1 : Q0;
    return 0;
}

static void skip_shows_loop(Search *S, KS *k) {
    int moves[MAXMOVES];
    while (k->npending && k->pending[k->npending - 1].kind == P_SHOW && !k->error) {
        int n = legal(&S->spec, k, -1, moves);
        if (n <= 0) { k->error = 1; return; }
        apply(&S->spec, NULL, k, moves[0]);
    }
}

/* skip_shows without a call where no show is pending (nearly always). */
static inline void skip_shows(Search *S, KS *k) {
    if (k->npending && k->pending[k->npending - 1].kind == P_SHOW) skip_shows_loop(S, k);
}

/* The processor's POPCNT instruction where it has one, chosen when the module loads (x86-64
 * before it lacks the instruction, so the baseline build counts bits by a library call). */
#if defined(__GNUC__) && defined(__x86_64__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define WITH_POPCNT __attribute__((target_clones("popcnt", "default")))
#endif
#endif
#ifndef WITH_POPCNT
#define WITH_POPCNT
#endif

/* A static guess for move ordering (omen_solver/omens/kernel/search.py: evaluate). */
/* How many cards the nearest player of ``side`` and the nearest of the others must still lose to
 * hold 1, as if the bout ended now (search.py: distances). */
WITH_POPCNT
static void distances(const Spec *s, Memo *memo, const KS *k, const int *side, int *mine_out,
                      int *theirs_out) {
    uint64_t hands[MAXP];
    memcpy(hands, k->hands, sizeof hands);
    if (k->nfront) {
        uint64_t discarded = memo ? memo_resolve(s, memo, k->front, k->nfront, k->leader).discarded
                                  : front_discarded(s, k->front, k->nfront);
        for (int i = 0; i < k->nfront; i++) {
            int p = k->front[i], card = p & 63;
            if (!(discarded >> card & 1)) {
                int seat = s->return_placer ? (p >> 9 & 7) : (p >> 6 & 7);
                hands[seat] |= ((uint64_t)1) << card;
            }
        }
    }
    int mine = 99, theirs = 99;
    for (int seat = 0; seat < s->players; seat++) {
        if (!hands[seat]) continue;
        int distance = __builtin_popcountll(hands[seat]) - 1;
        if (side[seat]) { if (distance < mine) mine = distance; }
        else if (distance < theirs) theirs = distance;
    }
    *mine_out = mine;
    *theirs_out = theirs;
}

static int evaluate(Search *S, const KS *k) {
    int squeeze = S->tuning & TUNE_SQUEEZE;
    if (k->phase == OVER) {
        int won = (k->winner >= 0 && S->maximising[k->winner]) ? 1000 : -1000;
        return squeeze ? won * SQUEEZE_SCALE : won;
    }
    int mine, theirs;
    distances(&S->spec, NULL, k, S->maximising, &mine, &theirs);
    if (!squeeze) return theirs - mine;
    int score = (theirs - mine) * SQUEEZE_SCALE;
    int player = current_player(&S->spec, k);
    if (player >= 0) {
        int count = legal_count(&S->spec, k, player);
        if (count > SQUEEZE_SCALE - 1) count = SQUEEZE_SCALE - 1;
        score += S->maximising[player] ? count : -count;
    }
    return score;
}

/* Make the distinct children of ``moves`` (the first action of each kept) into frame f.
 * Returns the number kept, or -1 on a capacity error. */
static void child_prefetch(const Search *S, uint64_t h);

static int make_children(Search *S, Frame *f, const KS *k, const int *moves, int n, int joint_from) {
    int kept = 0;
    for (int i = 0; i < n; i++) {
        KS *kid = &f->kids[kept];
        if (joint_from >= 0) {
            /* moves holds pairs */
            joint_child(&S->spec, NULL, k, moves[2 * i], moves[2 * i + 1], kid);
        } else {
            child(&S->spec, NULL, k, moves[i], kid);
        }
        skip_shows(S, kid);
        if (kid->error) { S->stop = STOP_CAPACITY; return -1; }
        uint64_t *w = f->keys + (size_t)kept * KEYWORDS;
        int len = pack_key(&S->spec, kid, w);
        uint64_t h = hash_words(w, len);
        int duplicate = 0;
        for (int j = 0; j < kept; j++) {
            if (f->hashes[j] == h && f->keylen[j] == len
                && memcmp(f->keys + (size_t)j * KEYWORDS, w, len * sizeof(uint64_t)) == 0) {
                duplicate = 1;
                break;
            }
        }
        if (duplicate) continue;
        child_prefetch(S, h);
        f->keylen[kept] = len;
        f->hashes[kept] = h;
        f->moves[kept] = joint_from >= 0 ? i : moves[i];
        kept++;
    }
    return kept;
}

/* The distinct children of a decision or chance node (the actions of ``who``; -1: chance) into
 * the frame at this depth (*fp); -1 on an error. */
static int action_children(Search *S, Frame **fp, const KS *k, int who) {
    Frame *f = frame_at(S, S->depth, 0);
    if (!f) { S->stop = STOP_MEMORY; return -1; }
    int n = legal(&S->spec, k, who, f->legal);
    if (n < 0) { S->stop = STOP_CAPACITY; return -1; }
    f = frame_at(S, S->depth, n);
    if (!f) { S->stop = STOP_MEMORY; return -1; }
    *fp = f;
    return make_children(S, f, k, f->legal, n, -1);
}

/* The distinct children of every pair (a[i], b[j]) of a simultaneous choice into the frame at
 * this depth (*fp), each kept with its index i * nb + j; -1 on an error. ``a`` and ``b`` may
 * lie in that frame (its arrays stay put). */
static int pair_children(Search *S, Frame **fp, const KS *k, const int *a, int na, const int *b,
                         int nb) {
    int count = na * nb;
    int *pairs = malloc(2 * (size_t)(count ? count : 1) * sizeof(int));
    if (!pairs) { S->stop = STOP_MEMORY; return -1; }
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++) {
            pairs[2 * (i * nb + j)] = a[i];
            pairs[2 * (i * nb + j) + 1] = b[j];
        }
    Frame *f = frame_at(S, S->depth, count);
    if (!f) { free(pairs); S->stop = STOP_MEMORY; return -1; }
    *fp = f;
    int kept = make_children(S, f, k, pairs, count, 0);
    free(pairs);
    return kept;
}

static int choose(Search *S, Frame *f, int count, Q alpha, Q beta, int best, int maximising,
                  Q *value_out, int *best_out) {
    int *order = f->order;
    for (int i = 0; i < count; i++) order[i] = i;
    if (count > 1) {
        /* enhanced transposition cut-off: a child the table already proves good enough */
        for (int i = 0; i < count; i++) {
            Probe p;
            if (!tt_probe(S, f->keys + (size_t)i * KEYWORDS, f->keylen[i], f->hashes[i], &p))
                continue;
            if (maximising && q_le(beta, p.low)) {
                *value_out = p.low; *best_out = f->moves[i]; return 0;
            }
            if (!maximising && q_le(p.high, alpha)) {
                *value_out = p.high; *best_out = f->moves[i]; return 0;
            }
        }
        /* then by static evaluation, best for the side to move first (stable) */
        int sign = maximising ? 1 : -1;
        for (int i = 0; i < count; i++) f->score[i] = -sign * evaluate(S, &f->kids[i]);
        for (int i = 1; i < count; i++) {
            int x = order[i], j = i - 1;
            while (j >= 0 && f->score[order[j]] > f->score[x]) { order[j + 1] = order[j]; j--; }
            order[j + 1] = x;
        }
    }
    if (best != NO_MOVE) {
        for (int i = 0; i < count; i++) {
            if (f->moves[order[i]] == best) {
                int x = order[i];
                memmove(order + 1, order, i * sizeof(int));
                order[0] = x;
                break;
            }
        }
    }
    int best_move = best;
    Q best_value = maximising ? QNEG : QTWO;
    for (int i = 0; i < count; i++) {
        int x = order[i];
        Q value;
        S->depth++;
        int r = search(S, &f->kids[x], alpha, beta, &value);
        S->depth--;
        if (r < 0) return -1;
        if (maximising) {
            if (q_lt(best_value, value)) {
                best_value = value;
                best_move = f->moves[x];
                if (q_lt(alpha, value)) {
                    if (q_le(beta, value)) break;
                    alpha = value;
                }
            }
        } else {
            if (q_lt(value, best_value)) {
                best_value = value;
                best_move = f->moves[x];
                if (q_lt(value, beta)) {
                    if (q_le(value, alpha)) break;
                    beta = value;
                }
            }
        }
    }
    *value_out = best_value;
    *best_out = best_move;
    return 0;
}

static int decision(Search *S, const KS *k, int player, Q alpha, Q beta, int best, Q *value, int *best_out) {
    Frame *f;
    int count = action_children(S, &f, k, player);
    if (count < 0) return -1;
    return choose(S, f, count, alpha, beta, best, S->maximising[player], value, best_out);
}

static Q clamp_low(Q x) { return q_lt(Q0, x) ? x : Q0; }
static Q clamp_high(Q x) { return q_lt(x, Q1) ? x : Q1; }

static int chance(Search *S, const KS *k, Q alpha, Q beta, Q *out) {
    Frame *f = frame_at(S, S->depth, 1);
    if (!f) { S->stop = STOP_MEMORY; return -1; }
    int *moves = f->legal;
    int n = legal(&S->spec, k, -1, moves);
    if (n <= 0) { S->stop = STOP_CAPACITY; return -1; }
    Q probability = {1, n};
    Q done = Q0, remaining = Q1;
    for (int i = 0; i < n; i++) {
        remaining = q_sub(remaining, probability);
        Q child_alpha = q_div(q_sub(q_sub(alpha, done), remaining), probability);
        Q child_beta = q_div(q_sub(beta, done), probability);
        Q window_low = clamp_low(child_alpha), window_high = clamp_high(child_beta);
        if (q_le(window_high, window_low)) {
            Q edge = q_le(Q1, child_alpha) ? Q1 : Q0;
            *out = q_add(done, q_mul(q_add(probability, remaining), edge));
            return 0;
        }
        KS *kid = &f->kids[0];
        child(&S->spec, NULL, k, moves[i], kid);
        skip_shows(S, kid);
        if (kid->error) { S->stop = STOP_CAPACITY; return -1; }
        Q value;
        S->depth++;
        int r = search(S, kid, window_low, window_high, &value);
        S->depth--;
        if (r < 0) return -1;
        if (q_le(value, child_alpha)) { *out = q_add(q_add(done, q_mul(probability, value)), remaining); return 0; }
        if (q_le(child_beta, value)) { *out = q_add(done, q_mul(probability, value)); return 0; }
        done = q_add(done, q_mul(probability, value));
    }
    *out = done;
    return 0;
}

typedef struct {
    Search *S;
    const KS *state;
    const int *rows, *columns;
    int height, width, player_rows;
    KS *kids;
    uint8_t *made;
} Matrix;

static KS *matrix_child(Matrix *M, int r, int c) {
    int index = r * M->width + c;
    KS *kid = &M->kids[index];
    if (!M->made[index]) {
        int a = M->player_rows ? M->rows[r] : M->columns[c];
        int b = M->player_rows ? M->columns[c] : M->rows[r];
        joint_child(&M->S->spec, NULL, M->state, a, b, kid);
        skip_shows(M->S, kid);
        M->made[index] = 1;
    }
    return kid;
}

static int two_ply(Matrix *M, int rows_first, int maximising, Q alpha, Q beta, Q *out) {
    Search *S = M->S;
    int first = rows_first ? M->height : M->width, second = rows_first ? M->width : M->height;
    Q best = maximising ? QNEG : QTWO;
    for (int i = 0; i < first; i++) {
        Q answer = maximising ? QTWO : QNEG;
        Q a = alpha, b = beta;
        for (int j = 0; j < second; j++) {
            KS *kid = rows_first ? matrix_child(M, i, j) : matrix_child(M, j, i);
            if (kid->error) { S->stop = STOP_CAPACITY; return -1; }
            Q value;
            S->depth++;
            int r = search(S, kid, a, b, &value);
            S->depth--;
            if (r < 0) return -1;
            if (maximising) {
                if (q_lt(value, answer)) {
                    answer = value;
                    if (q_le(value, a)) break;
                    if (q_lt(value, b)) b = value;
                }
            } else {
                if (q_lt(answer, value)) {
                    answer = value;
                    if (q_le(b, value)) break;
                    if (q_lt(a, value)) a = value;
                }
            }
        }
        if (maximising) {
            if (q_lt(best, answer)) {
                best = answer;
                if (q_le(beta, answer)) break;
                if (q_lt(alpha, answer)) alpha = answer;
            }
        } else {
            if (q_lt(answer, best)) {
                best = answer;
                if (q_le(answer, alpha)) break;
                if (q_lt(answer, beta)) beta = answer;
            }
        }
    }
    *out = best;
    return 0;
}

static int matrix_value(Search *S, Matrix *M, Q *out) {
    int h = M->height, w = M->width;
    Q *entries = malloc((size_t)h * w * sizeof(Q));
    if (!entries) { S->stop = STOP_MEMORY; return -1; }
    for (int r = 0; r < h; r++) {
        for (int c = 0; c < w; c++) {
            KS *kid = matrix_child(M, r, c);
            if (kid->error) { free(entries); S->stop = STOP_CAPACITY; return -1; }
            S->depth++;
            int res = search(S, kid, Q0, Q1, &entries[r * w + c]);
            S->depth--;
            if (res < 0) { free(entries); return -1; }
        }
    }
    Q lower = QNEG, upper = QTWO;
    for (int r = 0; r < h; r++) {
        Q row_min = QTWO;
        for (int c = 0; c < w; c++) if (q_lt(entries[r * w + c], row_min)) row_min = entries[r * w + c];
        if (q_lt(lower, row_min)) lower = row_min;
    }
    for (int c = 0; c < w; c++) {
        Q col_max = QNEG;
        for (int r = 0; r < h; r++) if (q_lt(col_max, entries[r * w + c])) col_max = entries[r * w + c];
        if (q_lt(col_max, upper)) upper = col_max;
    }
    if (S->mode == MODE_LOWER) { *out = lower; free(entries); return 0; }
    if (S->mode == MODE_UPPER) { *out = upper; free(entries); return 0; }
    if (q_eq(lower, upper)) { *out = lower; free(entries); return 0; }
    S->gap_seen = 1;
    gil_take(S);
    PyObject *matrix = PyList_New(h);
    for (int r = 0; r < h; r++) {
        PyObject *row = PyList_New(w);
        for (int c = 0; c < w; c++) PyList_SET_ITEM(row, c, q_to_py(entries[r * w + c]));
        PyList_SET_ITEM(matrix, r, row);
    }
    free(entries);
    PyObject *value = PyObject_CallFunctionObjArgs(S->matrix_value, matrix, NULL);
    Py_DECREF(matrix);
    int r = value ? q_from_py(value, out) : -1;
    Py_XDECREF(value);
    if (r < 0 && S->released) {
        /* the error cannot wait for the GIL to be handed back: report it as a stop */
        PyErr_WriteUnraisable(S->matrix_value);
    }
    gil_drop(S);
    if (r < 0) { S->stop = S->released ? STOP_CAPACITY : STOP_PYTHON; return -1; }
    return 0;
}

static int simultaneous(Search *S, const KS *k, Q alpha, Q beta, int best, Q *value, int *best_out) {
    const Pending *top = &k->pending[k->npending - 1];
    int player = top->seat, target = top->a;
    Frame *frame = frame_at(S, S->depth, 0);
    if (!frame) { S->stop = STOP_MEMORY; return -1; }
    int *mine = frame->mine, *theirs = frame->theirs;
    int nm = legal(&S->spec, k, player, mine), nt = legal(&S->spec, k, target, theirs);
    if (nm < 0 || nt < 0) { S->stop = STOP_CAPACITY; return -1; }
    if (S->maximising[player] == S->maximising[target]) {
        Frame *f;
        int kept = pair_children(S, &f, k, mine, nm, theirs, nt);
        if (kept < 0) return -1;
        return choose(S, f, kept, alpha, beta, best, S->maximising[player], value, best_out);
    }
    Matrix M;
    M.S = S; M.state = k;
    M.player_rows = S->maximising[player];
    M.rows = M.player_rows ? mine : theirs;
    M.columns = M.player_rows ? theirs : mine;
    M.height = M.player_rows ? nm : nt;
    M.width = M.player_rows ? nt : nm;
    M.kids = malloc((size_t)M.height * M.width * sizeof(KS));
    M.made = calloc((size_t)M.height * M.width, 1);
    *best_out = NO_MOVE;
    if (!M.kids || !M.made) { free(M.kids); free(M.made); S->stop = STOP_MEMORY; return -1; }
    int r;
    Q lower, upper;
    r = two_ply(&M, 1, 1, alpha, beta, &lower);
    if (r == 0 && (q_le(beta, lower) || S->mode == MODE_LOWER)) { *value = lower; goto done; }
    if (r == 0) r = two_ply(&M, 0, 0, alpha, beta, &upper);
    if (r == 0 && (q_le(upper, alpha) || S->mode == MODE_UPPER)) { *value = upper; goto done; }
    if (r == 0) r = matrix_value(S, &M, value);
done:
    free(M.kids); free(M.made);
    return r;
}

/* Whether df-pn's tables disprove both questions at this state: its value is a fraction. */
static int proofs_disprove(const Search *S, const uint64_t *w, int len, uint64_t h) {
    for (int q = 0; q < 2; q++) {
        const Search *D = (const Search *)S->proof_obj[q];
        Probe d;
        if (!D || !tt_probe(D, w, len, h, &d) || d.high.n != 0) return 0;
    }
    return 1;
}

static int ask_proofs(Search *S, const KS *k, const uint64_t *w, int len, uint64_t h);

static int search(Search *S, const KS *k, Q alpha, Q beta, Q *out) {
    S->nodes++;
    long long start = S->nodes;
    if (S->nodes >= S->next_check && check_budget(S) < 0) return -1;
    if (S->depth >= MAX_DEPTH) { S->stop = STOP_DEPTH; return -1; }
    int player = current_player(&S->spec, k);
    if (player == TERMINAL) return terminal(S, k, out);
    Frame *frame = frame_at(S, S->depth, 0);
    if (!frame) { S->stop = STOP_MEMORY; return -1; }
    uint64_t *w = frame->key;
    int len = pack_key(&S->spec, k, w);
    uint64_t h = hash_words(w, len);
    note_bout_start(S, k, h);
    if (S->depth == 0) S->asking = S->ask && proofs_disprove(S, w, len, h);
    Probe p;
    Q low = Q0, high = Q1;
    int best = NO_MOVE;
    int known = tt_probe(S, w, len, h, &p);
    if (known) {
        low = p.low; high = p.high; best = p.best;
        if (q_le(beta, low)) { *out = low; return 0; }
        if (q_le(high, alpha)) { *out = high; return 0; }
        if (q_eq(low, high)) { *out = low; return 0; }
    }
    /* a state df-pn's tables prove worth 0 or 1 is worth that (search.py: the same place;
     * params.py: Tuning.alpha_beta_proofs) */
    for (int q = 0; q < 2; q++) {
        const Search *D = (const Search *)S->proof_obj[q];
        Probe d;
        if (D && tt_probe(D, w, len, h, &d) && d.low.n == 0) {
            *out = q ? Q1 : Q0;
            return 0;
        }
    }
    if (S->asking && !known) {
        int asked = ask_proofs(S, k, w, len, h);
        if (asked < 0) return -1;
        if (asked < 2) { *out = asked ? Q1 : Q0; return 0; }
    }
    if (q_lt(alpha, low)) alpha = low;
    if (q_lt(high, beta)) beta = high;
    Q value;
    int r;
    if (player >= 0) r = decision(S, k, player, alpha, beta, best, &value, &best);
    else if (player == CHANCE) r = chance(S, k, alpha, beta, &value);
    else r = simultaneous(S, k, alpha, beta, best, &value, &best);
    if (r < 0) return -1;
    if (q_overflow) { S->stop = STOP_CAPACITY; return -1; }
    if (q_le(value, alpha)) {
        if (q_lt(value, high)) high = value;
    } else if (q_le(beta, value)) {
        if (q_lt(low, value)) low = value;
    } else {
        low = high = value;
    }
    if (tt_store(S, w, len, h, low, high, best, S->nodes - start + 1) < 0) return -1;
    *out = value;
    return 0;
}

/* ---------------------------------------------------------------- max-n (kernel/maxn.py) */

typedef struct { Q v[3]; } Vec;

static int maxn_value(Search *S, const KS *k, int parent_team, Q bound, Vec *out, int *exact);

static void maxn_leaf(Search *S, const KS *k, Vec *out) {
    for (int t = 0; t < 3; t++) out->v[t] = Q0;
    if (k->winner >= 0) out->v[S->spec.team_of[k->winner]] = Q1;
}

/* Children of ``moves`` (pairs when ``joint``), every one kept, in legal order. */
static int maxn_children(Search *S, Frame *f, const KS *k, const int *moves, int n, int joint) {
    for (int i = 0; i < n; i++) {
        KS *kid = &f->kids[i];
        if (joint) joint_child(&S->spec, NULL, k, moves[2 * i], moves[2 * i + 1], kid);
        else child(&S->spec, NULL, k, moves[i], kid);
        if (kid->error) { S->stop = STOP_CAPACITY; return -1; }
    }
    return n;
}

static int maxn_choose(Search *S, Frame *f, int count, int team, int parent_team, Q bound,
                       Vec *out, int *exact) {
    int have = 0;
    Vec best;
    for (int index = 0; index < count; index++) {
        int i = S->tie_last ? count - 1 - index : index;
        Q mine = have ? best.v[team] : QNEG;
        Vec v;
        int child_exact;
        S->depth++;
        int r = maxn_value(S, &f->kids[i], team, mine, &v, &child_exact);
        S->depth--;
        if (r < 0) return -1;
        if (!child_exact) continue;
        if (!have || q_lt(best.v[team], v.v[team])) {
            best = v;
            have = 1;
            if (q_le(Q1, v.v[team])) break;
            if (parent_team >= 0 && parent_team != team && q_le(q_sub(Q1, v.v[team]), bound)) {
                *out = best; *exact = 0;
                return 0;
            }
        }
    }
    *out = best;
    *exact = 1;
    return 0;
}

/* The tie-break's row by security (core/search/maxn.py: security_choice). */
static int maxn_security(Search *S, const Vec *table, int rows, int columns, int by_rows, int team) {
    int best = 0;
    Q best_worst = QTWO;
    for (int a = 0; a < (by_rows ? rows : columns); a++) {
        Q worst = QTWO;
        for (int b = 0; b < (by_rows ? columns : rows); b++) {
            const Vec *v = by_rows ? &table[a * columns + b] : &table[b * columns + a];
            if (q_lt(v->v[team], worst)) worst = v->v[team];
        }
        if (a == 0 || q_lt(best_worst, worst) || (S->tie_last && q_eq(best_worst, worst))) {
            best = a;
            best_worst = worst;
        }
    }
    return best;
}

static int maxn_value(Search *S, const KS *k, int parent_team, Q bound, Vec *out, int *exact) {
    S->nodes++;
    if (S->nodes >= S->next_check && check_budget(S) < 0) return -1;
    if (S->depth >= MAX_DEPTH) { S->stop = STOP_DEPTH; return -1; }
    const Spec *spec = &S->spec;
    int player = current_player(spec, k);
    if (player == TERMINAL) { maxn_leaf(S, k, out); *exact = 1; return 0; }
    Frame *frame = frame_at(S, S->depth, 0);
    if (!frame) { S->stop = STOP_MEMORY; return -1; }
    uint64_t *w = frame->key;
    int len = pack_key(spec, k, w);
    uint64_t h = hash_words(w, len);
    size_t slot;
    if (table_find(S->table, w, len, h, &slot)) {
        out->v[0] = entry_low(S->table, slot); out->v[1] = entry_high(S->table, slot);
        out->v[2] = S->table->third ? S->table->third[slot] : Q0;
        *exact = 1;
        return 0;
    }
    int r;
    if (player >= 0) {
        int n = legal(spec, k, player, frame->legal);
        if (n < 0) { S->stop = STOP_CAPACITY; return -1; }
        Frame *f = frame_at(S, S->depth, n);
        if (!f) { S->stop = STOP_MEMORY; return -1; }
        if (maxn_children(S, f, k, f->legal, n, 0) < 0) return -1;
        r = maxn_choose(S, f, n, spec->team_of[player], parent_team, bound, out, exact);
    } else if (player == CHANCE) {
        int n = legal(spec, k, -1, frame->legal);
        if (n <= 0) { S->stop = STOP_CAPACITY; return -1; }
        Frame *f = frame_at(S, S->depth, n);
        if (!f) { S->stop = STOP_MEMORY; return -1; }
        if (maxn_children(S, f, k, f->legal, n, 0) < 0) return -1;
        Q share = {1, n};
        Vec total;
        for (int t = 0; t < 3; t++) total.v[t] = Q0;
        r = 0;
        for (int i = 0; i < n && r == 0; i++) {
            Vec v;
            int child_exact;
            S->depth++;
            r = maxn_value(S, &f->kids[i], -1, Q0, &v, &child_exact);
            S->depth--;
            for (int t = 0; t < 3; t++) total.v[t] = q_add(total.v[t], q_mul(share, v.v[t]));
        }
        *out = total;
        *exact = 1;
    } else {
        const Pending *top = &k->pending[k->npending - 1];
        int first = top->seat, second = top->a;
        int nm = legal(spec, k, first, frame->mine), nt = legal(spec, k, second, frame->theirs);
        if (nm < 0 || nt < 0) { S->stop = STOP_CAPACITY; return -1; }
        int count = nm * nt;
        int *pairs = malloc(2 * (size_t)count * sizeof(int));
        if (!pairs) { S->stop = STOP_MEMORY; return -1; }
        for (int i = 0; i < nm; i++)
            for (int j = 0; j < nt; j++) {
                pairs[2 * (i * nt + j)] = frame->mine[i];
                pairs[2 * (i * nt + j) + 1] = frame->theirs[j];
            }
        Frame *f = frame_at(S, S->depth, count);
        if (!f) { free(pairs); S->stop = STOP_MEMORY; return -1; }
        r = maxn_children(S, f, k, pairs, count, 1);
        free(pairs);
        if (r < 0) return -1;
        int team = spec->team_of[first];
        if (team == spec->team_of[second]) {
            r = maxn_choose(S, f, count, team, parent_team, bound, out, exact);
        } else {
            Vec *table = malloc((size_t)count * sizeof(Vec));
            if (!table) { S->stop = STOP_MEMORY; return -1; }
            r = 0;
            for (int i = 0; i < count && r == 0; i++) {
                int child_exact;
                S->depth++;
                r = maxn_value(S, &f->kids[i], -1, Q0, &table[i], &child_exact);
                S->depth--;
            }
            if (r == 0) {
                int row = maxn_security(S, table, nm, nt, 1, team);
                int column = maxn_security(S, table, nm, nt, 0, spec->team_of[second]);
                *out = table[row * nt + column];
                *exact = 1;
            }
            free(table);
        }
    }
    if (r < 0) return -1;
    if (q_overflow) { S->stop = STOP_CAPACITY; return -1; }
    if (*exact && (long long)S->table->size < S->table_limit) {
        /* max-n keeps the first entries it finds: a full table stops storing (kernel/maxn.py) */
        if (!table_insert(S->table, w, len, h, out->v[0], out->v[1], NO_MOVE, out->v[2], 0)) {
            S->stop = STOP_MEMORY;
            return -1;
        }
    }
    return 0;
}


/* ---------------------------------------------------------------- df-pn (kernel/dfpn.py) */

#define PN_INFINITE (((int64_t)1) << 40)
#define EPSILON_SHARE 4
#define ROW_MARK 0xF000000000000000ULL

/* Where a child's first probe found it. The shared table is never written while a search
 * runs (a search stores in its own; a move searched alone stores in the shared one as its
 * own, and then reads no other), so a child the first probe found only there keeps the
 * numbers read then, and one found nowhere is not there either: the loop of dfpn_mid_
 * probes the search's own table alone for them, with the same numbers as probing both. */
enum { FOUND_NONE, FOUND_OWN, FOUND_SHARED, FOUND_HINTED };

/* Proof and disproof numbers live in a table entry's low and high numerators. ``found``: where
 * the child's first probe found it; for FOUND_SHARED the seed holds the shared entry's
 * numbers. */
static int dfpn_numbers(Search *S, const KS *kid, int row, const uint64_t *w, int len, uint64_t h,
                        int found, int64_t seed_pn, int64_t seed_dn, size_t *cached, int64_t *pn,
                        int64_t *dn) {
    if (row < 0 && kid->phase == OVER) {
        if (check_total(S, kid) < 0) return -1;
        int winner = kid->winner;
        int value = (winner >= 0 && S->maximising[winner]) ? 1 : 0;
        if (value == S->target) { *pn = 0; *dn = PN_INFINITE; }
        else { *pn = PN_INFINITE; *dn = 0; }
        return 0;
    }
    size_t slot = *cached;
    const Table *t = S->table;
    if (found == FOUND_HINTED) { *pn = seed_pn; *dn = seed_dn; return 0; }
    if (slot != NO_SLOT || table_find(t, w, len, h, &slot)) {
        *cached = slot;
        *pn = t->slots[slot].low;
        *dn = t->slots[slot].high;
        return 0;
    }
    if (found == FOUND_OWN && (t = S->shared) && table_find(t, w, len, h, &slot)) {
        *pn = t->slots[slot].low;
        *dn = t->slots[slot].high;
        return 0;
    }
    *pn = seed_pn; *dn = seed_dn;
    return 0;
}

/* The children's probes of the first look-up of a node's children (their own table, the
 * shared one, and the other question's two), and of each pass of df-pn's loop (the slots found
 * before, else the tags; all forgotten when the table's entries moved), issued ahead. */
static void child_prefetch(const Search *S, uint64_t h) {
    const Search *H = (const Search *)S->hint_obj;
    table_prefetch(S->table, h);
    table_prefetch(S->shared, h);
    if (H) { table_prefetch(H->table, h); table_prefetch(H->shared, h); }
}

/* The child of frame f whose key is at ``w``, or -1. */
static inline int frame_child(const Frame *f, const uint64_t *w, int count) {
    if (!w || w < f->keys || w >= f->keys + (size_t)count * KEYWORDS) return -1;
    size_t at = (size_t)(w - f->keys);
    return at % KEYWORDS ? -1 : (int)(at / KEYWORDS);
}

/* Where the search's table holds the node of key ``w`` as its parent's loop last found it
 * (the node is the child of the frame one level up whose key is at ``w``), else NO_SLOT. */
static size_t dfpn_parent_slot(const Search *S, const uint64_t *w) {
    if (S->depth <= 0 || S->depth > S->nframes) return NO_SLOT;
    const Frame *pf = S->frames[S->depth - 1];
    if (!pf || pf->epoch != S->table->epoch) return NO_SLOT;
    int i = frame_child(pf, w, pf->cap);
    return i < 0 ? NO_SLOT : pf->slots[i];
}

static void dfpn_prefetch_loop(Search *S, Frame *f, int count) {
    const Table *t = S->table;
    if (f->epoch != t->epoch) {
        for (int i = 0; i < count; i++) f->slots[i] = NO_SLOT;
        f->epoch = t->epoch;
    }
    /* the child searched last stored itself: its slot */
    int stored = frame_child(f, S->stored_key, count);
    if (stored >= 0) f->slots[stored] = S->stored_slot;
    S->stored_key = NULL;
    for (int i = 0; i < count; i++) {
        if (f->slots[i] == NO_SLOT) table_prefetch(t, f->hashes[i]);
    }
}

/* The numbers of a node with ``choices`` choices (dfpn.py: _mobility). */
static void dfpn_mobility(int choices, int is_or, int64_t *pn, int64_t *dn) {
    int64_t count = choices > 1 ? choices : 1;
    *pn = is_or ? 1 : count;
    *dn = is_or ? count : 1;
}

/* The numbers of a node by its mobility (dfpn.py: _choices). */
static void dfpn_choices(Search *S, const KS *k, int row, int64_t *pn, int64_t *dn) {
    const Spec *s = &S->spec;
    if (row >= 0) {
        const Pending *top = &k->pending[k->npending - 1];
        int player = top->seat, target = top->a;
        int n = legal_count(s, k, S->attacker[player] ? target : player);
        *pn = n > 1 ? n : 1;
        *dn = 1;
        return;
    }
    int player = current_player(s, k);
    if (player >= 0) { dfpn_mobility(legal_count(s, k, player), S->attacker[player], pn, dn); return; }
    if (player == CHANCE) { dfpn_mobility(legal_count(s, k, -1), 0, pn, dn); return; }
    const Pending *top = &k->pending[k->npending - 1];
    int first = top->seat, second = top->a;
    int nm = legal_count(s, k, first), nt = legal_count(s, k, second);
    if (S->attacker[first] == S->attacker[second]) dfpn_mobility(nm * nt, S->attacker[first], pn, dn);
    else dfpn_mobility(S->attacker[first] ? nm : nt, 1, pn, dn);
}

/* The numbers of a node not searched yet (dfpn.py: _seed). */
static void dfpn_seed(Search *S, const KS *k, int row, int64_t *pn, int64_t *dn) {
    *pn = 1; *dn = 1;
    if (k->phase == OVER) return;
    if (S->tuning & TUNE_MOBILITY) dfpn_choices(S, k, row, pn, dn);
    int power = TUNE_DISTANCE(S->tuning);
    if (power) {
        int mine, theirs;
        distances(&S->spec, NULL, k, S->attacker, &mine, &theirs);
        int64_t bp = 1 + (mine < 9 ? mine : 9), bd = 1 + (theirs < 9 ? theirs : 9), p = 1, d = 1;
        for (int e = power; e; e >>= 1) { /* the power by squaring */
            if (e & 1) { p *= bp; d *= bd; }
            bp *= bp; bd *= bd;
        }
        *pn *= p;
        *dn *= d;
    }
    if (*pn > SEED_MAX) *pn = SEED_MAX;
    if (*dn > SEED_MAX) *dn = SEED_MAX;
}

/* The numbers of a node not in this search's tables (dfpn.py: DfpnSearch._first_numbers):
 * what the other question's search (the hint) settled about a state of play, else its seed.
 * A state the hint proved is settled here; one it disproved is settled if both ask the same
 * value, else starts as likely proved: proof number 1, disproof number HINT_SCALE times its
 * seed's. */
/* A playout's random numbers (dfpn.py: _Playouts): xorshift64, seeded by the bout start's
 * hands and leader, so that the same state gets the same playouts in either kernel. */
static inline uint64_t playout_next(uint64_t *x) {
    *x ^= *x << 13; *x ^= *x >> 7; *x ^= *x << 17;
    return *x >> 11;
}

/* A playout's draw among ``n`` (playout_next(x) % n) without dividing: a 64-bit division
 * costs tens of cycles, paid at every step. With the inverse c = ceil(2^64 / n), the
 * remainder is the high 64 bits of ((c * a) mod 2^64) * n, exact for a below 2^53 and n up to
 * 2^10 (Lemire, Kaser and Kurz, "Faster remainder by direct computation", 2019: 64 >= 53 +
 * 10); every n here is at most MAXMOVES (legal() makes no more). */
static uint64_t draw_inverse[MAXMOVES + 1]; /* ceil(2^64 / n), filled when the module loads */

static void draw_inverses(void) {
    for (int n = 1; n <= MAXMOVES; n++) draw_inverse[n] = UINT64_MAX / (uint64_t)n + 1;
}

static inline int playout_draw(uint64_t *x, int n) {
    uint64_t a = playout_next(x);
    if (n > MAXMOVES) return (int)(a % (uint64_t)n); /* (never) */
    return (int)(((unsigned __int128)(draw_inverse[n] * a) * (uint64_t)n) >> 64);
}

static uint64_t playout_seed(const Spec *s, const KS *k) {
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    for (int seat = 0; seat < s->players; seat++) {
        x = (x ^ k->hands[seat]) * 0xBF58476D1CE4E5B9ULL;
        x ^= x >> 31;
    }
    x = (x ^ (uint64_t)k->leader) * 0x94D049BB133111EBULL;
    x ^= x >> 29;
    return x ? x : 1;
}

/* The actions of ``k`` at a playout's step: the count of the player's (of the first of two
 * playing at once, ``*nb`` the second's), the player in ``*player``. */
static inline int playout_actions(const Spec *s, const KS *k, int *player, int *a, int *b,
                                  int *nb) {
    *player = current_player(s, k);
    *nb = 1;
    if (*player == SIMULTANEOUS) {
        const Pending *top = &k->pending[k->npending - 1];
        int na = legal(s, k, top->seat, a);
        *nb = legal(s, k, top->a, b);
        return na;
    }
    return legal(s, k, *player, a);
}

/* A playout's random choice among ``na`` actions (``nb`` the second player's, where two play
 * at once): the index of the action (of the pair: first * nb + second), or -1 where there is
 * none (the playout stops; no number drawn). */
static inline int playout_pick(uint64_t *x, int player, int na, int nb) {
    if (na <= 0 || (player == SIMULTANEOUS && nb <= 0)) return -1;
    int i = playout_draw(x, na);
    return player == SIMULTANEOUS ? i * nb + playout_draw(x, nb) : i;
}

/* The action ``c`` (playout_pick's index) applied to ``k`` in place. */
static inline void playout_apply(const Spec *s, KS *k, int player, const int *a, const int *b,
                                 int nb, int c) {
    if (player == SIMULTANEOUS) apply_joint(s, NULL, k, a[c / nb], b[c % nb]);
    else apply(s, NULL, k, a[c]);
}

/* The ``i``-th (from 0) lowest set bit of ``m`` (``m`` has more than ``i``). */
static inline int nth_bit(uint64_t m, int i) {
    while (i--) m &= m - 1;
    return lowbit(m);
}

/* The cards ``seat`` may play (``exclude`` as for play_actions) and how many actions each
 * gives, in legal()'s order, into ``cards`` and ``counts``; returns the actions' total (-1
 * where play_actions returns -1: the same capacity checks). */
static inline int play_counts(const Spec *s, const KS *k, int seat, int exclude, int *cards,
                              int *counts) {
    int n = 0, nc = 0;
    for (uint64_t m = playable(s, k, seat, exclude); m; m &= m - 1) {
        int card = lowbit(m), c;
        if (s->effect[card] == E_DREAM) {
            if (n + MAXP + 1 > MAXMOVES) return -1;
            c = 1;
            for (int target = 0; target < s->players; target++)
                c += target != seat && !(k->played >> target & 1) && k->hands[target];
        } else {
            int after = with_choices_count(s, k, seat, card, seat, n);
            if (after < 0) return -1;
            c = after - n;
        }
        cards[nc] = card;
        counts[nc++] = c;
        n += c;
    }
    return n;
}

/* The choice of index ``i`` among now_moves's (the same arguments; ``i`` less than their
 * count, which is more than 0, and Law's two choices there): its bits, without making the
 * others. */
static inline int now_nth(const Spec *s, int card, int resolver, int lies_before,
                          const uint64_t *hands, uint64_t own, const uint16_t *front, int nfront,
                          int law, int i) {
    uint64_t m = 0;
    switch (s->effect[card]) {
    case E_LAW: return i == 0 ? choice_bits(CK_HIGHER, 0, 0) : choice_bits(CK_LOWER, 0, 0);
    case E_WRATH:
        for (int f = 0; f < nfront; f++) {
            int p = front[f];
            if ((p >> 6 & 7) != resolver && (p & 63) != card) m |= ((uint64_t)1) << (p & 63);
        }
        return choice_bits(CK_RETURN, nth_bit(m, i), 0);
    case E_JEALOUSY:
        for (int f = 0; f < nfront; f++) {
            int p = front[f];
            if ((p & 63) != card && (!s->jealousy_own_forbidden || (p >> 6 & 7) != lies_before))
                m |= ((uint64_t)1) << (p & 63);
        }
        return choice_bits(CK_SWAP, nth_bit(m, i), 0);
    case E_BETRAYAL: {
        uint16_t at[64];
        for (int f = 0; f < nfront; f++) {
            at[front[f] & 63] = front[f];
            m |= ((uint64_t)1) << (front[f] & 63);
        }
        for (; m; m &= m - 1) {
            int taken = lowbit(m);
            uint64_t g = betrayal_gifts(s, card, resolver, own, at[taken], law);
            int c = popcount(g);
            if (i < c) return choice_bits(CK_TAKE, taken, nth_bit(g, i));
            i -= c;
        }
        return 0; /* (never) */
    }
    case E_SECRET: {
        for (int seat = 0; seat < s->players; seat++)
            if (seat != resolver && hands[seat] && i-- == 0) return choice_bits(CK_ASK, seat, 0);
        int shows = popcount(own);
        for (int seat = 0; seat < s->players; seat++) {
            if (seat == resolver) continue;
            if (i < shows) return choice_bits(CK_SHOW, seat, nth_bit(own, i));
            i -= shows;
        }
        return 0; /* (never) */
    }
    default: /* E_ABSOLUTE */
        for (int seat = 0; seat < s->players; seat++)
            if (seat != resolver && hands[seat] && i-- == 0) return choice_bits(CK_WITH, seat, 0);
        return 0; /* (never) */
    }
}

/* The action of index ``i`` among play_actions(s, k, seat, exclude)'s, from play_counts's
 * cards and counts: only the chosen card's actions are made. */
static inline int play_nth(const Spec *s, const KS *k, int seat, const int *cards,
                           const int *counts, int i) {
    int j = 0;
    while (i >= counts[j]) i -= counts[j++];
    int card = cards[j];
    if (s->effect[card] == E_DREAM) {
        if (i == 0) return encode(V_PLAY, seat, card, -1, 0, 0, 0);
        for (int target = 0; target < s->players; target++) {
            if (target != seat && !(k->played >> target & 1) && k->hands[target] && --i == 0)
                return encode(V_PLAY, seat, card, target, 0, 0, 0);
        }
    }
    int base = encode(V_PLAY, seat, card, -1, 0, 0, 0);
    if (!(s->now_mask >> card & 1) || counts[j] == 1) {
        /* one action: the card alone, or its one choice */
        if (!(s->now_mask >> card & 1)) return base;
        int moves[MAXMOVES];
        if (with_choices(s, k, seat, card, seat, moves, 0) != 1) return base; /* (never) */
        return moves[0];
    }
    return base | now_nth(s, card, seat, seat, k->hands, k->hands[seat] & ~(((uint64_t)1) << card),
                          k->front, k->nfront, k->law, i);
}

/* One step of a playout from ``k``, in place: the action playout_actions and playout_pick
 * would choose (the same numbers drawn), made without listing every legal action where the
 * actions are plays of a hand or cards of one hand (their count first, then the one drawn).
 * Returns 0 where there is no action (the playout stops; no number drawn). */
static int playout_step(const Spec *s, KS *k, uint64_t *x, int *a, int *b) {
    if (k->phase == OVER) return 0; /* (the playouts stop before; legal() has none there) */
    const Pending *top = k->npending ? &k->pending[k->npending - 1] : NULL;
    if (!top || top->kind == P_REPLAY) {
        int cards[64], counts[64];
        /* with nothing pending, the seat current_player() names */
        int seat = top ? top->seat : next_to_play(s, k->hands, k->played, k->leader);
        int exclude = top ? top->a : -1;
        int n = play_counts(s, k, seat, exclude, cards, counts);
        if (n <= 0) return 0;
        int i = playout_draw(x, n);
        apply(s, NULL, k, play_nth(s, k, seat, cards, counts, i));
        return 1;
    }
    int verb = -1;
    uint64_t hand = 0;
    switch (top->kind) {
    case P_EXCHANGE: {
        uint64_t mine = k->hands[top->seat], theirs = k->hands[top->a];
        int na = popcount(mine), nb = popcount(theirs);
        if (na <= 0 || nb <= 0) return 0;
        int i = playout_draw(x, na);
        int j = playout_draw(x, nb);
        apply_joint(s, NULL, k, encode(V_GIVES, top->seat, nth_bit(mine, i), -1, 0, 0, 0),
                    encode(V_GIVES, top->a, nth_bit(theirs, j), -1, 0, 0, 0));
        return 1;
    }
    case P_SHOW: verb = V_SHOWS; hand = k->hands[top->seat]; break;
    case P_GIVE:
    case P_GIVE_BACK: verb = V_GIVES; hand = k->hands[top->seat]; break;
    case P_LUCK: verb = V_DISCARDS; hand = k->hands[top->seat] & ~s->fear_mask; break;
    default: break;
    }
    if (verb >= 0) {
        int n = popcount(hand);
        if (n <= 0) return 0;
        int i = playout_draw(x, n);
        apply(s, NULL, k, encode(verb, top->seat, nth_bit(hand, i), -1, 0, 0, 0));
        return 1;
    }
    int player, nb;
    int na = playout_actions(s, k, &player, a, b, &nb);
    int c = playout_pick(x, player, na, nb);
    if (c < 0) return 0;
    playout_apply(s, k, player, a, b, nb, c);
    return 1;
}

/* One playout step from ``state`` with the generator at ``x`` (not 0), made as playout_step
 * makes it (``listed`` false) or by listing every legal action and picking one (true): the
 * state after it (None where there is no action) and the generator after it. The two must
 * agree on every position (tests/omens_kernel/test_compiled_engine.py). */
static PyObject *py_playout_step(PyObject *self, PyObject *args) {
    PyObject *spec_o, *state_o;
    unsigned long long seed;
    int listed;
    if (!PyArg_ParseTuple(args, "OOKp", &spec_o, &state_o, &seed, &listed)) return NULL;
    Spec s; KS k; int nteams;
    if (parse_spec_state(spec_o, state_o, &s, &k, &nteams) < 0) return NULL;
    uint64_t x = seed ? seed : 1;
    int a[MAXMOVES], b[MAXMOVES], moved;
    if (listed) {
        int player, nb;
        int na = playout_actions(&s, &k, &player, a, b, &nb);
        int c = playout_pick(&x, player, na, nb);
        moved = c >= 0;
        if (moved) playout_apply(&s, &k, player, a, b, nb, c);
    } else {
        moved = playout_step(&s, &k, &x, a, b);
    }
    if (k.error) { PyErr_SetString(PyExc_OverflowError, "state out of the compiled kernel's range"); return NULL; }
    PyObject *after = moved ? state_to_py(&s, &k, nteams) : Py_NewRef(Py_None);
    if (!after) return NULL;
    return Py_BuildValue("(NK)", after, (unsigned long long)x);
}

/* The playouts of one start begin alike: the start's actions are made once, and the states
 * after the first action of the first PLAYOUT_FIRST indices (with their actions, where at
 * most PLAYOUT_LIST) are kept for the playouts that take it again. */
#define PLAYOUT_FIRST 16
#define PLAYOUT_LIST 64
typedef struct {
    KS k;
    int ready, listed, player, na, nb;
    int a[PLAYOUT_LIST], b[PLAYOUT_LIST];
} PlayoutFirst;

/* How many of ``count`` random playouts from ``start`` (every player choosing uniformly
 * among the legal actions, chance too, to the round's end or PLAYOUT_STEPS actions) end with
 * the value the search asks (dfpn.py: DfpnSearch._playout_wins); ``*ended``: how many reached
 * the round's end (each with value 0 or 1, so the other question's wins are ended - wins). */
static int playout_wins(Search *S, const KS *start, int count, int *ended) {
    const Spec *s = &S->spec;
    uint64_t x = playout_seed(s, start);
    int wins = 0;
    *ended = 0;
    int a[MAXMOVES], b[MAXMOVES], a0[MAXMOVES], b0[MAXMOVES];
    int player0 = 0, na0 = 0, nb0 = 1;
    if (start->phase != OVER) na0 = playout_actions(s, start, &player0, a0, b0, &nb0);
    PlayoutFirst first[PLAYOUT_FIRST];
    for (int i = 0; i < PLAYOUT_FIRST; i++) first[i].ready = 0;
    KS play; /* the playout's state, moved on in place */
    for (int p = 0; p < count; p++) {
        const KS *k = start;
        KS *w = NULL; /* the playout's own state, once it leaves the states kept */
        int steps = 0;
        if (k->phase != OVER && steps < PLAYOUT_STEPS) {
            /* the first action: taken again from a kept state, or made */
            int c = playout_pick(&x, player0, na0, nb0);
            if (c < 0) goto ended;
            if (c < PLAYOUT_FIRST && first[c].ready) {
                k = &first[c].k;
            } else {
                KS *into = c < PLAYOUT_FIRST ? &first[c].k : &play;
                ks_copy(into, start);
                playout_apply(s, into, player0, a0, b0, nb0, c);
                if (c < PLAYOUT_FIRST) { first[c].ready = 1; first[c].listed = 0; }
                else w = into;
                k = into;
            }
            steps++;
            if (k->error) goto ended;
            if (!w && k->phase != OVER && steps < PLAYOUT_STEPS) {
                /* the second action, from the kept state (its actions kept too) */
                PlayoutFirst *f = &first[c];
                int player, na, nb;
                const int *la = a, *lb = b;
                if (f->listed) {
                    player = f->player; na = f->na; nb = f->nb; la = f->a; lb = f->b;
                } else {
                    na = playout_actions(s, k, &player, a, b, &nb);
                    if (na <= PLAYOUT_LIST && nb <= PLAYOUT_LIST) {
                        if (na > 0) memcpy(f->a, a, (size_t)na * sizeof(int));
                        if (player == SIMULTANEOUS && nb > 0) memcpy(f->b, b, (size_t)nb * sizeof(int));
                        f->player = player; f->na = na; f->nb = nb; f->listed = 1;
                    }
                }
                int c2 = playout_pick(&x, player, na, nb);
                if (c2 < 0) goto ended;
                ks_copy(&play, k);
                w = &play;
                playout_apply(s, w, player, la, lb, nb, c2);
                k = w;
                steps++;
                if (k->error) goto ended;
            }
        }
        if (w) {
            for (; w->phase != OVER && steps < PLAYOUT_STEPS; steps++) {
                if (!playout_step(s, w, &x, a, b) || w->error) break;
            }
            k = w;
        }
    ended:
        if (k->phase == OVER && !k->error) {
            int value = (k->winner >= 0 && S->maximising[k->winner]) ? 1 : 0;
            wins += value == S->target;
            ++*ended;
        }
    }
    return wins;
}

/* The playouts' results by bout start, so that a bout start seeded again (each time its
 * parent is expanded before it is stored) does not play them again. A result depends on the
 * state, the number of playouts, the maximising seats and the rules alone: a slot is keyed by
 * the state's key (at most PMEMO_WORDS words, kept whole and compared), the number and the
 * maximising seats, and a memo by the rules (a digest of the spec), so the node counts stay
 * those without the memo and any df-pn search may read any slot. A slot keeps the playouts
 * that ended with the value 1 (``ones``) and those that ended: the question asked makes them
 * its wins (``ones``, or ``ended - ones`` for "value 0?").
 * The memos are a solve's, not a search's: its pool holds them (PlayoutMemos), a search holds
 * one while it proves (taken at its first playouts, let go when it returns), so all the
 * searches a thread runs in turn, every root move and question, share one memo, and a solve
 * has as many as it runs searches at once (PMEMO_MAX at most), each counted in the pool. Where
 * its own memo has no result a search reads the others (the other threads' while they write
 * them: a slot is read whole or not at all, a count its holder makes odd while it writes it),
 * and those of its hint's memos when they are not the same (a search without a pool has
 * memos of its own). Direct-mapped, PMEMO_SLOTS slots of 80 bytes (20 MiB), fewer where that
 * is more than a PMEMO_SHARE-th of the pool's limit (1 GiB: 2^17 slots).
 * Before 2026-12-06 each search had a memo of its own, 2^14 slots (1.4 MiB) outside the pool:
 * 2^17 slots a search (11 MiB) played fewer bout starts again but took the targets' default
 * solves, which hold many searches, to a peak of 2,400 MiB, over their 2 GiB budget
 * (docs/benchmarks.md, "The branches' cost" and "One memo of playouts a thread"). */
#define PMEMO_SLOTS (1 << 18)
#define PMEMO_MIN (1 << 10)
#define PMEMO_SHARE 64
#define PMEMO_WORDS 8 /* a bout start's key: its head, the hands (six at most), the counts */
typedef struct {          /* a slot's fields together: a probe reads one or two cache lines */
    uint64_t hash;
    uint64_t words[PMEMO_WORDS];
    uint8_t len;          /* 0: empty */
    uint8_t ones, ended, count;
    uint8_t sides;        /* the maximising seats, a bit each */
    uint8_t seq;          /* odd while its holder writes it (memos_read) */
} PlayoutSlot;
typedef struct PlayoutMemo {
    uint64_t spec;        /* the rules' digest (Search.spec_digest) */
    PlayoutSlot slots[];
} PlayoutMemo;

/* The digest of a search's rules (spec_from_py zeroes the spec first, its padding too). */
static uint64_t spec_digest(const Spec *s) {
    const unsigned char *b = (const unsigned char *)s;
    uint64_t h = 0xCBF29CE484222325ULL;
    for (size_t i = 0; i < sizeof *s; i++) { h ^= b[i]; h *= 0x100000001B3ULL; }
    return h;
}

static void memos_init(PlayoutMemos *set, Pool *pool, long long limit) {
    size_t slots = PMEMO_SLOTS;
    while (limit > 0 && slots > PMEMO_MIN
           && (long long)(slots * sizeof(PlayoutSlot)) > limit / PMEMO_SHARE)
        slots /= 2;
    set->slots = slots;
    set->pool = pool;
}

static size_t memo_bytes(const PlayoutMemos *set) {
    return sizeof(PlayoutMemo) + set->slots * sizeof(PlayoutSlot);
}

/* The memos no search holds, freed and their bytes given back (every memo where no search of
 * the set can run: a search lets its memo go when it returns, before it is freed). Only while
 * no search of the set runs: the others' memos are read without a hold (memos_read). */
static void memos_drop(PlayoutMemos *set) {
    for (int j = 0; j < PMEMO_MAX; j++) {
        int none = 0;
        if (!atomic_compare_exchange_strong(&set->held[j], &none, 1)) continue;
        PlayoutMemo *m = atomic_exchange(&set->memo[j], NULL);
        if (m) { free(m); pool_give(set->pool, memo_bytes(set)); }
        atomic_store(&set->held[j], 0);
    }
}

/* A memo of ``set`` for the rules ``spec``, its bytes taken from the pool; NULL where the pool
 * or the memory has no room. */
static PlayoutMemo *memo_make(PlayoutMemos *set, uint64_t spec) {
    size_t bytes = memo_bytes(set);
    if (!pool_take(set->pool, bytes)) return NULL;
    PlayoutMemo *m = calloc(1, bytes);
    if (!m) { pool_give(set->pool, bytes); return NULL; }
    m->spec = spec;
    return m;
}

/* A memo of S's memos that no search holds (made where none is free and the pool has room),
 * held by S until memo_let_go; NULL where none is to be had (S then plays every seed). */
static PlayoutMemo *memo_hold(Search *S) {
    PlayoutMemos *set = S->memos;
    if (!set || S->memo_tried) return NULL;
    S->memo_tried = 1;
    for (int j = 0; j < PMEMO_MAX; j++) {
        int none = 0;
        if (!atomic_compare_exchange_strong(&set->held[j], &none, 1)) continue;
        PlayoutMemo *m = atomic_load_explicit(&set->memo[j], memory_order_acquire);
        if (!m && (m = memo_make(set, S->spec_digest)))
            atomic_store_explicit(&set->memo[j], m, memory_order_release);
        if (m && m->spec == S->spec_digest) {
            S->playouts = m;
            S->memo_at = j;
            return m;
        }
        atomic_store(&set->held[j], 0); /* none to be had here, or another rules' memo */
    }
    return NULL;
}

/* S's memo back to its memos, for the next search to prove (at the end of each proof). */
static void memo_let_go(Search *S) {
    if (S->playouts) atomic_store_explicit(&S->memos->held[S->memo_at], 0, memory_order_release);
    S->playouts = NULL;
    S->memo_tried = 0;
}

static inline int pmemo_match(const PlayoutSlot *e, const uint64_t *w, int len, uint64_t h,
                              int count, int sides) {
    return e->len == len && e->hash == h && e->count == count && e->sides == sides
        && memcmp(e->words, w, (size_t)len * sizeof(uint64_t)) == 0;
}

/* A result for the key in the memos of ``set`` other than ``skip`` (which other searches may
 * be writing meanwhile): a slot holding the key, read whole (its seq even and the same before
 * and after). */
static int memos_read(PlayoutMemos *set, const PlayoutMemo *skip, const Search *S,
                      const uint64_t *w, int len, uint64_t h, int count, int *ones, int *ended) {
    size_t i = (size_t)(h >> 17) & (set->slots - 1);
    for (int j = 0; j < PMEMO_MAX; j++) {
        const PlayoutMemo *m = atomic_load_explicit(&set->memo[j], memory_order_acquire);
        if (!m || m == skip || m->spec != S->spec_digest) continue;
        const PlayoutSlot *x = &m->slots[i];
        uint8_t seq = __atomic_load_n(&x->seq, __ATOMIC_ACQUIRE);
        if (seq & 1) continue;
        if (!pmemo_match(x, w, len, h, count, S->sides)) continue;
        int won = x->ones, done = x->ended;
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if (__atomic_load_n(&x->seq, __ATOMIC_RELAXED) != seq) continue;
        *ones = won; *ended = done;
        return 1;
    }
    return 0;
}

static int playout_wins_memo(Search *S, const KS *k, const uint64_t *w, int len, uint64_t h,
                             int count) {
    int ended, ones;
    PlayoutMemo *m = S->playouts;
    if (len > PMEMO_WORDS || (!m && !(m = memo_hold(S)))) return playout_wins(S, k, count, &ended);
    size_t i = (size_t)(h >> 17) & (S->memos->slots - 1);
    PlayoutSlot *e = &m->slots[i];
    if (pmemo_match(e, w, len, h, count, S->sides)) {
        ones = e->ones; ended = e->ended;
    } else {
        const Search *H = (const Search *)S->hint_obj;
        if (!memos_read(S->memos, m, S, w, len, h, count, &ones, &ended)
            && !(H && H->memos && H->memos != S->memos
                 && memos_read(H->memos, NULL, S, w, len, h, count, &ones, &ended))) {
            int wins = playout_wins(S, k, count, &ended);
            ones = S->target ? wins : ended - wins;
        }
        /* the other searches may read it meanwhile: odd while written */
        uint8_t seq = __atomic_load_n(&e->seq, __ATOMIC_RELAXED);
        __atomic_store_n(&e->seq, (uint8_t)(seq + 1), __ATOMIC_RELAXED);
        __atomic_thread_fence(__ATOMIC_RELEASE);
        e->hash = h;
        e->len = (uint8_t)len;
        e->ones = (uint8_t)ones;
        e->ended = (uint8_t)ended;
        e->count = (uint8_t)count;
        e->sides = S->sides;
        memcpy(e->words, w, (size_t)len * sizeof(uint64_t));
        __atomic_store_n(&e->seq, (uint8_t)(seq + 2), __ATOMIC_RELEASE);
    }
    return S->target ? ones : ended - ones;
}

/* The fitted model's coefficients: omens/data/seed_model.toml's, in the order of
 * seed_model.py's FEATURES (tests/omens_kernel/test_seed_model.py compares them). */
#define SEED_FEATURES 23
static const double SEED_MODEL[SEED_FEATURES] = {
    0.3039, 3.7641, 1.6659, -3.7821, -1.6772, 0.8346, -0.8476, 0.5292, -0.5276, 0.3332,
    0.1579, -0.1627, 0.3596, -0.3593, 0.2214, -0.7753, 0.5806, -0.5864, 0.1491, -0.1535,
    -0.1539, 0.1493, -0.0973,
};

/* The probability that the attacker wins a bout start for sure, by the fitted model
 * (seed_model.py: probability, the same features summed in the same order). */
static double seed_model_p(const Search *S, const KS *k) {
    const Spec *s = &S->spec;
    int near[2] = {99, 99}, cards[2] = {0, 0}, seats_near[2] = {0, 0}, near_top[2] = {-1, -1};
    int top_near[2] = {0, 0};
    uint64_t held[2] = {0, 0};
    for (int seat = 0; seat < s->players; seat++) {
        uint64_t hand = k->hands[seat];
        if (!hand) continue;
        int a = S->attacker[seat] != 0, count = popcount(hand);
        if (count - 1 < near[a]) near[a] = count - 1;
        cards[a] += count; held[a] |= hand;
    }
    uint64_t every = held[0] | held[1];
    uint64_t top = every ? ((uint64_t)1) << highbit(every) : 0, low = every & (~every + 1);
    for (int seat = 0; seat < s->players; seat++) {
        uint64_t hand = k->hands[seat];
        int a = S->attacker[seat] != 0;
        if (hand && popcount(hand) - 1 == near[a]) {
            seats_near[a]++;
            if (highbit(hand) > near_top[a]) near_top[a] = highbit(hand);
            if (hand & top) top_near[a] = 1;
        }
    }
    uint64_t absolutes = s->effect_mask[E_ABSOLUTE];
    uint64_t mirror = s->effect_mask[E_MIRROR], sadness = s->effect_mask[E_SADNESS];
    const double x[SEED_FEATURES] = {
        1.0, near[1] == 1, near[1] == 2, near[0] == 1, near[0] == 2, cards[1] / 4.0,
        cards[0] / 4.0, seats_near[1] / 2.0, seats_near[0] / 2.0, (held[1] & top) != 0,
        top_near[1], top_near[0], near[1] == 1 && top_near[1], near[0] == 1 && top_near[0],
        (near_top[1] - near_top[0]) / 8.0, S->attacker[k->leader % s->players] != 0,
        popcount(held[1] & absolutes) / 2.0, popcount(held[0] & absolutes) / 2.0,
        (held[1] & mirror) != 0, (held[0] & mirror) != 0, (held[1] & sadness) != 0,
        (held[0] & sadness) != 0, (held[1] & low) != 0};
    double z = 0;
    for (int i = 0; i < SEED_FEATURES; i++) z += SEED_MODEL[i] * x[i];
    return 1.0 / (1.0 + exp(-z));
}

/* The seed of a node not searched yet (dfpn.py: DfpnSearch._seed_of): dfpn_seed's numbers,
 * and at a bout start with Tuning.playouts = P, the proof number multiplied by the playouts
 * the attacker lost plus the prior and the disproof number by those it won plus the prior;
 * with Tuning.seed_model the wins are the fitted model's probability as wins of P, none
 * played (seed_model.py: model_wins). */
static void dfpn_seed_of(Search *S, const KS *k, int row, const uint64_t *w, int len, uint64_t h,
                         int64_t *pn, int64_t *dn) {
    dfpn_seed(S, k, row, pn, dn);
    int count = TUNE_PLAYOUTS(S->tuning);
    if (count && row < 0 && is_bout_start(k)) {
        int prior = TUNE_PRIOR(S->tuning);
        int wins = S->tuning & TUNE_MODEL ? (int)lround(count * seed_model_p(S, k))
                                          : playout_wins_memo(S, k, w, len, h, count);
        *pn *= count + prior - wins;
        *dn *= wins + prior;
        if (*pn > SEED_MAX) *pn = SEED_MAX;
        if (*dn > SEED_MAX) *dn = SEED_MAX;
    }
}

#define HINT_SCALE 256
static void dfpn_first_numbers(Search *S, const KS *kid, int row, const uint64_t *w, int len,
                               uint64_t h, int64_t *pn, int64_t *dn) {
    if (row < 0 && S->hint_obj) {
        const Search *H = (const Search *)S->hint_obj;
        int same = S->hint_target == S->target;
        Probe p;
        if (tt_probe(H, w, len, h, &p)) {
            if (p.low.n == 0 || (p.high.n == 0 && same)) {
                int proved = (p.low.n == 0) == same;
                *pn = proved ? 0 : PN_INFINITE;
                *dn = proved ? PN_INFINITE : 0;
                return;
            }
            if (p.high.n == 0) {
                dfpn_seed_of(S, kid, row, w, len, h, pn, dn);
                *pn = 1;
                *dn = *dn * HINT_SCALE < SEED_MAX ? *dn * HINT_SCALE : SEED_MAX;
                return;
            }
        }
    }
    dfpn_seed_of(S, kid, row, w, len, h, pn, dn);
}

/* Expand a node into frame f: whether it is an OR node (the attacker chooses), the number of
 * distinct children (kids, keys, hashes; rows of an exchange keep the attacker's card in
 * moves), or -1. */
/* Expand a node into the frame at this depth (*fp): whether it is an OR node (the attacker
 * chooses), whether its children are the rows of an exchange (the attacker's card kept in
 * moves), and the number of distinct children (kids, keys, hashes), or -1. */
static int dfpn_expand(Search *S, Frame **fp, const KS *k, int row, const uint64_t *key, int keylen,
                       int *is_or, int *rows_made) {
    const Spec *s = &S->spec;
    Frame *f = frame_at(S, S->depth, 0);
    if (!f) { S->stop = STOP_MEMORY; return -1; }
    *fp = f;
    *rows_made = 0;
    *is_or = 0;
    if (row >= 0) {
        /* an exchange row: the attacker's card is fixed, the defender answers */
        S->mixed_seen = 1;
        const Pending *top = &k->pending[k->npending - 1];
        int player = top->seat, target = top->a;
        int mine_first = S->attacker[player];
        int n = legal(s, k, mine_first ? target : player, f->theirs);
        if (n < 0) { S->stop = STOP_CAPACITY; return -1; }
        return mine_first ? pair_children(S, fp, k, &row, 1, f->theirs, n)
                          : pair_children(S, fp, k, f->theirs, n, &row, 1);
    }
    int player = current_player(s, k);
    if (player >= 0) {
        *is_or = S->attacker[player];
        return action_children(S, fp, k, player);
    }
    if (player == CHANCE) {
        S->mixed_seen = 1;
        return action_children(S, fp, k, -1);
    }
    const Pending *top = &k->pending[k->npending - 1];
    int first = top->seat, second = top->a;
    int nm = legal(s, k, first, f->mine), nt = legal(s, k, second, f->theirs);
    if (nm < 0 || nt < 0) { S->stop = STOP_CAPACITY; return -1; }
    *is_or = S->attacker[first];
    if (S->attacker[first] == S->attacker[second])
        return pair_children(S, fp, k, f->mine, nm, f->theirs, nt);
    /* an exchange between the two sides: one row per card of the attacker's */
    const int *rows = S->attacker[first] ? f->mine : f->theirs;
    int nr = S->attacker[first] ? nm : nt;
    f = frame_at(S, S->depth, nr);
    if (!f) { S->stop = STOP_MEMORY; return -1; }
    *fp = f;
    if (keylen + 1 > KEYWORDS) { S->stop = STOP_CAPACITY; return -1; }
    for (int i = 0; i < nr; i++) {
        f->kids[i] = *k;
        uint64_t *w = f->keys + (size_t)i * KEYWORDS;
        memcpy(w, key, keylen * sizeof(uint64_t));
        w[keylen] = ROW_MARK | (uint32_t)rows[i];
        f->keylen[i] = keylen + 1;
        f->hashes[i] = hash_words(w, keylen + 1);
        f->moves[i] = rows[i];
    }
    *is_or = 1;
    *rows_made = 1;
    return nr;
}

/* Proof and disproof numbers are stored as alpha-beta's bounds are; a full table makes room by
 * replacement (the entries that cost least go), so df-pn goes on learning. */
static int dfpn_store(Search *S, const uint64_t *w, int len, uint64_t h, int64_t pn, int64_t dn,
                      long long spent) {
    Q low = {pn, 1}, high = {dn, 1};
    return tt_store_at(S, w, len, h, low, high, NO_MOVE, spent, dfpn_parent_slot(S, w));
}

static int dfpn_mid_(Search *S, const KS *k, int row, const uint64_t *key, int keylen,
                     uint64_t hash, int64_t th_pn, int64_t th_dn);

/* How many of the other threads of the group search a node of hash ``h`` now. */
static inline int group_busy(const Group *g, int me, uint64_t h) {
    int on = 0;
    size_t at = busy_slot(h);
    for (int w = 0; w < g->workers; w++, at += BUSY_SLOTS)
        if (w != me) on += atomic_load_explicit(&g->busy[at], memory_order_relaxed);
    return on;
}

/* Search a node until its numbers reach the thresholds (dfpn.py: DfpnSearch._mid); in a
 * parallel df-pn the node counts as busy meanwhile (its virtual numbers, see Group). */
static int dfpn_mid(Search *S, const KS *k, int row, const uint64_t *key, int keylen, uint64_t hash,
                    int64_t th_pn, int64_t th_dn) {
    /* this thread's row alone writes it: a plain load and store, no atomic step */
    _Atomic uint16_t *busy =
        S->group ? &S->group->busy[(size_t)S->worker * BUSY_SLOTS + busy_slot(hash)] : NULL;
    S->path_seen[path_bits(hash)]++;
    if (busy)
        atomic_store_explicit(busy, atomic_load_explicit(busy, memory_order_relaxed) + 1,
                              memory_order_relaxed);
    int r = dfpn_mid_(S, k, row, key, keylen, hash, th_pn, th_dn);
    if (busy)
        atomic_store_explicit(busy, atomic_load_explicit(busy, memory_order_relaxed) - 1,
                              memory_order_relaxed);
    S->path_seen[path_bits(hash)]--;
    return r;
}

static int dfpn_mid_(Search *S, const KS *k, int row, const uint64_t *key, int keylen,
                     uint64_t hash, int64_t th_pn, int64_t th_dn) {
    S->nodes++;
    long long start = S->nodes;
    if (S->nodes >= S->next_check && check_budget(S) < 0) return -1;
    if (S->depth >= MAX_DEPTH) { S->stop = STOP_DEPTH; return -1; }
    if (row < 0) note_bout_start(S, k, hash);
    Frame *f;
    int is_or, rows_made;
    int count = dfpn_expand(S, &f, k, row, key, keylen, &is_or, &rows_made);
    if (count < 0) return -1;
    int depth = S->depth;
    S->path_hash[depth] = hash; S->path_key[depth] = key; S->path_len[depth] = keylen;
    for (int i = 0; i < count; i++) {
        if (!S->path_seen[path_bits(f->hashes[i])]) continue; /* on the path: none such */
        const uint64_t *w = f->keys + (size_t)i * KEYWORDS;
        for (int d = 0; d <= depth; d++) {
            if (S->path_hash[d] == f->hashes[i] && S->path_len[d] == f->keylen[i]
                && memcmp(S->path_key[d], w, f->keylen[i] * sizeof(uint64_t)) == 0) {
                S->stop = STOP_CYCLE;
                return -1;
            }
        }
    }
    int child_row[MAXMOVES];
    S->stored_key = NULL; /* a store before this node's expansion is no child's of it */
    f->epoch = S->table->epoch;
    for (int i = 0; i < count; i++) {
        child_row[i] = rows_made ? f->moves[i] : -1;
        f->seed_pn[i] = f->seed_dn[i] = 1;
        f->slots[i] = NO_SLOT;
        const uint64_t *w = f->keys + (size_t)i * KEYWORDS;
        size_t slot;
        if (table_find(S->table, w, f->keylen[i], f->hashes[i], &slot)) {
            f->found[i] = FOUND_OWN;
            f->slots[i] = slot;
        } else if (S->shared && table_find(S->shared, w, f->keylen[i], f->hashes[i], &slot)) {
            f->found[i] = FOUND_SHARED;
            f->seed_pn[i] = S->shared->slots[slot].low;
            f->seed_dn[i] = S->shared->slots[slot].high;
        } else {
            f->found[i] = FOUND_NONE;
            dfpn_first_numbers(S, &f->kids[i], child_row[i], w, f->keylen[i], f->hashes[i],
                               &f->seed_pn[i], &f->seed_dn[i]);
            continue;
        }
        if ((S->tuning & TUNE_HINT_STORED) && child_row[i] < 0 && S->hint_obj
            && S->hint_target != S->target) {
            /* stored and still open here, disproved by the other question: likely proved
             * here, for this visit until it is searched (dfpn.py: DfpnSearch._hinted) */
            const Table *t = f->found[i] == FOUND_OWN ? S->table : S->shared;
            int64_t pn = t->slots[slot].low, dn = t->slots[slot].high;
            Probe p;
            if (pn > 1 && dn > 0
                && tt_probe((const Search *)S->hint_obj, w, f->keylen[i], f->hashes[i], &p)
                && p.high.n == 0 && p.low.n != 0) {
                int64_t up = dn < SEED_MAX / HINT_SCALE ? dn * HINT_SCALE : SEED_MAX;
                f->found[i] = FOUND_HINTED;
                f->seed_pn[i] = 1;
                f->seed_dn[i] = up > dn ? up : dn;
            }
        }
    }
    Group *g = S->group;
    /* of children of equal least numbers, the one of the larger other number first (1), the
     * smaller (-1), or the first (0): Tuning.ties at this node */
    int ties = TUNE_TIES(S->tuning);
    int tie = ties == 2 ? -1 : ties == 1 || (ties == 3 && is_or);
    for (;;) {
        int64_t phi = PN_INFINITE, delta = 0, second = PN_INFINITE, best_delta = 0;
        int best = -1;
        if (g && atomic_load_explicit(&g->done, memory_order_relaxed)) {
            S->stop = STOP_DONE;
            return -1;
        }
        if (g && atomic_load_explicit(&g->want, memory_order_relaxed)) group_yield(S);
        dfpn_prefetch_loop(S, f, count);
        for (int i = 0; i < count; i++) {
            int64_t pn, dn;
            if (dfpn_numbers(S, &f->kids[i], child_row[i], f->keys + (size_t)i * KEYWORDS,
                             f->keylen[i], f->hashes[i], f->found[i], f->seed_pn[i],
                             f->seed_dn[i], &f->slots[i], &pn, &dn) < 0)
                return -1;
            int64_t p = is_or ? pn : dn, d = is_or ? dn : pn;
            f->phi[i] = p; f->delta[i] = d;
            if (p < phi || (p == phi && tie && best >= 0
                            && (tie > 0 ? d > best_delta : d < best_delta))) {
                second = phi; phi = p; best = i; best_delta = d;
            }
            else if (p < second) second = p;
            delta += d;
            if (delta > PN_INFINITE) delta = PN_INFINITE;
        }
        /* a parallel df-pn: where another thread searches the child of least numbers, the
         * choice with the numbers of the children other threads search made dearer (their
         * virtual numbers, see Group); else that child is the choice with them too */
        int64_t chosen = PN_INFINITE, chosen_second = PN_INFINITE, chosen_delta = 0;
        int pick = -1;
        if (g && best >= 0 && phi > 0 && phi < PN_INFINITE
            && group_busy(g, S->worker, f->hashes[best])) {
            for (int i = 0; i < count; i++) {
                int64_t p = f->phi[i], seen = p;
                int on = p > 0 && p < PN_INFINITE ? group_busy(g, S->worker, f->hashes[i]) : 0;
                if (on) { seen = p * (1 + on); if (seen >= PN_INFINITE) seen = PN_INFINITE - 1; }
                if (seen < chosen) { chosen_second = chosen; chosen = seen; pick = i; chosen_delta = f->delta[i]; }
                else if (seen < chosen_second) chosen_second = seen;
            }
        }
        if (phi == 0) delta = PN_INFINITE;
        if (delta == 0) phi = PN_INFINITE;
        int64_t th_phi = is_or ? th_pn : th_dn, th_delta = is_or ? th_dn : th_pn;
        if (g && pick >= 0 && pick != best && chosen < th_phi) {
            best = pick; second = chosen_second; best_delta = chosen_delta;
        }
        if (phi >= th_phi || delta >= th_delta) {
            return dfpn_store(S, key, keylen, hash, is_or ? phi : delta, is_or ? delta : phi,
                              S->nodes - start + 1);
        }
        int64_t want_phi = th_phi;
        if (second < PN_INFINITE) {
            int64_t bound = second + second / EPSILON_SHARE + 1;
            if (bound < want_phi) want_phi = bound;
        }
        int64_t want_delta = th_delta - delta + best_delta;
        if (want_delta > PN_INFINITE - 1) want_delta = PN_INFINITE - 1;
        if (f->found[best] == FOUND_HINTED) f->found[best] = FOUND_OWN;
        S->depth++;
        int r = dfpn_mid(S, &f->kids[best], child_row[best], f->keys + (size_t)best * KEYWORDS,
                         f->keylen[best], f->hashes[best],
                         is_or ? want_phi : want_delta, is_or ? want_delta : want_phi);
        S->depth--;
        if (r < 0) return -1;
    }
}

/* ---------------------------------------------------------------- a parallel df-pn */

/* The searches of the other threads are plain structures, made once and kept between proofs
 * (their frames stay allocated); each reads the settings of the first. */
static Search *clone_new(const Search *S) {
    Search *C = calloc(1, sizeof(Search));
    if (!C) return NULL;
    C->spec = S->spec;
    return C;
}

static void frames_free(Search *S) {
    for (int i = 0; i < S->nframes; i++) {
        Frame *f = S->frames[i];
        if (!f) continue;
        free(f->slots);
        free(f->kids); free(f->moves); free(f->order); free(f->score); free(f->keys);
        free(f->keylen); free(f->hashes); free(f->seed_pn); free(f->seed_dn); free(f->phi); free(f->delta); free(f->found); free(f);
    }
    free(S->frames);
    S->frames = NULL;
    S->nframes = 0;
}

static void clone_free(Search *C) {
    memo_let_go(C);
    frames_free(C);
    free(C);
}

static void clone_sync(const Search *S, Search *C) {
    C->table = S->table; C->shared = S->shared;
    C->hint_obj = S->hint_obj; C->hint_target = S->hint_target;
    C->pool = S->pool;
    C->memos = S->memos; C->spec_digest = S->spec_digest; C->sides = S->sides;
    memcpy(C->maximising, S->maximising, sizeof C->maximising);
    memcpy(C->attacker, S->attacker, sizeof C->attacker);
    C->constant_sum = S->constant_sum; C->mode = S->mode; C->total = S->total;
    C->target = S->target; C->mixed_seen = S->mixed_seen; C->tuning = S->tuning;
    C->max_nodes = S->max_nodes; C->deadline = S->deadline; C->started = S->started;
    C->group = S->group;
    C->nodes = C->flushed = 0;
    C->stop = STOP_NONE;
}

typedef struct {
    Search *S;
    const KS *root;
    const uint64_t *key;
    int len;
    uint64_t h;
} ProofRun;

/* A parallel proof's table made first as large as the proof may fill it (its entry limit, or
 * the entries the nodes it may still search can add), so that no thread has to stop the
 * others to grow it (a grow of 1,048,576 slots to 2,097,152 took 0.05 s, both threads
 * waiting). Where the memory is not there, it grows as before. */
static void group_presize(Table *t, long long nodes, int workers) {
    unsigned long long room = (unsigned long long)workers * GROUP_SIZES + 1;
    unsigned long long entries = t->limit > 0 ? (unsigned long long)t->limit : 0;
    if (nodes > 0 && (!entries || t->size + (unsigned long long)nodes + room < entries))
        entries = t->size + (unsigned long long)nodes + room;
    if (!entries) return;
    size_t cap = t->cap ? t->cap : (1 << 12);
    while ((unsigned long long)cap < 2 * entries && cap < ((size_t)1 << 40)) cap *= 2;
    if (cap > t->cap) table_resize(t, cap);
}

/* One thread's search of the root, to its end or the group's. */
static void *proof_thread(void *arg) {
    ProofRun *run = arg;
    Search *S = run->S;
    Group *g = S->group;
    pthread_rwlock_rdlock(&g->rw);
    S->depth = 0;
    S->stop = STOP_NONE;
    schedule(S);
    int r = dfpn_mid(S, run->root, -1, run->key, run->len, run->h, PN_INFINITE - 1,
                     PN_INFINITE - 1);
    atomic_fetch_add(&g->nodes, S->nodes - S->flushed);
    S->flushed = S->nodes;
    group_count(S->table, &S->part);
    if (r < 0 && S->stop != STOP_DONE) {
        int none = STOP_NONE;
        atomic_compare_exchange_strong(&g->stop, &none, S->stop);
    }
    atomic_store(&g->done, 1);
    pthread_rwlock_unlock(&g->rw);
    return NULL;
}

/* df-pn from the root on ``S->workers`` threads at once, on S's table (the first thread is
 * this one; the GIL is let go meanwhile). 0 when the root is settled, -1 on a stop (S->stop),
 * -2 when the memory for the threads is not there. The nodes are every thread's. */
static int dfpn_parallel(Search *S, const KS *k, const uint64_t *key, int len, uint64_t h) {
    int workers = S->workers;
    if (S->nclones < workers - 1) {
        Search **clones = realloc(S->clones, (size_t)(workers - 1) * sizeof(Search *));
        if (!clones) return -2;
        S->clones = clones;
        for (; S->nclones < workers - 1; S->nclones++) {
            clones[S->nclones] = clone_new(S);
            if (!clones[S->nclones]) return -2;
        }
    }
    Group *g = group_new(workers, &S->abort);
    ProofRun *runs = calloc((size_t)workers, sizeof(ProofRun));
    pthread_t *threads = calloc((size_t)workers, sizeof(pthread_t));
    if (!g || !g->busy || !runs || !threads) {
        group_free(g); free(runs); free(threads);
        return -2;
    }
    atomic_store(&g->nodes, S->nodes);
    group_presize(S->table, S->max_nodes > 0 ? S->max_nodes - S->nodes : 0, workers);
    S->group = g;
    S->flushed = S->nodes;
    S->table->group = g;
    for (int i = 0; i < workers; i++) {
        Search *W = i == 0 ? S : S->clones[i - 1];
        if (i > 0) clone_sync(S, W);
        W->worker = i;
        memset(&W->part, 0, sizeof W->part);
        W->stored_key = NULL;
        runs[i].S = W; runs[i].root = k; runs[i].key = key; runs[i].len = len; runs[i].h = h;
    }
    PyThreadState *saved = PyEval_SaveThread();
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 64u << 20);
    int started = 0;
    for (int i = 1; i < workers; i++) {
        if (pthread_create(&threads[i], &attr, proof_thread, &runs[i]) != 0) break;
        started = i;
    }
    pthread_attr_destroy(&attr);
    proof_thread(&runs[0]);
    for (int i = 1; i <= started; i++) pthread_join(threads[i], NULL);
    PyEval_RestoreThread(saved);
    S->table->group = NULL;
    S->group = NULL;
    int stop = atomic_load(&g->stop);
    S->nodes = atomic_load(&g->nodes);
    if (S->max_nodes > 0 && S->nodes > S->max_nodes) S->nodes = S->max_nodes;
    for (int i = 0; i < workers - 1; i++) memo_let_go(S->clones[i]);
    for (int i = 0; i < started; i++) {
        Search *W = S->clones[i];
        S->mixed_seen |= W->mixed_seen;
        if (W->total >= 0) {
            if (S->total < 0) S->total = W->total;
            else if (S->total != W->total && stop == STOP_NONE) stop = STOP_NOT_CONSTANT;
        }
    }
    group_free(g);
    free(runs); free(threads);
    schedule(S);
    if (stop == STOP_NOT_CONSTANT) { S->stop = stop; return -1; }
    Probe p;
    if (tt_probe(S, key, len, h, &p) && (p.low.n == 0 || p.high.n == 0)) return 0;
    S->stop = stop != STOP_NONE ? stop : STOP_DONE;
    return -1;
}

/* Alpha-beta asks df-pn about a state it has not searched yet (search.py: KernelSearch.ask;
 * params.py: Tuning.alpha_beta_asks): "value 1?", then "value 0?", each to its answer on the
 * node count of this search; the value (0 or 1) one of them proves, 2 if both are disproved,
 * -1 at a stop. A question its table has already disproved is not asked again. */
static int ask_proofs(Search *S, const KS *k, const uint64_t *w, int len, uint64_t h) {
    for (int q = 1; q >= 0; q--) {
        Search *D = (Search *)S->proof_obj[q];
        if (!D) continue;
        Probe d;
        if (tt_probe(D, w, len, h, &d)) {
            if (d.low.n == 0) return q;
            if (d.high.n == 0) continue;
        }
        long long saved = D->max_nodes;
        D->nodes = S->nodes;
        D->max_nodes = S->max_nodes;
        D->stop = STOP_NONE;
        D->depth = 0;
        D->released = S->released;
        schedule(D);
        int r = dfpn_mid(D, k, -1, w, len, h, PN_INFINITE - 1, PN_INFINITE - 1);
        memo_let_go(D);
        S->released = D->released;
        D->released = NULL;
        D->max_nodes = saved;
        S->nodes = D->nodes;
        if (r < 0) { S->stop = D->stop; return -1; }
        if (S->nodes >= S->next_check && check_budget(S) < 0) return -1;
        if (!tt_probe(D, w, len, h, &d) || (d.low.n != 0 && d.high.n != 0)) {
            S->stop = STOP_DONE; /* the numbers did not settle (dfpn.py: DfpnSearch.prove) */
            return -1;
        }
        if (d.low.n == 0) return q;
    }
    return 2;
}

/* ---------------------------------------------------------------- the Search type */

/* A search refers to the other question's search and to its progress callback, which may
 * refer back to it: the collector sees those references and breaks such cycles. */
static int Search_traverse(Search *S, visitproc visit, void *arg) {
    Py_VISIT(S->hint_obj);
    Py_VISIT(S->proof_obj[0]);
    Py_VISIT(S->proof_obj[1]);
    Py_VISIT(S->progress);
    Py_VISIT(S->matrix_value);
    return 0;
}

static int Search_clear(Search *S) {
    Py_CLEAR(S->hint_obj);
    Py_CLEAR(S->proof_obj[0]);
    Py_CLEAR(S->proof_obj[1]);
    Py_CLEAR(S->progress);
    Py_CLEAR(S->matrix_value);
    return 0;
}

static void Search_dealloc(Search *S) {
    PyObject_GC_UnTrack(S);
    table_free(&S->own);
    Py_XDECREF(S->hint_obj);
    Py_XDECREF(S->proof_obj[0]);
    Py_XDECREF(S->proof_obj[1]);
    Py_XDECREF(S->table_obj);
    Py_XDECREF(S->shared_obj);
    memo_let_go(S);
    for (int i = 0; i < S->nclones; i++) clone_free(S->clones[i]);
    free(S->clones);
    if (S->own_memos) { memos_drop(S->own_memos); free(S->own_memos); }
    Py_XDECREF(S->pool_obj); /* after the memos are let go: the pool may hold them */
    frames_free(S);
    Py_XDECREF(S->progress);
    Py_XDECREF(S->matrix_value);
    Py_TYPE(S)->tp_free((PyObject *)S);
}

static int use_tables(Search *S, PyObject *table, PyObject *shared) {
    if ((table != Py_None && !PyObject_TypeCheck(table, &TableType))
        || (shared != Py_None && !PyObject_TypeCheck(shared, &TableType))) {
        PyErr_SetString(PyExc_TypeError, "tables must be _ckernel.Table or None");
        return -1;
    }
    Py_XDECREF(S->table_obj); Py_XDECREF(S->shared_obj);
    S->table_obj = S->shared_obj = NULL;
    S->table = &S->own;
    S->shared = NULL;
    if (table != Py_None) { Py_INCREF(table); S->table_obj = table; S->table = &((TableObject *)table)->t; }
    if (shared != Py_None) { Py_INCREF(shared); S->shared_obj = shared; S->shared = &((TableObject *)shared)->t; }
    return 0;
}

static int Search_init(Search *S, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"spec", "maximising", "constant_sum", "mode", "max_nodes",
                             "max_seconds", "table_limit", "progress", "matrix_value", "payoff",
                             "tuning", "pool", "table", "shared", NULL};
    PyObject *spec_o, *maximising, *progress, *matrix, *payoff;
    PyObject *pool = Py_None, *table = Py_None, *shared = Py_None;
    int constant_sum, mode, tuning;
    long long max_nodes, table_limit;
    double max_seconds;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOiiLdLOOOi|OOO", kwlist, &spec_o, &maximising,
                                     &constant_sum, &mode, &max_nodes, &max_seconds, &table_limit,
                                     &progress, &matrix, &payoff, &tuning, &pool, &table, &shared))
        return -1;
    S->tuning = tuning;
    if (pool != Py_None && !PyObject_TypeCheck(pool, &PoolType)) {
        PyErr_SetString(PyExc_TypeError, "pool must be _ckernel.Pool or None");
        return -1;
    }
    if (pool != Py_None) { Py_INCREF(pool); S->pool_obj = pool; S->pool = (Pool *)pool; }
    S->own.pool = S->pool;
    S->own.limit = table_limit;
    if (use_tables(S, table, shared) < 0) return -1;
    if (spec_from_py(spec_o, &S->spec) < 0) return -1;
    if (get_ints(maximising, S->maximising, S->spec.players) < 0) return -1;
    S->spec_digest = spec_digest(&S->spec);
    S->sides = 0;
    for (int seat = 0; seat < S->spec.players; seat++)
        if (S->maximising[seat]) S->sides |= (uint8_t)(1u << seat);
    if (S->pool) {
        S->memos = &S->pool->memos;
    } else {
        if (!S->own_memos) {
            S->own_memos = calloc(1, sizeof(PlayoutMemos));
            if (!S->own_memos) { PyErr_NoMemory(); return -1; }
            memos_init(S->own_memos, NULL, 0);
        }
        S->memos = S->own_memos;
    }
    S->constant_sum = constant_sum;
    S->mode = mode;
    S->total = -1;
    S->max_nodes = max_nodes;
    S->table_limit = table_limit;
    S->started = now_seconds();
    S->deadline = max_seconds > 0 ? S->started + max_seconds : 0;
    Py_INCREF(progress); S->progress = progress;
    Py_INCREF(matrix); S->matrix_value = matrix;
    S->has_payoff = payoff != Py_None;
    if (S->has_payoff) {
        /* payoff: sequence of players + 1 rows (winner -1, 0, ...), each players values */
        PyObject *rows = PySequence_Fast(payoff, "payoff must be a sequence");
        if (!rows) return -1;
        if (PySequence_Fast_GET_SIZE(rows) != S->spec.players + 1) { Py_DECREF(rows); PyErr_SetString(PyExc_ValueError, "payoff rows"); return -1; }
        for (int i = 0; i <= S->spec.players; i++) {
            PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(rows, i), "payoff row");
            if (!row) { Py_DECREF(rows); return -1; }
            for (int j = 0; j < S->spec.players; j++) {
                if (q_from_py(PySequence_Fast_GET_ITEM(row, j), &S->payoff[i][j]) < 0) { Py_DECREF(row); Py_DECREF(rows); return -1; }
            }
            Py_DECREF(row);
        }
        Py_DECREF(rows);
    }
    schedule(S);
    return 0;
}

static PyObject *stop_name(Search *S) {
    return PyUnicode_FromString(S->stop == STOP_NODES ? "nodes" : S->stop == STOP_TIME ? "time"
                                : S->stop == STOP_MEMORY ? "memory" : S->stop == STOP_DEPTH ? "depth"
                                : S->stop == STOP_CYCLE ? "cycle" : S->stop == STOP_ABORT ? "interrupted"
                                : S->stop == STOP_DONE ? "unsettled" : "capacity");
}

/* What a search that stopped answers: None and the reason, or a Python error. */
static PyObject *stopped(Search *S) {
    if (S->stop == STOP_PYTHON) return NULL;
    if (S->stop == STOP_NOT_CONSTANT) {
        PyErr_SetString(PyExc_ArithmeticError, "not constant-sum");
        return NULL;
    }
    return Py_BuildValue("(ON)", Py_None, stop_name(S));
}

static PyObject *Search_search(Search *S, PyObject *args) {
    PyObject *state_o, *alpha_o, *beta_o;
    if (!PyArg_ParseTuple(args, "OOO", &state_o, &alpha_o, &beta_o)) return NULL;
    KS k;
    Q alpha, beta, value;
    if (state_from_py(&S->spec, state_o, &k) < 0) return NULL;
    if (q_from_py(alpha_o, &alpha) < 0 || q_from_py(beta_o, &beta) < 0) return NULL;
    S->stop = STOP_NONE;
    S->depth = 0;
    q_overflow = 0;
    if (S->threaded) S->released = PyEval_SaveThread();
    int r = search(S, &k, alpha, beta, &value);
    if (S->released) { PyEval_RestoreThread(S->released); S->released = NULL; }
    if (r < 0) return stopped(S);
    return Py_BuildValue("(Ns)", q_to_py(value), "");
}


/* prove(state, target) -> (True/False or None, stop reason): df-pn on "is the value of state
 * for the maximising seats equal to target (0 or 1)?" (kernel/dfpn.py: DfpnSearch.prove). */
static PyObject *Search_prove(Search *S, PyObject *args) {
    PyObject *state_o;
    int target;
    if (!PyArg_ParseTuple(args, "Oi", &state_o, &target)) return NULL;
    KS k;
    if (state_from_py(&S->spec, state_o, &k) < 0) return NULL;
    S->target = target;
    for (int seat = 0; seat < S->spec.players; seat++)
        S->attacker[seat] = (S->maximising[seat] != 0) == (target != 0);
    S->stop = STOP_NONE;
    S->depth = 0;
    skip_shows(S, &k);
    if (k.error) { S->stop = STOP_CAPACITY; return Py_BuildValue("(ON)", Py_None, stop_name(S)); }
    if (k.phase == OVER) {
        if (check_total(S, &k) < 0) return stopped(S);
        int value = (k.winner >= 0 && S->maximising[k.winner]) ? 1 : 0;
        return Py_BuildValue("(Os)", value == target ? Py_True : Py_False, "");
    }
    Frame *f = frame_at(S, 0, 0);
    if (!f) return PyErr_NoMemory();
    uint64_t key[KEYWORDS];
    int len = pack_key(&S->spec, &k, key);
    uint64_t h = hash_words(key, len);
    int r;
    if (S->workers > 1) {
        r = dfpn_parallel(S, &k, key, len, h);
        if (r == -2) return PyErr_NoMemory();
    } else {
        if (S->threaded) S->released = PyEval_SaveThread();
        r = dfpn_mid(S, &k, -1, key, len, h, PN_INFINITE - 1, PN_INFINITE - 1);
        if (S->released) { PyEval_RestoreThread(S->released); S->released = NULL; }
    }
    memo_let_go(S);
    if (r < 0) return stopped(S);
    Probe p;
    if (tt_probe(S, key, len, h, &p)) {
        if (p.low.n == 0) return Py_BuildValue("(Os)", Py_True, "");
        if (p.high.n == 0) return Py_BuildValue("(Os)", Py_False, "");
    }
    return Py_BuildValue("(Os)", Py_None, "unsettled");
}

static PyObject *Search_get_mixed(Search *S, void *closure) { return PyBool_FromLong(S->mixed_seen); }
static int Search_set_mixed(Search *S, PyObject *value, void *closure) {
    int flag = PyObject_IsTrue(value);
    if (flag < 0) return -1;
    S->mixed_seen = flag;
    return 0;
}

static PyObject *Search_maxn(Search *S, PyObject *args) {
    PyObject *state_o;
    int tie_last;
    if (!PyArg_ParseTuple(args, "Op", &state_o, &tie_last)) return NULL;
    KS k;
    if (state_from_py(&S->spec, state_o, &k) < 0) return NULL;
    if (!S->table->with_third) {
        if (S->table->cap) { PyErr_SetString(PyExc_RuntimeError, "this search already holds values"); return NULL; }
        S->table->with_third = 1;
    }
    S->tie_last = tie_last;
    S->stop = STOP_NONE;
    S->depth = 0;
    q_overflow = 0;
    Vec v;
    int exact;
    if (maxn_value(S, &k, -1, Q0, &v, &exact) < 0) {
        if (S->stop == STOP_PYTHON) return NULL;
        return Py_BuildValue("(ON)", Py_None, stop_name(S));
    }
    int teams = 0;
    for (int seat = 0; seat < S->spec.players; seat++)
        if (S->spec.team_of[seat] + 1 > teams) teams = S->spec.team_of[seat] + 1;
    PyObject *vector = PyTuple_New(teams);
    for (int t = 0; t < teams; t++) PyTuple_SET_ITEM(vector, t, q_to_py(v.v[t]));
    return Py_BuildValue("(Ns)", vector, "");
}

static PyObject *Search_entry(Search *S, PyObject *args) {
    PyObject *state_o;
    if (!PyArg_ParseTuple(args, "O", &state_o)) return NULL;
    KS k;
    if (state_from_py(&S->spec, state_o, &k) < 0) return NULL;
    uint64_t w[KEYWORDS];
    int len = pack_key(&S->spec, &k, w);
    Probe p;
    if (!tt_probe(S, w, len, hash_words(w, len), &p)) Py_RETURN_NONE;
    return Py_BuildValue("(NNi)", q_to_py(p.low), q_to_py(p.high), p.best);
}

static PyObject *Search_get_nodes(Search *S, void *closure) { return PyLong_FromLongLong(S->nodes); }
static int Search_set_nodes(Search *S, PyObject *value, void *closure) {
    S->nodes = PyLong_AsLongLong(value);
    schedule(S);
    return PyErr_Occurred() ? -1 : 0;
}
static PyObject *Search_get_max_nodes(Search *S, void *closure) { return PyLong_FromLongLong(S->max_nodes); }
static int Search_set_max_nodes(Search *S, PyObject *value, void *closure) {
    long long limit = PyLong_AsLongLong(value);
    if (limit == -1 && PyErr_Occurred()) return -1;
    S->max_nodes = limit;
    schedule(S);
    return 0;
}
static PyObject *Search_get_states(Search *S, void *closure) { return PyLong_FromSize_t(S->table->size); }
static PyObject *Search_get_gap(Search *S, void *closure) { return PyBool_FromLong(S->gap_seen); }
static int Search_set_gap(Search *S, PyObject *value, void *closure) {
    int flag = PyObject_IsTrue(value);
    if (flag < 0) return -1;
    S->gap_seen = flag;
    return 0;
}
static PyObject *Search_get_total(Search *S, void *closure) { return PyLong_FromLong(S->total); }
static int Search_set_total(Search *S, PyObject *value, void *closure) {
    long total = PyLong_AsLong(value);
    if (total == -1 && PyErr_Occurred()) return -1;
    S->total = (int)total;
    return 0;
}
static PyObject *Search_get_bytes(Search *S, void *closure) {
    /* its own table (a shared one is counted by its owner) */
    size_t own = S->table == &S->own ? table_bytes_of(&S->own) : 0;
    return PyLong_FromSize_t(own);
}
static PyObject *Search_get_elapsed(Search *S, void *closure) { return PyFloat_FromDouble(now_seconds() - S->started); }

static PyObject *Search_use(Search *S, PyObject *args) {
    PyObject *table, *shared;
    if (!PyArg_ParseTuple(args, "OO", &table, &shared)) return NULL;
    if (use_tables(S, table, shared) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyTypeObject SearchType;

/* hint(other, target): df-pn reads the proofs of ``other`` (a Search asking whether the
 * value is ``target``, 0 or 1; or None) for children not in its own tables; ``other`` must
 * not search while this one does. */
static PyObject *Search_hint(Search *S, PyObject *args) {
    PyObject *other;
    int target = 0;
    if (!PyArg_ParseTuple(args, "O|i", &other, &target)) return NULL;
    if (target != 0 && target != 1) {
        PyErr_SetString(PyExc_ValueError, "a hint's target is 0 or 1");
        return NULL;
    }
    if (other != Py_None && !PyObject_TypeCheck(other, &SearchType)) {
        PyErr_SetString(PyExc_TypeError, "hint must be a _ckernel.Search or None");
        return NULL;
    }
    if (other == (PyObject *)S) {
        PyErr_SetString(PyExc_ValueError, "a search cannot be its own hint");
        return NULL;
    }
    Py_XDECREF(S->hint_obj);
    S->hint_obj = NULL;
    if (other != Py_None) { Py_INCREF(other); S->hint_obj = other; S->hint_target = target; }
    Py_RETURN_NONE;
}

static PyObject *Search_proofs(Search *S, PyObject *args) {
    PyObject *o[2];
    int ask = 0;
    if (!PyArg_ParseTuple(args, "OO|p", &o[0], &o[1], &ask)) return NULL;
    for (int q = 0; q < 2; q++) {
        if (o[q] != Py_None && (!PyObject_TypeCheck(o[q], &SearchType) || o[q] == (PyObject *)S)) {
            PyErr_SetString(PyExc_TypeError, "proofs: df-pn searches (_ckernel.Search) or None");
            return NULL;
        }
    }
    for (int q = 0; q < 2; q++) {
        Py_XDECREF(S->proof_obj[q]);
        S->proof_obj[q] = NULL;
        if (o[q] != Py_None) { Py_INCREF(o[q]); S->proof_obj[q] = o[q]; }
    }
    S->ask = ask;
    Py_RETURN_NONE;
}

static PyObject *Search_interrupt(Search *S, PyObject *unused) {
    atomic_store(&S->abort, 1);
    Py_RETURN_NONE;
}

static PyObject *Search_get_workers(Search *S, void *closure) { return PyLong_FromLong(S->workers > 1 ? S->workers : 1); }
static int Search_set_workers(Search *S, PyObject *value, void *closure) {
    long workers = value ? PyLong_AsLong(value) : -1;
    if (workers == -1 && (!value || PyErr_Occurred())) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "workers is a number");
        return -1;
    }
    if (workers < 1 || workers > 256) {
        PyErr_SetString(PyExc_ValueError, "workers: from 1 to 256 threads");
        return -1;
    }
    S->workers = (int)workers;
    return 0;
}

static PyObject *Search_get_tuning(Search *S, void *closure) { return PyLong_FromLong(S->tuning); }
static int Search_set_tuning(Search *S, PyObject *value, void *closure) {
    long tuning = value ? PyLong_AsLong(value) : -1;
    if (tuning == -1 && (!value || PyErr_Occurred())) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "tuning is a number");
        return -1;
    }
    if (tuning < 0 || tuning > 0x7FFFFFFF) {
        PyErr_SetString(PyExc_ValueError, "tuning: the bits of Tuning.mask()");
        return -1;
    }
    S->tuning = (int)tuning;
    return 0;
}

static PyObject *Search_get_threaded(Search *S, void *closure) { return PyBool_FromLong(S->threaded); }
static int Search_set_threaded(Search *S, PyObject *value, void *closure) {
    int flag = PyObject_IsTrue(value);
    if (flag < 0) return -1;
    S->threaded = flag;
    return 0;
}

static PyMethodDef Search_methods[] = {
    {"use", (PyCFunction)Search_use, METH_VARARGS, "use(table, shared): store in table (a Table, or None: its own), read shared after it (a Table or None)"},
    {"proofs", (PyCFunction)Search_proofs, METH_VARARGS, "proofs(zero, one, ask=False): alpha-beta reads the proofs of these df-pn searches (value 0?, value 1?; None: none) as exact values; with ask, below a root both disprove it asks them at each state it has not searched"},
    {"hint", (PyCFunction)Search_hint, METH_VARARGS, "hint(other, target): read the proofs of other (a Search of df-pn asking whether the value is target, or None)"},
    {"interrupt", (PyCFunction)Search_interrupt, METH_NOARGS, "stop at the next check (from another thread)"},
    {"search", (PyCFunction)Search_search, METH_VARARGS, "search(state, alpha, beta) -> (value or None, stop reason)"},
    {"entry", (PyCFunction)Search_entry, METH_VARARGS, "entry(state) -> (low, high, best) or None"},
    {"maxn", (PyCFunction)Search_maxn, METH_VARARGS, "maxn(state, tie_last) -> (vector or None, stop reason)"},
    {"prove", (PyCFunction)Search_prove, METH_VARARGS, "prove(state, target) -> (bool or None, stop reason)"},
    {NULL}
};

static PyGetSetDef Search_getset[] = {
    {"nodes", (getter)Search_get_nodes, (setter)Search_set_nodes, "nodes searched", NULL},
    {"states", (getter)Search_get_states, NULL, "entries in the transposition table", NULL},
    {"max_nodes", (getter)Search_get_max_nodes, (setter)Search_set_max_nodes, "node limit (0: none)", NULL},
    {"total", (getter)Search_get_total, (setter)Search_set_total, "constant-sum total seen (-1: none yet)", NULL},
    {"gap_seen", (getter)Search_get_gap, (setter)Search_set_gap, "a matrix game without a saddle was met", NULL},
    {"table_bytes", (getter)Search_get_bytes, NULL, "memory held by the tables", NULL},
    {"elapsed", (getter)Search_get_elapsed, NULL, "seconds since the search was made", NULL},
    {"mixed_seen", (getter)Search_get_mixed, (setter)Search_set_mixed, "df-pn expanded a chance node or an exchange between the sides", NULL},
    {"threaded", (getter)Search_get_threaded, (setter)Search_set_threaded, "search without the GIL", NULL},
    {"workers", (getter)Search_get_workers, (setter)Search_set_workers, "df-pn: threads proving at once on its table (1: this one alone)", NULL},
    {"tuning", (getter)Search_get_tuning, (setter)Search_set_tuning, "the settings applied (Tuning.mask()); set between searches", NULL},
    {NULL}
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "omen_solver.omens.kernel._ckernel.Search",
    .tp_basicsize = sizeof(Search),
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)Search_traverse,
    .tp_clear = (inquiry)Search_clear,
    .tp_doc = "Alpha-beta on the compiled kernel (see omen_solver/omens/kernel/search.py).",
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
    .tp_init = (initproc)Search_init,
    .tp_new = PyType_GenericNew,
};

/* ---------------------------------------------------------------- the Pool and Table types */

static int Pool_init(Pool *P, PyObject *args, PyObject *kwds) {
    long long limit;
    if (!PyArg_ParseTuple(args, "L", &limit)) return -1;
    memos_drop(&P->memos);
    memos_init(&P->memos, P, limit);
    P->limit = limit;
    atomic_store(&P->used, 0);
    atomic_store(&P->peak, 0);
    return 0;
}

/* drop_memos(): the memos of playouts no search holds, freed and their bytes given back (at a
 * solve's end: a finished solve's searches may live on until the collector frees them). Only
 * while no search of the pool runs: the others' memos are read without a hold. */
static PyObject *Pool_drop_memos(Pool *P, PyObject *unused) {
    memos_drop(&P->memos);
    Py_RETURN_NONE;
}

static PyMethodDef Pool_methods[] = {
    {"drop_memos", (PyCFunction)Pool_drop_memos, METH_NOARGS,
     "free the memos of playouts no search holds (no search of the pool may run)"},
    {NULL}
};

static void Pool_dealloc(Pool *P) {
    memos_drop(&P->memos);
    Py_TYPE(P)->tp_free((PyObject *)P);
}

static PyObject *Pool_get_used(Pool *P, void *c) { return PyLong_FromLongLong(atomic_load(&P->used)); }
static PyObject *Pool_get_peak(Pool *P, void *c) { return PyLong_FromLongLong(atomic_load(&P->peak)); }
static PyObject *Pool_get_limit(Pool *P, void *c) { return PyLong_FromLongLong(P->limit); }

static PyGetSetDef Pool_getset[] = {
    {"used", (getter)Pool_get_used, NULL, "bytes held now", NULL},
    {"peak", (getter)Pool_get_peak, NULL, "bytes held at most", NULL},
    {"limit", (getter)Pool_get_limit, NULL, "bytes allowed (0: no limit)", NULL},
    {NULL}
};

static PyTypeObject PoolType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "omen_solver.omens.kernel._ckernel.Pool",
    .tp_basicsize = sizeof(Pool),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Pool(limit): the bytes the tables and memos of one solve may hold (kernel/tables.py).",
    .tp_dealloc = (destructor)Pool_dealloc,
    .tp_getset = Pool_getset,
    .tp_methods = Pool_methods,
    .tp_init = (initproc)Pool_init,
    .tp_new = PyType_GenericNew,
};

static void Table_dealloc(TableObject *T) {
    table_free(&T->t);
    Py_XDECREF(T->pool);
    Py_TYPE(T)->tp_free((PyObject *)T);
}

static int Table_init(TableObject *T, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"limit", "pool", NULL};
    long long limit;
    PyObject *pool = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "L|O", kwlist, &limit, &pool)) return -1;
    if (pool != Py_None && !PyObject_TypeCheck(pool, &PoolType)) {
        PyErr_SetString(PyExc_TypeError, "pool must be _ckernel.Pool or None");
        return -1;
    }
    table_free(&T->t);
    Py_XDECREF(T->pool);
    T->pool = NULL;
    T->t.limit = limit;
    if (pool != Py_None) { Py_INCREF(pool); T->pool = pool; T->t.pool = (Pool *)pool; }
    return 0;
}

/* merge(other, numbers): other's entries into this table, in the order other stored them
 * (kernel/tables.py: Table.merge). Bounds (alpha-beta): both are true, so they are
 * intersected, and other's best action is taken if it has one. Numbers (df-pn): a proof or
 * disproof stays; otherwise other's numbers are taken. The work kept is the larger. */
static PyObject *Table_merge(TableObject *T, PyObject *args) {
    PyObject *other_o;
    int numbers;
    if (!PyArg_ParseTuple(args, "O!p", &TableType, &other_o, &numbers)) return NULL;
    Table *t = &T->t, *o = &((TableObject *)other_o)->t;
    if (t == o) { PyErr_SetString(PyExc_ValueError, "a table merged into itself"); return NULL; }
    /* the keys are read in order, their slots in both tables anywhere: the slots of the keys
     * MERGE_AHEAD further on are asked for ahead, so that their cache misses overlap */
    size_t ahead = 0;
    int queued = 0;
    for (size_t read = 0; read < o->nwords;) {
        for (; queued < MERGE_AHEAD && ahead < o->nwords; queued++) {
            int m = (int)o->words[ahead];
            uint64_t hh = hash_words(o->words + ahead + 1, m);
            table_prefetch(o, hh);
            table_prefetch(t, hh);
            home_prefetch(o, hh);
            home_prefetch(t, hh);
            ahead += (size_t)m + 1;
        }
        queued--;
        int n = (int)o->words[read];
        const uint64_t *key = o->words + read + 1;
        uint64_t h = hash_words(key, n);
        size_t slot, mine, at = read;
        read += n + 1;
        if (!table_find(o, key, n, h, &slot) || o->slots[slot].offset != at) continue;
        Entry e = o->slots[slot];
        Q low = entry_low(o, slot), high = entry_high(o, slot);
        if (table_find(t, key, n, h, &mine)) {
            Entry *m = &t->slots[mine];
            Q mlow = entry_low(t, mine), mhigh = entry_high(t, mine);
            if (numbers) {
                if (m->low != 0 && m->high != 0) { mlow = low; mhigh = high; }
            } else {
                if (q_lt(mlow, low)) mlow = low;
                if (q_lt(high, mhigh)) mhigh = high;
                if (e.best != NO_MOVE) m->best = e.best;
            }
            if (!entry_set(t, mine, mlow, mhigh)) return PyErr_NoMemory();
            if (e.work > m->work) m->work = e.work;
            continue;
        }
        if (!table_insert(t, key, n, h, low, high, e.best, Q0, e.work))
            return PyErr_NoMemory();
    }
    Py_RETURN_NONE;
}

/* keys(): every entry's key as the tuple of its packed words, in the order the keys were
 * first stored (what a benchmark counts; the words are pack_key's). */
static PyObject *Table_keys(TableObject *T, PyObject *unused) {
    Table *t = &T->t;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (size_t read = 0; read < t->nwords;) {
        int n = (int)t->words[read];
        size_t slot;
        if (!table_find(t, t->words + read + 1, n, hash_words(t->words + read + 1, n), &slot)
            || t->slots[slot].offset != read) {
            read += n + 1; /* a second copy of a key's words (see table_collect) */
            continue;
        }
        PyObject *key = PyTuple_New(n);
        if (!key) { Py_DECREF(out); return NULL; }
        for (int i = 0; i < n; i++)
            PyTuple_SET_ITEM(key, i, PyLong_FromUnsignedLongLong(t->words[read + 1 + i]));
        read += n + 1;
        if (PyList_Append(out, key) < 0) { Py_DECREF(key); Py_DECREF(out); return NULL; }
        Py_DECREF(key);
    }
    return out;
}

static PyObject *Table_clear(TableObject *T, PyObject *unused) {
    table_free(&T->t);
    Py_RETURN_NONE;
}

static PyObject *Table_get_size(TableObject *T, void *c) { return PyLong_FromSize_t(T->t.size); }
static PyObject *Table_get_limit(TableObject *T, void *c) { return PyLong_FromLongLong(T->t.limit); }
/* A new limit applies from the next key stored (a table above it keeps its entries until then). */
static int Table_set_limit(TableObject *T, PyObject *value, void *c) {
    long long limit = value ? PyLong_AsLongLong(value) : -1;
    if (limit == -1 && (!value || PyErr_Occurred())) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "a table's limit is a number");
        return -1;
    }
    if (limit < 0) { PyErr_SetString(PyExc_ValueError, "a table's limit is 0 or more"); return -1; }
    T->t.limit = limit;
    return 0;
}
static PyObject *Table_get_bytes(TableObject *T, void *c) { return PyLong_FromSize_t(table_bytes_of(&T->t)); }
static PyObject *Table_get_collections(TableObject *T, void *c) { return PyLong_FromLongLong(T->t.collections); }

static PyMethodDef Table_methods[] = {
    {"merge", (PyCFunction)Table_merge, METH_VARARGS, "merge(other, numbers): other's entries into this table"},
    {"clear", (PyCFunction)Table_clear, METH_NOARGS, "drop every entry and the memory"},
    {"keys", (PyCFunction)Table_keys, METH_NOARGS, "keys() -> every key's packed words, in the order stored"},
    {NULL}
};

static PyGetSetDef Table_getset[] = {
    {"size", (getter)Table_get_size, NULL, "entries", NULL},
    {"limit", (getter)Table_get_limit, (setter)Table_set_limit, "entries kept at most (0: no limit)", NULL},
    {"bytes", (getter)Table_get_bytes, NULL, "memory held", NULL},
    {"collections", (getter)Table_get_collections, NULL, "times the cheapest half was dropped", NULL},
    {NULL}
};

static PyTypeObject TableType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "omen_solver.omens.kernel._ckernel.Table",
    .tp_basicsize = sizeof(TableObject),
    .tp_dealloc = (destructor)Table_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Table(limit, pool=None): a transposition table searches can share (kernel/tables.py).",
    .tp_methods = Table_methods,
    .tp_getset = Table_getset,
    .tp_init = (initproc)Table_init,
    .tp_new = PyType_GenericNew,
};

/* Monte Carlo tree search with proven values (kernel/mcts.py), on the machine and searches above. */
#include "_ckernel_mcts.h"

static PyMethodDef module_methods[] = {
    {"legal", py_legal, METH_VARARGS, "legal(spec, state, player) -> sorted actions"},
    {"legal_count", py_legal_count, METH_VARARGS, "legal_count(spec, state, player) -> how many legal actions (-1: too many)"},
    {"child", py_child, METH_VARARGS, "child(spec, state, action) -> state"},
    {"joint_child", py_joint_child, METH_VARARGS, "joint_child(spec, state, a, b) -> state"},
    {"playout_step", py_playout_step, METH_VARARGS, "playout_step(spec, state, x, listed) -> (state or None, x): one playout step, made directly or from the list of legal actions (for differential tests)"},
    {"record_bout_starts", py_record_bout_starts, METH_VARARGS, "record_bout_starts(on) -> {cards: distinct bout starts expanded} (a benchmark's count)"},
    {NULL}
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_ckernel", "The compiled Omens search kernel.", -1, module_methods
};

PyMODINIT_FUNC PyInit__ckernel(void) {
    if (PyType_Ready(&SearchType) < 0 || PyType_Ready(&TableType) < 0 || PyType_Ready(&PoolType) < 0
        || PyType_Ready(&MctsType) < 0)
        return NULL;
    draw_inverses();
    bouts.lock = PyThread_allocate_lock();
    if (!bouts.lock) return PyErr_NoMemory();
    PyObject *fractions = PyImport_ImportModule("fractions");
    if (!fractions) return NULL;
    FractionType = PyObject_GetAttrString(fractions, "Fraction");
    Py_DECREF(fractions);
    if (!FractionType) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&SearchType);
    PyModule_AddObject(m, "Search", (PyObject *)&SearchType);
    Py_INCREF(&TableType);
    PyModule_AddObject(m, "Table", (PyObject *)&TableType);
    Py_INCREF(&PoolType);
    PyModule_AddObject(m, "Pool", (PyObject *)&PoolType);
    Py_INCREF(&MctsType);
    PyModule_AddObject(m, "Mcts", (PyObject *)&MctsType);
    PyModule_AddIntConstant(m, "ENTRY_BYTES", (long)sizeof(Entry));
    PyModule_AddIntConstant(m, "MAXFRONT", MAXFRONT);
    PyModule_AddIntConstant(m, "MAXPEND", MAXPEND);
    PyModule_AddStringConstant(m, "SOURCE", CKERNEL_SOURCE);
    return m;
}
