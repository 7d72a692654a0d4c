"""A notebook-style walk through sgscope from Python: Dawson's Kayles.

Run it from the repository's root after `pip install ./python` (see docs/guide/python.md):

    python examples/python/walkthrough.py [--plot FILE.png]

Each step is a cell you could paste into a notebook. With matplotlib installed, `--plot`
draws G(n); without it, the plot step is skipped with a note.
"""

from __future__ import annotations

import argparse

import numpy as np

import sgscope


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plot", metavar="FILE", help="draw G(n) into FILE (needs matplotlib)")
    args = parser.parse_args()

    # 1. Load Dawson's Kayles: by its octal code, or from the example rules file.
    dawson = sgscope.load("octal 0.07")
    same = sgscope.load("rules/dawsons-kayles.sg")
    print(dawson, "|", same)

    # 2. Its values G(0..=100) as a numpy array; the P-positions are the zeros.
    g = dawson.table(100)
    print("G(0..=20):", g[:21].tolist())
    print("P-positions below 100:", np.flatnonzero(g == 0).tolist())

    # 3. The period, proved by the octal periodicity theorem: the report has the fields of
    #    `sgscope period --json`.
    report = dawson.period()
    print(f"preperiod {report.preperiod}, period {report.period}, proved: {report.proved}")
    print("why:", report.reason)

    # 4. With the period, G(n) for any n: the values repeat from the preperiod on.
    start, p = report.preperiod, report.period
    values = dawson.table(start + p)

    def grundy(n: int) -> int:
        return int(values[n] if n < start else values[start + (n - start) % p])

    print("G(10^18) =", grundy(10**18))

    # 5. A sum of heaps: who wins, and the winning moves (as `sgscope solve --json`).
    solved = dawson.solve([5, 9, 12])
    print(f"5 + 9 + 12: outcome {solved.outcome}, value {solved.value}")
    for move in solved.winning_moves:
        print(f"  in heap #{move['component']}: leave {move['result']}")
    # Sprague–Grundy: the value of a sum is the XOR of its heaps' values.
    assert solved.value == grundy(5) ^ grundy(9) ^ grundy(12)

    # 6. Plot G(n), if matplotlib is installed.
    if args.plot:
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("note: matplotlib is not installed; skipping the plot (pip install matplotlib)")
            return
        n = np.arange(len(g))
        fig, ax = plt.subplots(figsize=(9, 3))
        ax.plot(n, g, ".-", lw=0.6)
        ax.scatter(n[g == 0], g[g == 0], color="red", zorder=3, label="P-positions")
        ax.axvline(start, color="grey", ls=":", label=f"preperiod {start}")
        ax.set(xlabel="n", ylabel="G(n)", title=f"{dawson.name}: period {p}")
        ax.legend()
        fig.savefig(args.plot, dpi=120, bbox_inches="tight")
        print("wrote", args.plot)


if __name__ == "__main__":
    main()
