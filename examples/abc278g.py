"""A contestant's solution of AtCoder ABC278 G "Generalized Subtraction Game" in Python (the
same play as examples/abc278g.rs), to run under
`sgscope judge rules/abc278g.sg N --set L=.. --set R=.. --protocol cards -- python3 examples/abc278g.py`.

When L < R, or L = R with N - L even: go first, take the middle block so that two equal rows
remain, then answer every move by its mirror image. Otherwise (L = R) compute the Grundy values
of rows, G(m) = mex{G(a) ^ G(m - L - a)}, in O(N^2), and play to XOR 0.
"""
import sys


def rows(on):
    """The rows of cards on the table: (first card, length)."""
    found, i = [], 1
    while i < len(on):
        if on[i]:
            start = i
            while on[i]:
                i += 1
            found.append((start, i - start))
        i += 1
    return found


def values(n, l):
    """G(0..=n) for removing exactly l consecutive cards."""
    g = [0] * (n + 1)
    for m in range(l, n + 1):
        seen = {g[a] ^ g[m - l - a] for a in range(m - l + 1)}
        g[m] = next(v for v in range(m + 2) if v not in seen)
    return g


def winning_move(on, l, g):
    found = rows(on)
    total = 0
    for _, length in found:
        total ^= g[length]
    for start, length in found:
        for a in range(max(length - l, 0) + 1):
            if length >= l and total ^ g[length] ^ g[a] ^ g[length - l - a] == 0:
                return (start + a, l)
    return None


def first_move(on, l):
    return next(((start, l) for start, length in rows(on) if length >= l), None)


def main():
    read = lambda: [int(w) for w in sys.stdin.readline().split()]
    say = lambda text: (print(text), sys.stdout.flush())
    n, l, r = read()[:3]
    on = [False] + [True] * n + [False]
    mirror = (l < r or (n - l) % 2 == 0) and l <= n
    grundy = [] if mirror else values(n, l)

    def take(x, y):
        for c in range(x, x + y):
            on[c] = False

    total = 0
    if not mirror:
        for _, length in rows(on):
            total ^= grundy[length]
    first = mirror or total != 0
    say("First" if first else "Second")
    my_turn = first
    while True:
        if my_turn:
            if mirror:  # the first move: the middle block, y = n (mod 2), L <= y <= R
                y = l if (n - l) % 2 == 0 else l + 1
                x = (n - y) // 2 + 1
            else:
                x, y = winning_move(on, l, grundy) or first_move(on, l) or (0, 0)
            say(f"{x} {y}")
            if (x, y) == (0, 0):
                return
            take(x, y)
        a, b = read()[:2]
        if a <= 0:
            return  # 0 0: we won; -1 -1: we lost
        take(a, b)
        if mirror:
            x = n + 2 - a - b
            say(f"{x} {b}")
            take(x, b)
            my_turn = False
        else:
            my_turn = True


main()
