// The naive O(n^2) table loop every contestant writes, as the baseline of benches/run.
// Usage: naive CODE N   (CODE: octal digits after the point, e.g. 07 for 0.07, or `grundy` for
// Grundy's game 4!.0: split one heap into two unequal heaps)
// Prints G(N) and a hash of G(0..=N), so that the run cannot be optimised away and the whole
// table can be compared with sgscope's: h = (h ^ G(n)) * 1099511628211 over n = 0..=N from
// h = 14695981039346656037 (64-bit FNV-1a on whole values; benches/engines/heaps.rs computes the same).
#include <cstdint>
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
    // Every value so far is below `width` (a power of two), hence so is every XOR of two of
    // them, and the mex is at most `width`.
    int width = 1;
    for (long n = 0; n <= n_max; ++n) {
        seen.assign(width + 1, 0);
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
        while (v >= width) width *= 2;
    }
    std::uint64_t hash = 14695981039346656037ull;
    for (long n = 0; n <= n_max; ++n) hash = (hash ^ static_cast<std::uint64_t>(g[n])) * 1099511628211ull;
    std::printf("G(%ld) = %d, hash = %llu\n", n_max, g[n_max], static_cast<unsigned long long>(hash));
    return 0;
}
