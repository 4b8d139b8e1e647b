/* Offline search for base tables of whist tournaments (NOT used at run time).
 *
 * Build: gcc -O2 -o /tmp/whist_search research/seating/whist_search.c -lm
 * Usage: whist_search v m1 [m2] seed seconds [lambda temperature stall]
 *   group G = Z_m1 x Z_m2 (element a*m2 + b); |G| = v for v = 4n+1 (the base tables cover G
 *   minus 0), |G| = v - 1 for v = 4n (1-rotational: one extra fixed point "infinity" = |G|).
 *
 * Phase 1, simulated annealing over swaps of two points: partner differences must cover G\{0}
 * once and the opponent differences twice (each class {d,-d} of "feeds" differences, next minus
 * current around a table, twice), while the feeds differences are pulled towards "each d once".
 * Phase 2, for every whist design met: try all 2^n orientations of the base tables (reversing
 * (a,b,c,d) -> (a,d,c,b) negates its feeds differences) and keep the one with the fewest
 * classes fed one way. 0 such classes = an ORDERED design (v = 4n+1); for v = 4n at least one
 * class is one way (the feeds differences sum to a partner difference, never 0), so 1 is the
 * best, giving v - 1 one-way pairs.
 * Prints the best base tables found as a Python list; stops early when the best is reached.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAXG 128
static int m1, m2, G, V, NT, NP, INF, four_n;
static int sub_[MAXG][MAXG], neg_[MAXG];
static int pts[MAXG], bestpts[MAXG], best_bad = 1 << 30;
static int cp[MAXG], cd[MAXG];
static int cost_pc, cost_d; /* partner + class deviation; feeds deviation */
static unsigned long long rs;

static unsigned rnd(void) { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return (unsigned)(rs >> 11); }
static double urand(void) { return (rnd() & 0xffffff) / (double)0x1000000; }
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }

static void bump_p(int a, int b, int s) {
    if (a == INF || b == INF) return;
    int x = sub_[a][b], y = sub_[b][a];
    cost_pc -= abs(cp[x] - 1) + abs(cp[y] - 1);
    cp[x] += s; cp[y] += s;
    cost_pc += abs(cp[x] - 1) + abs(cp[y] - 1);
}
static void bump_d(int a, int b, int s) { /* a feeds b: difference b - a */
    if (a == INF || b == INF) return;
    int x = sub_[b][a], y = neg_[x];
    cost_pc -= abs(cd[x] + cd[y] - 2);
    cost_d -= abs(cd[x] - 1);
    cd[x] += s;
    cost_pc += abs(cd[x] + cd[y] - 2);
    cost_d += abs(cd[x] - 1);
}
static void table(int t, int s) {
    int *q = pts + 4 * t;
    bump_p(q[0], q[2], s); bump_p(q[1], q[3], s);
    for (int k = 0; k < 4; k++) bump_d(q[k], q[(k + 1) % 4], s);
}
static void print_tables(int *q) {
    printf("[");
    for (int t = 0; t < NT; t++)
        printf("(%d, %d, %d, %d)%s", q[4*t], q[4*t+1], q[4*t+2], q[4*t+3], t + 1 < NT ? ", " : "");
    printf("]\n");
    fflush(stdout);
}
/* classes fed one way = sum |cd - 1| / 2 once every class has 2 edges */
static int bad_now(void) { int c = 0; for (int x = 1; x < G; x++) c += abs(cd[x] - 1); return c / 2; }
static void reverse_table(int t) {
    table(t, -1);
    int tmp = pts[4*t+1]; pts[4*t+1] = pts[4*t+3]; pts[4*t+3] = tmp;
    table(t, 1);
}
/* phase 2: all orientations of the base tables (Gray code) */
static void orient_all(void) {
    int bad = bad_now(), best = bad; unsigned long long best_code = 0, code = 0;
    unsigned long long total = 1ULL << NT;
    for (unsigned long long i = 1; i < total; i++) {
        int t = __builtin_ctzll(i);
        reverse_table(t); code ^= 1ULL << t;
        bad = bad_now();
        if (bad < best) { best = bad; best_code = code; }
    }
    for (int t = 0; t < NT; t++) if (((code ^ best_code) >> t) & 1) reverse_table(t);
    if (best < best_bad) {
        best_bad = best;
        for (int k = 0; k < NP; k++) bestpts[k] = pts[k];
        fprintf(stderr, "v=%d: a design with %d one-way classes\n", V, best);
    }
}

int main(int argc, char **argv) {
    if (argc < 5) { fprintf(stderr, "usage: v m1 m2 seed seconds [lambda T stall]\n"); return 2; }
    V = atoi(argv[1]); m1 = atoi(argv[2]);
    int ai = 4; m2 = atoi(argv[3]);
    rs = 88172645463325252ULL ^ (unsigned long long)atoll(argv[ai]) * 2654435761ULL;
    double seconds = atof(argv[ai + 1]);
    /* the cost is 2 * (partner + class deviation) + lambda * feeds deviation; moves that raise
       it by d are taken with probability exp(-d / temperature) (0: a plain hill-climb with
       sideways moves); a restart after `stall` moves without a new best */
    int lambda = argc > ai + 2 ? atoi(argv[ai + 2]) : 1;
    double T0 = argc > ai + 3 ? atof(argv[ai + 3]) : 1.0;
    long stall_max = argc > ai + 4 ? atol(argv[ai + 4]) : 400000;
    G = m1 * m2;
    four_n = (V % 4 == 0);
    if ((four_n && G != V - 1) || (!four_n && G != V)) { fprintf(stderr, "bad group order\n"); return 2; }
    for (int a = 0; a < G; a++) for (int b = 0; b < G; b++) {
        int a1 = a / m2, a2 = a % m2, b1 = b / m2, b2 = b % m2;
        sub_[a][b] = ((a1 - b1 + m1) % m1) * m2 + (a2 - b2 + m2) % m2;
    }
    for (int a = 0; a < G; a++) neg_[a] = sub_[0][a];
    INF = G;
    NP = 0;
    if (four_n) { for (int a = 0; a < G; a++) pts[NP++] = a; pts[NP++] = INF; }
    else for (int a = 1; a < G; a++) pts[NP++] = a;
    NT = NP / 4;
    int goal = four_n ? 1 : 0;
    double end = now() + seconds;
    long restarts = 0, designs = 0;
    while (now() < end && best_bad > goal) {
        restarts++;
        for (int i = NP - 1; i > 0; i--) { int j = rnd() % (i + 1); int t = pts[i]; pts[i] = pts[j]; pts[j] = t; }
        for (int x = 0; x < MAXG; x++) cp[x] = cd[x] = 0;
        cost_pc = 0; cost_d = 0;
        for (int x = 1; x < G; x++) { cost_pc += 1; cost_d += 1; if (x < neg_[x]) cost_pc += 2; }
        for (int t = 0; t < NT; t++) table(t, 1);
        double T = T0;
        long it = 0, stall = 0;
        int cost = 2 * cost_pc + lambda * cost_d, best = cost;
        while (stall < stall_max && best_bad > goal) {
            it++;
            int i = rnd() % NP, j = rnd() % NP;
            int ti = i / 4, tj = j / 4;
            if (i == j) continue;
            table(ti, -1); if (tj != ti) table(tj, -1);
            int tmp = pts[i]; pts[i] = pts[j]; pts[j] = tmp;
            table(ti, 1); if (tj != ti) table(tj, 1);
            int c = 2 * cost_pc + lambda * cost_d, d = c - cost;
            if (d <= 0 || (T > 0 && urand() < exp(-d / T))) {
                cost = c;
                if (cost < best) { best = cost; stall = 0; } else stall++;
                if (cost_pc == 0) {
                    designs++;
                    orient_all();
                    cost = 2 * cost_pc + lambda * cost_d;
                }
            } else {
                table(ti, -1); if (tj != ti) table(tj, -1);
                tmp = pts[i]; pts[i] = pts[j]; pts[j] = tmp;
                table(ti, 1); if (tj != ti) table(tj, 1);
                stall++;
            }
            if ((it & 1023) == 0) {
                T *= 0.998; if (T > 0 && T < 0.25) T = 0.25;
                if ((it & 0xffff) == 0 && now() > end) break;
            }
        }
    }
    if (best_bad < (1 << 30)) {
        print_tables(bestpts);
        fprintf(stderr, "v=%d best: %d one-way classes (%ld restarts, %ld designs met)\n", V, best_bad, restarts, designs);
        return 0;
    }
    fprintf(stderr, "v=%d no design found (%ld restarts)\n", V, restarts);
    return 1;
}
