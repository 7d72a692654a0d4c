// Fibonacci Nim (rules/fibonacci-nim.sg, whole = 1) on the box 0..=N x 0..=N of positions
// (n, limit): from the start row (limit 0) take any t in 1..=n; otherwise t in 1..=min(limit, n);
// either way the next limit is min(2t, n - t). The contestant's table loop, n ascending (every
// move lowers n), mex with a stamped seen[].
// Usage: fibonacci-nim N   (prints `n,limit,sg` and the rows in row-major order)
#include <algorithm>
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
    int N = argc > 1 ? atoi(argv[1]) : 1000;
    int W = N + 1;
    std::vector<int> g((size_t)W * W), seen(W + 2, -1);
    int stamp = 0;
    for (int n = 0; n <= N; n++)
        for (int limit = 0; limit <= N; limit++, stamp++) {
            int most = limit == 0 ? n : std::min(limit, n);
            for (int t = 1; t <= most; t++) seen[g[(n - t) * W + std::min(2 * t, n - t)]] = stamp;
            int m = 0;
            while (seen[m] == stamp) m++;
            g[n * W + limit] = m;
        }
    out = (char *)malloc(32 + (size_t)W * W * 36);
    len = 0;
    for (const char *s = "n,limit,sg\n"; *s; s++) out[len++] = *s;
    for (int n = 0; n <= N; n++)
        for (int limit = 0; limit <= N; limit++) {
            put(n); out[len++] = ',';
            put(limit); out[len++] = ',';
            put(g[n * W + limit]); out[len++] = '\n';
        }
    fwrite(out, 1, len, stdout);
}
