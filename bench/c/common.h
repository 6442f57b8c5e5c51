/* Shared pieces of the C yardsticks (bench/c/README.md): the generator, bounded draws, bit
 * helpers, the per-game checksum and column statistics, and the command-line driver.
 *
 * The generator is xoshiro256** seeded by splitmix64 (as analyzer/rng.py), and bounded draws
 * are Lemire's exactly unbiased multiply-and-reject on 32-bit halves of its outputs (high half
 * first, then the low half of the same output): one 64-bit output serves two draws.
 */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    uint64_t s0, s1, s2, s3;
    uint64_t spare;   /* the unused low half of the last output */
    int have;         /* whether ``spare`` holds one */
} rng_t;

static inline uint64_t rotl64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t splitmix_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline void rng_seed(rng_t *r, uint64_t seed) {
    uint64_t x = splitmix_mix(seed + 0x9E3779B97F4A7C15ULL);
    uint64_t w[4];
    for (int j = 0; j < 4; j++) {
        x += 0x9E3779B97F4A7C15ULL;
        w[j] = splitmix_mix(x);
    }
    r->s0 = w[0]; r->s1 = w[1]; r->s2 = w[2]; r->s3 = w[3];
    r->spare = 0; r->have = 0;
}

/* xoshiro256** */
static inline uint64_t rng_next(rng_t *r) {
    uint64_t result = rotl64(r->s1 * 5, 7) * 9;
    uint64_t t = r->s1 << 17;
    r->s2 ^= r->s0;
    r->s3 ^= r->s1;
    r->s1 ^= r->s2;
    r->s0 ^= r->s3;
    r->s2 ^= t;
    r->s3 = rotl64(r->s3, 45);
    return result;
}

/* the next 32 random bits: the high half of a fresh output, then its low half */
static inline uint64_t rng_u32(rng_t *r) {
    if (r->have) {
        r->have = 0;
        return r->spare;
    }
    uint64_t x = rng_next(r);
    r->spare = x & 0xFFFFFFFFULL;
    r->have = 1;
    return x >> 32;
}

/* uniform in [0, n) for 1 <= n < 2**32, exactly unbiased (Lemire) */
static inline uint32_t rng_below(rng_t *r, uint32_t n) {
    uint64_t m = rng_u32(r) * (uint64_t)n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = rng_u32(r) * (uint64_t)n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

static inline int popcount64(uint64_t x) { return __builtin_popcountll(x); }
static inline int lowest_bit(uint64_t x) { return __builtin_ctzll(x); }
static inline int highest_bit(uint64_t x) { return 63 - __builtin_clzll(x); }

/* index of the k-th lowest set bit (from 0) of x. With BMI2 (-march=native on x86-64 from
 * Haswell / Zen 3: pdep is one fast instruction there, but microcoded and slow on Zen 1 and 2)
 * a deposit of bit k into x's set bits, branch-free; else (or with -DNO_PDEP) clear the lowest
 * set bit k times, whose loop exit the CPU cannot predict when k is random. */
static inline int nth_bit(uint64_t x, int k) {
#if defined(__BMI2__) && !defined(NO_PDEP)
    return __builtin_ctzll(__builtin_ia32_pdep_di(1ULL << k, x));
#else
    for (int i = 0; i < k; i++) x &= x - 1;
    return __builtin_ctzll(x);
#endif
}

/* a uniformly chosen set bit of a non-empty mask (no draw when only one is set) */
static inline int random_bit(rng_t *r, uint64_t mask) {
    if ((mask & (mask - 1)) == 0) return __builtin_ctzll(mask);
    return nth_bit(mask, (int)rng_below(r, (uint32_t)popcount64(mask)));
}

/* ---- the driver: games from argv, checksum of every out row, optional column statistics ---- */

#define MAX_COLUMNS 64

typedef struct {
    const char *game;
    int players;
    int ncols;                      /* out row width */
    const char *const *columns;     /* out row column names */
    int hands_column;               /* the column counting hands (or rounds) */
    void (*play_game)(rng_t *r, int64_t *out);
} game_def;

static inline double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU time of this process: on a shared machine it counts only the time the game loop ran */
static inline double cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline uint64_t fold_row(uint64_t h, const int64_t *row, int n) {
    for (int i = 0; i < n; i++) h = (h ^ (uint64_t)row[i]) * 0x100000001B3ULL;
    return h;
}

/* usage: PROGRAM GAMES [SEED] [stats]
 * prints one line of results; with "stats", also "stat NAME SUM SUMSQ" for every out column
 * and for win_s (1 when seat s is among the winners: column 0 is the winners' seat mask). */
static int run_main(const game_def *g, int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s GAMES [SEED] [stats]\n", argv[0]);
        return 2;
    }
    long long games = atoll(argv[1]);
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    int stats = argc > 3 && strcmp(argv[3], "stats") == 0;
    rng_t r;
    rng_seed(&r, seed);
    int64_t row[MAX_COLUMNS];
    double sum[MAX_COLUMNS + 16] = {0}, sumsq[MAX_COLUMNS + 16] = {0};
    uint64_t check = 0xCBF29CE484222325ULL;
    long long hands = 0;
    double started = now_seconds(), cpu_started = cpu_seconds();
    for (long long i = 0; i < games; i++) {
        memset(row, 0, sizeof(int64_t) * (size_t)g->ncols);
        g->play_game(&r, row);
        check = fold_row(check, row, g->ncols);
        hands += row[g->hands_column];
        if (stats) {
            for (int c = 0; c < g->ncols; c++) {
                double v = (double)row[c];
                sum[c] += v;
                sumsq[c] += v * v;
            }
            for (int s = 0; s < g->players; s++) {
                double v = (double)((row[0] >> s) & 1);
                sum[g->ncols + s] += v;
                sumsq[g->ncols + s] += v;
            }
        }
    }
    double elapsed = now_seconds() - started, cpu = cpu_seconds() - cpu_started;
    printf("game=%s players=%d games=%lld hands=%lld seconds=%.6f cpu_seconds=%.6f games_per_s=%.0f "
           "hands_per_s=%.0f checksum=%016llx\n", g->game, g->players, games, hands, elapsed, cpu,
           games / elapsed, hands / elapsed, (unsigned long long)check);
    if (stats) {
        for (int c = 0; c < g->ncols; c++) printf("stat %s %.17g %.17g\n", g->columns[c], sum[c], sumsq[c]);
        for (int s = 0; s < g->players; s++)
            printf("stat win_%d %.17g %.17g\n", s, sum[g->ncols + s], sumsq[g->ncols + s]);
    }
    return 0;
}

#endif
