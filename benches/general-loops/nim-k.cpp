// Moore's Nim_k (rules/nim-k.sg, k = 2) on four heaps, the box 0..=N in each: take ta, tb, tc,
// td tokens (0..=each heap) from at least one and at most k heaps. The contestant's table
// loop: the four nested loops of the statement with the count condition, mex with a stamped
// seen[].
// Usage: nim-k N [K]   (prints `a,b,c,d,sg` and the rows in row-major order)
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
    int N = argc > 1 ? atoi(argv[1]) : 12;
    int K = argc > 2 ? atoi(argv[2]) : 2;
    const int W = N + 1;
    const int total = W * W * W * W;
    std::vector<int> g(total), seen(total + 2, -1);
    int stamp = 0;
    for (int a = 0; a <= N; a++)
        for (int b = 0; b <= N; b++)
            for (int c = 0; c <= N; c++)
                for (int d = 0; d <= N; d++, stamp++) {
                    for (int ta = 0; ta <= a; ta++)
                        for (int tb = 0; tb <= b; tb++)
                            for (int tc = 0; tc <= c; tc++)
                                for (int td = 0; td <= d; td++) {
                                    int cnt = (ta > 0) + (tb > 0) + (tc > 0) + (td > 0);
                                    if (cnt < 1 || cnt > K) continue;
                                    seen[g[(((a - ta) * W + b - tb) * W + c - tc) * W + d - td]] = stamp;
                                }
                    int m = 0;
                    while (seen[m] == stamp) m++;
                    g[((a * W + b) * W + c) * W + d] = m;
                }
    out = (char *)malloc(64 + (size_t)total * 40);
    len = 0;
    for (const char *s = "a,b,c,d,sg\n"; *s; s++) out[len++] = *s;
    for (int a = 0; a <= N; a++)
        for (int b = 0; b <= N; b++)
            for (int c = 0; c <= N; c++)
                for (int d = 0; d <= N; d++) {
                    put(a); out[len++] = ',';
                    put(b); out[len++] = ',';
                    put(c); out[len++] = ',';
                    put(d); out[len++] = ',';
                    put(g[((a * W + b) * W + c) * W + d]); out[len++] = '\n';
                }
    fwrite(out, 1, len, stdout);
}
