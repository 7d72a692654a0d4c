// The naive O(n^2) table loop every contestant writes, as the baseline of bench/run.
// Usage: naive CODE N   (CODE: octal digits after the point, e.g. 07 for 0.07, or `grundy` for
// Grundy's game 4!.0: split one heap into two unequal heaps)
// Prints G(N) and the XOR of G(0..=N) so the run cannot be optimised away and can be compared.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s OCTAL_DIGITS N\n", argv[0]);
        return 2;
    }
    const char* code = argv[1];
    const long n_max = std::atol(argv[2]);
    const bool grundy = std::strcmp(code, "grundy") == 0;
    const int t = grundy ? 0 : static_cast<int>(std::strlen(code));  // digits d1..dt
    std::vector<int> g(n_max + 1, 0);
    std::vector<char> seen;
    for (long n = 0; n <= n_max; ++n) {
        seen.assign(1024, 0);
        if (grundy)
            for (long a = 1; a < n - a; ++a) seen[g[a] ^ g[n - a]] = 1;
        for (int k = 1; k <= t && k <= n; ++k) {
            const int d = code[k - 1] - '0';
            const long m = n - k;
            if ((d & 1) && m == 0) seen[0] = 1;
            if ((d & 2) && m >= 1) seen[g[m]] = 1;
            if (d & 4)
                for (long a = 1; a <= m / 2; ++a) seen[g[a] ^ g[m - a]] = 1;
        }
        int v = 0;
        while (seen[v]) ++v;
        g[n] = v;
    }
    int x = 0;
    for (long n = 0; n <= n_max; ++n) x ^= g[n];
    std::printf("G(%ld) = %d, xor = %d\n", n_max, g[n_max], x);
    return 0;
}
