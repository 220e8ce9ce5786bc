/* The table build on eight lanes: turn.h's loop (solve_range) compiled again with one
 * AVX-512 vector of doubles per value (see kernels.h), for processors that have it. Each
 * lane's sums are made in the same order as on four lanes (and none fused: see setup.py),
 * so the values are the same to the last bit; the gain is half the blocks, each reading
 * the index tables once for eight upper sums. */
#define WIDE_BUILD 1
#include "kernels.h"

#ifdef X86_CLONES
int wide_build(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") ? 1 : 0;
}

/* Only solve_wide is compiled for AVX-512; solve_jobs_wide checks the processor first. */
#pragma GCC push_options
#pragma GCC target("avx512f")
#include "turn.h"

static int solve_wide(const Kernels *t, const int32_t *jobs_mask, const int32_t *jobs_y,
                      ptrdiff_t start, ptrdiff_t stop, ptrdiff_t step) {
    Scratch s;
    if (scratch_alloc(t, &s) < 0) return -1;
    solve_range(t, &s, jobs_mask, jobs_y, start, stop, step);
    free(s.block);
    return 1;
}
#pragma GCC pop_options

int solve_jobs_wide(const Kernels *t, const int32_t *jobs_mask, const int32_t *jobs_y,
                    ptrdiff_t start, ptrdiff_t stop, ptrdiff_t step) {
    return wide_build() ? solve_wide(t, jobs_mask, jobs_y, start, stop, step) : 0;
}
#else
int wide_build(void) { return 0; }

int solve_jobs_wide(const Kernels *t, const int32_t *jobs_mask, const int32_t *jobs_y,
                    ptrdiff_t start, ptrdiff_t stop, ptrdiff_t step) {
    (void)t, (void)jobs_mask, (void)jobs_y, (void)start, (void)stop, (void)step;
    return 0;
}
#endif
