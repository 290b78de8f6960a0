"""The percentile bootstrap over units (papers or sentences) of per-unit counts.

A figure is a statistic of counts summed over units (true positives, system and gold
sizes); a resample draws as many units with replacement, which is a multinomial draw of
each unit's multiplicity, so the resampled sums are one matrix product.
"""

import math
import zlib
from collections.abc import Callable, Sequence

import numpy as np

BOOTSTRAP = 1000
SEED = 16
LEVEL = 0.95

Figure = dict[str, float]  # value, low, high


def resample_weights(units: int, resamples: int, seed: int, stream: str = "") -> np.ndarray:
    """(resamples, units) multiplicities: how often each unit is drawn in each resample of
    ``units`` draws with replacement."""
    rng = np.random.default_rng([seed, zlib.crc32(stream.encode())])
    return rng.multinomial(units, np.full(units, 1.0 / units), size=resamples)


def percentile_interval(
    values: Sequence[float] | np.ndarray, level: float = LEVEL
) -> tuple[float, float]:
    """The central ``level`` interval of the values: their (2.5th, 97.5th) percentiles."""
    tail = (1.0 - level) / 2 * 100
    low, high = np.percentile(np.asarray(values, dtype=float), [tail, 100 - tail])
    return float(low), float(high)


def bootstrap_interval(
    units: Sequence[Sequence[int]],
    statistic: Callable[[np.ndarray], float],
    *,
    resamples: int = BOOTSTRAP,
    seed: int = SEED,
) -> tuple[float, float]:
    """The 95% percentile-bootstrap interval of ``statistic`` of the summed per-unit counts."""
    counts = np.asarray(units, dtype=np.int64)
    sums = resample_weights(len(counts), resamples, seed) @ counts
    return percentile_interval([statistic(row) for row in sums])


def figure(value: float, samples: Sequence[float] | np.ndarray) -> Figure:
    """A point value with the percentile interval of its resampled values."""
    low, high = percentile_interval(samples)
    return {"value": value, "low": low, "high": high}


def ratios(sums: np.ndarray) -> np.ndarray:
    """Per row, the first column over the second (0.0 where the second is 0)."""
    return np.where(sums[:, 1] > 0, sums[:, 0] / np.maximum(sums[:, 1], 1), 0.0)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``k / n`` (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)
