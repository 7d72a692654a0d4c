// The loopy heap (rules/loopy-heap.sg; benches/general-loops/loopy-heap.sg with `top`): take 1,
// 2 or 3 tokens, or from a heap n ≡ 1 (mod 5) put 2 back, never past `top`. Play may cycle, so
// the contestant builds the graph of the positions 0..=top and its reverse (plain arrays, CSR)
// and runs
//  * the retrograde analysis: terminal positions are P (remoteness 0); a FIFO queue resolves a
//    position N (1 + the least remoteness of a P option: the first P option to leave the
//    queue) or P (1 + the greatest of its N options: the last to leave); the rest are draws;
//  * the generalized Sprague–Grundy function (Smith 1966; the algorithm of Fraenkel and Yesha
//    1986), label m = 0, 1, ... in rounds: among the positions not yet labelled (all of which
//    have options labelled 0..m-1), those whose every unlabelled option has an option labelled
//    m get m — a retrograde pass seeded with the positions whose options are all labelled;
//    the ones with no option labelled m that could not get m are ∞, shown with the set of
//    their options' finite values (`inf{0,2}`).
// Usage: loopy-heap N   (top = N; prints `n,outcome,remoteness,value` and the rows n = 0..=N)
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
static void puts_(const char *s) {
    while (*s) out[len++] = *s++;
}

enum { OPEN, SIDELINED, IGNORED, LOST, WON };
static const unsigned UNLABELLED = 0xfffffffeu, INFINITE = 0xffffffffu;

int main(int argc, char **argv) {
    int N = argc > 1 ? atoi(argv[1]) : 20;
    int top = N, V = N + 1;
    // Successors (CSR), in the order of the rules.
    std::vector<int> so(V + 1), succ;
    succ.reserve((size_t)V * 4);
    for (int n = 0; n <= N; n++) {
        so[n] = succ.size();
        for (int x = 1; x <= 3; x++)
            if (x <= n) succ.push_back(n - x);
        if (n % 5 == 1 && n + 2 <= top) succ.push_back(n + 2);
    }
    so[V] = succ.size();
    // Predecessors (CSR).
    std::vector<int> po(V + 2, 0), pred(succ.size());
    for (int w : succ) po[w + 2]++;
    for (int v = 0; v < V; v++) po[v + 2] += po[v + 1];
    for (int u = 0; u < V; u++)
        for (int k = so[u]; k < so[u + 1]; k++) pred[po[succ[k] + 1]++] = u;

    // Retrograde analysis: outcome and remoteness.
    std::vector<char> st(V, OPEN);
    std::vector<int> rem(V), depth(V, 0), q;
    q.reserve(V);
    for (int v = 0; v < V; v++) {
        rem[v] = so[v + 1] - so[v];
        if (rem[v] == 0) st[v] = LOST, q.push_back(v);
    }
    for (size_t h = 0; h < q.size(); h++) {
        int v = q[h];
        for (int k = po[v]; k < po[v + 1]; k++) {
            int u = pred[k];
            if (st[u] != OPEN) continue;
            if (st[v] == LOST) st[u] = WON, depth[u] = depth[v] + 1, q.push_back(u);
            else if (--rem[u] == 0) st[u] = LOST, depth[u] = depth[v] + 1, q.push_back(u);
        }
    }
    std::vector<char> outcome(V);
    for (int v = 0; v < V; v++) outcome[v] = st[v] == LOST ? 'P' : st[v] == WON ? 'N' : 'D';

    // Generalized Sprague–Grundy values, round m labels m.
    std::vector<unsigned> label(V, UNLABELLED);
    std::vector<int> alive(V);
    for (int v = 0; v < V; v++) alive[v] = v;
    std::fill(st.begin(), st.end(), OPEN);
    for (unsigned m = 0; !alive.empty(); m++) {
        q.clear();
        for (int u : alive) {
            int c = 0;
            for (int k = so[u]; k < so[u + 1]; k++) c += label[succ[k]] >= UNLABELLED;
            rem[u] = c;
            if (c == 0) st[u] = LOST, q.push_back(u);
        }
        for (size_t h = 0; h < q.size(); h++) {
            int v = q[h];
            bool lost = st[v] == LOST;
            for (int k = po[v]; k < po[v + 1]; k++) {
                int u = pred[k];
                if (lost && (st[u] == OPEN || st[u] == SIDELINED)) st[u] = WON, q.push_back(u);
                else if (!lost && st[u] == OPEN && --rem[u] == 0) st[u] = LOST, q.push_back(u);
            }
        }
        size_t kept = 0;
        for (int u : alive) {
            if (st[u] == WON) alive[kept++] = u;
            else if (st[u] != LOST) label[u] = INFINITE, st[u] = SIDELINED;
        }
        alive.resize(kept);
        for (int v : q) {
            if (st[v] == LOST) label[v] = m, st[v] = IGNORED;
            else st[v] = label[v] == INFINITE ? SIDELINED : OPEN;
        }
    }

    out = (char *)malloc(64 + (size_t)V * 64);
    len = 0;
    puts_("n,outcome,remoteness,value\n");
    std::vector<unsigned> ks;
    for (int n = 0; n <= N; n++) {
        put(n); out[len++] = ',';
        out[len++] = outcome[n]; out[len++] = ',';
        if (outcome[n] != 'D') put(depth[n]);
        out[len++] = ',';
        if (label[n] < UNLABELLED) {
            put(label[n]);
        } else {
            ks.clear();
            for (int k = so[n]; k < so[n + 1]; k++)
                if (label[succ[k]] < UNLABELLED) ks.push_back(label[succ[k]]);
            std::sort(ks.begin(), ks.end());
            ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
            puts_("inf{");
            for (size_t i = 0; i < ks.size(); i++) {
                if (i) out[len++] = ',';
                put(ks[i]);
            }
            out[len++] = '}';
        }
        out[len++] = '\n';
    }
    fwrite(out, 1, len, stdout);
}
