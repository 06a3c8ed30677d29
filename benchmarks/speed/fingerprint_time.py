"""CPU time of the near-duplicate fingerprint of a main text (docs/benchmarks.md, "The
cost of a million pages").

    .venv/bin/python -m benchmarks.speed.fingerprint_time [--datasets DIR ...] [--limit 100]

Extracts the first ``--limit`` pages of each set (``auto``, content only), then times
``fingerprint_text`` (shingles and a 128-permutation MinHash, the default
``FingerprintParams``) on each main text in process CPU time, after one warm-up call.
Prints the mean and the median in ms per text: the mean is what a million pages cost.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from statistics import mean, median
from time import process_time

from benchmarks.devsets import DATASETS_DIR, load_sets
from scrapy_mainc import extract
from scrapy_mainc.dedup._fingerprint import fingerprint_text
from scrapy_mainc.dedup._params import FingerprintParams


def main() -> int:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    default = [DATASETS_DIR / "scrapinghub", DATASETS_DIR / "newspaper4k"]
    parser.add_argument("--datasets", nargs="+", type=Path, default=default)
    parser.add_argument("--limit", type=int, default=100, help="pages per set")
    args = parser.parse_args()
    texts = [
        extract(page.html, url=page.url or None, metadata=False).text
        for pages in load_sets(args.datasets).values()
        for page in pages[: args.limit]
    ]
    params = FingerprintParams()
    fingerprint_text("A warm-up text of a few words, for the caches.", params)
    times = []
    for text in texts:
        start = process_time()
        fingerprint_text(text, params)
        times.append(1000 * (process_time() - start))
    print(f"{len(times)} texts: fingerprint mean {mean(times):.2f} ms, median {median(times):.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
