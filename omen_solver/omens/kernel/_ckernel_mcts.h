/* Monte Carlo tree search with proven values on the compiled kernel: a C transcription of
 * omen_solver/omens/kernel/mcts.py (PythonMcts), function by function, so that both give the
 * same tree, estimates and counts for the same position, parameters and seed (the tests
 * compare them). Included by _ckernel.c after the searches, whose alpha-beta and max-n are the
 * oracle at small bout starts.
 *
 *   Mcts(spec, maximising, maxn, team, params, root, oracle, pool)
 *     .run(iterations, deadline[, work]) -> iterations made
 *        (deadline: time.monotonic() seconds, 0: none; work: stop once the kernel moves
 *         and the iterations (a walk down the tree counts one) over PLIES_A_NODE and the
 *         oracle's nodes reach it, 0: no limit)
 *     .settled() -> bool                                 (every root move proven)
 *     .estimate(move) -> (visits, wins, proven, exact_n, exact_d, line)
 *     .root_moves() -> list of the root's moves (identical successors merged)
 *     .size, .iterations, .plies, .oracle_nodes
 * params: (seed, exploration, policy, epsilon, gamma, oracle_cards, oracle_nodes, min_visits,
 *          max_tree, max_plies) as MctsParams.as_tuple() gives them.
 * The tree does not keep states: each iteration replays the moves from the root.
 */

#include <math.h>

enum { MK_DECISION, MK_MATRIX, MK_CHANCE, MK_TERMINAL };
enum { MP_RANDOM, MP_HEURISTIC, MP_GREEDY };
#define NOT_PROVEN (-1)
#define MCTS_CHECK 16   /* iterations between two looks at the clock */
#define PLIES_A_NODE 8  /* mcts.py: PLIES_A_NODE */

typedef struct {
    double wins[3];
    double fixed;
    int64_t exact_n, exact_d;  /* exact_d 0: no exact fraction */
    int32_t visits;
    int32_t first;   /* decision, chance: the first edge; matrix: the first int (acts, joint) */
    int32_t count;   /* decision, chance: children; matrix: the first player's actions */
    int32_t nb;      /* matrix: the second player's actions */
    int32_t dfirst;  /* matrix: the first double (regret_a, cum_a, regret_b, cum_b) */
    int8_t kind, player, second, side, proven, oracle, expanded;
} MNode;

typedef struct { int64_t move; int32_t child; } MEdge;
enum { ME_NONE, ME_OVERFLOW, ME_MEMORY, ME_PYTHON };
typedef struct { int32_t i, j; double pa, pb; } MPick;

typedef struct {
    PyObject_HEAD
    Spec spec;
    Memo memo;
    int maximising[MAXP];
    int maxn, team, teams;
    uint64_t rng;
    double exploration, epsilon, gamma;
    int policy, oracle_cards, oracle_nodes, min_visits, max_plies;
    long long max_tree;
    KS root;
    MNode *nodes; size_t nnodes, capnodes;
    MEdge *edges; size_t nedges, capedges;
    int32_t *ints; size_t nints, capints;
    double *dbls; size_t ndbls, capdbls;
    int64_t *map_moves; int32_t *map_child; int nmap;
    int32_t *path; size_t npath, cappath;
    MPick *picks; size_t npicks, cappicks;
    KS *kids;          /* scratch: MAXMOVES successors */
    uint64_t *kidkeys; /* scratch: KEYWORDS words per successor */
    int *kidlen;
    PyObject *oracle_obj, *pool_obj;
    Search *oracle;
    Pool *pool;
    size_t bytes;
    int full;          /* the pool refused more memory: no node is expanded any more */
    int threaded;      /* run without the GIL (errors are raised once it is taken back) */
    _Atomic int abort; /* set from another thread: stop after the iteration */
    int err_kind;      /* an error met without the GIL (ME_*), and its message */
    const char *err_msg;
    long long iterations, plies, oracle_spent;
} Mcts;

/* ------------------------------------------------------------------ random stream (SplitMix64) */

static inline uint64_t rng_next(Mcts *M) {
    M->rng += 0x9E3779B97F4A7C15ULL;
    uint64_t z = M->rng;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static inline int rng_below(Mcts *M, int count) { return (int)(rng_next(M) % (uint64_t)count); }
static inline double rng_uniform(Mcts *M) { return (double)(rng_next(M) >> 11) * (1.0 / 9007199254740992.0); }

/* ------------------------------------------------------------------ errors */

/* Errors are noted, not raised: the search may run without the GIL (mcts_raise raises the first
 * one noted once it holds it). ME_PYTHON: a Python error is already set (by the oracle, which
 * takes the GIL for what calls Python). */
static int mcts_fail(Mcts *M, int kind, const char *message) {
    if (!M->err_kind) { M->err_kind = kind; M->err_msg = message; }
    return -1;
}

static void mcts_raise(Mcts *M) {
    if (M->err_kind == ME_OVERFLOW) PyErr_SetString(PyExc_OverflowError, M->err_msg);
    else if (M->err_kind == ME_MEMORY) PyErr_NoMemory();
    M->err_kind = ME_NONE;
}

/* ------------------------------------------------------------------ memory */

static int mcts_grow(Mcts *M, void **array, size_t *cap, size_t need, size_t item) {
    if (need <= *cap) return 0;
    if (M->full) return -1;
    size_t fresh = *cap ? *cap : 1024;
    while (fresh < need) fresh *= 2;
    size_t more = (fresh - *cap) * item;
    if (M->pool && !pool_take(M->pool, more)) { M->full = 1; return -1; }
    void *grown = realloc(*array, fresh * item);
    if (!grown) { pool_give(M->pool, more); M->full = 1; return -1; }
    *array = grown;
    *cap = fresh;
    M->bytes += more;
    return 0;
}

/* ------------------------------------------------------------------ values */

static int side_of(Mcts *M, int seat) { return M->maxn ? M->spec.team_of[seat] : (M->maximising[seat] != 0); }

static void leaf_values(Mcts *M, const KS *k, double *out) {
    int winner = k->winner;
    if (M->maxn) {
        for (int t = 0; t < M->teams; t++) out[t] = 0.0;
        if (winner >= 0) out[M->spec.team_of[winner]] = 1.0;
        return;
    }
    out[0] = (winner >= 0 && M->maximising[winner]) ? 1.0 : 0.0;
}

static int leaf_proven(Mcts *M, const KS *k) {
    int winner = k->winner;
    if (M->maxn) return winner < 0 ? M->teams : M->spec.team_of[winner];
    return (winner >= 0 && M->maximising[winner]) ? 1 : 0;
}

static void proven_values(Mcts *M, int proven, double *out) {
    if (M->maxn) {
        for (int t = 0; t < M->teams; t++) out[t] = 0.0;
        if (proven < M->teams) out[proven] = 1.0;
        return;
    }
    out[0] = (double)proven;
}

/* ------------------------------------------------------------------ the tree */

static int32_t new_node(Mcts *M, const KS *k) {
    if (k->error) { mcts_fail(M, ME_OVERFLOW, "state out of the compiled kernel's range"); return -2; }
    if (M->nnodes + 1 > M->capnodes
        && mcts_grow(M, (void **)&M->nodes, &M->capnodes, M->nnodes + 1, sizeof(MNode)) < 0) {
        mcts_fail(M, ME_MEMORY, NULL);
        return -2;
    }
    MNode *n = &M->nodes[M->nnodes];
    memset(n, 0, sizeof *n);
    n->proven = NOT_PROVEN;
    n->fixed = -1.0;
    n->player = n->second = -1;
    int player = current_player(&M->spec, k);
    if (player == TERMINAL) {
        n->kind = MK_TERMINAL;
        n->proven = (int8_t)leaf_proven(M, k);
    } else if (player == CHANCE) {
        n->kind = MK_CHANCE;
    } else if (player == SIMULTANEOUS) {
        const Pending *top = &k->pending[k->npending - 1];
        int a = top->seat, b = top->a;
        n->player = (int8_t)a; n->second = (int8_t)b;
        if (side_of(M, a) == side_of(M, b)) {
            n->kind = MK_DECISION;
            n->side = (int8_t)side_of(M, a);
        } else {
            n->kind = MK_MATRIX;
        }
    } else {
        n->kind = MK_DECISION;
        n->player = (int8_t)player;
        n->side = (int8_t)side_of(M, player);
    }
    return (int32_t)M->nnodes++;
}

static int add_edge(Mcts *M, int64_t move, int32_t child) {
    if (M->nedges + 1 > M->capedges
        && mcts_grow(M, (void **)&M->edges, &M->capedges, M->nedges + 1, sizeof(MEdge)) < 0) {
        return mcts_fail(M, ME_MEMORY, NULL);
    }
    M->edges[M->nedges].move = move;
    M->edges[M->nedges].child = child;
    M->nedges++;
    return 0;
}

/* The node's children (identical successors merged, the first move kept); at the root every
 * legal move is mapped to its child. */
static int expand(Mcts *M, int32_t index, const KS *state) {
    const Spec *s = &M->spec;
    MNode *node = &M->nodes[index];
    node->expanded = 1;
    int kind = node->kind;
    if (kind == MK_MATRIX) {
        int a[MAXMOVES], b[MAXMOVES];
        int na = legal(s, state, node->player, a), nb = legal(s, state, node->second, b);
        if (na <= 0 || nb <= 0) return mcts_fail(M, ME_OVERFLOW, "an exchange without gifts");
        size_t need = (size_t)na + nb + (size_t)na * nb;
        if (mcts_grow(M, (void **)&M->ints, &M->capints, M->nints + need, sizeof(int32_t)) < 0
            || mcts_grow(M, (void **)&M->dbls, &M->capdbls, M->ndbls + 2 * (size_t)(na + nb), sizeof(double)) < 0) {
            return mcts_fail(M, ME_MEMORY, NULL);
        }
        node = &M->nodes[index];
        node->first = (int32_t)M->nints;
        node->count = na;
        node->nb = nb;
        node->dfirst = (int32_t)M->ndbls;
        int32_t *ints = M->ints + M->nints;
        for (int i = 0; i < na; i++) ints[i] = a[i];
        for (int j = 0; j < nb; j++) ints[na + j] = b[j];
        for (int c = 0; c < na * nb; c++) ints[na + nb + c] = -1;
        M->nints += need;
        memset(M->dbls + M->ndbls, 0, 2 * (size_t)(na + nb) * sizeof(double));
        M->ndbls += 2 * (size_t)(na + nb);
        return 0;
    }
    int moves[MAXMOVES];
    int64_t keys[MAXMOVES];
    int count = 0;
    if (kind == MK_CHANCE) {
        int n = legal(s, state, -1, moves);
        node->first = (int32_t)M->nedges;
        node->count = n;
        for (int i = 0; i < n; i++) {
            child(s, &M->memo, state, moves[i], &M->kids[0]);
            int32_t c = new_node(M, &M->kids[0]);
            if (c < 0) return -1;
            if (add_edge(M, moves[i], c) < 0) return -1;
            M->plies++;
        }
        return 0;
    }
    if (node->player >= 0 && node->second >= 0) { /* an exchange between teammates */
        int a[MAXMOVES], b[MAXMOVES];
        int na = legal(s, state, node->player, a), nb = legal(s, state, node->second, b);
        if (na * nb > MAXMOVES) return mcts_fail(M, ME_OVERFLOW, "too many joint gifts");
        for (int i = 0; i < na; i++)
            for (int j = 0; j < nb; j++) {
                joint_child(s, &M->memo, state, a[i], b[j], &M->kids[count]);
                keys[count++] = (int64_t)a[i] << 32 | (int64_t)b[j];
            }
    } else {
        int n = legal(s, state, -1, moves);
        if (n < 0) return mcts_fail(M, ME_OVERFLOW, "too many legal actions for the compiled kernel");
        for (int i = 0; i < n; i++) {
            child(s, &M->memo, state, moves[i], &M->kids[count]);
            keys[count++] = moves[i];
        }
    }
    int32_t kept[MAXMOVES];
    int nkept = 0;
    int32_t first_edge = (int32_t)M->nedges;
    int32_t made[MAXMOVES];
    for (int i = 0; i < count; i++) {
        KS *kid = &M->kids[i];
        if (kid->error) return mcts_fail(M, ME_OVERFLOW, "state out of the compiled kernel's range");
        uint64_t *w = M->kidkeys + (size_t)i * KEYWORDS;
        M->kidlen[i] = pack_key(s, kid, w);
        int same = -1;
        for (int e = 0; e < nkept && same < 0; e++) {
            int j = kept[e];
            if (M->kidlen[j] == M->kidlen[i]
                && !memcmp(M->kidkeys + (size_t)j * KEYWORDS, w, M->kidlen[i] * sizeof(uint64_t)))
                same = e;
        }
        if (same < 0) {
            int32_t c = new_node(M, kid);
            if (c < 0) return -1;
            if (add_edge(M, keys[i], c) < 0) return -1;
            made[nkept] = c;
            kept[nkept++] = i;
            same = nkept - 1;
        }
        if (index == 0) {
            M->map_moves[M->nmap] = keys[i];
            M->map_child[M->nmap++] = made[same];
        }
    }
    node = &M->nodes[index];
    node->first = first_edge;
    node->count = nkept;
    M->plies += count;
    return 0;
}

/* ------------------------------------------------------------------ the oracle */

static int bout_start(Mcts *M, const KS *k) {
    if (!M->oracle || M->oracle_nodes == 0) return 0;
    if (k->phase != BOUT || k->npending || k->nfront || k->played) return 0;
    int cards = 0;
    for (int seat = 0; seat < M->spec.players; seat++) cards += popcount(k->hands[seat]);
    return cards <= M->oracle_cards;
}

/* 1 settled (proven, or exact_d > 0 with a fraction), 0 not, -1 a Python error. */
static int ask_oracle(Mcts *M, const KS *k, int *proven, int64_t *en, int64_t *ed) {
    Search *S = M->oracle;
    long long before = S->nodes;
    S->max_nodes = before + M->oracle_nodes;
    schedule(S);
    S->stop = STOP_NONE;
    S->depth = 0;
    q_overflow = 0;
    int r;
    Q value = Q0;
    Vec vector;
    if (M->maxn) {
        int exact;
        S->tie_last = 0;
        r = maxn_value(S, k, -1, Q0, &vector, &exact);
    } else {
        r = search(S, k, Q0, Q1, &value);
    }
    M->oracle_spent += S->nodes - before;
    S->max_nodes = 0;
    schedule(S);
    *ed = 0;
    if (r < 0) return S->stop == STOP_PYTHON ? mcts_fail(M, ME_PYTHON, NULL) : 0;
    if (M->maxn) {
        int zero = 1;
        for (int t = 0; t < M->teams; t++) {
            if (q_eq(vector.v[t], Q1)) { *proven = t; return 1; }
            if (!q_eq(vector.v[t], Q0)) zero = 0;
        }
        if (zero) { *proven = M->teams; return 1; }
        return 0;
    }
    if (q_eq(value, Q0)) { *proven = 0; return 1; }
    if (q_eq(value, Q1)) { *proven = 1; return 1; }
    *proven = NOT_PROVEN;
    *en = value.n;
    *ed = value.d;
    return 1;
}

/* ------------------------------------------------------------------ playouts */

static int mcts_distances_score(Mcts *M, const int *side, const KS *k) {
    if (k->phase == OVER) return (k->winner >= 0 && side[k->winner]) ? 1000 : -1000;
    int mine, theirs;
    distances(&M->spec, &M->memo, k, side, &mine, &theirs);
    return theirs - mine;
}

static int heuristic_pick(const KS *k, const int *moves, int n) {
    int top = -1;
    for (int i = 0; i < k->nfront; i++) if ((k->front[i] & 63) > top) top = k->front[i] & 63;
    int best = -1, best_card = 99, above_found = 0;
    for (int i = 0; i < n; i++) {
        if (moves[i] >> 28 != V_PLAY) continue;
        int card = moves[i] >> 19 & 63;
        int over = card > top;
        if ((over && !above_found) || (over == above_found && card < best_card)) {
            best = i; best_card = card; above_found = over;
        }
    }
    return best < 0 ? 0 : best;
}

/* The policy's successor of a decision of ``player`` (into *out). */
static int policy_child(Mcts *M, const KS *k, int player, KS *out) {
    const Spec *s = &M->spec;
    int moves[MAXMOVES];
    int n = legal(s, k, -1, moves);
    if (n <= 0) return mcts_fail(M, ME_OVERFLOW, "a decision without a legal action");
    if (n == 1) { child(s, &M->memo, k, moves[0], out); return 0; }
    if (M->policy == MP_RANDOM || rng_uniform(M) < M->epsilon) {
        child(s, &M->memo, k, moves[rng_below(M, n)], out);
        return 0;
    }
    if (M->policy == MP_HEURISTIC) {
        child(s, &M->memo, k, moves[heuristic_pick(k, moves, n)], out);
        return 0;
    }
    int side[MAXP];
    int mover = side_of(M, player);
    for (int seat = 0; seat < s->players; seat++) side[seat] = side_of(M, seat) == mover;
    int best[MAXMOVES];
    int nbest = 0, best_score = -1000;
    for (int i = 0; i < n; i++) {
        child(s, &M->memo, k, moves[i], &M->kids[i]);
        int score = mcts_distances_score(M, side, &M->kids[i]);
        if (score > best_score) { nbest = 0; best[nbest++] = i; best_score = score; }
        else if (score == best_score) best[nbest++] = i;
    }
    M->plies += n - 1;
    *out = M->kids[nbest > 1 ? best[rng_below(M, nbest)] : best[0]];
    return 0;
}

static int playout(Mcts *M, const KS *from, double *values) {
    const Spec *s = &M->spec;
    KS state = *from, next;
    int plies = 0, below = M->oracle_cards + 1;
    for (;;) {
        if (state.error) return mcts_fail(M, ME_OVERFLOW, "state out of the compiled kernel's range");
        int player = current_player(s, &state);
        if (player == TERMINAL) { leaf_values(M, &state, values); return 0; }
        if (plies >= M->max_plies) {
            if (M->maxn) for (int t = 0; t < M->teams; t++) values[t] = 0.0;
            else values[0] = 0.5;
            return 0;
        }
        if (bout_start(M, &state)) {
            int cards = 0;
            for (int seat = 0; seat < s->players; seat++) cards += popcount(state.hands[seat]);
            if (cards < below) {
                int proven; int64_t en, ed;
                int r = ask_oracle(M, &state, &proven, &en, &ed);
                if (r < 0) return -1;
                if (r > 0) {
                    if (ed) values[0] = (double)en / (double)ed;
                    else proven_values(M, proven, values);
                    return 0;
                }
                below = cards - 1;
            }
        }
        if (player == CHANCE) {
            int moves[MAXMOVES];
            int n = legal(s, &state, -1, moves);
            child(s, &M->memo, &state, moves[rng_below(M, n)], &next);
        } else if (player == SIMULTANEOUS) {
            const Pending *top = &state.pending[state.npending - 1];
            int a[MAXMOVES], b[MAXMOVES];
            int na = legal(s, &state, top->seat, a), nb = legal(s, &state, top->a, b);
            int x = a[rng_below(M, na)];
            int y = b[rng_below(M, nb)];
            joint_child(s, &M->memo, &state, x, y, &next);
        } else {
            if (policy_child(M, &state, player, &next) < 0) return -1;
        }
        state = next;
        plies++;
        M->plies++;
    }
}

/* ------------------------------------------------------------------ selection */

static int is_settled_child(const MNode *kid) { return kid->proven != NOT_PROVEN || kid->exact_d != 0; }

static int select_child(Mcts *M, int32_t index, int root) {
    MNode *node = &M->nodes[index];
    const MEdge *edges = M->edges + node->first;
    if (root) {
        int low = -1, low_visits = M->min_visits;
        for (int i = 0; i < node->count; i++) {
            const MNode *kid = &M->nodes[edges[i].child];
            if (is_settled_child(kid)) continue;
            if (kid->visits < low_visits) { low = i; low_visits = kid->visits; }
        }
        if (low >= 0) return low;
    }
    double log_n = node->visits > 0 ? log((double)node->visits) : 0.0;
    double c = M->exploration;
    int best = -1;
    double best_score = -1.0;
    for (int i = 0; i < node->count; i++) {
        const MNode *kid = &M->nodes[edges[i].child];
        if (kid->proven != NOT_PROVEN) {
            if (root || kid->proven != node->side) continue;
        } else if (root && kid->exact_d) {
            continue;
        }
        if (kid->visits == 0) return i;
        double mean = M->maxn ? kid->wins[node->side] / (double)kid->visits
                              : kid->wins[0] / (double)kid->visits;
        if (!M->maxn && !node->side) mean = 1.0 - mean;
        double score = mean + c * sqrt(log_n / (double)kid->visits);
        if (score > best_score) { best = i; best_score = score; }
    }
    return best < 0 ? 0 : best;
}

static void rm_strategy(const double *regrets, int count, double gamma, double *out) {
    double total = 0.0;
    for (int k = 0; k < count; k++) if (regrets[k] > 0.0) total += regrets[k];
    for (int k = 0; k < count; k++) {
        double share = total > 0.0 ? (regrets[k] > 0.0 ? regrets[k] / total : 0.0) : 1.0 / (double)count;
        out[k] = (1.0 - gamma) * share + gamma / (double)count;
    }
}

static int rm_sample(Mcts *M, const double *strategy, int count) {
    double u = rng_uniform(M);
    double total = 0.0;
    for (int k = 0; k < count; k++) {
        total += strategy[k];
        if (u < total) return k;
    }
    return count - 1;
}

/* Each of the two players draws its gift from its own strategy; neither sees the other's. */
static int32_t select_matrix(Mcts *M, int32_t index, const KS *state, KS *next, MPick *pick) {
    MNode *node = &M->nodes[index];
    int na = node->count, nb = node->nb;
    double sa[MAXMOVES], sb[MAXMOVES];
    double *d = M->dbls + node->dfirst;
    double *regret_a = d, *cum_a = d + na, *regret_b = d + 2 * na, *cum_b = d + 2 * na + nb;
    rm_strategy(regret_a, na, M->gamma, sa);
    rm_strategy(regret_b, nb, M->gamma, sb);
    int i = rm_sample(M, sa, na);
    int j = rm_sample(M, sb, nb);
    for (int k = 0; k < na; k++) cum_a[k] += sa[k];
    for (int k = 0; k < nb; k++) cum_b[k] += sb[k];
    int32_t *ints = M->ints + node->first;
    int cell = i * nb + j;
    joint_child(&M->spec, &M->memo, state, ints[i], ints[na + j], next);
    int32_t kid = ints[na + nb + cell];
    if (kid < 0) {
        kid = new_node(M, next);
        if (kid < 0) return -1;
        M->ints[M->nodes[index].first + na + nb + cell] = kid;
        M->plies++;
    }
    pick->i = i; pick->j = j; pick->pa = sa[i]; pick->pb = sb[j];
    return kid;
}

/* ------------------------------------------------------------------ backing up */

static double value_for(Mcts *M, int seat, const double *values) {
    if (M->maxn) return values[M->spec.team_of[seat]];
    return M->maximising[seat] ? values[0] : 1.0 - values[0];
}

static void rm_regrets(double *regrets, int count, int chosen, double p, double value) {
    for (int k = 0; k < count; k++) {
        double gain = k == chosen ? value / p : 0.0;
        regrets[k] += gain - value;
    }
}

static int prove(Mcts *M, int32_t index) {
    MNode *node = &M->nodes[index];
    if (node->proven != NOT_PROVEN || !node->expanded) return 0;
    const MNode *nodes = M->nodes;
    if (node->kind == MK_MATRIX) {
        if (M->maxn) return 0;
        int na = node->count, nb = node->nb;
        const int32_t *joint = M->ints + node->first + na + nb;
        int max_rows = M->maximising[node->player] != 0;
        int found = NOT_PROVEN;
        int want = max_rows ? 1 : 0;
        for (int i = 0; i < na && found == NOT_PROVEN; i++) {
            int all = 1;
            for (int j = 0; j < nb && all; j++) {
                int32_t c = joint[i * nb + j];
                if (c < 0 || nodes[c].proven != want) all = 0;
            }
            if (all) found = want;
        }
        if (found == NOT_PROVEN) {
            want = max_rows ? 0 : 1;
            for (int j = 0; j < nb && found == NOT_PROVEN; j++) {
                int all = 1;
                for (int i = 0; i < na && all; i++) {
                    int32_t c = joint[i * nb + j];
                    if (c < 0 || nodes[c].proven != want) all = 0;
                }
                if (all) found = want;
            }
        }
        if (found == NOT_PROVEN) return 0;
        node->proven = (int8_t)found;
        return 1;
    }
    const MEdge *edges = M->edges + node->first;
    int count = node->count;
    if (node->kind == MK_CHANCE) {
        int first = nodes[edges[0].child].proven;
        if (first == NOT_PROVEN) return 0;
        for (int i = 0; i < count; i++) if (nodes[edges[i].child].proven != first) return 0;
        node->proven = (int8_t)first;
        return 1;
    }
    if (M->maxn) {
        for (int i = 0; i < count; i++)
            if (nodes[edges[i].child].proven == node->side) { node->proven = node->side; return 1; }
        for (int i = 0; i < count; i++) if (nodes[edges[i].child].proven == NOT_PROVEN) return 0;
        node->proven = nodes[edges[0].child].proven;
        return 1;
    }
    int good = node->side;
    for (int i = 0; i < count; i++)
        if (nodes[edges[i].child].proven == good) { node->proven = (int8_t)good; return 1; }
    for (int i = 0; i < count; i++) if (nodes[edges[i].child].proven != 1 - good) return 0;
    node->proven = (int8_t)(1 - good);
    return 1;
}

static void backup(Mcts *M, const double *values) {
    long long pick = (long long)M->npicks - 1;
    for (long long depth = (long long)M->npath - 1; depth >= 0; depth--) {
        MNode *node = &M->nodes[M->path[depth]];
        node->visits++;
        for (int t = 0; t < M->teams; t++) node->wins[t] += values[t];
        if (node->kind == MK_MATRIX && depth < (long long)M->npath - 1) {
            const MPick *p = &M->picks[pick--];
            int na = node->count, nb = node->nb;
            double *d = M->dbls + node->dfirst;
            rm_regrets(d, na, p->i, p->pa, value_for(M, node->player, values));
            rm_regrets(d + 2 * na, nb, p->j, p->pb, value_for(M, node->second, values));
        }
    }
    for (long long depth = (long long)M->npath - 2; depth >= 0; depth--)
        if (!prove(M, M->path[depth])) break;
}

/* ------------------------------------------------------------------ one iteration */

static int push_path(Mcts *M, int32_t index) {
    if (M->npath + 1 > M->cappath) {
        size_t cap = M->cappath ? M->cappath * 2 : 256;
        int32_t *grown = realloc(M->path, cap * sizeof(int32_t));
        if (!grown) return mcts_fail(M, ME_MEMORY, NULL);
        M->path = grown; M->cappath = cap;
    }
    M->path[M->npath++] = index;
    return 0;
}

static int push_pick(Mcts *M, const MPick *pick) {
    if (M->npicks + 1 > M->cappicks) {
        size_t cap = M->cappicks ? M->cappicks * 2 : 64;
        MPick *grown = realloc(M->picks, cap * sizeof(MPick));
        if (!grown) return mcts_fail(M, ME_MEMORY, NULL);
        M->picks = grown; M->cappicks = cap;
    }
    M->picks[M->npicks++] = *pick;
    return 0;
}

/* Room for what one iteration may add (one expansion, one joint child); past the pool's limit
 * the tree stops growing (``full``) and the playouts go on. */
static void reserve(Mcts *M) {
    if (M->full) return;
    size_t more = MAXMOVES + 2;
    if (mcts_grow(M, (void **)&M->nodes, &M->capnodes, M->nnodes + more, sizeof(MNode)) < 0
        || mcts_grow(M, (void **)&M->edges, &M->capedges, M->nedges + more, sizeof(MEdge)) < 0
        || mcts_grow(M, (void **)&M->ints, &M->capints, M->nints + more, sizeof(int32_t)) < 0
        || mcts_grow(M, (void **)&M->dbls, &M->capdbls, M->ndbls + more, sizeof(double)) < 0)
        M->full = 1;
}

static int iterate(Mcts *M) {
    const Spec *s = &M->spec;
    reserve(M);
    M->iterations++;
    M->npath = 0;
    M->npicks = 0;
    KS cur = M->root, next;
    int32_t index = 0;
    double values[3] = {0.0, 0.0, 0.0};
    if (push_path(M, 0) < 0) return -1;
    for (;;) {
        MNode *node = &M->nodes[index];
        if (node->proven != NOT_PROVEN && index != 0) { proven_values(M, node->proven, values); break; }
        if (node->exact_d) { values[0] = node->fixed; break; }
        if (node->kind == MK_TERMINAL) { leaf_values(M, &cur, values); break; }
        if (!node->expanded) {
            if (node->oracle == 0 && bout_start(M, &cur)) {
                node->oracle = 1;
                int proven; int64_t en, ed;
                int r = ask_oracle(M, &cur, &proven, &en, &ed);
                if (r < 0) return -1;
                if (r > 0) {
                    node = &M->nodes[index];
                    if (ed) {
                        node->exact_n = en; node->exact_d = ed;
                        node->fixed = (double)en / (double)ed;
                        values[0] = node->fixed;
                    } else {
                        node->proven = (int8_t)proven;
                        proven_values(M, proven, values);
                    }
                    break;
                }
            }
            node = &M->nodes[index];
            if (node->visits == 0 || (long long)M->nnodes >= M->max_tree || M->full) {
                if (playout(M, &cur, values) < 0) return -1;
                break;
            }
            if (expand(M, index, &cur) < 0) return -1;
            node = &M->nodes[index];
        }
        int32_t kid;
        if (node->kind == MK_MATRIX && M->full) { /* no room for a joint child */
            if (playout(M, &cur, values) < 0) return -1;
            break;
        }
        if (node->kind == MK_MATRIX) {
            MPick pick;
            kid = select_matrix(M, index, &cur, &next, &pick);
            if (kid < 0) return -1;
            if (push_pick(M, &pick) < 0) return -1;
        } else if (node->kind == MK_CHANCE) {
            const MEdge *e = &M->edges[node->first + rng_below(M, node->count)];
            child(s, &M->memo, &cur, (int)e->move, &next);
            kid = e->child;
        } else {
            const MEdge *e = &M->edges[node->first + select_child(M, index, index == 0)];
            if (node->second >= 0)
                joint_child(s, &M->memo, &cur, (int)(e->move >> 32), (int)(e->move & 0xFFFFFFFF), &next);
            else
                child(s, &M->memo, &cur, (int)e->move, &next);
            kid = e->child;
        }
        cur = next;
        index = kid;
        if (push_path(M, index) < 0) return -1;
    }
    backup(M, values);
    return 0;
}

static int mcts_settled(Mcts *M) {
    const MNode *root = &M->nodes[0];
    if (root->kind == MK_MATRIX) return root->proven != NOT_PROVEN;
    if (root->kind != MK_DECISION && root->kind != MK_CHANCE) return 1;
    for (int i = 0; i < root->count; i++)
        if (!is_settled_child(&M->nodes[M->edges[root->first + i].child])) return 0;
    return 1;
}

/* ------------------------------------------------------------------ the Python type */

static PyTypeObject MctsType;

static int Mcts_traverse(Mcts *M, visitproc visit, void *arg) {
    Py_VISIT(M->oracle_obj);
    Py_VISIT(M->pool_obj);
    return 0;
}

static int Mcts_clear(Mcts *M) {
    Py_CLEAR(M->oracle_obj);
    Py_CLEAR(M->pool_obj);
    return 0;
}

static void Mcts_dealloc(Mcts *M) {
    PyObject_GC_UnTrack(M);
    pool_give(M->pool, M->bytes);
    free(M->nodes); free(M->edges); free(M->ints); free(M->dbls);
    free(M->map_moves); free(M->map_child); free(M->path); free(M->picks);
    free(M->kids); free(M->kidkeys); free(M->kidlen);
    free(M->memo.slots);
    Py_XDECREF(M->oracle_obj);
    Py_XDECREF(M->pool_obj);
    Py_TYPE(M)->tp_free((PyObject *)M);
}

static int Mcts_init(Mcts *M, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"spec", "maximising", "maxn", "team", "params", "root", "oracle",
                             "pool", NULL};
    PyObject *spec_o, *maximising, *params, *root, *oracle = Py_None, *pool = Py_None;
    int maxn, team;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOpiOO|OO", kwlist, &spec_o, &maximising, &maxn,
                                     &team, &params, &root, &oracle, &pool))
        return -1;
    if (M->nodes) { PyErr_SetString(PyExc_RuntimeError, "Mcts is made once"); return -1; }
    if (spec_from_py(spec_o, &M->spec) < 0) return -1;
    if (get_ints(maximising, M->maximising, M->spec.players) < 0) return -1;
    M->maxn = maxn;
    M->team = team;
    int teams = 0;
    for (int seat = 0; seat < M->spec.players; seat++)
        if (M->spec.team_of[seat] + 1 > teams) teams = M->spec.team_of[seat] + 1;
    if (maxn && teams > 3) { PyErr_SetString(PyExc_ValueError, "max-n with more than 3 teams"); return -1; }
    M->teams = maxn ? teams : 1;
    if (!PyTuple_Check(params) || PyTuple_GET_SIZE(params) != 10) { PyErr_SetString(PyExc_TypeError, "bad params tuple"); return -1; }
    M->rng = PyLong_AsUnsignedLongLongMask(PyTuple_GET_ITEM(params, 0));
    M->exploration = PyFloat_AsDouble(PyTuple_GET_ITEM(params, 1));
    M->policy = (int)PyLong_AsLong(PyTuple_GET_ITEM(params, 2));
    M->epsilon = PyFloat_AsDouble(PyTuple_GET_ITEM(params, 3));
    M->gamma = PyFloat_AsDouble(PyTuple_GET_ITEM(params, 4));
    M->oracle_cards = (int)PyLong_AsLong(PyTuple_GET_ITEM(params, 5));
    M->oracle_nodes = (int)PyLong_AsLong(PyTuple_GET_ITEM(params, 6));
    M->min_visits = (int)PyLong_AsLong(PyTuple_GET_ITEM(params, 7));
    M->max_tree = PyLong_AsLongLong(PyTuple_GET_ITEM(params, 8));
    M->max_plies = (int)PyLong_AsLong(PyTuple_GET_ITEM(params, 9));
    if (PyErr_Occurred()) return -1;
    if (state_from_py(&M->spec, root, &M->root) < 0) return -1;
    if (oracle != Py_None) {
        if (!PyObject_TypeCheck(oracle, &SearchType)) { PyErr_SetString(PyExc_TypeError, "oracle must be a _ckernel.Search or None"); return -1; }
        Py_INCREF(oracle);
        M->oracle_obj = oracle;
        M->oracle = (Search *)oracle;
        if (maxn && !M->oracle->table->with_third) {
            if (M->oracle->table->cap) { PyErr_SetString(PyExc_RuntimeError, "the oracle already holds values"); return -1; }
            M->oracle->table->with_third = 1;
        }
    }
    if (pool != Py_None) {
        if (!PyObject_TypeCheck(pool, &PoolType)) { PyErr_SetString(PyExc_TypeError, "pool must be _ckernel.Pool or None"); return -1; }
        Py_INCREF(pool);
        M->pool_obj = pool;
        M->pool = (Pool *)pool;
    }
    M->memo.max_cap = 1 << 16;
    M->kids = malloc(MAXMOVES * sizeof(KS));
    M->kidkeys = malloc((size_t)MAXMOVES * KEYWORDS * sizeof(uint64_t));
    M->kidlen = malloc(MAXMOVES * sizeof(int));
    M->map_moves = malloc(MAXMOVES * sizeof(int64_t));
    M->map_child = malloc(MAXMOVES * sizeof(int32_t));
    if (!M->kids || !M->kidkeys || !M->kidlen || !M->map_moves || !M->map_child) { PyErr_NoMemory(); return -1; }
    if (new_node(M, &M->root) < 0 || (M->nodes[0].kind != MK_TERMINAL && expand(M, 0, &M->root) < 0)) {
        mcts_raise(M);
        return -1;
    }
    return 0;
}

static PyObject *Mcts_run(Mcts *M, PyObject *args) {
    long long iterations, work = 0;
    double deadline;
    if (!PyArg_ParseTuple(args, "Ld|L", &iterations, &deadline, &work)) return NULL;
    long long made = 0;
    int failed = 0;
    PyThreadState *released = NULL;
    if (M->threaded) {
        released = PyEval_SaveThread();
        if (M->oracle) M->oracle->released = released;
    }
    while (made < iterations && !mcts_settled(M)) {
        if (work > 0 && (M->plies + M->iterations) / PLIES_A_NODE + M->oracle_spent >= work)
            break;
        if (made % MCTS_CHECK == 0 && made) {
            if (deadline > 0 && now_seconds() > deadline) break;
            if (atomic_load(&M->abort)) break;
            if (!released && made % (MCTS_CHECK * 16) == 0 && PyErr_CheckSignals() < 0) {
                failed = 1;
                break;
            }
        }
        if (iterate(M) < 0) { failed = 1; break; }
        made++;
    }
    if (released) {
        if (M->oracle) { released = M->oracle->released; M->oracle->released = NULL; }
        PyEval_RestoreThread(released);
    }
    if (failed) {
        mcts_raise(M);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "the tree search stopped");
        return NULL;
    }
    return PyLong_FromLongLong(made);
}

static PyObject *Mcts_interrupt(Mcts *M, PyObject *unused) {
    atomic_store(&M->abort, 1);
    if (M->oracle) atomic_store(&M->oracle->abort, 1);
    Py_RETURN_NONE;
}

static PyObject *Mcts_get_threaded(Mcts *M, void *c) { return PyBool_FromLong(M->threaded); }
static int Mcts_set_threaded(Mcts *M, PyObject *value, void *c) {
    int flag = PyObject_IsTrue(value);
    if (flag < 0) return -1;
    M->threaded = flag;
    return 0;
}

static PyObject *Mcts_settled(Mcts *M, PyObject *unused) { return PyBool_FromLong(mcts_settled(M)); }

static PyObject *Mcts_root_moves(Mcts *M, PyObject *unused) {
    const MNode *root = &M->nodes[0];
    if (root->kind != MK_DECISION && root->kind != MK_CHANCE) return PyList_New(0);
    PyObject *list = PyList_New(root->count);
    if (!list) return NULL;
    for (int i = 0; i < root->count; i++)
        PyList_SET_ITEM(list, i, PyLong_FromLongLong(M->edges[root->first + i].move));
    return list;
}

static int argmax_d(const double *values, int count) {
    int best = 0;
    for (int i = 1; i < count; i++) if (values[i] > values[best]) best = i;
    return best;
}

static PyObject *mcts_line(Mcts *M, int32_t index, int limit) {
    PyObject *line = PyList_New(0);
    if (!line) return NULL;
    while (PyList_GET_SIZE(line) < limit) {
        const MNode *node = &M->nodes[index];
        if (!node->expanded || node->kind == MK_TERMINAL) break;
        int64_t move;
        int32_t next;
        if (node->kind == MK_MATRIX) {
            int na = node->count, nb = node->nb;
            const double *d = M->dbls + node->dfirst;
            int i = argmax_d(d + na, na), j = argmax_d(d + 2 * na + nb, nb);
            const int32_t *ints = M->ints + node->first;
            move = (int64_t)ints[i] << 32 | (int64_t)ints[na + j];
            next = ints[na + nb + i * nb + j];
        } else {
            if (node->kind == MK_CHANCE || node->count == 0) break;
            const MEdge *edges = M->edges + node->first;
            int pick = -1;
            for (int i = 0; i < node->count && pick < 0; i++) {
                int p = M->nodes[edges[i].child].proven;
                if (p != NOT_PROVEN && p == node->side) pick = i;
            }
            if (pick < 0) {
                pick = 0;
                for (int i = 1; i < node->count; i++)
                    if (M->nodes[edges[i].child].visits > M->nodes[edges[pick].child].visits) pick = i;
                if (M->nodes[edges[pick].child].visits == 0) break;
            }
            move = edges[pick].move;
            next = edges[pick].child;
        }
        PyObject *item = PyLong_FromLongLong(move);
        if (!item || PyList_Append(line, item) < 0) { Py_XDECREF(item); Py_DECREF(line); return NULL; }
        Py_DECREF(item);
        if (next < 0) break;
        index = next;
    }
    return line;
}

static PyObject *Mcts_estimate(Mcts *M, PyObject *args) {
    long long move;
    int limit = 24;
    if (!PyArg_ParseTuple(args, "L|i", &move, &limit)) return NULL;
    int32_t child = -1;
    for (int i = 0; i < M->nmap; i++) if (M->map_moves[i] == move) { child = M->map_child[i]; break; }
    if (child < 0) { PyErr_Format(PyExc_ValueError, "move %lld is not a root move", move); return NULL; }
    const MNode *node = &M->nodes[child];
    int proven = node->proven;
    if (M->maxn && proven != NOT_PROVEN) proven = proven == M->team ? 1 : 0;
    double wins = M->maxn ? node->wins[M->team] : node->wins[0];
    PyObject *line = mcts_line(M, child, limit);
    if (!line) return NULL;
    return Py_BuildValue("(idiLLN)", node->visits, wins, proven, (long long)node->exact_n,
                         (long long)node->exact_d, line);
}

static PyObject *Mcts_team_rate(Mcts *M, PyObject *args) {
    long long move;
    int team;
    if (!PyArg_ParseTuple(args, "Li", &move, &team)) return NULL;
    if (team < 0 || team >= M->teams) { PyErr_SetString(PyExc_ValueError, "no such team"); return NULL; }
    for (int i = 0; i < M->nmap; i++) {
        if (M->map_moves[i] != move) continue;
        const MNode *node = &M->nodes[M->map_child[i]];
        return PyFloat_FromDouble(node->visits ? node->wins[team] / (double)node->visits : 0.0);
    }
    PyErr_Format(PyExc_ValueError, "move %lld is not a root move", move);
    return NULL;
}

static PyObject *Mcts_get_size(Mcts *M, void *c) { return PyLong_FromSize_t(M->nnodes); }
static PyObject *Mcts_get_iterations(Mcts *M, void *c) { return PyLong_FromLongLong(M->iterations); }
static PyObject *Mcts_get_plies(Mcts *M, void *c) { return PyLong_FromLongLong(M->plies); }
static PyObject *Mcts_get_oracle(Mcts *M, void *c) { return PyLong_FromLongLong(M->oracle_spent); }
static PyObject *Mcts_get_bytes(Mcts *M, void *c) { return PyLong_FromSize_t(M->bytes); }

static PyMethodDef Mcts_methods[] = {
    {"run", (PyCFunction)Mcts_run, METH_VARARGS, "run(iterations, deadline[, work]) -> iterations made"},
    {"settled", (PyCFunction)Mcts_settled, METH_NOARGS, "every root move proven"},
    {"interrupt", (PyCFunction)Mcts_interrupt, METH_NOARGS, "stop after the iteration (from another thread)"},
    {"root_moves", (PyCFunction)Mcts_root_moves, METH_NOARGS, "the root's distinct moves"},
    {"team_rate", (PyCFunction)Mcts_team_rate, METH_VARARGS, "team_rate(move, team) -> the team's mean result through the move"},
    {"estimate", (PyCFunction)Mcts_estimate, METH_VARARGS, "estimate(move[, limit]) -> (visits, wins, proven, exact_n, exact_d, line)"},
    {NULL}
};

static PyGetSetDef Mcts_getset[] = {
    {"size", (getter)Mcts_get_size, NULL, "tree nodes", NULL},
    {"iterations", (getter)Mcts_get_iterations, NULL, "iterations made", NULL},
    {"plies", (getter)Mcts_get_plies, NULL, "kernel moves made in expansions and playouts", NULL},
    {"oracle_nodes", (getter)Mcts_get_oracle, NULL, "nodes of the exact searches of bout starts", NULL},
    {"bytes", (getter)Mcts_get_bytes, NULL, "memory held by the tree", NULL},
    {"threaded", (getter)Mcts_get_threaded, (setter)Mcts_set_threaded, "run without the GIL", NULL},
    {NULL}
};

static PyTypeObject MctsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "omen_solver.omens.kernel._ckernel.Mcts",
    .tp_basicsize = sizeof(Mcts),
    .tp_dealloc = (destructor)Mcts_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)Mcts_traverse,
    .tp_clear = (inquiry)Mcts_clear,
    .tp_doc = "Monte Carlo tree search with proven values (see omen_solver/omens/kernel/mcts.py).",
    .tp_methods = Mcts_methods,
    .tp_getset = Mcts_getset,
    .tp_init = (initproc)Mcts_init,
    .tp_new = PyType_GenericNew,
};
