/* Ninety-Nine, random play for every seat (docs/rules.md section 2; the analyzer's
 * analyzer/games/ninety_nine/rules.py and kernel.py). Suits never matter: cards are ranks
 * 0..12 (2..A). Out row as the kernel's: winners, hands (rounds), decisions, score_s (final
 * chips), busts_s, busts_pos_k, rounds_pos_k (k: position clockwise from the dealer).
 *
 * A random player picks uniformly among the distinct legal move codes (A+1 and A+11, T+10 and
 * T-10 are two moves each; two cards of one rank are one move), as the `random` strategy does.
 * Build with -DPLAYERS=P (default 3); decks and chips follow the player count as the defaults do.
 */
#include "common.h"

#ifndef PLAYERS
#define PLAYERS 3
#endif
#define DECKS (PLAYERS >= 4 ? 2 : 1)
#define CHIPS (PLAYERS >= 4 ? 3 : 5)
#define NCARDS (52 * DECKS)
#define LIMIT 99
#define NCOLS (3 + 4 * PLAYERS)

/* move codes: 2 3 4 5 6 7 8 9 T+10 T-10 J Q K A+1 A+11 */
static const int8_t MOVE_RANK[15] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 9, 10, 11, 12, 12};
static const int8_t MOVE_DELTA[15] = {2, 3, 0, 5, 6, 7, 8, 0, 10, -10, 10, 10, 0, 1, 11};
#define MOVE_KING 12
#define MOVE_TEN_DOWN 9
#define RANK_FOUR 2
static uint16_t legal_at[LIMIT + 1];  /* legal move codes on a pile of each total (mask) */
static uint16_t rank_moves[13];       /* the move codes of each rank (mask) */
static int8_t full_stock[NCARDS];

static void init_tables(void) {
    for (int t = 0; t <= LIMIT; t++) {
        unsigned mask = 0;
        for (int m = 0; m < 15; m++) {
            int ok = m == MOVE_TEN_DOWN ? t >= 10 : (m == MOVE_KING ? 1 : t + MOVE_DELTA[m] <= LIMIT);
            mask |= (unsigned)ok << m;
        }
        legal_at[t] = (uint16_t)mask;
    }
    for (int m = 0; m < 15; m++) rank_moves[MOVE_RANK[m]] |= (uint16_t)(1u << m);
    for (int c = 0; c < NCARDS; c++) full_stock[c] = (int8_t)(c % 13);
}

static inline int next_active(int seat, int dir, const int8_t *active) {
    int s = seat;
    for (int i = 0; i < PLAYERS; i++) {
        s += dir;
        if (s < 0) s += PLAYERS;
        else if (s >= PLAYERS) s -= PLAYERS;
        if (active[s]) return s;
    }
    return seat;
}

/* a lazy Fisher-Yates step: a uniform card of stock[top:end] swapped to stock[top] */
static inline int8_t draw(rng_t *r, int8_t *stock, int top, int end) {
    int j = top + (int)rng_below(r, (uint32_t)(end - top));
    int8_t card = stock[j];
    stock[j] = stock[top];
    stock[top] = card;
    return card;
}

/* play one round from ``dealer``; returns the seat that goes over */
static inline int play_round(rng_t *r, int dealer, const int8_t *active, int nactive, int64_t *decisions) {
    int8_t stock[NCARDS], pile[NCARDS], hands[PLAYERS][3];
    memcpy(stock, full_stock, NCARDS);
    int top = 0, end = NCARDS, npile = 0;
    for (int c = 0; c < 3; c++) {
        int s = dealer;
        for (int k = 0; k < nactive; k++) {
            s = next_active(s, 1, active);
            hands[s][c] = draw(r, stock, top, end);
            top++;
        }
    }
    int total = 0, dir = 1, seat = next_active(dealer, 1, active);
    int64_t moves = 0;
    for (;;) {
        int8_t *h = hands[seat];
        unsigned legal = legal_at[total] & (rank_moves[h[0]] | rank_moves[h[1]] | rank_moves[h[2]]);
        if (!legal) break;
        int move = random_bit(r, legal);
        moves++;
        int rank = MOVE_RANK[move];
        int slot = h[0] == rank ? 0 : (h[1] == rank ? 1 : 2);
        pile[npile++] = (int8_t)rank;
        total = move == MOVE_KING ? LIMIT : total + MOVE_DELTA[move];
        if (rank == RANK_FOUR) dir = -dir;
        if (top == end) {  /* rebuild: the card just played stays on the pile */
            memcpy(stock, pile, (size_t)(npile - 1));
            top = 0;
            end = npile - 1;
            pile[0] = pile[npile - 1];
            npile = 1;
        }
        h[slot] = draw(r, stock, top, end);
        top++;
        seat = next_active(seat, dir, active);
    }
    *decisions += moves;
    return seat;
}

static void play_game(rng_t *rp, int64_t *out) {
    rng_t r = *rp;
    int8_t active[PLAYERS];
    int chips[PLAYERS], position[PLAYERS];
    for (int s = 0; s < PLAYERS; s++) {
        active[s] = 1;
        chips[s] = CHIPS;
    }
    int nactive = PLAYERS, rounds = 0;
    int64_t decisions = 0;
    int dealer = (int)rng_below(&r, PLAYERS);
    int64_t *busts = out + 3 + PLAYERS, *busts_pos = busts + PLAYERS, *rounds_pos = busts_pos + PLAYERS;
    while (nactive > 1) {
        rounds++;
        int s = dealer;
        for (int k = 0; k < nactive; k++) {
            position[s] = k;
            rounds_pos[k]++;
            s = next_active(s, 1, active);
        }
        int loser = play_round(&r, dealer, active, nactive, &decisions);
        busts[loser]++;
        busts_pos[position[loser]]++;
        if (chips[loser] > 0) {
            chips[loser]--;
        } else {
            active[loser] = 0;
            nactive--;
        }
        dealer = next_active(dealer, 1, active);
    }
    int winners = 0;
    for (int s = 0; s < PLAYERS; s++) {
        if (active[s]) winners |= 1 << s;
        out[3 + s] = chips[s];
    }
    out[0] = winners;
    out[1] = rounds;
    out[2] = decisions;
    *rp = r;
}

static const char *COLUMNS[NCOLS];
static char names[NCOLS][24];

int main(int argc, char **argv) {
    init_tables();
    const char *base[3] = {"winners", "hands", "decisions"};
    const char *groups[4] = {"score", "busts", "busts_pos", "rounds_pos"};
    for (int c = 0; c < 3; c++) COLUMNS[c] = base[c];
    for (int g = 0; g < 4; g++)
        for (int s = 0; s < PLAYERS; s++) {
            snprintf(names[3 + g * PLAYERS + s], sizeof names[0], "%s_%d", groups[g], s);
            COLUMNS[3 + g * PLAYERS + s] = names[3 + g * PLAYERS + s];
        }
    game_def g = {"ninety-nine", PLAYERS, NCOLS, COLUMNS, 1, play_game};
    return run_main(&g, argc, argv);
}
