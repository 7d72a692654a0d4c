// The divisor game (rules/divisor-game.sg): from n subtract a divisor d of n with d < n.
// The contestant's table loop: list the divisors by trial division up to sqrt(n) (d and n / d),
// G(n) = mex of G(n - d), with a stamped seen[] for the mex.
// Usage: divisor-game N   (prints `n,sg` and the rows n = 0..=N)
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
    int N = argc > 1 ? atoi(argv[1]) : 200000;
    std::vector<int> g(N + 1), seen(N + 2, -1);
    for (int n = 1; n <= N; n++) {
        for (int d = 1; d * d <= n; d++) {
            if (n % d) continue;
            int e = n / d;
            if (d < n) seen[g[n - d]] = n;
            if (e != d && e < n) seen[g[n - e]] = n;
        }
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
