"""A snapshot of every output on the development pages, to prove a change changes nothing
(or to list exactly what it changes).

    .venv/bin/python -m benchmarks.snapshot save before.json            # auto, all four sets
    .venv/bin/python -m benchmarks.snapshot save before.json --algorithms all
    ... change the code ...
    .venv/bin/python -m benchmarks.snapshot compare before.json         # lists every difference
    .venv/bin/python -m benchmarks.snapshot diff before.json after.json  # two saved snapshots
    .venv/bin/python -m benchmarks.snapshot save wcxb.json --sets wcxb     # WCXB's gzipped pages too

For each page and algorithm it keeps a digest of how the page's bytes decoded (codec,
source and the decoded text), ``text``, ``html``, ``markdown``, ``title``, ``xpath``, ``reason``,
``metadata`` and ``page_type`` (with the text itself, so that ``compare`` can say how a text changed: words
lost and gained, and where the first difference is). Each page is extracted with its gold
URL as ``url=``, as a crawl passes it. ``compare`` and ``diff`` exit 1 when anything
differs, unless only the fields named with ``--expect`` do.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
from pathlib import Path

from benchmarks.devsets import DATASETS_DIR
from scrapy_mainc import ALGORITHMS, extract
from scrapy_mainc.core._decode import decode_html

#: The datasets folder beside the checkout (``/work/shared`` for ``/work/main``) or beside
#: the folder of worktrees (``/work/wt/<name>``).
SHARED = DATASETS_DIR
DEFAULT_SETS = ("scrapinghub", "zh_news", "newspaper4k", "trafilatura_eval")
FIELDS = ("decoded", "text", "html", "markdown", "title", "xpath", "reason", "metadata", "page_type")


def _digest(value: object) -> str:
    data = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.blake2b(data.encode(), digest_size=8).hexdigest()


def snapshot(shared: Path, sets: list[str], algorithms: list[str]) -> dict[str, dict[str, object]]:
    pages: dict[str, dict[str, object]] = {}
    for name in sets:
        gold = json.loads((shared / name / "gold.json").read_text(encoding="utf-8"))
        for page_id, entry in sorted(gold.items()):
            html = _page_bytes(shared / name / "html", page_id)
            decoded = decode_html(html)
            for algorithm in algorithms:
                result = extract(html, url=entry.get("url") or None, algorithm=algorithm, markdown=True)
                record = {
                    "decoded": [decoded.encoding, decoded.source, decoded.text],
                    "text": result.text,
                    "html": result.html,
                    "markdown": result.markdown,
                    "title": result.title,
                    "xpath": result.xpath,
                    "reason": result.reason,
                    "metadata": result.metadata.as_dict(),
                    "page_type": result.page_type,
                }
                pages[f"{name}/{page_id}/{algorithm}"] = {
                    "digests": {field: _digest(record[field]) for field in FIELDS},
                    "text": result.text,
                }
    return pages


def _page_bytes(folder: Path, page_id: str) -> bytes:
    """A page's bytes: ``<id>.html``, or ``<id>.html.gz`` as WCXB stores its pages."""
    plain = folder / f"{page_id}.html"
    if plain.exists():
        return plain.read_bytes()
    with gzip.open(folder / f"{page_id}.html.gz", "rb") as page:
        return page.read()


def compare(
    before: dict[str, dict[str, object]], after: dict[str, dict[str, object]], expected: tuple[str, ...] = ()
) -> int:
    """Print every output that differs; 1 when one differs in a field not ``expected``."""
    changed, unexpected = 0, 0
    for key in sorted(set(before) | set(after)):
        old, new = before.get(key), after.get(key)
        if old is None or new is None:
            print(f"{key}: only {'after' if old is None else 'before'}")
            changed, unexpected = changed + 1, unexpected + 1
            continue
        old_digests, new_digests = old["digests"], new["digests"]
        assert isinstance(old_digests, dict) and isinstance(new_digests, dict)
        fields = [field for field in FIELDS if old_digests.get(field, "") != new_digests.get(field, "")]
        if fields:
            changed += 1
            unexpected += any(field not in expected for field in fields)
            note = _text_note(str(old["text"]), str(new["text"])) if "text" in fields else ""
            print(f"{key}: {', '.join(fields)}{note}")
    print(f"{changed} of {len(set(before) | set(after))} outputs differ")
    return 1 if unexpected else 0


def _text_note(old: str, new: str) -> str:
    """Words lost and gained, and the first place the texts part."""
    old_words, new_words = set(old.split()), set(new.split())
    start = next(
        (n for n, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), min(len(old), len(new))
    )
    start = max(0, start - 30)
    return (
        f" (words lost {len(old_words - new_words)}, gained {len(new_words - old_words)}: "
        f"{old[start : start + 80]!r} -> {new[start : start + 80]!r})"
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("mode", choices=("save", "compare", "diff"))
    parser.add_argument("path", type=Path)
    parser.add_argument("after", type=Path, nargs="?", help="diff: the second saved snapshot")
    parser.add_argument("--shared", type=Path, default=SHARED, help="the datasets folder")
    parser.add_argument("--sets", nargs="+", default=list(DEFAULT_SETS))
    parser.add_argument("--algorithms", nargs="+", default=["auto"], help="names, or 'all'")
    parser.add_argument("--expect", nargs="*", default=[], help="fields allowed to differ")
    args = parser.parse_args()
    before = json.loads(args.path.read_text(encoding="utf-8")) if args.mode != "save" else {}
    if args.mode == "diff":
        if args.after is None:
            parser.error("diff needs two saved snapshots")
        return compare(before, json.loads(args.after.read_text(encoding="utf-8")), tuple(args.expect))
    algorithms = list(ALGORITHMS) if args.algorithms == ["all"] else args.algorithms
    current = snapshot(args.shared, args.sets, algorithms)
    if args.mode == "save":
        args.path.write_text(json.dumps(current, ensure_ascii=False), encoding="utf-8")
        print(f"saved {len(current)} outputs to {args.path}")
        return 0
    return compare(before, current, tuple(args.expect))


if __name__ == "__main__":
    sys.exit(main())
