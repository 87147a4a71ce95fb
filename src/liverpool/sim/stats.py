"""Confidence intervals, stdlib only: Wilson's for a rate, Student's t for a mean.

>>> lo, hi = wilson_interval(5, 10)
>>> round(lo, 4), round(hi, 4)
(0.2366, 0.7634)
>>> lo, hi = mean_ci([1, 2, 3, 4, 5])
>>> round(lo, 3), round(hi, 3)
(1.037, 4.963)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist, fmean, stdev

__all__ = ["Z95", "mean_ci", "t_quantile_975", "wilson_interval"]

Z95 = NormalDist().inv_cdf(0.975)
"""The two-sided 95% normal quantile, 1.95996..."""

# Student's t 0.975 quantiles for 1-30 degrees of freedom; beyond, a Cornish-Fisher expansion.
_T975 = (
    12.706204736,
    4.302652730,
    3.182446305,
    2.776445105,
    2.570581836,
    2.446911851,
    2.364624252,
    2.306004135,
    2.262157163,
    2.228138852,
    2.200985160,
    2.178812830,
    2.160368656,
    2.144786688,
    2.131449546,
    2.119905299,
    2.109815578,
    2.100922040,
    2.093024054,
    2.085963447,
    2.079613845,
    2.073873068,
    2.068657610,
    2.063898562,
    2.059538553,
    2.055529439,
    2.051830516,
    2.048407142,
    2.045229642,
    2.042272456,
)


def t_quantile_975(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df`` degrees of freedom (exact to 1e-6).

    >>> round(t_quantile_975(4), 4), round(t_quantile_975(100), 4)
    (2.7764, 1.984)
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, got {df}")
    if df <= len(_T975):
        return _T975[df - 1]
    z, v = Z95, float(df)
    return (
        z
        + (z**3 + z) / (4 * v)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3)
        + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * v**4)
    )


def wilson_interval(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a rate of ``successes`` in ``trials`` (successes may be
    fractional, as for shared wins); (0, 1) when there are no trials.

    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    >>> [round(x, 4) for x in wilson_interval(0, 20)]
    [0.0, 0.1611]
    """
    if trials <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be within 0..{trials}, got {successes}")
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    center = (p + z2 / (2 * trials)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return (max(0.0, center - half), min(1.0, center + half))


def mean_ci(values: Sequence[float]) -> tuple[float, float] | None:
    """The 95% Student-t interval of the mean of ``values``; None for fewer than two values.

    >>> mean_ci([7])
    >>> mean_ci([2, 2, 2])
    (2.0, 2.0)
    """
    n = len(values)
    if n < 2:
        return None
    mean = fmean(values)
    half = t_quantile_975(n - 1) * stdev(values) / math.sqrt(n)
    return (mean - half, mean + half)
