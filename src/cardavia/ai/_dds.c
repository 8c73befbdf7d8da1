/* cardavia.ai._dds: the double-dummy solver's compiled kernel.
 *
 * This is the search of cardavia/ai/solver.py (class _Search), function for function, in C:
 * a fail-soft zero-window alpha-beta over the card points of one side, with a transposition
 * table at trick boundaries, equivalent-card pruning and the same move ordering, driven by
 * MTD(f) to the exact value; and random playouts with the same SplitMix64 draws. Read
 * solver.py first: the comments here say mostly where C differs. With no replacement in the
 * table, both visit the same nodes (the tests check it).
 *
 * Cards are ints suit * 8 + rank (ranks 7 8 9 T J Q K A, suits S H D C), sets of cards
 * 32-bit masks. The tables (strength order, points, "beats" masks, trump mask) come from the
 * engine (cardavia.belote.play.strain_values), packed by solver.py as
 *
 *     "<32B32B32IIBBh": order[32], points[32], beats[32], trump_mask, strain, knobs, bonus
 *
 * with knobs bit 0 undertrump required, 1 must_trump_partner, 2 overtrump_partner_on_trump_lead,
 * 3 overtrump_when_trumping_partner, 4 the search's "simple" order of moves (else "masters"),
 * and bonus = capot_points - card points - 10.
 *
 * A position is the tuple (hand N, hand E, hand S, hand W, trick bytes, leader, capot bits):
 * capot bit 0, N-S has taken every trick of the deal so far; bit 1, E-W.
 *
 * Each thread keeps its own transposition table (allocated on its first search, freed when
 * the thread ends), each entry stamped with the call that wrote it, so that a call never
 * reads another's; the unpacked tables of the last contract and the figures of the last
 * search are per thread too. A search runs with the GIL released, so searches in several
 * threads run in parallel, and each gives exactly what it gives alone (the tests check it).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

#if defined(__GNUC__) || defined(__clang__)
#define THREAD_LOCAL __thread
#else
#define THREAD_LOCAL _Thread_local
#endif

#define NO_TRUMP 4
#define ALL_TRUMP 5
#define LAST_TRICK_BONUS 10
#define INFINITE (1 << 20)
#define PARAMS_SIZE 200

#define KNOB_UNDERTRUMP 1
#define KNOB_MUST_TRUMP_PARTNER 2
#define KNOB_OVERTRUMP_ON_TRUMP_LEAD 4
#define KNOB_OVERTRUMP_WHEN_TRUMPING 8
#define KNOB_SIMPLE_ORDER 16

static inline int popcount(uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}

#if defined(__GNUC__) || defined(__clang__)
#define CTZ(x) __builtin_ctz(x)
#else
static inline int CTZ(uint32_t x) {
    int n = 0;
    while (!(x & 1)) { x >>= 1; n++; }
    return n;
}
#endif

static const uint32_t SUIT_MASK[4] = {0xFFu, 0xFF00u, 0xFF0000u, 0xFF000000u};

/* -- the tables ------------------------------------------------------------------------ */

typedef struct {
    uint8_t order[32];
    uint8_t points[32];
    uint32_t beats[32];
    uint32_t trump_mask;
    int strain;
    int knobs;
    int bonus;
    /* Derived (solver._Game): strength[suit][byte], the cards of a byte of a mask as a mask
     * of strengths (bit k: the card of strength k); card_at[suit][k], the card of strength
     * k; the runs of cards adjacent in strength with equal points (the 7 8 9 of a plain
     * suit), weakest first, and run_all, all their cards. */
    uint8_t strength[4][256];
    uint8_t card_at[4][8];
    int runs;
    uint8_t run_len[16];
    uint8_t run_cards[16][8];
    uint32_t run_all;
} Game;

static uint32_t read_u32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static THREAD_LOCAL Game cached_game;
static THREAD_LOCAL uint8_t cached_params[PARAMS_SIZE];
static THREAD_LOCAL int have_cached_game = 0;

/* The tables of a params string (the last is kept: calls come in runs of one contract). */
static const Game *parse_game(PyObject *params) {
    char *data;
    Py_ssize_t size;
    if (PyBytes_AsStringAndSize(params, &data, &size) < 0) return NULL;
    if (size != PARAMS_SIZE) {
        PyErr_SetString(PyExc_ValueError, "params: 200 bytes packed as solver.py packs them");
        return NULL;
    }
    const uint8_t *p = (const uint8_t *)data;
    if (have_cached_game && memcmp(p, cached_params, PARAMS_SIZE) == 0) return &cached_game;
    Game g;
    memset(&g, 0, sizeof g);
    memcpy(g.order, p, 32);
    memcpy(g.points, p + 32, 32);
    for (int c = 0; c < 32; c++) g.beats[c] = read_u32(p + 64 + 4 * c);
    g.trump_mask = read_u32(p + 192);
    g.strain = p[196];
    g.knobs = p[197];
    g.bonus = (int16_t)(p[198] | p[199] << 8);
    if (g.strain > ALL_TRUMP) {
        PyErr_SetString(PyExc_ValueError, "params: bad strain");
        return NULL;
    }
    for (int c = 0; c < 32; c++) {
        int suit = c >> 3, clash = 0;
        for (int d = suit * 8; d < suit * 8 + 8; d++) clash |= d != c && g.order[d] == g.order[c];
        if (g.order[c] > 7 || clash || (g.beats[c] & ~SUIT_MASK[suit])) {
            PyErr_SetString(PyExc_ValueError, "params: bad tables");
            return NULL;
        }
        g.card_at[suit][g.order[c]] = (uint8_t)c;
    }
    for (int suit = 0; suit < 4; suit++) {
        for (int byte = 0; byte < 256; byte++) {
            int m = 0;
            for (int r = 0; r < 8; r++)
                if (byte >> r & 1) m |= 1 << g.order[suit * 8 + r];
            g.strength[suit][byte] = (uint8_t)m;
        }
        for (int k = 0; k < 8;) {
            int j = k + 1;
            while (j < 8 && g.points[g.card_at[suit][j]] == g.points[g.card_at[suit][k]]) j++;
            if (j - k >= 2) {
                g.run_len[g.runs] = (uint8_t)(j - k);
                for (int i = k; i < j; i++) {
                    g.run_cards[g.runs][i - k] = g.card_at[suit][i];
                    g.run_all |= 1u << g.card_at[suit][i];
                }
                g.runs++;
            }
            k = j;
        }
    }
    cached_game = g;
    memcpy(cached_params, p, PARAMS_SIZE);
    have_cached_game = 1;
    return &cached_game;
}

/* The weakest card of a nonempty mask of cards of one suit. */
static inline int weakest(const Game *g, uint32_t cards) {
    int suit = CTZ(cards) >> 3;
    return g->card_at[suit][CTZ(g->strength[suit][(cards >> (8 * suit)) & 0xFF])];
}

/* -- which card may be played: play.constraint, case by case (docs/rules.md 5) --------------- */

/* trick[0..n-1]: the cards on the table; best_index: the one that wins so far. The seat to
 * move is the partner of the one at index n - 2. */
static inline uint32_t legal_mask(const Game *g, uint32_t hand, const uint8_t *trick, int n,
                                  int best_index) {
    if (n == 0) return hand;
    int led = trick[0] >> 3;
    uint32_t following = hand & SUIT_MASK[led];
    int best = trick[best_index];
    int partner_is_master = best_index == n - 2;
    if (g->strain == NO_TRUMP) return following ? following : hand; /* 5.3 */
    if (g->strain == ALL_TRUMP) {                                    /* 5.4 */
        if (!following) return hand;
        uint32_t higher = following & g->beats[best];
        return higher ? higher : following;
    }
    int trump = g->strain;
    uint32_t trumps = hand & SUIT_MASK[trump];
    if (led == trump) { /* 5.1, trump led */
        if (!following) return hand;
        if (partner_is_master && !(g->knobs & KNOB_OVERTRUMP_ON_TRUMP_LEAD)) return following;
        uint32_t higher = following & g->beats[best];
        return higher ? higher : following;
    }
    if (following) return following; /* 5.1 */
    if (!trumps) return hand;        /* 5.2, no trump */
    int trump_in_trick = best >> 3 == trump;
    if (partner_is_master && !(g->knobs & KNOB_MUST_TRUMP_PARTNER)) { /* 5.2, partner */
        if (trump_in_trick && (g->knobs & KNOB_OVERTRUMP_WHEN_TRUMPING)) {
            uint32_t higher = trumps & g->beats[best];
            if (higher && higher != trumps) return (hand & ~trumps) | higher;
        }
        return hand;
    }
    if (!trump_in_trick) return trumps; /* 5.2, an opponent is master */
    uint32_t higher = trumps & g->beats[best];
    if (higher) return higher;
    if (g->knobs & KNOB_UNDERTRUMP) return trumps;
    return hand;
}

/* play.winning_index, one card at a time: the index of the best card once the card at
 * `index` is played. */
static inline int next_best(const Game *g, const uint8_t *trick, int best_index, int card,
                            int index) {
    int best = trick[best_index];
    if (card >> 3 == best >> 3) return g->order[card] > g->order[best] ? index : best_index;
    return g->trump_mask >> card & 1 ? index : best_index;
}

/* -- the search's position ------------------------------------------------------------- */

typedef struct {
    const Game *g;
    uint32_t hands[4];
    uint8_t trick[4];
    int n;      /* cards on the table */
    int leader;
    int best;   /* index in the trick of the card that wins it so far */
    int capot;  /* bit 0: N-S has taken every trick of the deal so far; bit 1: E-W */
    int held;   /* points of the cards in the hands */
    int cards;  /* cards in the hands */
    int side;   /* whose points the search counts */
    long long nodes;
} Search;

typedef struct {
    uint8_t trick[4];
    int n, leader, best, capot, held, seat, card;
} Undo;

static inline int seat_to_move(const Search *s) { return (s->leader + s->n) & 3; }

static inline int is_over(const Search *s) { return s->n == 0 && s->cards == 0; }

static inline uint32_t legal_now(const Search *s) {
    return legal_mask(s->g, s->hands[seat_to_move(s)], s->trick, s->n, s->best);
}

/* Play a card (_Search.step without the undo record): answers the side that takes the trick
 * (-1 if it goes on) and, in *points, the points it takes. */
static inline int play(Search *s, int card, int *points) {
    const Game *g = s->g;
    int seat = seat_to_move(s);
    s->hands[seat] ^= 1u << card;
    s->held -= g->points[card];
    s->cards--;
    if (s->n) s->best = next_best(g, s->trick, s->best, card, s->n);
    s->trick[s->n++] = (uint8_t)card;
    if (s->n < 4) return -1;
    int winner = (s->leader + s->best) & 3, side = winner & 1;
    int pts = g->points[s->trick[0]] + g->points[s->trick[1]] + g->points[s->trick[2]] +
              g->points[s->trick[3]];
    s->capot &= 1 << side;
    if (s->cards == 0) {
        pts += LAST_TRICK_BONUS;
        if (s->capot >> side & 1) pts += g->bonus;
    }
    s->leader = winner;
    s->best = 0;
    s->n = 0;
    *points = pts;
    return side;
}

/* _Search.step */
static inline int step(Search *s, int card, int *points, Undo *u) {
    memcpy(u->trick, s->trick, 4);
    u->n = s->n; u->leader = s->leader; u->best = s->best; u->capot = s->capot;
    u->held = s->held; u->seat = seat_to_move(s); u->card = card;
    return play(s, card, points);
}

static inline void back(Search *s, const Undo *u) {
    memcpy(s->trick, u->trick, 4);
    s->n = u->n; s->leader = u->leader; s->best = u->best; s->capot = u->capot;
    s->held = u->held;
    s->cards++;
    s->hands[u->seat] |= 1u << u->card;
}

static inline uint32_t remaining_cards(const Search *s) {
    uint32_t mask = s->hands[0] | s->hands[1] | s->hands[2] | s->hands[3];
    for (int i = 0; i < s->n; i++) mask |= 1u << s->trick[i];
    return mask;
}

/* _Search.beaters: the cards of `hand` that beat `card`, the one winning a trick led in
 * `lead` so far: following suit, the stronger cards of the suit; void in it, the trumps that
 * beat it. */
static inline uint32_t beaters(const Game *g, uint32_t hand, int lead, int card) {
    if (hand & SUIT_MASK[lead]) return card >> 3 == lead ? hand & g->beats[card] : 0;
    if (g->trump_mask >> card & 1) return hand & g->beats[card];
    return hand & g->trump_mask;
}

/* _Search.simple_score */
static inline int simple_score(const Search *s, int card, uint32_t remaining) {
    const Game *g = s->g;
    int pts = g->points[card];
    if (s->n == 0) {
        uint32_t others = remaining & ~s->hands[seat_to_move(s)];
        return (others & g->beats[card]) ? 50 - pts : 100 + pts;
    }
    int best = s->trick[s->best], wins;
    if (card >> 3 == best >> 3) wins = g->order[card] > g->order[best];
    else wins = (int)(g->trump_mask >> card & 1);
    if (wins) return s->n == 3 ? 1000 + pts : 800 - g->order[card];
    if (s->best == s->n - 2) return 600 + pts;
    return 400 - pts;
}

/* _Search.score */
static inline int score(const Search *s, int card, uint32_t remaining) {
    const Game *g = s->g;
    if (g->knobs & KNOB_SIMPLE_ORDER) return simple_score(s, card, remaining);
    int pts = g->points[card], seat = seat_to_move(s);
    if (s->n == 0) {
        int partner = (seat + 2) & 3, suit = card >> 3, plain = !(g->trump_mask >> card & 1);
        uint32_t opponents = remaining & (s->hands[(seat + 1) & 3] | s->hands[(seat + 3) & 3]);
        int master = !(opponents & g->beats[card]);
        for (int o = 1; o < 4 && master && plain; o += 2) {
            uint32_t hand = s->hands[(seat + o) & 3];
            if (!(hand & SUIT_MASK[suit]) && (hand & g->trump_mask)) master = 0;
        }
        if (master) return 100 + pts;
        uint32_t mate = s->hands[partner];
        if (plain && !(mate & SUIT_MASK[suit]) && (mate & g->trump_mask)) return 60 - pts;
        for (uint32_t rest = mate & SUIT_MASK[suit]; rest; rest &= rest - 1)
            if (!(opponents & g->beats[CTZ(rest)])) return 70 - pts;
        return 50 - pts;
    }
    int best = s->trick[s->best], lead = s->trick[0] >> 3, wins;
    if (card >> 3 == best >> 3) wins = g->order[card] > g->order[best];
    else wins = (int)(g->trump_mask >> card & 1);
    uint32_t next = s->hands[(seat + 1) & 3];
    if (wins) {
        if (s->n == 3) return 1000 + pts;
        return beaters(g, next, lead, card) ? 800 - g->order[card] : 900 - g->order[card] + pts;
    }
    if (s->best == s->n - 2)
        return s->n == 2 && beaters(g, next, lead, best) ? 400 - pts : 600 + pts;
    return 400 - pts;
}

/* _Search.moves: the cards worth trying, best first, in out; answers how many. */
static inline int moves(const Search *s, uint32_t legal, int hint, uint8_t *out) {
    const Game *g = s->g;
    if (!(legal & (legal - 1))) { /* one card: nothing to choose */
        out[0] = (uint8_t)CTZ(legal);
        return 1;
    }
    uint32_t remaining = remaining_cards(s);
    int keys[8], count = 0;
    for (uint32_t rest = legal; rest; rest &= rest - 1) {
        int card = CTZ(rest);
        uint32_t stronger = g->beats[card] & remaining;
        if (stronger) {
            int above = weakest(g, stronger);
            if ((legal >> above & 1) && g->points[above] == g->points[card]) continue;
        }
        /* insertion by score, higher first; the cards come in ascending order, and stay so
         * among equal scores */
        int key = score(s, card, remaining), i = count++;
        while (i > 0 && keys[i - 1] < key) {
            keys[i] = keys[i - 1];
            out[i] = out[i - 1];
            i--;
        }
        keys[i] = key;
        out[i] = (uint8_t)card;
    }
    if (hint >= 0) {
        for (int i = 0; i < count; i++)
            if (out[i] == hint) {
                for (; i > 0; i--) out[i] = out[i - 1];
                out[0] = (uint8_t)hint;
                break;
            }
    }
    return count;
}

/* _Search.canonical: the hands with the cards of each run moved down to its weakest
 * places, in the same order: positions that differ only there have the same value. */
static inline void canonical(const Search *s, uint32_t *c) {
    const Game *g = s->g;
    for (int i = 0; i < 4; i++) c[i] = s->hands[i] & ~g->run_all;
    for (int r = 0; r < g->runs; r++) {
        int j = 0;
        for (int i = 0; i < g->run_len[r]; i++) {
            uint32_t bit = 1u << g->run_cards[r][i];
            for (int o = 0; o < 4; o++)
                if (s->hands[o] & bit) {
                    c[o] |= 1u << g->run_cards[r][j++];
                    break;
                }
        }
    }
}

/* -- the transposition table ----------------------------------------------------------- */

typedef struct {
    uint64_t k0, k1;  /* the four hands (canonical) */
    uint32_t call;    /* the call that wrote it */
    uint16_t low, high;
    uint8_t meta;     /* leader << 1 | capot still open for the side */
    int8_t best;      /* the card that last proved a bound, or -1 */
    uint8_t cards;    /* cards in the hands: a replacement keeps the deepest */
    uint8_t unused;
} Entry;

#define TABLE_BITS 20 /* 1Mi entries of 32 bytes (32 MiB), in buckets of 4 (two cache lines) */
#define BUCKET 4
static THREAD_LOCAL Entry *table = NULL;
static THREAD_LOCAL uint32_t current_call = 0;
static THREAD_LOCAL long long last_nodes = 0, last_evictions = 0, evictions = 0;

/* The key whose destructor frees a thread's table when the thread ends (the memory block
 * as allocated; `table` is it aligned to a cache line). */
static pthread_key_t table_key;
static pthread_once_t table_key_once = PTHREAD_ONCE_INIT;
static int table_key_failed = 0;

static void make_table_key(void) { table_key_failed = pthread_key_create(&table_key, free) != 0; }

static int table_ready(void) {
    if (table) return 1;
    pthread_once(&table_key_once, make_table_key);
    size_t size = ((size_t)1 << TABLE_BITS) * sizeof(Entry);
    void *memory = calloc(1, size + 64);
    if (!memory) {
        PyErr_NoMemory();
        return 0;
    }
    /* freed with the thread; the main thread's lives with the process */
    if (!table_key_failed) pthread_setspecific(table_key, memory);
    table = (Entry *)(((uintptr_t)memory + 63) & ~(uintptr_t)63); /* buckets on cache lines */
    return 1;
}

static void new_call(void) {
    evictions = 0;
    if (++current_call == 0) { /* wrapped: forget everything */
        memset(table, 0, ((size_t)1 << TABLE_BITS) * sizeof(Entry));
        current_call = 1;
    }
}

static inline Entry *bucket_of(uint64_t k0, uint64_t k1, unsigned meta) {
    uint64_t h = k0 * 0x9E3779B97F4A7C15ull ^ (k1 + meta) * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    return table + (size_t)(h >> (64 - TABLE_BITS + 2)) * BUCKET;
}

static inline Entry *probe(uint64_t k0, uint64_t k1, unsigned meta) {
    Entry *b = bucket_of(k0, k1, meta);
    for (int i = 0; i < BUCKET; i++)
        if (b[i].call == current_call && b[i].k0 == k0 && b[i].k1 == k1 && b[i].meta == meta)
            return b + i;
    return NULL;
}

/* Merge a bound into the entry of a position (making one, in place of an entry of another
 * call or else of the shallowest, if there is none). */
static inline void store(uint64_t k0, uint64_t k1, unsigned meta, int cards, int value,
                         int is_lower, int best) {
    Entry *e = probe(k0, k1, meta);
    if (!e) {
        Entry *b = bucket_of(k0, k1, meta);
        for (int i = 0; i < BUCKET && !e; i++)
            if (b[i].call != current_call) e = b + i;
        if (!e) {
            e = b;
            for (int i = 1; i < BUCKET; i++)
                if (b[i].cards < e->cards) e = b + i;
            evictions++;
        }
        e->k0 = k0; e->k1 = k1; e->meta = (uint8_t)meta; e->call = current_call;
        e->low = 0; e->high = 0xFFFF; e->cards = (uint8_t)cards;
    }
    if (is_lower) {
        if (value > e->low) e->low = (uint16_t)value;
    } else if (value < e->high) {
        e->high = (uint16_t)value;
    }
    e->best = (int8_t)best;
}

/* -- the search ------------------------------------------------------------------------ */

/* _Search.upper_bound */
static inline int upper_bound(const Search *s) {
    int on_table = 0;
    for (int i = 0; i < s->n; i++) on_table += s->g->points[s->trick[i]];
    int bonus = (s->capot >> s->side & 1) && s->g->bonus > 0 ? s->g->bonus : 0;
    return s->held + on_table + LAST_TRICK_BONUS + bonus;
}

/* _Search.last_trick: the last trick plays itself. */
static inline int last_trick(const Search *s) {
    Search t = *s;
    int points = 0, side = -1;
    while (side < 0) {
        Undo u;
        side = step(&t, CTZ(t.hands[seat_to_move(&t)]), &points, &u);
    }
    return side == s->side ? points : 0;
}

/* _Search.search */
static int search(Search *s, int beta) {
    s->nodes++;
    if (s->cards + s->n == 4) return last_trick(s);
    int hint = -1, at_boundary = s->n == 0;
    uint64_t k0 = 0, k1 = 0;
    unsigned meta = 0;
    if (at_boundary) {
        int low = 0, high = upper_bound(s);
        uint32_t c[4];
        canonical(s, c);
        k0 = (uint64_t)c[0] | (uint64_t)c[1] << 32;
        k1 = (uint64_t)c[2] | (uint64_t)c[3] << 32;
        meta = (unsigned)(s->leader << 1 | (s->capot >> s->side & 1));
        Entry *e = probe(k0, k1, meta);
        if (e) {
            if (e->low > low) low = e->low;
            if (e->high < high) high = e->high;
            hint = e->best;
        }
        if (low >= beta) return low;
        if (high < beta) return high;
    }
    uint8_t list[8];
    int count = moves(s, legal_now(s), hint, list);
    int maximizing = (seat_to_move(s) & 1) == s->side;
    int best_value = maximizing ? -INFINITE : INFINITE, best_card = hint;
    for (int i = 0; i < count; i++) {
        int card = list[i], points = 0;
        Undo u;
        int side = step(s, card, &points, &u);
        int gain = side == s->side ? points : 0;
        int value = is_over(s) ? gain : gain + search(s, beta - gain);
        back(s, &u);
        if (maximizing) {
            if (value > best_value) {
                best_value = value;
                best_card = card;
                if (value >= beta) break;
            }
        } else if (value < best_value) {
            best_value = value;
            best_card = card;
            if (value < beta) break;
        }
    }
    if (at_boundary) store(k0, k1, meta, s->cards, best_value, best_value >= beta, best_card);
    return best_value;
}

/* _Search.exact: MTD(f) from the guess, the step doubling while the bound moves one way. */
static int exact(Search *s, int guess) {
    if (is_over(s)) return 0;
    int low = 0, high = upper_bound(s), stride = 1, direction = 0;
    while (low < high) {
        int beta = direction > 0 ? low + stride : direction < 0 ? high + 1 - stride : guess;
        if (beta < low + 1) beta = low + 1;
        if (beta > high) beta = high;
        int value = search(s, beta);
        if (value >= beta) {
            low = value;
            stride = direction > 0 ? stride * 2 : 1;
            direction = 1;
        } else {
            high = value;
            stride = direction < 0 ? stride * 2 : 1;
            direction = -1;
        }
    }
    return low;
}

/* -- reading the arguments ------------------------------------------------------------- */

static int parse_position(PyObject *state, const Game *g, Search *s, int side) {
    unsigned long h[4];
    const char *trick;
    Py_ssize_t n;
    int leader, capot;
    if (!PyTuple_Check(state)) {
        PyErr_SetString(PyExc_TypeError, "a position is a tuple");
        return 0;
    }
    if (!PyArg_ParseTuple(state, "kkkky#ii", &h[0], &h[1], &h[2], &h[3], &trick, &n, &leader,
                          &capot))
        return 0;
    memset(s, 0, sizeof *s);
    s->g = g;
    uint32_t seen = 0;
    for (int i = 0; i < 4; i++) {
        if (h[i] > 0xFFFFFFFFul || (h[i] & seen)) goto bad;
        s->hands[i] = (uint32_t)h[i];
        seen |= (uint32_t)h[i];
    }
    if (n > 3 || leader < 0 || leader > 3 || capot < 0 || capot > 3 || side < 0 || side > 1)
        goto bad;
    s->n = (int)n;
    s->leader = leader;
    for (int i = 0; i < n; i++) {
        int card = (uint8_t)trick[i];
        if (card > 31 || (seen >> card & 1)) goto bad;
        seen |= 1u << card;
        s->trick[i] = (uint8_t)card;
        if (i) s->best = next_best(g, s->trick, s->best, card, i);
    }
    int total = popcount(seen);
    if (total == 0 || (total & 3)) goto bad;
    for (int offset = 0; offset < 4; offset++) {
        int seat = (leader + offset) & 3;
        if (popcount(s->hands[seat]) != total / 4 - (offset < n ? 1 : 0)) goto bad;
    }
    s->capot = capot;
    s->side = side;
    s->cards = total - (int)n;
    for (int i = 0; i < 4; i++)
        for (uint32_t rest = s->hands[i]; rest; rest &= rest - 1) s->held += g->points[CTZ(rest)];
    return 1;
bad:
    PyErr_SetString(PyExc_ValueError, "not a position: see solver.Position");
    return 0;
}

/* -- the module's functions ------------------------------------------------------------ */

static PyObject *py_legal_mask(PyObject *self, PyObject *args) {
    PyObject *params;
    unsigned long hand;
    const char *trick;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "Sky#", &params, &hand, &trick, &n)) return NULL;
    const Game *g = parse_game(params);
    if (!g) return NULL;
    if (n > 3 || hand > 0xFFFFFFFFul) {
        PyErr_SetString(PyExc_ValueError, "a hand is a 32-bit mask, a trick up to 3 cards");
        return NULL;
    }
    uint8_t cards[4] = {0, 0, 0, 0};
    int best = 0;
    for (int i = 0; i < n; i++) {
        cards[i] = (uint8_t)trick[i];
        if (cards[i] > 31) {
            PyErr_SetString(PyExc_ValueError, "not a card");
            return NULL;
        }
        if (i) best = next_best(g, cards, best, cards[i], i);
    }
    return PyLong_FromUnsignedLong(legal_mask(g, (uint32_t)hand, cards, (int)n, best));
}

static int start(PyObject *params, PyObject *state, int side, Search *s) {
    const Game *g = parse_game(params);
    if (!g || !parse_position(state, g, s, side) || !table_ready()) return 0;
    new_call();
    return 1;
}

static void finish(const Search *s) {
    last_nodes = s->nodes;
    last_evictions = evictions;
}

static PyObject *py_solve(PyObject *self, PyObject *args) {
    PyObject *params, *state;
    int side;
    Search s;
    if (!PyArg_ParseTuple(args, "SOi", &params, &state, &side)) return NULL;
    if (!start(params, state, side, &s)) return NULL;
    int value;
    Py_BEGIN_ALLOW_THREADS
    value = exact(&s, upper_bound(&s) / 2);
    Py_END_ALLOW_THREADS
    finish(&s);
    return PyLong_FromLong(value);
}

static PyObject *py_reaches(PyObject *self, PyObject *args) {
    PyObject *params, *state;
    int side, target;
    Search s;
    if (!PyArg_ParseTuple(args, "SOii", &params, &state, &side, &target)) return NULL;
    if (!start(params, state, side, &s)) return NULL;
    int value;
    Py_BEGIN_ALLOW_THREADS
    value = search(&s, target);
    Py_END_ALLOW_THREADS
    finish(&s);
    return PyBool_FromLong(value >= target);
}

/* _Search.root_values */
static PyObject *py_solve_root(PyObject *self, PyObject *args) {
    PyObject *params, *state;
    Search s;
    if (!PyArg_ParseTuple(args, "SO", &params, &state)) return NULL;
    if (!start(params, state, 0, &s)) return NULL;
    s.side = seat_to_move(&s) & 1;
    const Game *g = s.g;
    uint32_t legal = legal_now(&s), remaining = remaining_cards(&s);
    int values[32], known[32] = {0};
    uint8_t list[8];
    int count = moves(&s, legal, -1, list), guess = upper_bound(&s) / 2;
    Py_BEGIN_ALLOW_THREADS
    for (int i = 0; i < count; i++) {
        int card = list[i], points = 0;
        Undo u;
        int side = step(&s, card, &points, &u);
        int gain = side == s.side ? points : 0;
        values[card] = gain + exact(&s, guess - gain);
        back(&s, &u);
        known[card] = 1;
        guess = values[card];
    }
    Py_END_ALLOW_THREADS
    /* the cards left out as equivalent, strongest first, take the value of the card above */
    for (int strength = 7; strength >= 0; strength--)
        for (int suit = 0; suit < 4; suit++) {
            int card = g->card_at[suit][strength];
            if (!(legal >> card & 1) || known[card]) continue;
            values[card] = values[weakest(g, g->beats[card] & remaining)];
            known[card] = 1;
        }
    finish(&s);
    PyObject *result = PyList_New(0);
    if (!result) return NULL;
    for (int card = 0; card < 32; card++) {
        if (!known[card]) continue;
        PyObject *pair = Py_BuildValue("(ii)", card, values[card]);
        if (!pair || PyList_Append(result, pair) < 0) {
            Py_XDECREF(pair);
            Py_DECREF(result);
            return NULL;
        }
        Py_DECREF(pair);
    }
    return result;
}

static inline uint64_t splitmix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* _Search.playouts */
static PyObject *py_playouts(PyObject *self, PyObject *args) {
    PyObject *params, *state;
    long long n;
    unsigned long long seed;
    Search begin;
    if (!PyArg_ParseTuple(args, "SOLK", &params, &state, &n, &seed)) return NULL;
    const Game *g = parse_game(params);
    if (!g || !parse_position(state, g, &begin, 0)) return NULL;
    if (n <= 0) {
        PyErr_SetString(PyExc_ValueError, "n must be positive");
        return NULL;
    }
    uint64_t rng = seed;
    long long totals[2] = {0, 0};
    Py_BEGIN_ALLOW_THREADS
    for (long long i = 0; i < n; i++) {
        Search s = begin;
        while (!is_over(&s)) {
            uint32_t legal = legal_now(&s);
            int count = popcount(legal);
            if (count > 1) {
                rng += 0x9E3779B97F4A7C15ull;
                uint64_t pick = ((splitmix(rng) >> 32) * (uint64_t)count) >> 32;
                while (pick--) legal &= legal - 1;
            }
            int points = 0, side = play(&s, CTZ(legal), &points);
            if (side >= 0) totals[side] += points;
        }
    }
    Py_END_ALLOW_THREADS
    return Py_BuildValue("(LL)", totals[0], totals[1]);
}

static PyObject *py_stats(PyObject *self, PyObject *args) {
    return Py_BuildValue("(LL)", last_nodes, last_evictions);
}

static PyMethodDef methods[] = {
    {"legal_mask", py_legal_mask, METH_VARARGS,
     "legal_mask(params, hand, trick) -> the cards of hand that may be played to trick"},
    {"solve", py_solve, METH_VARARGS,
     "solve(params, position, side) -> the side's points from here under best play"},
    {"reaches", py_reaches, METH_VARARGS,
     "reaches(params, position, side, target) -> whether the side takes target points"},
    {"solve_root", py_solve_root, METH_VARARGS,
     "solve_root(params, position) -> [(card, value for the side to move)] for legal cards"},
    {"playouts", py_playouts, METH_VARARGS,
     "playouts(params, position, n, seed) -> total points (N-S, E-W) of n random playouts"},
    {"stats", py_stats, METH_NOARGS,
     "stats() -> (nodes, table replacements) of this thread's last search"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "cardavia.ai._dds",
    "The double-dummy solver's compiled kernel (see cardavia.ai.solver).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__dds(void) { return PyModule_Create(&module); }
