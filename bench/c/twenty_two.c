/* Twenty-Two, random play for every seat (docs/rules.md section 1; the analyzer's
 * analyzer/games/twenty_two/rules.py, strategies.py and kernel.py). Suits never matter: a hand
 * is a count per rank packed 4 bits a rank (rank r in bits 4r..4r+3), a move (a discard, a lead
 * or a follow) is a set of cards written the same way, and the deck is a count per rank.
 *
 * A random player picks uniformly among the distinct legal sets of every decision, as the
 * `random` strategy does: discards are the sub-multisets of at most (stock left) cards, "" one of
 * them; leads k cards of one rank keeping one card; follows the s-card sets that match or beat
 * the best set, and the s lowest cards. Sets are counted by a dynamic programme over the ranks
 * and the one with a uniform number is built, never listed. Out row as the kernel's: winners,
 * hands, decisions, score_s, took_s, played_s, place_s. Build with -DPLAYERS=P (default 4).
 */
#include "common.h"

#ifndef PLAYERS
#define PLAYERS 4
#endif
#define TARGET 22
#define FIRST_HAND 7
#define NCOLS (3 + 4 * PLAYERS)
#define MAXC 12  /* the most cards a set can hold, plus one */

static const int RANK_POINTS[13] = {2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11};

static inline int nib(int64_t x, int r) { return (int)((x >> (4 * r)) & 15); }
/* the number of cards of a set: the sum of its nibbles (byte sums, then one multiply) */
static inline int set_size(int64_t x) {
    uint64_t b = ((uint64_t)x & 0x0F0F0F0F0F0F0F0FULL) + (((uint64_t)x >> 4) & 0x0F0F0F0F0F0F0F0FULL);
    return (int)((b * 0x0101010101010101ULL) >> 56);
}
/* bit 4r for every rank r held */
static inline uint64_t presence(int64_t x) {
    uint64_t p = (uint64_t)x | ((uint64_t)x >> 1);
    p |= p >> 2;
    return p & 0x1111111111111ULL;
}
static inline int lowest_rank(int64_t x) { return x ? __builtin_ctzll(presence(x)) >> 2 : -1; }

static inline int next_active(int seat, const int8_t *active) {
    int s = seat;
    for (int i = 0; i < PLAYERS; i++) {
        s = s + 1 == PLAYERS ? 0 : s + 1;
        if (active[s]) return s;
    }
    return seat;
}

/* set X matches or beats set B of the same size: from the top rank down, X always holds at
 * least as many cards as B */
static inline int beats(int64_t x, int64_t b) {
    int cx = 0, cb = 0;
    for (int r = 12; r >= 0; r--) {
        cx += nib(x, r);
        cb += nib(b, r);
        if (cx < cb) return 0;
    }
    return 1;
}

static inline int64_t lowest_set(int64_t hand, int s) {
    int64_t out = 0;
    for (int r = 0; r < 13 && s > 0; r++) {
        int c = nib(hand, r);
        if (c > s) c = s;
        out += (int64_t)c << (4 * r);
        s -= c;
    }
    return out;
}

/* Sets X of the hand with tmin <= |X| <= tmax and (need != NULL) matching or beating a best
 * set: for every rank t, X holds at least need[t] cards of rank t or higher. Only the m ranks
 * held matter: rk[i] (low to high), hc[i] their counts, and the bound on the cards taken at the
 * held ranks from i up is the strongest need of the thresholds that fall on rank i, the need
 * just above the next lower held rank. ways[i][j]: the sets of the ranks below held rank i
 * given j cards taken from rank i up. Returns the count; ``pick_set`` builds set number u. */
typedef struct {
    int32_t ways[14][MAXC];
    int rk[13], hc[13], lo[13];
    int m, tmin, tmax;
} subsets;

static inline int32_t count_sets(subsets *q, int64_t hand, const int *need) {
    int m = 0;
    for (uint64_t pres = presence(hand); pres; pres &= pres - 1) {
        int t = __builtin_ctzll(pres) >> 2;
        q->rk[m] = t;
        q->hc[m] = nib(hand, t);
        q->lo[m] = need ? need[m ? q->rk[m - 1] + 1 : 0] : 0;
        m++;
    }
    q->m = m;
    if (need && q->rk[m - 1] < 12 && need[q->rk[m - 1] + 1] > 0) return 0;  /* best holds a higher card */
    for (int j = 0; j < MAXC; j++) q->ways[0][j] = (j >= q->tmin && j <= q->tmax);
    for (int i = 0; i < m; i++) {
        int c = q->hc[i], lo = q->lo[i];
        for (int j = 0; j <= q->tmax; j++) {
            int32_t w = 0;
            for (int k = 0; k <= c && j + k <= q->tmax; k++)
                if (j + k >= lo) w += q->ways[i][j + k];
            q->ways[i + 1][j] = w;
        }
    }
    return q->ways[m][0];
}

static inline int64_t pick_set(const subsets *q, uint32_t u) {
    int64_t out = 0;
    int j = 0;
    for (int i = q->m - 1; i >= 0; i--) {
        for (int k = 0; k <= q->hc[i] && j + k <= q->tmax; k++) {
            if (j + k < q->lo[i]) continue;
            uint32_t w = (uint32_t)q->ways[i][j + k];
            if (u < w) {
                out += (int64_t)k << (4 * q->rk[i]);
                j += k;
                break;
            }
            u -= w;
        }
    }
    return out;
}

static inline int64_t random_discard(rng_t *r, int64_t hand, int hs, int stock_left) {
    int64_t move = 0;
    if (stock_left >= hs) {  /* any sub-multiset: each rank's count independent and uniform */
        for (int t = 0; t < 13; t++) {
            int c = nib(hand, t);
            if (c) move += (int64_t)rng_below(r, (uint32_t)(c + 1)) << (4 * t);
        }
        return move;
    }
    subsets q;
    q.tmin = 0;
    q.tmax = stock_left;
    uint32_t n = (uint32_t)count_sets(&q, hand, NULL);
    return pick_set(&q, rng_below(r, n));
}

static inline int64_t random_lead(rng_t *r, int64_t hand, int hs) {
    int cap = hs - 1, total = 0;
    for (int t = 0; t < 13; t++) {
        int c = nib(hand, t);
        total += c < cap ? c : cap;
    }
    uint32_t u = rng_below(r, (uint32_t)total);
    for (int t = 0;; t++) {
        int c = nib(hand, t);
        if (c > cap) c = cap;
        if (u < (uint32_t)c) return (int64_t)(u + 1) << (4 * t);
        u -= (uint32_t)c;
    }
}

static inline int64_t random_follow(rng_t *r, int64_t hand, int s, int64_t best) {
    if (s == 1) {  /* one card of a rank from the best card's rank up, or the lowest card */
        int b = lowest_rank(best), n = 0, low = lowest_rank(hand);
        for (int t = b; t < 13; t++) n += nib(hand, t) != 0;
        uint32_t u;
        if (low >= b) {
            u = rng_below(r, (uint32_t)n);
        } else if (n == 0) {
            return (int64_t)1 << (4 * low);
        } else {
            u = rng_below(r, (uint32_t)(n + 1));
            if (u == (uint32_t)n) return (int64_t)1 << (4 * low);
        }
        for (int t = b;; t++)
            if (nib(hand, t) && u-- == 0) return (int64_t)1 << (4 * t);
    }
    int need[13], acc = 0;
    for (int t = 12; t >= 0; t--) {
        acc += nib(best, t);
        need[t] = acc;
    }
    subsets q;
    q.tmin = s;
    q.tmax = s;
    uint32_t n = (uint32_t)count_sets(&q, hand, need);
    int64_t low = lowest_set(hand, s);
    if (beats(low, best)) return pick_set(&q, rng_below(r, n));
    uint32_t u = rng_below(r, n + 1);
    return u == n ? low : pick_set(&q, u);
}

static void play_game(rng_t *rp, int64_t *out) {
    rng_t r = *rp;
    int8_t active[PLAYERS];
    int scores[PLAYERS], gone[PLAYERS], deck_count[13];
    int64_t hand[PLAYERS];
    for (int p = 0; p < PLAYERS; p++) {
        active[p] = 1;
        scores[p] = 0;
        gone[p] = 0;
    }
    for (int t = 0; t < 13; t++) deck_count[t] = 4;
    int64_t *took = out + 3 + PLAYERS, *played = took + PLAYERS, *place = played + PLAYERS;
    int nactive = PLAYERS, ndeck = 52, size = FIRST_HAND, hands = 0, winners = 0;
    int64_t decisions = 0;
    int dealer = (int)rng_below(&r, PLAYERS);
    for (;;) {
        if (ndeck < size * nactive) size = ndeck / nactive;
        if (size == 0) {  /* safeguard: nobody can be dealt a card; the lowest active score wins */
            int low = 1 << 30;
            for (int p = 0; p < PLAYERS; p++)
                if (active[p] && scores[p] < low) low = scores[p];
            for (int p = 0; p < PLAYERS; p++)
                if (active[p] && scores[p] == low) winners |= 1 << p;
            break;
        }
        hands++;
        int8_t stock[52];
        int n = 0;
        for (int t = 0; t < 13; t++)
            for (int k = 0; k < deck_count[t]; k++) stock[n++] = (int8_t)t;
        int top = 0;
        for (int p = 0; p < PLAYERS; p++) hand[p] = 0;
        for (int c = 0; c < size; c++) {
            int p = dealer;
            for (int k = 0; k < nactive; k++) {
                p = next_active(p, active);
                int j = top + (int)rng_below(&r, (uint32_t)(ndeck - top));
                int8_t card = stock[j];
                stock[j] = stock[top];
                stock[top++] = card;
                hand[p] += (int64_t)1 << (4 * card);
            }
        }
        for (int p = 0; p < PLAYERS; p++) played[p] += active[p];
        /* discards, clockwise from left of the dealer: each draws as many from the stock */
        int p = dealer;
        for (int k = 0; k < nactive; k++) {
            p = next_active(p, active);
            int64_t move = random_discard(&r, hand[p], size, ndeck - top);
            hand[p] -= move;
            for (int d = set_size(move); d > 0; d--) {
                int j = top + (int)rng_below(&r, (uint32_t)(ndeck - top));
                int8_t card = stock[j];
                stock[j] = stock[top];
                stock[top++] = card;
                hand[p] += (int64_t)1 << (4 * card);
            }
        }
        decisions += nactive;
        int leader = next_active(dealer, active), hs = size;
        while (hs >= 2) {  /* ordinary tricks */
            int64_t best = random_lead(&r, hand[leader], hs);
            int s = set_size(best), winner = leader;
            hand[leader] -= best;
            p = leader;
            for (int k = 1; k < nactive; k++) {
                p = next_active(p, active);
                int64_t move = random_follow(&r, hand[p], s, best);
                hand[p] -= move;
                if (s == 1 ? move >= best : beats(move, best)) {
                    best = move;
                    winner = p;
                }
            }
            decisions += nactive;
            hs -= s;
            leader = winner;
        }
        /* the final trick: the highest rank takes; tied takers each score; the first deals */
        int top_rank = -1;
        for (p = 0; p < PLAYERS; p++)
            if (active[p]) {
                int t = lowest_rank(hand[p]);
                if (t > top_rank) top_rank = t;
            }
        int first_taker = -1;
        p = leader;
        for (int k = 0; k < nactive; k++) {
            if (lowest_rank(hand[p]) == top_rank) {
                if (first_taker < 0) first_taker = p;
                scores[p] += RANK_POINTS[top_rank];
                deck_count[top_rank]--;
                ndeck--;
                took[p]++;
            }
            p = next_active(p, active);
        }
        int was_in = 0;
        for (p = 0; p < PLAYERS; p++)
            if (active[p]) {
                was_in |= 1 << p;
                if (scores[p] >= TARGET) {
                    active[p] = 0;
                    gone[p] = hands;
                    nactive--;
                }
            }
        dealer = first_taker;
        size = RANK_POINTS[top_rank];
        if (nactive == 1) {
            for (p = 0; p < PLAYERS; p++)
                if (active[p]) winners = 1 << p;
            break;
        }
        if (nactive == 0) {  /* nobody left in: the lowest score of the last hand's players wins */
            int low = 1 << 30;
            for (p = 0; p < PLAYERS; p++)
                if ((was_in >> p & 1) && scores[p] < low) low = scores[p];
            for (p = 0; p < PLAYERS; p++)
                if ((was_in >> p & 1) && scores[p] == low) winners |= 1 << p;
            break;
        }
    }
    /* finishing places: winners stay longest, then players still in, then by the hand they left */
    for (int p = 0; p < PLAYERS; p++) {
        if (winners >> p & 1) gone[p] = hands + 2;
        else if (active[p]) gone[p] = hands + 1;
    }
    for (int p = 0; p < PLAYERS; p++) {
        int pl = 1;
        for (int q = 0; q < PLAYERS; q++) pl += gone[q] > gone[p];
        place[p] = pl;
        out[3 + p] = scores[p];
    }
    out[0] = winners;
    out[1] = hands;
    out[2] = decisions;
    *rp = r;
}

static const char *COLUMNS[NCOLS];
static char names[NCOLS][24];

int main(int argc, char **argv) {
    const char *base[3] = {"winners", "hands", "decisions"};
    const char *groups[4] = {"score", "took", "played", "place"};
    for (int c = 0; c < 3; c++) COLUMNS[c] = base[c];
    for (int g = 0; g < 4; g++)
        for (int s = 0; s < PLAYERS; s++) {
            snprintf(names[3 + g * PLAYERS + s], sizeof names[0], "%s_%d", groups[g], s);
            COLUMNS[3 + g * PLAYERS + s] = names[3 + g * PLAYERS + s];
        }
    game_def g = {"twenty-two", PLAYERS, NCOLS, COLUMNS, 1, play_game};
    return run_main(&g, argc, argv);
}
