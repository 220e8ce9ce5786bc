/* Playing to win (winning.c): a turn valued by the share of the win, from the shared
 * table of the points still to come, and the `winner` level's games. */
#ifndef YATZY_WINNING_H
#define YATZY_WINNING_H

#include "turn.h"

/* The table's grid (yatzy.solver.remaining.QUANTUM): a row's steps sum to it. */
#define WIN_QUANTUM 8192
/* The most points a total or a row may reach (far above any ruleset's), so that the
 * curve stays small and no sum overflows. */
#define WIN_POINTS_MAX (1 << 16)
/* The most other players a curve is made of. */
#define WIN_OTHERS_MAX 63

/* The shared table (see winning.c), read in place; its lengths checked by the caller,
 * its contents at every read. */
typedef struct {
    const int32_t *row_of; /* [1 << nb][y_count][stride]: a state's row, -1 for none */
    const int32_t *lowest, *length;
    const int64_t *offset;
    const uint8_t *wide;
    int64_t rows;
    const uint8_t *pool8;
    int64_t n8;
    const uint16_t *pool16;
    int64_t n16;
} WinTable;

/* The win curve: curve[m] for m <= high is the expected share of the win of a final score
 * of m against the other players; 1 above high. */
typedef struct {
    double *curve;
    int cap, high;
} WinCurve;

int win_curve_init(WinCurve *c);
void win_curve_free(WinCurve *c);
/* The curve against n other players whose turn-start states are others[j] = (mask, y, u,
 * total) (checked states of the tables, totals 0 .. WIN_POINTS_MAX - 1; a full mask is a
 * finished card). Returns 0, -1 when out of memory, -2 when a state has no row or a row
 * does not fit. */
int win_curve(const Kernels *t, const WinTable *w, int n, const int64_t *others, WinCurve *c);
/* The turn of state (mask, y, u) (a checked state of the tables, mask not full) with
 * `total` points so far, in shares of the win: sc->ev and sc->ev5 hold every way to fill
 * a box (in every lane) and sc->snap the keeps, as turn_block with snap gives them for
 * points, so that best_option(t, sc, r, left, 0) is the play. Returns 0 or -2 (see
 * win_curve). */
int win_turn(const Kernels *t, const WinTable *w, Scratch *sc, const WinCurve *c, int mask,
             int y, int u, int total);
/* Play the `winner` level's games: game g's row of state (G_COLS columns, a checked
 * state, total 0 .. WIN_POINTS_MAX - 1) to its end on the dice faces[g][turn][roll][die]
 * (a reroll takes the first dice of its row), against n others whose states at the start
 * of each of their turns are others[g][j][turn][4] (checked as in win_curve; nb + 1 rows
 * each, the last at the end): at the player's turn t, other j has played t + ahead[j]
 * turns (ahead[j] 0 or 1). Returns 0, -1 when out of memory, -2 (see win_curve, or a
 * total out of range), -3 when a die is no face, -4 when a roll had no option. */
int win_games(const Kernels *t, const WinTable *w, ptrdiff_t games, int n,
              const int8_t *faces, const int64_t *others, const uint8_t *ahead,
              int64_t *state);

#endif
