// Take at most half (rules/take-half.sg): from a heap n take x in 1..=n/2.
// The contestant's table loop: G(n) = mex of G(n - x), with a stamped seen[] for the mex.
// Usage: take-half N   (prints `n,sg` and the rows n = 0..=N, as `sgscope table --format csv`)
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
    int N = argc > 1 ? atoi(argv[1]) : 65535;
    std::vector<int> g(N + 1), seen(N + 2, -1);
    for (int n = 0; n <= N; n++) {
        for (int x = 1; x <= n / 2; x++) seen[g[n - x]] = n;
        int m = 0;
        while (seen[m] == n) m++;
        g[n] = m;
    }
    out = (char *)malloc(32 + (size_t)(N + 1) * 24);
    len = 0;
    for (const char *s = "n,sg\n"; *s; s++) out[len++] = *s;
    for (int n = 0; n <= N; n++) {
        put(n); out[len++] = ',';
        put(g[n]); out[len++] = '\n';
    }
    fwrite(out, 1, len, stdout);
}
