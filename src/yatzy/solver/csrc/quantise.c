/* The win-chance table's rounding (yatzy.solver.remaining.quantise): each row's
 * cumulative chances over its total, rounded to multiples of 1/quantum, kept as steps. */
#include <math.h>
#include <stdlib.h>

#include "kernels.h"

/* Row r's step i: Q(i) - Q(i - 1), Q(i) = rint(quantum F(i)), F the row's cumulative
 * chances (summed in order, in doubles) over their total (the last of them), Q(-1) = 0.
 * Q never falls (no chance is below 0: checked) and its last is quantum, so every row
 * has a first and a last step above 0. */
HOT int quantise_rows(const float *chances, const int64_t *starts, int64_t rows, int quantum,
                      int32_t *first, int32_t *length, uint8_t *wide, uint8_t *pool8,
                      uint16_t *pool16, int64_t *used8, int64_t *used16) {
    int64_t longest = 1;
    for (int64_t r = 0; r < rows; r++)
        if (starts[r + 1] - starts[r] > longest) longest = starts[r + 1] - starts[r];
    int32_t *steps = malloc(sizeof(int32_t) * longest);
    if (!steps) return -2;
    int64_t n8 = 0, n16 = 0;
    int status = 0;
    for (int64_t r = 0; r < rows && status == 0; r++) {
        const float *c = chances + starts[r];
        const int64_t n = starts[r + 1] - starts[r];
        double total = 0.0;
        int ok = 1;
        for (int64_t i = 0; i < n; i++) {
            ok &= c[i] >= 0.0f; /* not below 0, and a number */
            total += c[i];
        }
        if (!ok || !(total > 0.0) || !isfinite(total)) {
            status = -1;
            break;
        }
        double cum = 0.0;
        int32_t before = 0, big = 0;
        int64_t lo = -1, hi = -1;
        for (int64_t i = 0; i < n; i++) {
            cum += c[i];
            const int32_t q = (int32_t)rint(cum / total * quantum);
            const int32_t step = q - before;
            before = q;
            steps[i] = step;
            if (step > 0) {
                if (lo < 0) lo = i;
                hi = i;
            }
            if (step > big) big = step;
        }
        if (lo < 0) {
            status = -1;
            break;
        }
        first[r] = (int32_t)lo;
        length[r] = (int32_t)(hi - lo + 1);
        wide[r] = big > 255;
        if (big > 255)
            for (int64_t i = lo; i <= hi; i++) pool16[n16++] = (uint16_t)steps[i];
        else
            for (int64_t i = lo; i <= hi; i++) pool8[n8++] = (uint8_t)steps[i];
    }
    free(steps);
    *used8 = n8;
    *used16 = n16;
    return status;
}
