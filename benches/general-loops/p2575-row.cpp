// One row of Luogu P2575 (rules/p2575-row.sg and rules/p2575-row-natural.sg): a mask m of
// `width` cells; a piece jumps to the first empty cell to its right (over the pieces next to
// it); a piece with no empty cell to its right cannot move. Every move raises m, so the
// contestant's table loop runs over all 2^width masks from the top down: for each piece, walk
// right to the first empty cell, mex with a stamped seen[].
// Usage: p2575-row N [WIDTH]   (prints `m,sg` and the rows m = 0..=N; N < 2^WIDTH, WIDTH 20)
#include <cstdio>
#include <cstdlib>
#include <vector>

static char *out;
static size_t len;
static void put(unsigned long long v) {
    char t[24];
    int k = 0;
    do t[k++] = char('0' + v % 10); while (v /= 10);
    while (k) out[len++] = t[--k];
}

int main(int argc, char **argv) {
    int N = argc > 1 ? atoi(argv[1]) : (1 << 20) - 1;
    int width = argc > 2 ? atoi(argv[2]) : 20;
    int full = 1 << width;
    std::vector<int> g(full), seen(width + 2, -1);
    for (int m = full - 1; m >= 0; m--) {
        for (int i = 0; i < width; i++) {
            if (!(m >> i & 1)) continue;
            int e = i + 1;
            while (e < width && (m >> e & 1)) e++;
            if (e < width) seen[g[m - (1 << i) + (1 << e)]] = m;
        }
        int v = 0;
        while (seen[v] == m) v++;
        g[m] = v;
    }
    out = (char *)malloc(32 + (size_t)(N + 1) * 24);
    len = 0;
    for (const char *s = "m,sg\n"; *s; s++) out[len++] = *s;
    for (int m = 0; m <= N; m++) {
        put(m); out[len++] = ',';
        put(g[m]); out[len++] = '\n';
    }
    fwrite(out, 1, len, stdout);
}
