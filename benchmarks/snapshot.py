"""A snapshot of every output on the development pages, to prove a change changes nothing
(or to list exactly what it changes).

    .venv/bin/python benchmarks/snapshot.py save before.json            # auto, all four sets
    .venv/bin/python benchmarks/snapshot.py save before.json --algorithms all
    ... change the code ...
    .venv/bin/python benchmarks/snapshot.py compare before.json         # lists every difference

For each page and algorithm it keeps a digest of ``text``, ``html``, ``title``, ``xpath``
and ``metadata`` (with the text itself, so that ``compare`` can say how a text changed:
words lost and gained). ``compare`` exits 1 when anything differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

from scrapy_mainc import ALGORITHMS, extract

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "datasets"
DEFAULT_SETS = ("scrapinghub", "zh_news", "newspaper4k", "trafilatura_eval")
FIELDS = ("text", "html", "title", "xpath", "metadata")


def _digest(value: object) -> str:
    data = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.blake2b(data.encode(), digest_size=8).hexdigest()


def snapshot(shared: Path, sets: list[str], algorithms: list[str]) -> dict[str, dict[str, object]]:
    pages: dict[str, dict[str, object]] = {}
    for name in sets:
        gold = json.loads((shared / name / "gold.json").read_text(encoding="utf-8"))
        for page_id, entry in sorted(gold.items()):
            html = (shared / name / "html" / f"{page_id}.html").read_bytes()
            for algorithm in algorithms:
                result = extract(html, url=entry.get("url") or None, algorithm=algorithm)
                record = {
                    "text": result.text,
                    "html": result.html,
                    "title": result.title,
                    "xpath": result.xpath,
                    "metadata": result.metadata.as_dict(),
                }
                pages[f"{name}/{page_id}/{algorithm}"] = {
                    "digests": {field: _digest(record[field]) for field in FIELDS},
                    "text": result.text,
                }
    return pages


def compare(before: dict[str, dict[str, object]], after: dict[str, dict[str, object]]) -> int:
    changed = 0
    for key in sorted(set(before) | set(after)):
        old, new = before.get(key), after.get(key)
        if old is None or new is None:
            print(f"{key}: only {'after' if old is None else 'before'}")
            changed += 1
            continue
        fields = [field for field in FIELDS if old["digests"][field] != new["digests"][field]]  # type: ignore[index]
        if fields:
            changed += 1
            note = ""
            if "text" in fields:
                old_words = set(str(old["text"]).split())
                new_words = set(str(new["text"]).split())
                note = f" (words lost {len(old_words - new_words)}, gained {len(new_words - old_words)})"
            print(f"{key}: {', '.join(fields)}{note}")
    print(f"{changed} of {len(set(before) | set(after))} outputs differ")
    return 1 if changed else 0


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("mode", choices=("save", "compare"))
    parser.add_argument("path", type=Path)
    parser.add_argument("--shared", type=Path, default=SHARED, help="the datasets folder")
    parser.add_argument("--sets", nargs="+", default=list(DEFAULT_SETS))
    parser.add_argument("--algorithms", nargs="+", default=["auto"], help="names, or 'all'")
    args = parser.parse_args()
    algorithms = list(ALGORITHMS) if args.algorithms == ["all"] else args.algorithms
    current = snapshot(args.shared, args.sets, algorithms)
    if args.mode == "save":
        args.path.write_text(json.dumps(current, ensure_ascii=False), encoding="utf-8")
        print(f"saved {len(current)} outputs to {args.path}")
        return 0
    return compare(json.loads(args.path.read_text(encoding="utf-8")), current)


if __name__ == "__main__":
    sys.exit(main())
