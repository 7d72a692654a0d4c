// Staircase Nim on four steps (rules/staircase-nim.sg): carry t >= 1 coins from step k down to
// step k - 1 (from step 1 off the staircase). Moves raise a lower step, so the box 0..=N needs
// positions past it: the sums s_k + ... + s_4 never grow, so from the box s4 <= N, s3 + s4 <= 2N,
// s2 + s3 + s4 <= 3N and s1 + ... + s4 <= 4N, a region closed under the moves. The contestant's
// table loop fills that region in a plain array [N+1][2N+1][3N+1][4N+1], in the order
// (s4, s3, s2, s1) ascending (every move lowers this tuple), mex with a stamped seen[].
// Usage: staircase-nim N   (prints `s1,s2,s3,s4,sg` and the box's rows in row-major order)
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
    int N = argc > 1 ? atoi(argv[1]) : 20;
    // g[s4][s3][s2][s1]
    const size_t D1 = 4 * N + 1, D2 = 3 * N + 1, D3 = 2 * N + 1, D4 = N + 1;
    std::vector<int> g(D4 * D3 * D2 * D1);
    auto at = [&](int s1, int s2, int s3, int s4) -> int & {
        return g[((s4 * D3 + s3) * D2 + s2) * D1 + s1];
    };
    std::vector<int> seen(4 * N + 2, -1);
    int stamp = 0;
    for (int s4 = 0; s4 <= N; s4++)
        for (int s3 = 0; s3 + s4 <= 2 * N; s3++)
            for (int s2 = 0; s2 + s3 + s4 <= 3 * N; s2++)
                for (int s1 = 0; s1 + s2 + s3 + s4 <= 4 * N; s1++, stamp++) {
                    for (int t = 1; t <= s1; t++) seen[at(s1 - t, s2, s3, s4)] = stamp;
                    for (int t = 1; t <= s2; t++) seen[at(s1 + t, s2 - t, s3, s4)] = stamp;
                    for (int t = 1; t <= s3; t++) seen[at(s1, s2 + t, s3 - t, s4)] = stamp;
                    for (int t = 1; t <= s4; t++) seen[at(s1, s2, s3 + t, s4 - t)] = stamp;
                    int m = 0;
                    while (seen[m] == stamp) m++;
                    at(s1, s2, s3, s4) = m;
                }
    out = (char *)malloc(64 + D4 * D4 * D4 * D4 * 40);
    len = 0;
    for (const char *s = "s1,s2,s3,s4,sg\n"; *s; s++) out[len++] = *s;
    for (int s1 = 0; s1 <= N; s1++)
        for (int s2 = 0; s2 <= N; s2++)
            for (int s3 = 0; s3 <= N; s3++)
                for (int s4 = 0; s4 <= N; s4++) {
                    put(s1); out[len++] = ',';
                    put(s2); out[len++] = ',';
                    put(s3); out[len++] = ',';
                    put(s4); out[len++] = ',';
                    put(at(s1, s2, s3, s4)); out[len++] = '\n';
                }
    fwrite(out, 1, len, stdout);
}
