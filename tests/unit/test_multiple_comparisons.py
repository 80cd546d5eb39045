"""Holm and Bonferroni adjusted p-values (:mod:`meteor.analysis.multiple_comparisons`)
equal values computed by hand (statsmodels' ``multipletests`` gives the same; it is not
installed here)."""

from __future__ import annotations

import math

import pytest

from meteor.analysis.multiple_comparisons import adjust_p_values, correction_name


def test_holm_by_hand() -> None:
    # sorted: 0.005 (×4 = 0.02), 0.01 (×3 = 0.03), 0.03 (×2 = 0.06), 0.04 (×1 = 0.04 → 0.06)
    got = adjust_p_values([0.01, 0.04, 0.03, 0.005], "holm")
    assert got == pytest.approx([0.03, 0.06, 0.06, 0.02], abs=1e-15)


def test_bonferroni_by_hand() -> None:
    got = adjust_p_values([0.01, 0.04, 0.03, 0.005], "bonferroni")
    assert got == pytest.approx([0.04, 0.16, 0.12, 0.02], abs=1e-15)


def test_capped_at_one_and_monotone() -> None:
    assert adjust_p_values([0.3, 0.4], "holm") == pytest.approx([0.6, 0.6])  # 0.4 → max(0.6, 0.4)
    assert adjust_p_values([0.6, 0.9], "holm") == (1.0, 1.0)
    assert adjust_p_values([0.6, 0.9], "bonferroni") == (1.0, 1.0)


def test_none_and_nan() -> None:
    assert adjust_p_values([0.01, 0.2], "none") == (0.01, 0.2)
    got = adjust_p_values([0.02, math.nan, 0.5], "holm")  # m = 2: the NaN is not a test
    assert got[0] == pytest.approx(0.04) and math.isnan(got[1]) and got[2] == 0.5


def test_unknown_correction_names_the_field() -> None:
    with pytest.raises(ValueError, match="correction must be one of holm, bonferroni, none"):
        adjust_p_values([0.1], "fdr")
    assert correction_name("holm") == "Holm"
