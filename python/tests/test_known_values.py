"""Published Sprague–Grundy sequences (the ones tests/known_values.rs checks), from Python."""

from __future__ import annotations

import numpy as np

import sgscope

# Kayles, octal 0.77: OEIS A002186 (Winning Ways, ch. 4, Table 6).
KAYLES = [
    0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2,
    1, 8, 6, 7, 4, 1, 2, 3, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 4, 2, 7, 4, 1, 2, 8,
    1, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7,
]

# Dawson's Kayles, octal 0.07: OEIS A002187 (Winning Ways, ch. 4).
DAWSONS_KAYLES = [
    0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5,
    2, 7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0,
    4, 5, 3, 7, 4, 8, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 9, 3, 3, 0,
]

# Grundy's game, 4!.0: OEIS A002188; Winning Ways p. 96 lists G(0..=59).
GRUNDYS_GAME = [
    0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2, 3, 1,
    2, 4, 1, 2, 4, 1, 2, 4, 1, 5, 4, 1, 5, 4, 1, 5, 4, 1, 0, 2, 1, 0, 2, 1, 5, 2, 1, 3,
]


def values(spec, to, **params):
    return sgscope.load(spec, **params).table(to).tolist()


def test_kayles_is_oeis_a002186():
    assert values("octal 0.77", 83) == KAYLES
    assert values("rules/kayles.sg", 83) == KAYLES


def test_dawsons_kayles_is_oeis_a002187():
    assert values("octal 0.07", 89) == DAWSONS_KAYLES
    assert values("rules/dawsons-kayles.sg", 89) == DAWSONS_KAYLES
    # Dawson's chess (0.137) is Dawson's Kayles shifted by one (Winning Ways ch. 4).
    assert values("octal 0.137", 88) == DAWSONS_KAYLES[1:]


def test_grundys_game_is_oeis_a002188():
    assert values("takebreak 4!.0", 59) == GRUNDYS_GAME
    assert values("rules/grundys-game.sg", 59) == GRUNDYS_GAME


def test_nim_is_the_identity_oeis_a001477():
    # Bouton (1901).
    assert values("move x in 1..=n => n - x", 300) == list(range(301))


def test_the_divisor_game_is_the_ruler_function_oeis_a007814():
    g = np.array(values("rules/divisor-game.sg", 2000))
    n = np.arange(1, 2001)
    ruler = np.array([(int(k) & -int(k)).bit_length() - 1 for k in n])
    assert g[0] == 0 and (g[1:] == ruler).all()


def test_subtraction_games():
    # Ferguson, Game Theory I §1.4: S = {1, 3, 4} has 0 1 0 1 2 3 2 repeating.
    assert values("subtraction {1, 3, 4}", 699) == [[0, 1, 0, 1, 2, 3, 2][n % 7] for n in range(700)]
    # Bash game: G(n) = n mod (k + 1), with the parameter set from Python.
    assert values("param k = 5\nsubtraction 1..=k", 499) == [n % 6 for n in range(500)]
    assert values("param k = 5\nsubtraction 1..=k", 499, k=3) == [n % 4 for n in range(500)]


def test_the_chocolate_bar_is_ab_minus_one_mod_two():
    # Every play of an a × b bar lasts ab − 1 breaks.
    bar = sgscope.load("rules/chocolate.sg").table(12)
    a, b = np.indices(bar.shape)
    inside = (a >= 1) & (b >= 1)
    assert (bar[inside] == ((a * b - 1) % 2)[inside]).all()
