/* The solver's compiled loops: what every part of them shares.
 *
 * One Kernels record holds a ruleset's tables (yatzy.solver.model.Tables) and its value
 * table V[mask][y][u]. The tables are copied in and checked once when the record is
 * built (tables.c): every index in range, every count consistent, so that no loop below
 * needs to check them again. V (read and, by the table build, written) and five_points
 * (points only: any value is safe) are read in place. Everything reads the rules only
 * through those tables; the transition (filling a box: its points with the Joker rules,
 * the extra-Yahtzee bonus, the upper bonus and the next state) is fill_box and
 * add_upper (transition.h), and only there.
 *
 * The parts: tables.c (building the record), turn.c (one turn's values, the table
 * build; turn_wide.c the build again on eight lanes), simulate.c (games played to their
 * end), outcomes.c, distribution.c and remaining.c (how turns end, score distributions,
 * the table of what is still to come; quantise.c its rounding), env.c (games stepped by
 * the caller's actions), and the Python glue (module.c,
 * advise.c), the only part that knows Python: the others take plain C arrays and
 * report errors by return value.
 *
 * Names: R rolls (multisets of all dice), K keeps (multisets of 0 .. all dice, rolls last,
 * from index first_roll), nb boxes, E entries (see Tables).
 */
#ifndef YATZY_KERNELS_H
#define YATZY_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/* The value of no option (see kernels.NEG): finite, so low that a sum with it stays below
 * NEG / 2. */
#define NEG (-1.0e18)
#define FACES 6
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define X86_CLONES 1
#endif
/* Lanes per block: one AVX2 vector of doubles; eight, one AVX-512 vector, in turn_wide.c
 * (WIDE_BUILD), the table build for processors that have it. */
#if defined(WIDE_BUILD) && defined(X86_CLONES)
#define LANES 8
#define HOT
#else
#define LANES 4
#endif
/* The most boxes and the highest upper-bonus threshold: a state's number, (mask * y_count
 * + y) * (threshold + 1) + u, must also fit in 31 bits (an int, and the simulation's uint32
 * sort keys), which kernels_sizes checks (Maxi Yatzy: 2^20 * 85). */
#define NB_MAX 24
#define THRESHOLD_MAX 127
#define DICE_MAX 10
#define ROLLS_MAX 16
/* The most points of a box, a bonus or an extra Yahtzee: sums of them stay far from
 * overflowing an int. */
#define POINTS_MAX 32767
/* The most upper sums a set of upper boxes may need values for (one per upper sum up to
 * the threshold at most). */
#define LANES_MAX (THRESHOLD_MAX + 1)
#define THREADS_MAX 64

#ifndef HOT
#ifdef X86_CLONES
#define HOT __attribute__((target_clones("avx2", "default")))
#else
#define HOT
#endif
#endif
#define INLINE static inline __attribute__((always_inline))

/* The arrays of a Kernels record, in the order the caller hands them over. */
enum {
    A_SCORE, A_ALLOWED, A_FIVE_POINTS, A_FIVE_ROLLS, A_FIVE_OF, A_EXTRA, A_IS_UPPER,
    A_ENTRY_OF, A_ENTRY_BOX, A_ENTRY_ROLL, A_CHILD, A_PARENT_START, A_PARENT_LIST,
    A_ROLL_PROB, A_SUB_KEEPS, A_SUB_COUNT, A_COUNTS, A_CODE_TO_KEEP, A_LANES,
    A_LANE_COUNT, A_LANE_OF, A_UPPER_BIT, A_POSSIBLE, A_V, N_ARRAYS
};

/* The numbers of a ruleset's tables, in the order the caller hands them over. */
typedef struct {
    int nr, nb, nk, ne, first_roll, dice, rolls, threshold, bonus, yahtzee_box, y_points,
        y_count, sub_width, nu;
} Sizes;

typedef struct {
    /* Sizes and numbers (see Sizes). */
    int nr, nb, nk, ne, first_roll, dice, rolls, threshold, bonus, yahtzee_box, y_points,
        y_count, sub_width, nu;
    int stride; /* threshold + 1 */
    /* Tables: copies, checked (see tables.c), but five_points and V. */
    const int32_t *score;        /* [nr][nb] */
    const int32_t *allowed;      /* [1 << nb] */
    const int8_t *five_points;   /* [1 << nb][6][nb]: the caller's */
    const int32_t *five_rolls;   /* [6] */
    const int32_t *five_of;      /* [nr] */
    const int32_t *extra;        /* [y_count][6] */
    const int32_t *is_upper;     /* [nb] */
    const int32_t *entry_of;     /* [nb][nr] */
    const int32_t *entry_box;    /* [ne] */
    const int32_t *entry_roll;   /* [ne] */
    const int32_t *child;        /* [nk][6] */
    const int32_t *parent_start; /* [nk + 1] */
    const int32_t *parent_list;  /* [parent_start[nk]] */
    const double *roll_prob;     /* [nr] */
    const int32_t *sub_keeps;    /* [nr][sub_width] */
    const int32_t *sub_count;    /* [nr] */
    const int32_t *counts;       /* [nk][6] */
    const int32_t *code_to_keep; /* [(dice + 1) ** 6] */
    const int32_t *lanes;        /* [1 << nu][stride] */
    const int32_t *lane_count;   /* [1 << nu] */
    const int32_t *lane_of;      /* [1 << nu][stride] */
    const int32_t *upper_bit;    /* [nb] */
    const uint64_t *possible;    /* [nb][pw]: bit p of box b's row, when it can hold p */
    int pw;                      /* words per box in possible */
    double *V;                   /* [1 << nb][y_count][stride]: the caller's */
    /* Made here: entry_of roll by roll, with five of a kind reading entry 0 ([nr][nb]),
     * and each box's first entry ([nb + 1]). */
    int32_t *entry_by_roll;
    /* The same box by box ([nb][nr]), for loops over the rolls of one box. */
    int32_t *entry_by_box;
    int32_t *box_start;
    /* The order of the best-keep pass: keeps 1 .. nk - 1 by number of dice (parts come
     * first), and among as many dice by number of parents, in runs (groups) of keeps
     * with as many parents, so that the inner loop has a fixed length in a run.
     * best_keep[i] is the i-th keep, best_par its parents one after the other; run g
     * has group_len[g] keeps of group_par[g] parents each, rolls when group_roll[g]. */
    int32_t *best_keep;
    int32_t *best_par;
    int32_t *group_len;
    int32_t *group_par;
    int32_t *group_roll;
    int ngroups;
    /* What fill_box gives each entry, read once (entries fill alike whatever the mask
     * that allows their box): its points, and which of its box's keys (upper points and
     * whether it makes y = 1) it has: entry_key[e], keys key_start[b] .. key_start[b + 1]
     * - 1 with key_up and key_y. */
    double *entry_gain;
    int32_t *entry_key;
    int32_t *key_start;
    int32_t *key_up;
    int32_t *key_y;
    /* entry_gain box by box and roll by roll, for advice's best box of every roll
     * (turn_single): box_gain[b * nr + r] is the gain of roll r's entry in box b (five of
     * a kind: 0, set apart afterwards). */
    double *box_gain;
    /* Everything above that this record allocated. */
    void *owned[48];
    int nowned;
} Kernels;

/* Return values of the builders and loops: done, out of memory, bad input (a message
 * written). */
enum { K_OK = 0, K_NOMEM = -1, K_BAD = -2 };

/* --- tables.c ----------------------------------------------------------------------- */

/* Check the sizes and set the number of items each array must have (-1: any, checked
 * later). Returns K_OK or K_BAD with a message in err. */
int kernels_sizes(const Sizes *s, int64_t items[N_ARRAYS], char *err, size_t errlen);
/* A record of copies of the arrays (items[i] items each, of the types in Kernels; V and
 * five_points kept as given), every index checked. Returns K_OK with *out set, K_NOMEM,
 * or K_BAD with a message in err. */
int kernels_build(const Sizes *s, void *const arrays[N_ARRAYS], const int64_t items[N_ARRAYS],
                  Kernels **out, char *err, size_t errlen);
void kernels_free(Kernels *t);

/* --- simulate.c --------------------------------------------------------------------- */

/* Columns of a game's row in `state`. */
enum { G_MASK, G_Y, G_U, G_TOTAL, G_FIVE_BOX, G_EXTRAS, G_RNG, G_COLS };

typedef struct {
    const int8_t *faces;    /* [games][nb][rolls][dice] or NULL: draw from the game's stream */
    const double *uniforms; /* [games][nb][rolls] or NULL */
    int64_t *choices;       /* [games][nb][rolls] or NULL */
    int64_t *history;       /* [games][nb + 1][4] or NULL: mask, y, u, total at each turn's
                             * start, and at the end */
    double temperature;
} PlaySource;

/* Play every turn of games lo .. hi - 1 (rows of `state`, states checked) on `threads`
 * threads. Returns 0, -1 when a game had no option, -2 when out of memory or threads, -3
 * when a row or a die changed under the loop (another thread of the caller's). */
int play_games(const Kernels *t, int64_t *state, ptrdiff_t lo, ptrdiff_t hi,
               const PlaySource *src, int threads);
/* Seed each game's own stream of dice from `seed` and its number, first + row. */
void seed_games(int64_t *state, ptrdiff_t games, uint64_t seed, uint64_t first);

/* --- distribution.c ----------------------------------------------------------------- */

/* The chance of each number of points a player has yet to score from one state: p[a -
 * lo] for a in lo .. hi - 1 (zeros inside are allowed). */
typedef struct {
    int lo, hi;
    double *p;
} Dist;

/* Returns 0, -1 when out of memory, -2 when a state has no option. */
int score_distribution(const Kernels *t, int mask, int y, int u, int r0, int left0,
                       int threads, Dist *res);

/* --- remaining.c -------------------------------------------------------------------- */

typedef struct {
    int n, cap;
    int *key, *lo, *len;
    float **p;
    /* Exact tables (remaining_table with upto >= 0): the rows as doubles instead, NULL
     * for the rows of layers past upto once they are no longer needed. */
    double **d;
} Rows;

/* Returns 0, -1 when out of memory, -2 when a state has no option. With upto >= 0, the
 * table is exact: rows of doubles (R->d), no tail cut but zeros, and only the rows of the
 * states with at most upto filled boxes kept to the end (the others freed as soon as the
 * layer before them is done). */
int remaining_table(const Kernels *t, int threads, double tail, int upto, Rows *R);
void rows_free(Rows *R);

/* --- env.c -------------------------------------------------------------------------- */

/* The games of a vector environment (yatzy.rl.vector), one row each in arrays the caller
 * keeps: state [n][G_COLS] (the simulation's rows; the dice drawn from G_RNG), dice
 * [n][dice] (by position), left [n] (rerolls left), scores [n][nb] (each box's points, 0
 * while open), history [n][nb * rolls + 1][1 + dice] and count [n] (what each game did:
 * row 0 its first roll, then per action the action and the dice after it). Actions
 * number as the environment's: keep mask a (bit i = hold the die at position i) for
 * a < 2^dice - 1, else box a - (2^dice - 1). */
typedef struct {
    int64_t *state;
    int8_t *dice, *left, *legal;
    int16_t *scores, *history;
    int64_t *count, *reward;
    const int64_t *actions;
    const uint8_t *restart;
    int keeps, nactions, hrows;
} EnvGames;

/* What the regrets keep of a game's turn between steps, in rows the caller keeps (row g
 * for game g, for the first `rows` games): what the game's later decisions in the turn
 * read, written when it rerolls, so that a turn is worked out once rather than at each
 * reroll and again for the last roll. keys[g] names what row g holds: (state number (see
 * ask_key in env.c) << 5) | the most rerolls left of the decisions it answers, or -1 for
 * nothing. A row (`width` doubles, see regret_memo_width): the value of each key of the
 * boxes' fills (the rows of turn_mixed: key_start[nb]), then for l = 0, 1 ... the value
 * of each keep smaller than a roll with l rerolls left after the reroll (first_roll
 * each). The values are a state's, whichever game wrote them: a key that does not match
 * is a row not used, and made-up values are wrong regrets, never wrong memory. */
typedef struct {
    int64_t *keys;
    double *values;
    ptrdiff_t rows;
} RegretMemo;

/* The doubles of a row of RegretMemo. */
int regret_memo_width(const Kernels *t);

/* Step the n games (see EnvGames.keeps and friends, set here): returns K_OK with *bad
 * -1 (every game stepped) or the first game whose action is illegal (then no game
 * changed); K_BAD with a message when a game's row is no state of the tables. */
int env_step(const Kernels *t, EnvGames *e, ptrdiff_t n, ptrdiff_t *bad, char *err,
             size_t errlen);
/* The regret of each game's action before it is taken (e->actions; e->restart: the games
 * that restart instead, and the others read as env_step reads them): the value of the
 * best option minus the value of the action, from the solver's values, each with the
 * game's total added, exactly as advice (Kernels.advise) lists them; 0 for a game that
 * restarts or whose action is not legal. Into regret[g] for every game, on `threads`
 * threads. Returns K_OK, K_NOMEM, or K_BAD with a message when a game's row is no state
 * of the tables (as env_step). */
int env_regrets(const Kernels *t, EnvGames *e, ptrdiff_t n, double *regret, int threads,
                RegretMemo *memo, char *err, size_t errlen);

/* The table build (turn.c's solve_jobs) of jobs start, start + step, ... before stop on
 * eight lanes, with its own scratch memory, where the processor has AVX-512 (turn_wide.c):
 * the same values to the last bit. Returns 1 when done, 0 when this processor or compiler
 * has no such build (nothing done), -1 when out of memory. */
int solve_jobs_wide(const Kernels *t, const int32_t *jobs_mask, const int32_t *jobs_y,
                    ptrdiff_t start, ptrdiff_t stop, ptrdiff_t step);
/* 1 when solve_jobs_wide builds here (this processor has AVX-512), else 0. */
int wide_build(void);

/* The rounding of the win-chance table (quantise.c; see yatzy.solver.remaining.quantise):
 * rows r = 0 .. rows - 1 of `chances` (row r from starts[r] to starts[r + 1], at least
 * one chance, none below 0: else -1 and nothing is promised), each row's cumulative
 * chances over its total rounded to multiples of 1 / quantum (quantum at most 65535),
 * kept as the steps from its first above 0 (first[r], counted from the row's start) to
 * its last (length[r] of them): into pool8 one after the other, or pool16 when a step is
 * above 255 (wide[r] = 1); *used8 and *used16 say how many. The pools need room for every
 * chance. Returns 0, -1 for a row whose chances do not add up to a positive number, or -2
 * when out of memory. */
int quantise_rows(const float *chances, const int64_t *starts, int64_t rows, int quantum,
                  int32_t *first, int32_t *length, uint8_t *wide, uint8_t *pool8,
                  uint16_t *pool16, int64_t *used8, int64_t *used16);

#endif
