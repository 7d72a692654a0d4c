// A knight moving toward the corner (rules/knight.sg): from (x, y) to (x - 2, y + 1),
// (x - 2, y - 1), (x + 1, y - 2) or (x - 1, y - 2), coordinates >= 0. Every move lowers x + y,
// and moves leave the box 0..=N upwards, so the contestant's table loop fills the triangle
// x + y <= 2N (closed under the moves, holding the box) diagonal by diagonal, in a plain array
// of bytes (a mex of four values is at most 4).
// Usage: knight N   (prints `x,y,sg` and the box's rows in row-major order)
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
    int N = argc > 1 ? atoi(argv[1]) : 3000;
    const size_t W = 2 * (size_t)N + 1;
    std::vector<unsigned char> g(W * W);
    int seen[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
    int stamp = 0;
    for (int s = 0; s <= 2 * N; s++)
        for (int x = 0; x <= s; x++, stamp++) {
            int y = s - x;
            if (x >= 2) seen[g[(x - 2) * W + y + 1]] = stamp;
            if (x >= 2 && y >= 1) seen[g[(x - 2) * W + y - 1]] = stamp;
            if (y >= 2) seen[g[(x + 1) * W + y - 2]] = stamp;
            if (x >= 1 && y >= 2) seen[g[(x - 1) * W + y - 2]] = stamp;
            int m = 0;
            while (seen[m] == stamp) m++;
            g[x * W + y] = (unsigned char)m;
        }
    out = (char *)malloc(32 + (size_t)(N + 1) * (N + 1) * 36);
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
