/* Offline: Z-cyclic / 1-rotational whist starters in two stages, random starter + exact cover
 * (NOT used at run time).
 *
 * Build: gcc -O2 -o /tmp/starter_cover research/seating/starter_cover.c
 * Usage: starter_cover v seed seconds [nodes_per_starter [mode [special]]]
 *   mode 1 (v = 4n + 1): unordered; mode 2 (v = 4n): oriented, see below.
 *
 * Over Z_m (m = v for v = 4n + 1, 0 sitting out; m = v - 1 for v = 4n, plus infinity, printed
 * as m, partnering 0 without loss of generality). Stage 1 picks a random *starter*: partner pairs
 * whose differences hit every class {g, -g} of Z_m minus 0 once. Stage 2 seats the pairs two by
 * two at tables by a depth-first exact cover with multiplicities (branching on the pair or the
 * class with the fewest possible tables; a table tried and failed is excluded for the rest of
 * that branch):
 *   v = 4n: each class is met by opponents exactly twice (the tables' orientation is chosen
 *           afterwards, research/seating/orient_designs.py);
 *   v = 4n + 1: each table also takes one of its two orientations, and the feeds differences
 *           (next minus current clockwise) hit every non-zero element once: an ordered design;
 *           with mode 1, opponents twice as for 4n, then oriented as below.
 *   v = 4n, mode 2: like the ordered case, each table takes an orientation and each feeds
 *           difference is needed once, except `special` (default 1) twice and -special never:
 *           exactly one class fed one way, v - 1 one-way pairs (for v - 1 prime every class
 *           is a unit multiple of 1, so special = 1 loses nothing).
 * After `nodes_per_starter` search nodes without a solution, a new starter. A starter that has
 * a solution is usually solved in a few hundred to a few thousand nodes, while refuting one
 * takes thousands (44) to over 100,000 (56) nodes: a low limit (e.g. 5000) samples far more
 * starters in the same time.
 * v = 4n (and unordered 4n + 1): every design found is oriented, the best of the 2^n orientations of its base tables
 * (reversing (a, b, c, d) -> (a, d, c, b) negates its feeds differences) for the fewest classes
 * fed one way; 1 is the least possible (the feeds differences sum to the infinity table's
 * partner difference), and the search goes on until a design reaches it (or the time is up).
 * Prints the base tables (the best so far) as a Python list.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXN 40   /* partner pairs (nodes) */
#define MAXE 1600 /* options */
#define MAXI 128  /* class / difference items */
static int V, M, four_n, by_class, NN, NE, NI; /* by_class: opponents twice, orient later */
static int special; /* v = 4n, mode 2: the class fed one way, `special` twice and -special never */
static int pa[MAXN], pb[MAXN];          /* partner pairs; node 0 = (infinity, 0) when 4n */
static int ei[MAXE], ej[MAXE], eo[MAXE]; /* option: nodes i, j, orientation */
static int ecnt[MAXE], eit[MAXE][4], emul[MAXE][4];
static int need[MAXI], used_node[MAXN];
static int chosen[MAXN], nchosen;
static long nodes, node_limit;
static unsigned long long rs;
static unsigned rnd(void) { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return (unsigned)(rs >> 11); }
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static int md(int x);
static int cls(int x);
/* v = 4n: the fewest classes fed one way over the 2^n orientations of the chosen tables */
static int tab[MAXN][4], best_tab[MAXN][4], best_bad = 1 << 30;
static int orient_tables(int nt) {
    int fed[MAXI], best = 1 << 30;
    unsigned long long best_code = 0, code = 0, total = 1ULL << nt;
    memset(fed, 0, sizeof fed);
    for (int t = 0; t < nt; t++) for (int k = 0; k < 4; k++) {
        int x = tab[t][k], y = tab[t][(k + 1) % 4];
        if (x != M && y != M) fed[md(y - x)]++;
    }
    for (unsigned long long i = 0; i < total; i++) {
        if (i) { /* Gray code: reverse one table */
            int t = __builtin_ctzll(i);
            int s = (code >> t) & 1 ? -1 : 1; /* currently reversed: undo */
            for (int k = 0; k < 4; k++) {
                int x = tab[t][k], y = tab[t][(k + 1) % 4];
                if (x == M || y == M) continue;
                fed[md(y - x)] -= s; fed[md(x - y)] += s;
            }
            code ^= 1ULL << t;
        }
        int bad = 0;
        for (int g = 1; g < M; g++) bad += abs(fed[g] - 1);
        if (bad / 2 < best) { best = bad / 2; best_code = code; }
    }
    for (int t = 0; t < nt; t++) if ((best_code >> t) & 1) {
        int x = tab[t][1]; tab[t][1] = tab[t][3]; tab[t][3] = x;
    }
    return best;
}
static int md(int x) { x %= M; return x < 0 ? x + M : x; }
static int cls(int x) { x = md(x); return x < M - x ? x : M - x; }

/* stage 1: random starter by randomised depth-first search */
static int sfree[MAXI], nfree, cused[MAXI], npairs, sbudget;
static int starter_dfs(void) {
    if (--sbudget < 0) return 0;
    if (nfree == 0) return 1;
    int k = rnd() % nfree, a = sfree[k];
    sfree[k] = sfree[--nfree];
    int order[MAXI], no = nfree;
    for (int t = 0; t < no; t++) order[t] = t;
    for (int t = no - 1; t > 0; t--) { int r = rnd() % (t + 1); int x = order[t]; order[t] = order[r]; order[r] = x; }
    for (int t = 0; t < no; t++) {
        int idx = order[t], b = sfree[idx], c = cls(b - a);
        if (cused[c]) continue;
        cused[c] = 1;
        sfree[idx] = sfree[--nfree];
        pa[npairs] = a; pb[npairs] = b; npairs++;
        if (starter_dfs()) return 1;
        npairs--;
        sfree[nfree++] = sfree[idx]; sfree[idx] = b;
        cused[c] = 0;
    }
    sfree[nfree++] = sfree[k]; sfree[k] = a;
    return 0;
}
static int make_starter(void) {
    memset(cused, 0, sizeof cused);
    nfree = 0; npairs = 0;
    if (four_n) { pa[0] = M; pb[0] = 0; npairs = 1; }
    for (int x = 1; x < M; x++) sfree[nfree++] = x;
    sbudget = 100000;
    return starter_dfs();
}

static void add_item(int e, int item) {
    for (int k = 0; k < ecnt[e]; k++) if (eit[e][k] == item) { emul[e][k]++; return; }
    eit[e][ecnt[e]] = item; emul[e][ecnt[e]] = 1; ecnt[e]++;
}
static void build_options(void) {
    NN = npairs; NE = 0;
    for (int i = 0; i < NN; i++) for (int j = i + 1; j < NN; j++) for (int o = 0; o < (by_class ? 1 : 2); o++) {
        int e = NE++;
        ei[e] = i; ej[e] = j; eo[e] = o; ecnt[e] = 0;
        int a = pa[i], c = pb[i], b = o ? pb[j] : pa[j], d = o ? pa[j] : pb[j];
        int t[4] = {a, b, c, d};
        /* mode 2: the feeds differences of all tables sum to d - b of the infinity table (the
         * others sum to 0 each), and every non-zero element once plus special twice, -special
         * never, sums to 2 special: only the infinity table with d - b = 2 special can occur */
        if (special && i == 0 && md(d - b) != md(2 * special)) { NE--; continue; }
        for (int k = 0; k < 4; k++) {
            int x = t[k], y = t[(k + 1) % 4];
            if (x == M || y == M) continue; /* infinity */
            add_item(e, by_class ? cls(y - x) : md(y - x));
        }
    }
    /* shuffle the options (the search takes them in this order) */
    for (int e = NE - 1; e > 0; e--) {
        int r = rnd() % (e + 1);
        int ti = ei[e], tj = ej[e], to = eo[e], tc = ecnt[e], tit[4], tmu[4];
        memcpy(tit, eit[e], sizeof tit); memcpy(tmu, emul[e], sizeof tmu);
        ei[e] = ei[r]; ej[e] = ej[r]; eo[e] = eo[r]; ecnt[e] = ecnt[r];
        memcpy(eit[e], eit[r], sizeof tit); memcpy(emul[e], emul[r], sizeof tmu);
        ei[r] = ti; ej[r] = tj; eo[r] = to; ecnt[r] = tc;
        memcpy(eit[r], tit, sizeof tit); memcpy(emul[r], tmu, sizeof tmu);
    }
    NI = M;
    for (int x = 0; x < MAXI; x++) need[x] = 0;
    for (int x = 1; x < M; x++) {
        if (by_class) { if (x <= M - x) need[x] = 2; }
        else need[x] = 1;
    }
    if (special) { need[special] = 2; need[M - special] = 0; }
}
/* incremental state: dead[e] counts the reasons option e is impossible (a node taken, an item
 * whose need is below its multiplicity in e, banned); node_opts / item_opts count the live
 * options at each node / item */
static int dead[MAXE], node_opts[MAXN], item_opts[MAXI];
static int nadj[MAXN][MAXE], nn_adj[MAXN], iadj[MAXI][MAXE], iadj_mul[MAXI][MAXE], ni_adj[MAXI];
static void kill(int e, int s) { /* s = +1: one more reason; -1: one reason fewer */
    if (s > 0 ? dead[e]++ == 0 : --dead[e] == 0) {
        node_opts[ei[e]] -= s; node_opts[ej[e]] -= s;
        for (int k = 0; k < ecnt[e]; k++) item_opts[eit[e][k]] -= s;
    }
}
static void init_state(void) {
    memset(nn_adj, 0, sizeof nn_adj); memset(ni_adj, 0, sizeof ni_adj);
    memset(node_opts, 0, sizeof node_opts); memset(item_opts, 0, sizeof item_opts);
    for (int e = 0; e < NE; e++) {
        dead[e] = 0;
        nadj[ei[e]][nn_adj[ei[e]]++] = e; nadj[ej[e]][nn_adj[ej[e]]++] = e;
        node_opts[ei[e]]++; node_opts[ej[e]]++;
        for (int k = 0; k < ecnt[e]; k++) {
            int x = eit[e][k];
            iadj[x][ni_adj[x]] = e; iadj_mul[x][ni_adj[x]] = emul[e][k]; ni_adj[x]++;
            item_opts[x]++;
        }
    }
    for (int x = 0; x < MAXI; x++) /* an option needing an item more often than it is needed */
        for (int t = 0; t < ni_adj[x]; t++) if (iadj_mul[x][t] > need[x]) kill(iadj[x][t], 1);
}
static void item_need(int x, int from, int to) { /* need of x goes from `from` to `to` */
    for (int t = 0; t < ni_adj[x]; t++) {
        int mu = iadj_mul[x][t];
        int before = mu > from, after = mu > to;
        if (after != before) kill(iadj[x][t], after ? 1 : -1);
    }
}
static void apply(int e, int s) {
    int i = ei[e], j = ej[e];
    if (s > 0) {
        used_node[i] = used_node[j] = 1;
        for (int t = 0; t < nn_adj[i]; t++) kill(nadj[i][t], 1);
        for (int t = 0; t < nn_adj[j]; t++) kill(nadj[j][t], 1);
        for (int k = 0; k < ecnt[e]; k++) {
            int x = eit[e][k];
            item_need(x, need[x], need[x] - emul[e][k]);
            need[x] -= emul[e][k];
        }
    } else {
        for (int k = ecnt[e] - 1; k >= 0; k--) {
            int x = eit[e][k];
            item_need(x, need[x], need[x] + emul[e][k]);
            need[x] += emul[e][k];
        }
        for (int t = 0; t < nn_adj[j]; t++) kill(nadj[j][t], -1);
        for (int t = 0; t < nn_adj[i]; t++) kill(nadj[i][t], -1);
        used_node[i] = used_node[j] = 0;
    }
}
static int search(void) {
    if (++nodes > node_limit) return -1;
    if (nchosen == NN / 2) return 1;
    int best = 1 << 30, kind = 0, which = -1;
    for (int i = 0; i < NN; i++) if (!used_node[i] && node_opts[i] < best) { best = node_opts[i]; kind = 0; which = i; }
    for (int x = 1; x < M; x++) if (need[x] > 0) {
        if (item_opts[x] < need[x]) return 0;
        if (item_opts[x] < best) { best = item_opts[x]; kind = 1; which = x; }
    }
    if (best == 0) return 0;
    int cand[MAXE], nc = 0;
    if (kind == 0) { for (int t = 0; t < nn_adj[which]; t++) if (!dead[nadj[which][t]]) cand[nc++] = nadj[which][t]; }
    else for (int t = 0; t < ni_adj[which]; t++) if (!dead[iadj[which][t]]) cand[nc++] = iadj[which][t];
    int r = 0, tried[MAXE], nt = 0;
    for (int c = 0; c < nc && r == 0; c++) {
        int e = cand[c];
        if (dead[e]) continue;
        apply(e, 1); chosen[nchosen++] = e;
        r = search();
        if (r == 1) return 1;
        apply(e, -1); nchosen--;
        kill(e, 1); tried[nt++] = e; /* excluded for the rest of this branch */
    }
    for (int t = nt - 1; t >= 0; t--) kill(tried[t], -1);
    return r;
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: v seed seconds [nodes_per_starter [unordered]]\n"); return 2; }
    V = atoi(argv[1]);
    rs = 88172645463325252ULL ^ (unsigned long long)atoll(argv[2]) * 2654435761ULL;
    double end = now() + atof(argv[3]);
    node_limit = argc > 4 ? atol(argv[4]) : 200000;
    four_n = V % 4 == 0;
    M = four_n ? V - 1 : V;
    int mode = argc > 5 ? atoi(argv[5]) : 0;
    by_class = (four_n && mode != 2) || (!four_n && mode == 1);
    if (four_n && mode == 2) special = argc > 6 ? atoi(argv[6]) : 1;
    long starters = 0, exhausted = 0;
    while (now() < end) {
        if (!make_starter()) continue;
        starters++;
        build_options();
        memset(used_node, 0, sizeof used_node);
        init_state();
        nchosen = 0; nodes = 0;
        int r = search();
        if (r == 0) exhausted++;
        if (r == 1) {
            for (int t = 0; t < nchosen; t++) {
                int e = chosen[t], i = ei[e], j = ej[e];
                tab[t][0] = pa[i]; tab[t][2] = pb[i];
                tab[t][1] = eo[e] ? pb[j] : pa[j]; tab[t][3] = eo[e] ? pa[j] : pb[j];
            }
            int bad = by_class ? orient_tables(nchosen) : special ? 1 : 0;
            if (bad < best_bad) {
                best_bad = bad;
                memcpy(best_tab, tab, sizeof tab);
                printf("[");
                for (int t = 0; t < nchosen; t++)
                    printf("(%d, %d, %d, %d)%s", tab[t][0], tab[t][1], tab[t][2], tab[t][3], t + 1 < nchosen ? ", " : "");
                printf("]\n");
                fflush(stdout);
                fprintf(stderr, "v=%d: found at starter %ld (%ld searched to the end) in %ld nodes, %d one-way classes\n",
                        V, starters, exhausted, nodes, bad);
            }
            if (best_bad <= (four_n ? 1 : 0)) return 0;
        }
    }
    if (best_bad < (1 << 30)) return 0;
    fprintf(stderr, "v=%d: none in %ld starters (%ld searched to the end)\n", V, starters, exhausted);
    return 1;
}
