/* Two-player Hearts, random play for both seats (docs/rules.md section 3; the analyzer's
 * analyzer/games/hearts2/rules.py and kernel.py). Out row as the kernel's: winners, hands,
 * decisions, score_0, score_1, moons, moons_0, moons_1, tricks_0, tricks_1, qs_0, qs_1.
 *
 * Cards are codes suit * 13 + rank (ranks 2 4 6 8 T Q A only); hands are 64-bit masks.
 */
#include "common.h"

#define TARGET 100
#define DECK 28
#define HEARTS 2
#define QS (3 * 13 + 10)

static const uint64_t SUIT13 = (1ULL << 13) - 1;
static uint64_t deck_mask, heart_mask, non_heart_mask, suit_mask_of[52];
static int8_t card_points[52];
static int8_t deck_codes[DECK];

static void init_tables(void) {
    static const int ranks[7] = {0, 2, 4, 6, 8, 10, 12};
    int n = 0;
    for (int s = 0; s < 4; s++)
        for (int i = 0; i < 7; i++) {
            int c = s * 13 + ranks[i];
            deck_codes[n++] = (int8_t)c;
            deck_mask |= 1ULL << c;
        }
    heart_mask = (SUIT13 << 26) & deck_mask;
    non_heart_mask = deck_mask & ~heart_mask;
    for (int c = 0; c < 52; c++) {
        suit_mask_of[c] = (SUIT13 << (13 * (c / 13))) & deck_mask;
        card_points[c] = (int8_t)(c == QS ? 13 : (c / 13 == HEARTS ? 1 : 0));
    }
}

/* shuffle the 28 cards (forward Fisher-Yates: only the 27 positions that matter) and deal:
 * top card dead, 13 each one at a time from the non-dealer, last card dead */
static inline uint64_t deal(rng_t *r, int8_t *deck, int dealer, uint64_t *h0, uint64_t *h1) {
    uint64_t a = 0, b = 0;  /* non-dealer (odd positions), dealer (even positions 2..26) */
    for (int pos = 0; pos < DECK - 1; pos++) {
        int j = pos + (int)rng_below(r, (uint32_t)(DECK - pos));
        int8_t card = deck[j];
        deck[j] = deck[pos];
        deck[pos] = card;
        if (pos & 1) a |= 1ULL << card;
        else if (pos) b |= 1ULL << card;
    }
    *h0 = dealer == 0 ? b : a;
    *h1 = dealer == 0 ? a : b;
    return (1ULL << deck[0]) | (1ULL << deck[DECK - 1]);
}

static void play_game(rng_t *rp, int64_t *out) {
    rng_t r = *rp;
    int8_t deck[DECK];
    memcpy(deck, deck_codes, DECK);
    int dealer = (int)rng_below(&r, 2);
    int score0 = 0, score1 = 0, hands = 0, winners = 0;
    int64_t moons0 = 0, moons1 = 0, tricks0 = 0, qs0 = 0, qs1 = 0;
    while (!winners) {
        hands++;
        uint64_t h[2];
        uint64_t dead = deal(&r, deck, dealer, &h[0], &h[1]);
        int first = !(dead & 1) ? 0 : (!(dead & 4) ? 2 : 4);  /* 2C, else 4C, else 6C */
        int leader = (h[0] >> first) & 1 ? 0 : 1;
        int taken[2] = {0, 0};
        int won0 = 0;
        for (int trick = 0; trick < 13; trick++) {
            uint64_t lh = h[leader];
            int led;
            if (trick == 0) {
                led = first;
            } else {
                int broken = (heart_mask & ~(h[0] | h[1] | dead)) != 0;
                uint64_t legal = lh;
                if (!broken && (lh & non_heart_mask)) legal = lh & non_heart_mask;
                led = random_bit(&r, legal);
            }
            h[leader] = lh ^ (1ULL << led);
            int follower = leader ^ 1;
            uint64_t fh = h[follower];
            uint64_t follow = suit_mask_of[led];
            uint64_t legal = (fh & follow) ? (fh & follow) : fh;
            int card = random_bit(&r, legal);
            h[follower] = fh ^ (1ULL << card);
            int beats = ((1ULL << card) & follow) ? card > led : (((1ULL << card) & heart_mask) != 0);
            int winner = beats ? follower : leader;
            taken[winner] += card_points[led] + card_points[card];
            won0 += winner == 0;
            leader = winner;
        }
        tricks0 += won0;
        qs0 += taken[0] >= 13;
        qs1 += taken[1] >= 13;
        int p0 = taken[0], p1 = taken[1];
        if (p0 == 0 && p1 > 0) {  /* seat 1 took every point in play: a moon */
            p0 = 20; p1 = 0; moons1++;
        } else if (p1 == 0 && p0 > 0) {
            p0 = 0; p1 = 20; moons0++;
        }
        score0 += p0;
        score1 += p1;
        if (score0 >= TARGET || score1 >= TARGET) winners = score0 < score1 ? 1 : (score1 < score0 ? 2 : 0);
        dealer ^= 1;
    }
    out[0] = winners;
    out[1] = hands;
    out[2] = 26 * hands;
    out[3] = score0;
    out[4] = score1;
    out[5] = moons0 + moons1;
    out[6] = moons0;
    out[7] = moons1;
    out[8] = tricks0;
    out[9] = 13 * hands - tricks0;
    out[10] = qs0;
    out[11] = qs1;
    *rp = r;
}

static const char *const COLUMNS[] = {"winners", "hands", "decisions", "score_0", "score_1", "moons", "moons_0",
                                      "moons_1", "tricks_0", "tricks_1", "qs_0", "qs_1"};

int main(int argc, char **argv) {
    init_tables();
    game_def g = {"hearts2", 2, 12, COLUMNS, 1, play_game};
    return run_main(&g, argc, argv);
}
