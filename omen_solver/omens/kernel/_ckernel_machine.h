/* The Omens rules on integers: a C transcription of omen_solver/omens/kernel/machine.py.
 *
 * Every function mirrors the Python function of the same name (which mirrors the explaining
 * engine, omen_solver/omens/state.py, where each rule cites the rulebook). Cards are ranks
 * (bit positions of a 64-bit hand); a card in play is rank | before << 6 | by << 9; Law is -1
 * or rank << 1 | higher; actions are encoded exactly as machine.encode() encodes them, so that
 * integer order is the engine's order of legal actions. The tests compare this file with the
 * Python kernel state by state.
 */
#ifndef OMENS_CKERNEL_MACHINE_H
#define OMENS_CKERNEL_MACHINE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define MAXP 6
#define MAXFRONT 24
#define MAXPEND 32
#define MAXSTAGES 5 /* advance() moves the stages down as five bytes */
#define MAXMOVES 512

enum { BOUT = 1, END = 2, OVER = 3 };
enum { P_DREAM, P_REPLAY, P_RESOLVE, P_SHOW, P_EXCHANGE, P_GIVE, P_GIVE_BACK, P_LUCK, P_END_ABS };
enum { S_LUCK_BEFORE, S_RETURN, S_LUCK_AFTER, S_EXCHANGES, S_CHECK };
enum { CHANCE = -1, SIMULTANEOUS = -2, TERMINAL = -4 };
enum { V_PLAY, V_RESOLVE, V_SHOWS, V_GIVES, V_DISCARDS };
enum { CK_NONE, CK_ASK, CK_HIGHER, CK_LOWER, CK_RETURN, CK_SHOW, CK_SWAP, CK_TAKE, CK_WITH };
enum {
    E_NONE, E_EXTREME, E_ALL, E_SELF_IF, E_FEAR, E_LUCK, E_MIRROR, E_SADNESS, E_PRIDE,
    E_LAW, E_DREAM, E_JEALOUSY, E_SECRET, E_WRATH, E_BETRAYAL, E_ABSOLUTE, E_COUNT
};
enum { C_OTHER_OF_COLOUR, C_NO_OTHER_OF_COLOUR, C_LOWEST, C_EFFECT_IN_PLAY };
enum { SCOPE_BOUT, SCOPE_ROUND, SCOPE_GAME };

typedef struct {
    int players, n, scope;
    int effect[64], param_colour[64], param_highest[64], param_condition[64], param_effect[64];
    uint64_t colour_mask[5], effect_mask[E_COUNT], now_mask, fear_mask, full;
    int team_of[MAXP];
    /* options */
    int absolute_end, exchange_open, law_turns_only, law_ends_on_jealousy, law_skip_when_last;
    int wrath_replay_allowed, jealousy_own_forbidden, dream_plays_again, resolver_placer;
    int give_back_forbidden, owner_placer, return_placer, sadness_no_winner, fear_pass_on;
    int luck_random, luck_after_return, zero_any, pride_next_round, extreme_excludes_self;
} Spec;

typedef struct { uint8_t kind, seat, a, b; } Pending;

typedef struct {
    int8_t winning, winner, luck_seat;
    uint8_t next_leader, pride;
    uint64_t discarded;
} Outcome;

/* A state. The arrays hold ``n...`` entries each (what lies past them is never read), in
 * an order that lets a copy stop early (ks_copy). */
typedef struct {
    uint64_t hands[MAXP];
    uint64_t out_discarded; /* outcome.discarded (when has_outcome) */
    uint8_t nfront, npending, nstages, n_end_abs;
    uint8_t phase, played, leader;
    int8_t law;
    int16_t victim;
    uint8_t won[3];
    int8_t winner;
    uint8_t has_outcome;
    int8_t out_winning, out_winner, out_luck_seat;
    uint8_t out_next_leader, out_pride;
    uint8_t error; /* set when a fixed capacity would be exceeded */
    uint8_t stages[MAXSTAGES];
    uint16_t front[MAXFRONT];
    Pending pending[MAXPEND];
    uint8_t end_abs_card[MAXFRONT], end_abs_seat[MAXFRONT];
} KS;

/* A copy of a state: its first KS_HEAD bytes (everything but the pending entries past the
 * first few and the Absolutes of a bout's end), copied inline, where they hold it all. */
#define KS_HEAD 160
_Static_assert(offsetof(KS, pending) + 4 * sizeof(Pending) <= KS_HEAD
               && KS_HEAD <= sizeof(KS), "a state's head holds its front and a few pending");
static inline void ks_copy(KS *to, const KS *from) {
    if (from->n_end_abs || offsetof(KS, pending) + from->npending * sizeof(Pending) > KS_HEAD)
        *to = *from;
    else
        memcpy(to, from, KS_HEAD);
}

static inline int encode(int verb, int seat, int card, int to, int ck, int c1, int c2) {
    return verb << 28 | seat << 25 | card << 19 | (to + 1) << 16 | ck << 12 | c1 << 6 | c2;
}

static inline int lowbit(uint64_t m) { return __builtin_ctzll(m); }
static inline int highbit(uint64_t m) { return 63 - __builtin_clzll(m); }
/* Bits counted inline (the baseline x86-64 has no POPCNT instruction: __builtin_popcountll
 * would be a library call); the functions built for POPCNT call __builtin_popcountll. */
static inline int popcount(uint64_t m) {
#if defined(__POPCNT__)
    return __builtin_popcountll(m);
#else
    m = m - ((m >> 1) & 0x5555555555555555ULL);
    m = (m & 0x3333333333333333ULL) + ((m >> 2) & 0x3333333333333333ULL);
    m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((m * 0x0101010101010101ULL) >> 56);
#endif
}
static inline uint64_t above(const Spec *s, int rank) {
    return rank >= 63 ? 0 : s->full & ~((((uint64_t)2) << rank) - 1);
}
static inline uint64_t below(int rank) { return (((uint64_t)1) << rank) - 1; }

/* Zeroed memory, its pages written at once: a page of calloc's is mapped for reading first,
 * and copied at its first write, which stops the processors of the other threads of a
 * parallel df-pn to flush their caches of addresses (a hash table reads before it writes).
 * The empty asm keeps the compiler from making the malloc and memset one calloc. */
static void *alloc_written(size_t bytes) {
    void *p = malloc(bytes);
    if (p) {
        __asm__ volatile("" : : "r"(p) : "memory");
        memset(p, 0, bytes);
    }
    return p;
}

/* ---------------------------------------------------------------- the end of a bout memo */

typedef struct {
    uint64_t key[3];  /* front packed (2 words) | nfront,leader | used (0: an empty slot) */
    Outcome value;    /* beside its key: a probe reads one place */
} MemoSlot;

typedef struct {
    MemoSlot *slots;
    size_t cap, size;
    size_t max_cap;   /* slots at most (0: no limit); past it bouts are resolved each time */
} Memo;

static inline int owner_of(const Spec *s, int p) { return s->owner_placer ? (p >> 9 & 7) : (p >> 6 & 7); }

static int next_to_play(const Spec *s, const uint64_t *hands, int played, int leader) {
    int seat = leader < s->players ? leader : leader % s->players;
    for (int step = 0; step < s->players; step++) {
        if (!(played >> seat & 1) && hands[seat]) return seat;
        if (++seat == s->players) seat = 0; /* (leader + step) % players, without dividing */
    }
    return -1;
}

static uint64_t law_filter(const Spec *s, int law, uint64_t candidates, int turn) {
    if (law < 0 || !(turn || !s->law_turns_only)) return candidates;
    int rank = law >> 1;
    uint64_t bound = (law & 1) ? above(s, rank) : below(rank);
    uint64_t following = candidates & bound;
    return following ? following : candidates;
}

static int winning_card(const Spec *s, uint64_t cards) {
    if (cards & s->effect_mask[E_MIRROR]) return lowbit(cards);
    int highest = highbit(cards);
    if (cards & s->effect_mask[E_SADNESS]) {
        uint64_t rest = cards & ~(((uint64_t)1) << highest);
        if (rest) return highbit(rest);
        return s->sadness_no_winner ? -1 : highest;
    }
    return highest;
}

static uint64_t effect_discards(const Spec *s, int source, uint64_t cards) {
    int effect = s->effect[source];
    uint64_t bit = ((uint64_t)1) << source;
    if (effect == E_EXTREME) {
        uint64_t candidates = cards & s->colour_mask[s->param_colour[source]];
        if (s->extreme_excludes_self) candidates &= ~bit;
        if (s->fear_pass_on) candidates &= ~s->fear_mask;
        if (!candidates) return 0;
        if (s->param_highest[source]) return ((uint64_t)1) << highbit(candidates);
        return candidates & (~candidates + 1);
    }
    if (effect == E_ALL) return cards & s->colour_mask[s->param_colour[source]];
    if (effect == E_SELF_IF) {
        uint64_t others = cards & ~bit;
        int hit;
        switch (s->param_condition[source]) {
        case C_OTHER_OF_COLOUR: hit = (others & s->colour_mask[s->param_colour[source]]) != 0; break;
        case C_NO_OTHER_OF_COLOUR: hit = (others & s->colour_mask[s->param_colour[source]]) == 0; break;
        case C_LOWEST: hit = (cards & (bit - 1)) == 0; break;
        default: hit = (others & s->effect_mask[s->param_effect[source]]) != 0; break;
        }
        return hit ? bit : 0;
    }
    return 0;
}

static Outcome resolve_now(const Spec *s, const uint16_t *front, int nfront, int leader) {
    uint64_t cards = 0;
    int by_card[64];
    for (int i = 0; i < nfront; i++) {
        cards |= ((uint64_t)1) << (front[i] & 63);
        by_card[front[i] & 63] = front[i];
    }
    Outcome o;
    int winning = winning_card(s, cards);
    int winner = winning < 0 ? -1 : owner_of(s, by_card[winning]);
    uint64_t discarded = winning < 0 ? 0 : ((uint64_t)1) << winning;
    uint64_t protect = winning >= 0 ? (s->fear_mask & ~(((uint64_t)1) << winning)) : s->fear_mask;
    /* the cards whose effect may discard (effect_discards: none for the others) */
    uint64_t sources = cards & (s->effect_mask[E_EXTREME] | s->effect_mask[E_ALL]
                                | s->effect_mask[E_SELF_IF]);
    for (uint64_t rest = sources; rest; rest &= rest - 1) {
        int source = lowbit(rest);
        discarded |= effect_discards(s, source, cards) & ~protect;
    }
    if (winning < 0) discarded |= cards;
    int luck_seat = -1;
    uint64_t lucky = discarded & s->effect_mask[E_LUCK];
    if (lucky) luck_seat = owner_of(s, by_card[highbit(lucky)]);
    int next_leader = winner < 0 ? leader : winner;
    int pride = 0;
    if (cards & s->effect_mask[E_PRIDE]) {
        for (int i = 0; i < nfront; i++) {
            if (s->effect[front[i] & 63] == E_PRIDE) {
                next_leader = (owner_of(s, front[i]) + 1) % s->players;
                pride = 1;
            }
        }
    }
    o.winning = (int8_t)winning;
    o.winner = (int8_t)winner;
    o.discarded = discarded;
    o.luck_seat = (int8_t)luck_seat;
    o.next_leader = (uint8_t)next_leader;
    o.pride = (uint8_t)pride;
    return o;
}

/* resolve_now's discarded cards alone (what the searches' distances read): the same cards. */
static uint64_t front_discarded(const Spec *s, const uint16_t *front, int nfront) {
    uint64_t cards = 0;
    for (int i = 0; i < nfront; i++) cards |= ((uint64_t)1) << (front[i] & 63);
    int winning = winning_card(s, cards);
    if (winning < 0) return cards;
    uint64_t discarded = ((uint64_t)1) << winning;
    uint64_t protect = s->fear_mask & ~discarded;
    uint64_t sources = cards & (s->effect_mask[E_EXTREME] | s->effect_mask[E_ALL]
                                | s->effect_mask[E_SELF_IF]);
    for (uint64_t rest = sources; rest; rest &= rest - 1)
        discarded |= effect_discards(s, lowbit(rest), cards) & ~protect;
    return discarded;
}

static void memo_pack(const uint16_t *front, int nfront, int leader, uint64_t *key) {
    /* 12 bits per placement, up to 10 per word pair is not enough for MAXFRONT: hash chain. */
    key[0] = key[1] = 0;
    key[2] = (uint64_t)nfront | (uint64_t)leader << 8 | ((uint64_t)1) << 63;
    int i = 0;
    for (; i < nfront && i < 5; i++) key[0] |= (uint64_t)front[i] << (12 * i);
    for (; i < nfront && i < 10; i++) key[1] |= (uint64_t)front[i] << (12 * (i - 5));
}

static int memo_grow(Memo *m);

static Outcome memo_resolve(const Spec *s, Memo *m, const uint16_t *front, int nfront, int leader) {
    if (!m || nfront > 10) return resolve_now(s, front, nfront, leader);
    uint64_t key[3];
    memo_pack(front, nfront, leader, key);
    /* a memo that cannot grow is still read (at most half full, a probe ends); it keeps
     * what it holds and a bout not in it is resolved each time */
    if ((m->cap == 0 || (m->size + 1) * 2 > m->cap) && !memo_grow(m) && m->cap == 0)
        return resolve_now(s, front, nfront, leader);
    uint64_t h = key[0] * 0x9E3779B97F4A7C15ULL ^ key[1] * 0xC2B2AE3D27D4EB4FULL ^ key[2];
    h ^= h >> 29;
    size_t mask = m->cap - 1, i = (size_t)h & mask;
    while (m->slots[i].key[2]) {
        const uint64_t *k = m->slots[i].key;
        if (k[0] == key[0] && k[1] == key[1] && k[2] == key[2]) return m->slots[i].value;
        i = (i + 1) & mask;
    }
    Outcome o = resolve_now(s, front, nfront, leader);
    if ((m->size + 1) * 2 > m->cap) return o;
    memcpy(m->slots[i].key, key, sizeof key);
    m->slots[i].value = o;
    m->size++;
    return o;
}

static int memo_grow(Memo *m) {
    size_t cap = m->cap ? m->cap * 2 : 1024;
    if (m->max_cap && cap > m->max_cap) return 0;
    MemoSlot *slots = alloc_written(cap * sizeof(MemoSlot));
    if (!slots) return 0;
    for (size_t j = 0; j < m->cap; j++) {
        const uint64_t *k = m->slots[j].key;
        if (!k[2]) continue;
        uint64_t h = k[0] * 0x9E3779B97F4A7C15ULL ^ k[1] * 0xC2B2AE3D27D4EB4FULL ^ k[2];
        h ^= h >> 29;
        size_t i = (size_t)h & (cap - 1);
        while (slots[i].key[2]) i = (i + 1) & (cap - 1);
        slots[i] = m->slots[j];
    }
    free(m->slots);
    m->slots = slots; m->cap = cap;
    return 1;
}

/* ---------------------------------------------------------------- who acts */

static inline int current_player(const Spec *s, const KS *k) {
    if (k->phase == OVER) return TERMINAL;
    if (k->npending) {
        const Pending *top = &k->pending[k->npending - 1];
        if (top->kind == P_EXCHANGE) return SIMULTANEOUS;
        if (top->kind == P_LUCK && s->luck_random) return CHANCE;
        return top->seat;
    }
    return next_to_play(s, k->hands, k->played, k->leader);
}

/* ---------------------------------------------------------------- choices */

/* The cards Betrayal's resolver may give back for the card of front entry ``p`` (none for
 * the resolver's own card or the card being played): its hand (``own``) with the card taken,
 * less that card where giving it back is forbidden, as Law lets it (a Law on the taken card
 * leaves with it). */
static inline uint64_t betrayal_gifts(const Spec *s, int card, int resolver, uint64_t own, int p,
                                      int law) {
    int taken = p & 63;
    if ((p >> 6 & 7) == resolver || taken == card) return 0;
    uint64_t hand = own | ((uint64_t)1) << taken;
    if (s->give_back_forbidden) hand &= ~(((uint64_t)1) << taken);
    int remaining = (law >= 0 && (law >> 1) == taken) ? -1 : law;
    return law_filter(s, remaining, hand, 0);
}

/* A choice's part of an action (machine.encode: kind, then two numbers). */
static inline int choice_bits(int ck, int c1, int c2) { return ck << 12 | c1 << 6 | c2; }

/* The actions choosing how a card with a "now" effect resolves: ``base`` (the action without
 * its choice) with each choice, written to ``out`` in ascending order, which is the order of
 * legal() (the choice's kind, then its numbers: the cards and seats are walked as bits, lowest
 * first). Returns how many, or -1 past ``room`` of them (room < 0: none fits). A card being
 * played is in front (its own entry); no choice names the card itself, so ``front`` may be the
 * front without it. ``hands``: the hands of the others; ``own``: the resolver's hand (after
 * the play of the card, for a card being played). (machine.py: now_choices.) */
static int now_moves(const Spec *s, int card, int resolver, int lies_before,
                     const uint64_t *hands, uint64_t own, const uint16_t *front, int nfront,
                     int law, int nobody_left, int base, int *out, int room) {
    int n = 0;
    uint64_t m = 0;
#define NOW_PUT(bits) do { if (n >= room) return -1; out[n++] = base | (bits); } while (0)
    switch (s->effect[card]) {
    case E_LAW:
        if (nobody_left && s->law_skip_when_last) return 0;
        NOW_PUT(choice_bits(CK_HIGHER, 0, 0));
        NOW_PUT(choice_bits(CK_LOWER, 0, 0));
        return n;
    case E_WRATH:
        for (int i = 0; i < nfront; i++) {
            int p = front[i];
            if ((p >> 6 & 7) != resolver && (p & 63) != card) m |= ((uint64_t)1) << (p & 63);
        }
        for (; m; m &= m - 1) NOW_PUT(choice_bits(CK_RETURN, lowbit(m), 0));
        return n;
    case E_JEALOUSY:
        for (int i = 0; i < nfront; i++) {
            int p = front[i];
            if ((p & 63) != card && (!s->jealousy_own_forbidden || (p >> 6 & 7) != lies_before))
                m |= ((uint64_t)1) << (p & 63);
        }
        for (; m; m &= m - 1) NOW_PUT(choice_bits(CK_SWAP, lowbit(m), 0));
        return n;
    case E_BETRAYAL: {
        uint16_t at[64]; /* the front entry of each card in front */
        for (int i = 0; i < nfront; i++) {
            at[front[i] & 63] = front[i];
            m |= ((uint64_t)1) << (front[i] & 63);
        }
        for (; m; m &= m - 1) {
            int taken = lowbit(m);
            for (uint64_t g = betrayal_gifts(s, card, resolver, own, at[taken], law); g; g &= g - 1)
                NOW_PUT(choice_bits(CK_TAKE, taken, lowbit(g)));
        }
        return n;
    }
    case E_SECRET:
        for (int seat = 0; seat < s->players; seat++)
            if (seat != resolver && hands[seat]) NOW_PUT(choice_bits(CK_ASK, seat, 0));
        if (!own) return n;
        for (int seat = 0; seat < s->players; seat++) {
            if (seat == resolver) continue;
            for (m = own; m; m &= m - 1) NOW_PUT(choice_bits(CK_SHOW, seat, lowbit(m)));
        }
        return n;
    case E_ABSOLUTE:
        if (!(s->now_mask >> card & 1) || !own) return 0;
        for (int seat = 0; seat < s->players; seat++)
            if (seat != resolver && hands[seat]) NOW_PUT(choice_bits(CK_WITH, seat, 0));
        return n;
    default:
        return 0;
    }
#undef NOW_PUT
}

/* Whether nobody is left to play after a card with a "now" effect (Law's choice may be
 * skipped then): asked only for Law, the one effect that reads it, and only under the option
 * that skips it (law_skip_when_last; every reader ands it with the option, so 0 otherwise). */
static inline int nobody_left_after(const Spec *s, int card, const uint64_t *hands, int played,
                                    int leader) {
    return s->law_skip_when_last && s->effect[card] == E_LAW
        && next_to_play(s, hands, played, leader) == -1;
}

/* For a card in front resolving now: the seat whose card lay before it (``before``), and
 * whether nobody is left to play. */
static inline int resolve_context(const Spec *s, const KS *k, int card, int *before) {
    *before = 0;
    for (int i = 0; i < k->nfront; i++) {
        if ((k->front[i] & 63) == card) { *before = k->front[i] >> 6 & 7; break; }
    }
    return nobody_left_after(s, card, k->hands, k->played, k->leader);
}

/* The actions of a pending resolution (P_RESOLVE, P_END_ABS), in ascending order, into
 * ``moves``: how many, or -1 past MAXMOVES of them. */
static int pending_moves(const Spec *s, const KS *k, const Pending *top, int *moves) {
    int seat = top->seat, card = top->a, n = 0;
    int base = encode(V_RESOLVE, seat, card, -1, 0, 0, 0);
    if (top->kind == P_END_ABS) {
        if (!k->hands[seat]) return 0;
        for (int other = 0; other < s->players; other++)
            if (other != seat && k->hands[other]) moves[n++] = base | choice_bits(CK_WITH, other, 0);
        return n;
    }
    int before, nobody_left = resolve_context(s, k, card, &before);
    return now_moves(s, card, seat, before, k->hands, k->hands[seat], k->front, k->nfront,
                     k->law, nobody_left, base, moves, MAXMOVES);
}

/* ---------------------------------------------------------------- legal actions */

/* Whether nobody is left to play once ``seat`` has played ``card`` (nobody_left_after: asked
 * for Law alone, the hands after the play made only then). */
static int nobody_left_after_play(const Spec *s, const KS *k, int seat, int card) {
    if (!s->law_skip_when_last || s->effect[card] != E_LAW) return 0;
    uint64_t hands[MAXP];
    memcpy(hands, k->hands, MAXP * sizeof(uint64_t));
    hands[seat] &= ~(((uint64_t)1) << card);
    int played = k->played;
    int top = k->npending ? k->pending[k->npending - 1].kind : -1;
    if (top < 0 || (top == P_DREAM && !s->dream_plays_again)) played |= 1 << seat;
    return nobody_left_after(s, card, hands, played, k->leader);
}

/* The actions of ``seat`` playing ``card`` (placed before ``before``), with their choices, in
 * ascending order after the ``n`` in ``moves``: the new count, or -1 where more than MAXMOVES
 * less one would be made (a card with choices leaves room for one more action). */
static int with_choices(const Spec *s, const KS *k, int seat, int card, int before, int *moves, int n) {
    int to = before == seat ? -1 : before;
    int base = encode(V_PLAY, seat, card, to, 0, 0, 0);
    if (!(s->now_mask >> card & 1)) {
        moves[n++] = base;
        return n;
    }
    int nobody_left = nobody_left_after_play(s, k, seat, card);
    int room = MAXMOVES - n - 1;
    int c = now_moves(s, card, seat, before, k->hands, k->hands[seat] & ~(((uint64_t)1) << card),
                      k->front, k->nfront, k->law, nobody_left, base, moves + n, room);
    if (c < 0 || c > room) return -1;
    if (c == 0) moves[n++] = base;
    return n + c;
}

/* The cards ``seat`` may play (``exclude``: the card Wrath returned, or -1), as Law lets it. */
static inline uint64_t playable(const Spec *s, const KS *k, int seat, int exclude) {
    uint64_t hand = k->hands[seat], candidates = hand;
    if (exclude >= 0 && !s->wrath_replay_allowed) {
        uint64_t without = hand & ~(((uint64_t)1) << exclude);
        candidates = without ? without : hand;
    }
    return law_filter(s, k->law, candidates, exclude < 0);
}

static int play_actions(const Spec *s, const KS *k, int seat, int exclude, int *moves, int n) {
    for (uint64_t m = playable(s, k, seat, exclude); m; m &= m - 1) {
        int card = lowbit(m);
        if (s->effect[card] == E_DREAM) {
            if (n + MAXP + 1 > MAXMOVES) return -1;
            moves[n++] = encode(V_PLAY, seat, card, -1, 0, 0, 0);
            for (int target = 0; target < s->players; target++) {
                if (target != seat && !(k->played >> target & 1) && k->hands[target])
                    moves[n++] = encode(V_PLAY, seat, card, target, 0, 0, 0);
            }
            continue;
        }
        n = with_choices(s, k, seat, card, seat, moves, n);
        if (n < 0) return -1;
    }
    return n;
}

static int dream_placements(const Spec *s, const KS *k, int target, int dreamer, int *moves, int n) {
    for (uint64_t m = law_filter(s, k->law, k->hands[target], 0); m; m &= m - 1) {
        int card = lowbit(m);
        if (s->resolver_placer && s->effect[card] != E_DREAM) {
            n = with_choices(s, k, target, card, dreamer, moves, n);
            if (n < 0) return -1;
        } else {
            if (n >= MAXMOVES) return -1;
            moves[n++] = encode(V_PLAY, target, card, dreamer, 0, 0, 0);
        }
    }
    return n;
}

/* The legal actions in ascending order (the order of machine.py's legal(): each is made in
 * it, the cards and seats walked as bits, lowest first), or -1 if a capacity is exceeded.
 * ``player``: whose gifts, in the simultaneous exchange; with nothing pending, the seat to play
 * where the caller has it (current_player's), else -1 (found here). */
static int legal(const Spec *s, const KS *k, int player, int *moves) {
    int n = 0;
    if (k->phase == OVER) return 0;
    if (!k->npending) {
        int seat = player >= 0 ? player : next_to_play(s, k->hands, k->played, k->leader);
        n = play_actions(s, k, seat, -1, moves, 0);
    } else {
        const Pending *top = &k->pending[k->npending - 1];
        int seat = top->seat;
        switch (top->kind) {
        case P_EXCHANGE:
            for (uint64_t m = k->hands[player]; m; m &= m - 1)
                moves[n++] = encode(V_GIVES, player, lowbit(m), -1, 0, 0, 0);
            break;
        case P_DREAM: n = dream_placements(s, k, seat, top->a, moves, 0); break;
        case P_REPLAY: n = play_actions(s, k, seat, top->a, moves, 0); break;
        case P_RESOLVE:
        case P_END_ABS:
            n = pending_moves(s, k, top, moves);
            break;
        case P_SHOW:
        case P_GIVE:
        case P_GIVE_BACK: {
            int verb = top->kind == P_SHOW ? V_SHOWS : V_GIVES;
            for (uint64_t m = k->hands[seat]; m; m &= m - 1)
                moves[n++] = encode(verb, seat, lowbit(m), -1, 0, 0, 0);
            break;
        }
        default: /* P_LUCK */
            for (uint64_t m = k->hands[seat] & ~s->fear_mask; m; m &= m - 1)
                moves[n++] = encode(V_DISCARDS, seat, lowbit(m), -1, 0, 0, 0);
            break;
        }
    }
    return n;
}

/* How many legal actions legal() makes (-1 where it returns -1), without making
 * them: a seed's mobility counts them only. Each function below counts what the function of
 * the same name without "_count" writes, with the same capacity checks. */
static inline __attribute__((always_inline))
int now_moves_count(const Spec *s, int card, int resolver, int lies_before,
                    const uint64_t *hands, uint64_t own, const uint16_t *front,
                    int nfront, int law, int nobody_left) {
    /* a card being played is in front (its own entry); no choice names the card itself, so
     * the entry is never counted and ``front`` may be the front without it */
    int n = 0;
    switch (s->effect[card]) {
    case E_LAW:
        return nobody_left && s->law_skip_when_last ? 0 : 2;
    case E_WRATH:
        for (int i = 0; i < nfront; i++) {
            int p = front[i];
            n += (p >> 6 & 7) != resolver && (p & 63) != card;
        }
        return n;
    case E_JEALOUSY:
        for (int i = 0; i < nfront; i++) {
            int p = front[i];
            n += (p & 63) != card && (!s->jealousy_own_forbidden || (p >> 6 & 7) != lies_before);
        }
        return n;
    case E_BETRAYAL:
        for (int i = 0; i < nfront; i++) {
            n += popcount(betrayal_gifts(s, card, resolver, own, front[i], law));
            if (n > MAXMOVES) return -1;
        }
        return n;
    case E_SECRET: {
        int shows = popcount(own);
        for (int seat = 0; seat < s->players; seat++) {
            if (seat == resolver) continue;
            n += hands[seat] != 0;
            if (shows && n + shows > MAXMOVES) return -1;
            n += shows;
        }
        return n;
    }
    case E_ABSOLUTE:
        if (!(s->now_mask >> card & 1) || !own) return 0;
        for (int seat = 0; seat < s->players; seat++) n += seat != resolver && hands[seat];
        return n;
    default:
        return 0;
    }
}

static inline __attribute__((always_inline))
int with_choices_count(const Spec *s, const KS *k, int seat, int card, int before, int n) {
    if (!(s->now_mask >> card & 1)) return n + 1;
    int nobody_left = nobody_left_after_play(s, k, seat, card);
    int c = now_moves_count(s, card, seat, before, k->hands,
                            k->hands[seat] & ~(((uint64_t)1) << card), k->front, k->nfront,
                            k->law, nobody_left);
    if (c < 0 || n + c + 1 > MAXMOVES) return -1;
    return n + (c ? c : 1);
}

static int play_actions_count(const Spec *s, const KS *k, int seat, int exclude) {
    int n = 0;
    for (uint64_t m = playable(s, k, seat, exclude); m; m &= m - 1) {
        int card = lowbit(m);
        if (s->effect[card] == E_DREAM) {
            if (n + MAXP + 1 > MAXMOVES) return -1;
            n++;
            for (int target = 0; target < s->players; target++)
                n += target != seat && !(k->played >> target & 1) && k->hands[target];
            continue;
        }
        n = with_choices_count(s, k, seat, card, seat, n);
        if (n < 0) return -1;
    }
    return n;
}

/* (``player`` as for legal().) */
static int legal_count(const Spec *s, const KS *k, int player) {
    if (k->phase == OVER) return 0;
    if (!k->npending) {
        int seat = player >= 0 ? player : next_to_play(s, k->hands, k->played, k->leader);
        return play_actions_count(s, k, seat, -1);
    }
    const Pending *top = &k->pending[k->npending - 1];
    int seat = top->seat, n = 0;
    switch (top->kind) {
    case P_EXCHANGE: return popcount(k->hands[player]);
    case P_DREAM:
        for (uint64_t m = law_filter(s, k->law, k->hands[seat], 0); m; m &= m - 1) {
            int card = lowbit(m);
            if (s->resolver_placer && s->effect[card] != E_DREAM) {
                n = with_choices_count(s, k, seat, card, top->a, n);
                if (n < 0) return -1;
            } else {
                if (n >= MAXMOVES) return -1;
                n++;
            }
        }
        return n;
    case P_REPLAY: return play_actions_count(s, k, seat, top->a);
    case P_RESOLVE: {
        int card = top->a, before, nobody_left = resolve_context(s, k, card, &before);
        return now_moves_count(s, card, seat, before, k->hands, k->hands[seat], k->front,
                               k->nfront, k->law, nobody_left);
    }
    case P_END_ABS:
        if (!k->hands[seat]) return 0;
        for (int other = 0; other < s->players; other++) n += other != seat && k->hands[other];
        return n;
    case P_SHOW:
    case P_GIVE:
    case P_GIVE_BACK: return popcount(k->hands[seat]);
    default: return popcount(k->hands[seat] & ~s->fear_mask); /* P_LUCK */
    }
}

/* ---------------------------------------------------------------- moving */

static void push(KS *k, int kind, int seat, int a, int b) {
    if (k->npending >= MAXPEND) { k->error = 1; return; }
    Pending *p = &k->pending[k->npending++];
    p->kind = (uint8_t)kind; p->seat = (uint8_t)seat; p->a = (uint8_t)a; p->b = (uint8_t)b;
}

static void add_front(KS *k, int placement) {
    if (k->nfront >= MAXFRONT) { k->error = 1; return; }
    k->front[k->nfront++] = (uint16_t)placement;
}

static int remove_from_play(KS *k, int card) {
    for (int i = 0; i < k->nfront; i++) {
        int p = k->front[i];
        if ((p & 63) == card) {
            memmove(k->front + i, k->front + i + 1, (k->nfront - i - 1) * sizeof(uint16_t));
            k->nfront--;
            if (k->law >= 0 && (k->law >> 1) == card) k->law = -1;
            return p;
        }
    }
    k->error = 1;
    return 0;
}

static void start_exchange(const Spec *s, KS *k, int player, int target) {
    push(k, s->exchange_open ? P_GIVE : P_EXCHANGE, player, target, 0);
}

static void swap_cards(KS *k, int a, int card_a, int b, int card_b) {
    k->hands[a] = (k->hands[a] & ~(((uint64_t)1) << card_a)) | ((uint64_t)1) << card_b;
    k->hands[b] = (k->hands[b] & ~(((uint64_t)1) << card_b)) | ((uint64_t)1) << card_a;
}

static void wrath(KS *k, int returned) {
    int placement = remove_from_play(k, returned);
    int before = placement >> 6 & 7;
    k->hands[before] |= ((uint64_t)1) << returned;
    push(k, P_REPLAY, before, returned, 0);
}

static void betrayal(const Spec *s, KS *k, int resolver, int taken, int given) {
    int placement = remove_from_play(k, taken);
    k->hands[resolver] |= ((uint64_t)1) << taken;
    k->hands[resolver] &= ~(((uint64_t)1) << given);
    int victim = placement >> 6 & 7;
    add_front(k, given | victim << 6 | resolver << 9);
    if ((s->now_mask >> given & 1) && s->effect[given] != E_DREAM)
        push(k, P_RESOLVE, s->resolver_placer ? resolver : victim, given, 0);
}

static void jealousy(const Spec *s, KS *k, int card, int other) {
    int i = -1, j = -1;
    for (int x = 0; x < k->nfront; x++) {
        if ((k->front[x] & 63) == card) i = x;
        if ((k->front[x] & 63) == other) j = x;
    }
    if (i < 0 || j < 0) { k->error = 1; return; }
    int mine = k->front[i], theirs = k->front[j];
    k->front[i] = (uint16_t)((mine & ~(7 << 6)) | (theirs & (7 << 6)));
    k->front[j] = (uint16_t)((theirs & ~(7 << 6)) | (mine & (7 << 6)));
    if (k->law >= 0 && ((k->law >> 1) == card || (k->law >> 1) == other) && s->law_ends_on_jealousy)
        k->law = -1;
}

static void resolve_effect(const Spec *s, KS *k, int card, int resolver, int ck, int c1, int c2) {
    switch (ck) {
    case CK_NONE: case CK_SHOW: return;
    case CK_HIGHER: k->law = (int8_t)(card << 1 | 1); return;
    case CK_LOWER: k->law = (int8_t)(card << 1); return;
    case CK_RETURN: wrath(k, c1); return;
    case CK_TAKE: betrayal(s, k, resolver, c1, c2); return;
    case CK_SWAP: jealousy(s, k, card, c1); return;
    case CK_ASK: push(k, P_SHOW, c1, resolver, 0); return;
    default: start_exchange(s, k, resolver, c1); return;
    }
}

static void play(const Spec *s, KS *k, int seat, int card, int to, int ck, int c1, int c2) {
    int kind = k->npending ? k->pending[--k->npending].kind : -1;
    k->hands[seat] &= ~(((uint64_t)1) << card);
    int before = to < 0 ? seat : to;
    add_front(k, card | before << 6 | seat << 9);
    if (kind < 0 || (kind == P_DREAM && !s->dream_plays_again)) k->played |= (uint8_t)(1 << seat);
    if (s->effect[card] == E_DREAM && kind != P_DREAM) {
        if (to >= 0) push(k, P_DREAM, to, seat, 0);
        return;
    }
    if (!(s->now_mask >> card & 1)) return;
    int resolver = s->resolver_placer ? seat : before;
    if (resolver == seat) resolve_effect(s, k, card, seat, ck, c1, c2);
    else push(k, P_RESOLVE, resolver, card, 0);
}

static void reset_bout(KS *k, int leader) {
    k->phase = BOUT;
    k->leader = (uint8_t)leader;
    k->played = 0;
    k->law = -1;
    k->nfront = 0;
    k->npending = 0;
    k->nstages = 0;
    k->has_outcome = 0;
    k->out_winning = k->out_winner = k->out_luck_seat = 0;
    k->out_next_leader = k->out_pride = 0;
    k->out_discarded = 0;
    k->victim = -1;
    k->n_end_abs = 0;
}

/* Resolutions without a choice left are dropped (their actions counted, not made). */
static inline void drop_void_pending(const Spec *s, KS *k) {
    while (k->npending) {
        int kind = k->pending[k->npending - 1].kind;
        if ((kind != P_RESOLVE && kind != P_END_ABS) || legal_count(s, k, -1) != 0) return;
        k->npending--;
    }
}

static void start_end_of_bout(const Spec *s, Memo *memo, KS *k) {
    if (!k->nfront) { k->phase = OVER; k->winner = -1; return; }
    Outcome o = memo_resolve(s, memo, k->front, k->nfront, k->leader);
    if (s->absolute_end) {
        k->n_end_abs = 0;
        for (int i = 0; i < k->nfront; i++) {
            int p = k->front[i];
            if (s->effect[p & 63] == E_ABSOLUTE) {
                k->end_abs_card[k->n_end_abs] = (uint8_t)(p & 63);
                k->end_abs_seat[k->n_end_abs] = (uint8_t)owner_of(s, p);
                k->n_end_abs++;
            }
        }
    }
    int kept = 0;
    for (int i = 0; i < k->nfront; i++) {
        if (!(o.discarded >> (k->front[i] & 63) & 1)) k->front[kept++] = k->front[i];
    }
    k->nfront = (uint8_t)kept;
    k->has_outcome = 1;
    k->out_winning = o.winning; k->out_winner = o.winner; k->out_discarded = o.discarded;
    k->out_luck_seat = o.luck_seat; k->out_next_leader = o.next_leader; k->out_pride = o.pride;
    k->victim = -1;
    int n = 0;
    if (s->luck_after_return) { k->stages[n++] = S_RETURN; k->stages[n++] = S_LUCK_AFTER; }
    else { k->stages[n++] = S_LUCK_BEFORE; k->stages[n++] = S_RETURN; }
    if (k->n_end_abs) k->stages[n++] = S_EXCHANGES;
    k->stages[n++] = S_CHECK;
    k->nstages = (uint8_t)n;
    k->phase = END;
}

static int round_winner(const Spec *s, const KS *k) {
    if (k->victim >= 0 && !k->hands[k->victim >> 6]) return k->victim >> 6;
    if (s->zero_any) {
        for (int step = 0; step < s->players; step++) {
            int seat = (k->out_next_leader + step) % s->players;
            if (!k->hands[seat]) return seat;
        }
    }
    int best = -1;
    uint64_t best_card = 0;
    for (int seat = 0; seat < s->players; seat++) {
        uint64_t hand = k->hands[seat];
        if (hand && !(hand & (hand - 1)) && hand > best_card) { best = seat; best_card = hand; }
    }
    return best;
}

static void stage_check(const Spec *s, KS *k) {
    int winner = round_winner(s, k);
    if (s->scope == SCOPE_BOUT) { k->phase = OVER; k->winner = k->out_winner; return; }
    if (winner < 0) {
        reset_bout(k, k->out_next_leader);
        int any = 0;
        for (int seat = 0; seat < s->players; seat++) any |= k->hands[seat] != 0;
        if (!any) { k->phase = OVER; k->winner = -1; }
        return;
    }
    int team = s->team_of[winner];
    k->won[team]++;
    k->phase = OVER; /* round scope: game analysis chains rounds (omens/kernel/game.py) */
    k->winner = (int8_t)winner;
}

/* Luck's discard pushed where its seat holds a card it may discard (the stages S_LUCK_BEFORE
 * and S_LUCK_AFTER); returns whether it was. */
static inline int push_luck(const Spec *s, KS *k) {
    int seat = k->out_luck_seat;
    if (seat < 0 || !(k->hands[seat] & ~s->fear_mask)) return 0;
    push(k, P_LUCK, seat, 0, 0);
    return 1;
}

/* The cards left in play go back to their hands (the stage S_RETURN). */
static inline void return_front(const Spec *s, KS *k) {
    for (int i = 0; i < k->nfront; i++) {
        int p = k->front[i];
        int seat = s->return_placer ? (p >> 9 & 7) : (p >> 6 & 7);
        k->hands[seat] |= ((uint64_t)1) << (p & 63);
    }
    k->nfront = 0;
}

/* The stages of a bout's end without Absolutes (start_end_of_bout's: Luck's discard before or
 * after the return, the return, the check), made as advance's loop makes them one by one from
 * a state with nothing pending, in one pass: where Luck's discard is pushed, the stages left
 * and their count are those the loop leaves (those past the count are never read). */
static inline void end_stages(const Spec *s, KS *k) {
    if (!s->luck_after_return) {
        if (push_luck(s, k)) {
            k->stages[0] = S_RETURN; k->stages[1] = S_CHECK; k->nstages = 2;
            return;
        }
        return_front(s, k);
    } else {
        return_front(s, k);
        if (push_luck(s, k)) {
            k->stages[0] = S_CHECK; k->nstages = 1;
            return;
        }
    }
    k->nstages = 0;
    stage_check(s, k);
}

static void advance_loop(const Spec *s, Memo *memo, KS *k) {
    for (;;) {
        if (k->error) return;
        if (k->phase == BOUT) {
            drop_void_pending(s, k);
            if (k->npending || next_to_play(s, k->hands, k->played, k->leader) >= 0) return;
            start_end_of_bout(s, memo, k);
            if (k->phase == END && !k->n_end_abs) end_stages(s, k);
        } else if (k->phase == END) {
            drop_void_pending(s, k);
            if (k->npending) return;
            int stage = k->stages[0];
            /* the stages move down one place (MAXSTAGES of them; those past nstages are
             * never read), without a call */
            uint8_t *st = k->stages;
            st[0] = st[1]; st[1] = st[2]; st[2] = st[3]; st[3] = st[4];
            k->nstages--;
            switch (stage) {
            case S_RETURN:
                return_front(s, k);
                break;
            case S_EXCHANGES:
                for (int i = k->n_end_abs - 1; i >= 0; i--)
                    push(k, P_END_ABS, k->end_abs_seat[i], k->end_abs_card[i], 0);
                k->n_end_abs = 0;
                break;
            case S_CHECK:
                stage_check(s, k);
                break;
            default: /* S_LUCK_BEFORE, S_LUCK_AFTER */
                push_luck(s, k);
                break;
            }
        } else {
            return;
        }
    }
}

/* The state moved on to its next decision (advance_loop), its most common case first without
 * a call: in a bout with nothing pending and a seat still to play, there is nothing to do. */
static inline __attribute__((always_inline)) void advance(const Spec *s, Memo *memo, KS *k) {
    if (!k->error && k->phase == BOUT && !k->npending
        && next_to_play(s, k->hands, k->played, k->leader) >= 0)
        return;
    advance_loop(s, memo, k);
}

/* The state ``k`` once ``move`` is made, in place (child() on a copy). */
static void apply(const Spec *s, Memo *memo, KS *k, int move) {
    int verb = move >> 28, seat = move >> 25 & 7, card = move >> 19 & 63, to = (move >> 16 & 7) - 1;
    int ck = move >> 12 & 15, c1 = move >> 6 & 63, c2 = move & 63;
    switch (verb) {
    case V_PLAY: play(s, k, seat, card, to, ck, c1, c2); break;
    case V_RESOLVE: {
        Pending top = k->pending[--k->npending];
        if (top.kind == P_END_ABS) start_exchange(s, k, top.seat, c1);
        else resolve_effect(s, k, top.a, top.seat, ck, c1, c2);
        break;
    }
    case V_SHOWS: k->npending--; break;
    case V_GIVES: {
        Pending top = k->pending[--k->npending];
        if (top.kind == P_GIVE) push(k, P_GIVE_BACK, top.a, top.seat, card);
        else swap_cards(k, top.a, top.b, top.seat, card);
        break;
    }
    default: { /* V_DISCARDS */
        Pending top = k->pending[--k->npending];
        k->hands[top.seat] &= ~(((uint64_t)1) << card);
        k->victim = (int16_t)(top.seat << 6 | card);
        break;
    }
    }
    advance(s, memo, k);
}

static void child(const Spec *s, Memo *memo, const KS *from, int move, KS *k) {
    ks_copy(k, from);
    apply(s, memo, k, move);
}

/* The state ``k`` once the simultaneous gifts ``m1`` and ``m2`` are made, in place. */
static void apply_joint(const Spec *s, Memo *memo, KS *k, int m1, int m2) {
    Pending top = k->pending[--k->npending];
    int gift[MAXP];
    gift[m1 >> 25 & 7] = m1 >> 19 & 63;
    gift[m2 >> 25 & 7] = m2 >> 19 & 63;
    swap_cards(k, top.seat, gift[top.seat], top.a, gift[top.a]);
    advance(s, memo, k);
}

static void joint_child(const Spec *s, Memo *memo, const KS *from, int m1, int m2, KS *k) {
    ks_copy(k, from);
    apply_joint(s, memo, k, m1, m2);
}

/* ---------------------------------------------------------------- identity */

/* A canonical packing of everything KState.key() holds, for the transposition table:
 * the words written and their number (``w`` has room for KEYWORDS). Two states pack equal
 * exactly when their keys are. */
static int pack_key(const Spec *s, const KS *k, uint64_t *w) {
    int n = 0;
    uint64_t head = (uint64_t)k->phase | (uint64_t)k->played << 2 | (uint64_t)k->leader << 8
        | (uint64_t)(uint8_t)k->law << 11 | (uint64_t)(uint16_t)k->victim << 19
        | (uint64_t)(uint8_t)k->winner << 35 | (uint64_t)k->won[0] << 43
        | (uint64_t)k->won[1] << 46 | (uint64_t)k->won[2] << 49
        | (uint64_t)k->has_outcome << 52 | (uint64_t)k->nstages << 53;
    w[n++] = head;
    memcpy(w + n, k->hands, MAXP * sizeof(uint64_t)); /* those past the players are written over */
    n += s->players;
    uint64_t word = (uint64_t)k->nfront | (uint64_t)k->npending << 8 | (uint64_t)k->n_end_abs << 16;
    for (int i = 0; i < k->nstages; i++) word |= (uint64_t)k->stages[i] << (24 + 3 * i);
    w[n++] = word;
    if (k->has_outcome) {
        w[n++] = k->out_discarded;
        w[n++] = (uint64_t)(uint8_t)k->out_winner | (uint64_t)(uint8_t)k->out_luck_seat << 8
            | (uint64_t)k->out_next_leader << 16 | (uint64_t)k->out_pride << 24;
    }
    /* five cards in play a word, two pending entries, seven Absolutes of the end */
    for (int i = 0; i < k->nfront; i += 5) {
        int end = i + 5 < k->nfront ? i + 5 : k->nfront;
        word = 0;
        for (int j = i; j < end; j++) word |= (uint64_t)k->front[j] << (12 * (j - i));
        w[n++] = word;
    }
    for (int i = 0; i < k->npending; i += 2) {
        word = 0;
        for (int j = i; j < i + 2 && j < k->npending; j++) {
            const Pending *p = &k->pending[j];
            word |= ((uint64_t)p->kind | (uint64_t)p->seat << 4 | (uint64_t)p->a << 8
                     | (uint64_t)p->b << 16) << (24 * (j - i));
        }
        w[n++] = word;
    }
    for (int i = 0; i < k->n_end_abs; i += 7) {
        int end = i + 7 < k->n_end_abs ? i + 7 : k->n_end_abs;
        word = 0;
        for (int j = i; j < end; j++)
            word |= ((uint64_t)k->end_abs_card[j] | (uint64_t)k->end_abs_seat[j] << 6) << (9 * (j - i));
        w[n++] = word;
    }
    return n;
}

#endif
