/* 10-Point Pitch, random play for every seat (docs/rules.md section 5; the analyzer's
 * analyzer/games/pitch10/rules.py and kernel.py). Cards are codes suit * 13 + rank, LJ = 52,
 * HJ = 53; a hand is a 54-bit mask until trump is named, then a 16-bit strength mask (bit k the
 * trump of strength k: 2 3 4 5 6 7 8 9 T LJ HJ off-J J Q K A).
 *
 * A random player picks uniformly among its legal moves at every decision, as the `random`
 * strategy does: bids (pass or any bid above the highest, up to moon; the stuck dealer's 4),
 * the trump suit, keeping or giving the rest of the stock, each discard down to six, each play.
 * Out row as the kernel's: winners (both partners' bits), hands, decisions, score_s, bids_4 ..
 * bids_moon, made_4 .. made_moon, taken_0/1, pitched_0/1, made_team_0/1, stuck, lost_points.
 */
#include "common.h"

#define TARGET 52
#define NCARDS 54
#define DEALT 36
#define KEEP 6
#define MOON 11
#define LOW_JOKER 52
#define HIGH_JOKER 53
#define C_SCORE 3
#define C_BIDS 7
#define C_MADE 15
#define C_TAKEN 23
#define C_PITCHED 25
#define C_MADE_TEAM 27
#define C_STUCK 29
#define C_LOST 30
#define NCOLS 31

static const int POINTS16[16] = {1, 3, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 1};
static int8_t strength[4][NCARDS];  /* strength of a card under each trump suit, -1: no trump */

static void init_tables(void) {
    static const int rank_strength[13] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 14, 15};
    static const int same_colour[4] = {3, 2, 1, 0};
    for (int t = 0; t < 4; t++) {
        for (int c = 0; c < NCARDS; c++) strength[t][c] = -1;
        for (int r = 0; r < 13; r++) strength[t][t * 13 + r] = (int8_t)rank_strength[r];
        strength[t][same_colour[t] * 13 + 9] = 11;
        strength[t][HIGH_JOKER] = 10;
        strength[t][LOW_JOKER] = 9;
    }
}

static inline unsigned trumps_of(uint64_t h54, int t) {
    unsigned h16 = 0;
    while (h54) {
        int c = lowest_bit(h54);
        h54 &= h54 - 1;
        int k = strength[t][c];
        if (k >= 0) h16 |= 1u << k;
    }
    return h16;
}

static inline int first_with_trumps(int seat, const unsigned *h16) {
    for (int i = 0; i < 4; i++) {
        int s = (seat + i) & 3;
        if (h16[s]) return s;
    }
    return -1;
}

/* a card dealt from the stock: a uniform one of deck[top:54] (lazy Fisher-Yates) */
static inline int draw(rng_t *r, int8_t *deck, int top) {
    int j = top + (int)rng_below(r, (uint32_t)(NCARDS - top));
    int8_t card = deck[j];
    deck[j] = deck[top];
    deck[top] = card;
    return card;
}

/* one hand dealt by ``dealer``: returns the winning team, or -1 when play goes on */
static inline int play_hand(rng_t *r, int8_t *deck, int dealer, int *scores, int64_t *out, int64_t *decisions) {
    uint64_t h54[4] = {0, 0, 0, 0};
    int s = dealer;
    for (int i = 0; i < DEALT; i++) {
        s = (s + 1) & 3;
        h54[s] |= 1ULL << draw(r, deck, i);
    }
    int64_t moves = 0;
    /* bidding, from left of the dealer */
    int high = 0, pitcher = -1;
    for (int turn = 0; turn < 4; turn++) {
        int seat = (dealer + 1 + turn) & 3;
        moves++;
        int bid;
        if (turn == 3 && high == 0) {  /* the stuck dealer: 4 is the only move */
            out[C_STUCK]++;
            bid = 4;
        } else {
            int lo = high >= 4 ? high + 1 : 4;
            uint32_t u = rng_below(r, (uint32_t)(2 + MOON - lo));  /* pass, lo .. moon */
            bid = u == 0 ? 0 : lo + (int)u - 1;
        }
        if (bid) {
            high = bid;
            pitcher = seat;
            if (bid == MOON) break;
        }
    }
    int trump = (int)rng_below(r, 4);
    moves++;
    unsigned h16[4];
    for (int p = 0; p < 4; p++) h16[p] = trumps_of(h54[p], trump);  /* non-trumps discarded */
    /* the refill to six, from left of the dealer; non-trumps dealt are dead */
    int top = DEALT;
    s = dealer;
    for (int i = 0; i < 4; i++) {
        s = (s + 1) & 3;
        for (int need = KEEP - popcount64(h16[s]); need > 0 && top < NCARDS; need--) {
            int k = strength[trump][draw(r, deck, top++)];
            if (k >= 0) h16[s] |= 1u << k;
        }
    }
    if (top < NCARDS) {  /* the rest: kept by the pitcher or given to the partner */
        int receiver = rng_below(r, 2) ? (pitcher + 2) & 3 : pitcher;
        moves++;
        for (; top < NCARDS; top++) {
            int k = strength[trump][draw(r, deck, top)];
            if (k >= 0) h16[receiver] |= 1u << k;
        }
    }
    /* discards down to six trumps, from left of the dealer, one card at a time */
    for (int i = 0; i < 4; i++) {
        s = (dealer + 1 + i) & 3;
        while (popcount64(h16[s]) > KEEP) {
            int k = random_bit(r, h16[s]);
            h16[s] ^= 1u << k;
            out[C_LOST] += POINTS16[k];
            moves++;
        }
    }
    /* play: every player holding a trump plays one; the highest takes the trick */
    int taken[2] = {0, 0};
    int leader = first_with_trumps(pitcher, h16);
    while (leader >= 0) {
        int win_k = -1, win_seat = -1, pts = 0;
        unsigned alive = 0;
        for (int p = 0; p < 4; p++) alive |= (h16[p] != 0) << p;
        for (int i = 0; i < 4; i++) {
            int seat = (leader + i) & 3;
            if (!(alive >> seat & 1)) continue;
            int k = random_bit(r, h16[seat]);
            h16[seat] ^= 1u << k;
            pts += POINTS16[k];
            if (k > win_k) {
                win_k = k;
                win_seat = seat;
            }
            moves++;
        }
        taken[win_seat & 1] += pts;
        leader = first_with_trumps(win_seat, h16);
    }
    *decisions += moves;
    /* scoring */
    int pt = pitcher & 1, tp = taken[pt], to = taken[1 - pt], outcome = 0;
    if (high == MOON) {
        if (tp == 10) {
            if (scores[pt] > 0) outcome = 1;  /* the game is won at once */
            else scores[pt] = 0;
        } else {
            outcome = 2;  /* a missed moon loses the game at once */
        }
    } else {
        scores[pt] += tp >= high ? high : -high;
    }
    scores[1 - pt] += to;
    int made = high < MOON ? tp >= high : tp == 10;
    out[C_BIDS + high - 4]++;
    out[C_PITCHED + pt]++;
    out[C_TAKEN] += taken[0];
    out[C_TAKEN + 1] += taken[1];
    if (made) {
        out[C_MADE + high - 4]++;
        out[C_MADE_TEAM + pt]++;
    }
    if (outcome == 1) return pt;
    if (outcome == 2) return 1 - pt;
    if (scores[pt] >= TARGET) return pt;
    if (scores[1 - pt] >= TARGET) return 1 - pt;
    return -1;
}

static void play_game(rng_t *rp, int64_t *out) {
    rng_t r = *rp;
    int8_t deck[NCARDS];
    for (int c = 0; c < NCARDS; c++) deck[c] = (int8_t)c;
    int scores[2] = {0, 0}, hands = 0, winner = -1;
    int64_t decisions = 0;
    int dealer = (int)rng_below(&r, 4);
    for (;;) {
        hands++;
        winner = play_hand(&r, deck, dealer, scores, out, &decisions);
        if (winner >= 0) break;
        dealer = (dealer + 1) & 3;
    }
    out[0] = winner == 0 ? 5 : 10;
    out[1] = hands;
    out[2] = decisions;
    for (int s = 0; s < 4; s++) out[C_SCORE + s] = scores[s & 1];
    *rp = r;
}

static const char *const COLUMNS[NCOLS] = {
    "winners", "hands", "decisions", "score_0", "score_1", "score_2", "score_3", "bids_4", "bids_5", "bids_6",
    "bids_7", "bids_8", "bids_9", "bids_10", "bids_moon", "made_4", "made_5", "made_6", "made_7", "made_8",
    "made_9", "made_10", "made_moon", "taken_0", "taken_1", "pitched_0", "pitched_1", "made_team_0",
    "made_team_1", "stuck", "lost_points"};

int main(int argc, char **argv) {
    init_tables();
    game_def g = {"pitch10", 4, NCOLS, COLUMNS, 1, play_game};
    return run_main(&g, argc, argv);
}
