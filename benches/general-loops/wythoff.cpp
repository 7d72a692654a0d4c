// Wythoff's game (rules/wythoff.sg) on the box 0..=N x 0..=N: take from one heap, or the same
// number from both. The contestant's table loop over (x, y), mex with a stamped seen[].
// Usage: wythoff N   (prints `x,y,sg` and the rows in row-major order)
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
    std::vector<int> g((size_t)W * W), seen(3 * W + 2, -1);
    int stamp = 0;
    for (int x = 0; x <= N; x++)
        for (int y = 0; y <= N; y++, stamp++) {
            for (int t = 1; t <= x; t++) seen[g[(x - t) * W + y]] = stamp;
            for (int t = 1; t <= y; t++) seen[g[x * W + y - t]] = stamp;
            for (int t = 1; t <= x && t <= y; t++) seen[g[(x - t) * W + y - t]] = stamp;
            int m = 0;
            while (seen[m] == stamp) m++;
            g[x * W + y] = m;
        }
    out = (char *)malloc(32 + (size_t)W * W * 36);
    len = 0;
    for (const char *s = "x,y,sg\n"; *s; s++) out[len++] = *s;
    for (int x = 0; x <= N; x++)
        for (int y = 0; y <= N; y++) {
            put(x); out[len++] = ',';
            put(y); out[len++] = ',';
            put(g[x * W + y]); out[len++] = '\n';
        }
    fwrite(out, 1, len, stdout);
}
