// Breaking a chocolate bar (rules/chocolate.sg) on the box 0..=N x 0..=N: break an a x b bar
// along a grid line into two bars, both kept (a sum: XOR of their values). The contestant's
// table loop (no closed form), mex with a stamped seen[].
// Usage: chocolate N   (prints `a,b,sg` and the rows in row-major order)
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
    int N = argc > 1 ? atoi(argv[1]) : 500;
    int W = N + 1;
    std::vector<int> g((size_t)W * W);
    // An XOR of two values below 2W is below the next power of two past 2W.
    int cap = 1;
    while (cap <= 2 * W + 2) cap <<= 1;
    std::vector<int> seen(cap + 2, -1);
    int stamp = 0;
    for (int a = 0; a <= N; a++)
        for (int b = 0; b <= N; b++, stamp++) {
            for (int i = 1; i < a; i++) seen[g[i * W + b] ^ g[(a - i) * W + b]] = stamp;
            for (int j = 1; j < b; j++) seen[g[a * W + j] ^ g[a * W + b - j]] = stamp;
            int m = 0;
            while (seen[m] == stamp) m++;
            g[a * W + b] = m;
        }
    out = (char *)malloc(32 + (size_t)W * W * 36);
    len = 0;
    for (const char *s = "a,b,sg\n"; *s; s++) out[len++] = *s;
    for (int a = 0; a <= N; a++)
        for (int b = 0; b <= N; b++) {
            put(a); out[len++] = ',';
            put(b); out[len++] = ',';
            put(g[a * W + b]); out[len++] = '\n';
        }
    fwrite(out, 1, len, stdout);
}
