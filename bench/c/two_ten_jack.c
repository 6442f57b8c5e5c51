/* Two-Ten-Jack, random play for both seats (docs/rules.md section 4; the analyzer's
 * analyzer/games/two_ten_jack/rules.py and kernel.py). Hands are 64-bit masks of card codes
 * (suit * 13 + rank; hearts trump, AS = 51 both a spade and the highest trump).
 *
 * A random player picks uniformly among its legal moves, leading AS being two moves (declared
 * a spade or a trump), as the `random` strategy does. Out row as the kernel's: winners, hands
 * (rounds), decisions, score_0/1, points_dealer, points_nondealer, as_led, as_led_trump,
 * bin_dealer_0..6, bin_nondealer_0..6, dealt_0/1, points_dealing_0/1, points_nondealing_0/1.
 */
#include "common.h"

#define TARGET 31
#define AS 51
#define AS_SPADE 60  /* lead moves of AS: declared a spade, or a trump */
#define AS_TRUMP 61
#define O_PTS_DEALER 5
#define O_PTS_NON 6
#define O_AS_LED 7
#define O_AS_TRUMP 8
#define O_BIN_DEALER 9
#define O_BIN_NON 16
#define O_DEALT 23
#define O_PTS_DEALING 25
#define O_PTS_NONDEALING 27
#define NCOLS 29

static const uint64_t SUIT13 = (1ULL << 13) - 1;
static uint64_t follow_mask[4];  /* cards following each suit led: AS follows spades and trumps */
static uint64_t trump_mask, plus5, minus5, plus1;
static int8_t trump_strength[52], suit_of[52], rank_of[52];
static int8_t full_deck[52];

static void init_tables(void) {
    for (int c = 0; c < 52; c++) {
        int s = c / 13, r = c % 13;
        suit_of[c] = (int8_t)s;
        rank_of[c] = (int8_t)r;
        trump_strength[c] = (int8_t)(c == AS ? 14 : (s == 2 ? r + 1 : 0));
        full_deck[c] = (int8_t)c;
        int jack_ten_two = r == 0 || r == 8 || r == 9;
        if (s == 2 && jack_ten_two) plus5 |= 1ULL << c;
        if (s == 0 && jack_ten_two) minus5 |= 1ULL << c;
        if ((s == 3 && (jack_ten_two || r == 12)) || (s == 1 && r == 4)) plus1 |= 1ULL << c;
    }
    for (int s = 0; s < 4; s++) follow_mask[s] = SUIT13 << (13 * s);
    follow_mask[2] |= 1ULL << AS;
    trump_mask = follow_mask[2];
}

static inline int draw(rng_t *r, int8_t *stock, int top) {
    int j = top + (int)rng_below(r, (uint32_t)(52 - top));
    int8_t card = stock[j];
    stock[j] = stock[top];
    stock[top] = card;
    return card;
}

static inline int points(uint64_t taken) {
    return 5 * popcount64(taken & plus5) - 5 * popcount64(taken & minus5) + popcount64(taken & plus1);
}

static inline int point_bin(int x) { return (x > -10) + (x > -5) + (x > 0) + (x > 4) + (x > 9) + (x > 14); }

/* a uniform lead move: any card, AS as one of two declarations (the mask gets bits 60 and 61) */
static inline int random_lead(rng_t *r, uint64_t hand) {
    uint64_t moves = hand;
    if (hand & (1ULL << AS)) moves = (hand ^ (1ULL << AS)) | (1ULL << AS_SPADE) | (1ULL << AS_TRUMP);
    return random_bit(r, moves);
}

/* one round dealt by ``dealer``: the points each seat took */
static inline void play_round(rng_t *r, int dealer, int *p0, int *p1, int64_t *out) {
    int8_t stock[52];
    memcpy(stock, full_deck, 52);
    uint64_t h[2] = {0, 0}, taken[2] = {0, 0};
    int non = 1 - dealer, top = 0;
    for (int k = 0; k < 6; k++) {
        h[non] |= 1ULL << draw(r, stock, top++);
        h[dealer] |= 1ULL << draw(r, stock, top++);
    }
    int leader = non;
    for (int trick = 0; trick < 26; trick++) {
        int move = random_lead(r, h[leader]);
        int lc = move >= AS_SPADE ? AS : move, suit;
        if (lc == AS) {
            out[O_AS_LED]++;
            out[O_AS_TRUMP] += move == AS_TRUMP;
            suit = move == AS_TRUMP ? 2 : 3;
        } else {
            suit = suit_of[lc];
        }
        h[leader] ^= 1ULL << lc;
        int follower = 1 - leader;
        uint64_t fh = h[follower];
        uint64_t follow = fh & follow_mask[suit], trumps = fh & trump_mask;
        uint64_t legal = follow ? follow : (trumps ? trumps : fh);
        int card = random_bit(r, legal);
        h[follower] = fh ^ (1ULL << card);
        int tf = trump_strength[card], tl = trump_strength[lc];
        int wins = tf > tl || (tl == 0 && suit_of[card] == suit_of[lc] && rank_of[card] > rank_of[lc]);
        int winner = wins ? follower : leader;
        taken[winner] |= (1ULL << lc) | (1ULL << card);
        if (top < 52) {  /* the winner draws, then the loser */
            h[winner] |= 1ULL << draw(r, stock, top++);
            h[1 - winner] |= 1ULL << draw(r, stock, top++);
        }
        leader = winner;
    }
    *p0 = points(taken[0]);
    *p1 = points(taken[1]);
}

static void play_game(rng_t *rp, int64_t *out) {
    rng_t r = *rp;
    int dealer = (int)rng_below(&r, 2);
    int scores[2] = {0, 0}, rounds = 0, winners = 0;
    while (!winners) {
        rounds++;
        int p[2];
        play_round(&r, dealer, &p[0], &p[1], out);
        scores[0] += p[0];
        scores[1] += p[1];
        int non = 1 - dealer, pd = p[dealer], pn = p[non];
        out[O_PTS_DEALER] += pd;
        out[O_PTS_NON] += pn;
        out[O_BIN_DEALER + point_bin(pd)]++;
        out[O_BIN_NON + point_bin(pn)]++;
        out[O_DEALT + dealer]++;
        out[O_PTS_DEALING + dealer] += pd;
        out[O_PTS_NONDEALING + non] += pn;
        int a = scores[0] >= TARGET, b = scores[1] >= TARGET;
        if (a && b) winners = scores[0] > scores[1] ? 1 : (scores[1] > scores[0] ? 2 : 0);
        else winners = a ? 1 : (b ? 2 : 0);
        if (!winners) dealer = non;
    }
    out[0] = winners;
    out[1] = rounds;
    out[2] = 52 * rounds;
    out[3] = scores[0];
    out[4] = scores[1];
    *rp = r;
}

static const char *const COLUMNS[NCOLS] = {
    "winners", "hands", "decisions", "score_0", "score_1", "points_dealer", "points_nondealer", "as_led",
    "as_led_trump", "bin_dealer_0", "bin_dealer_1", "bin_dealer_2", "bin_dealer_3", "bin_dealer_4",
    "bin_dealer_5", "bin_dealer_6", "bin_nondealer_0", "bin_nondealer_1", "bin_nondealer_2", "bin_nondealer_3",
    "bin_nondealer_4", "bin_nondealer_5", "bin_nondealer_6", "dealt_0", "dealt_1", "points_dealing_0",
    "points_dealing_1", "points_nondealing_0", "points_nondealing_1"};

int main(int argc, char **argv) {
    init_tables();
    game_def g = {"two-ten-jack", 2, NCOLS, COLUMNS, 1, play_game};
    return run_main(&g, argc, argv);
}
