#!/usr/bin/env python3
"""Serve the bundled news site on loopback and crawl it with scrapy_mainc enabled.

    python example_project/run_crawl.py [--output PATH] [--mode process|thread|inline]

Starts ``newsdemo/server.py`` on a free port of 127.0.0.1, runs the ``news`` spider with
the project's settings (scrapy_mainc enabled by its add-on), writes one JSON object per
article to ``example_project/output.jsonl`` (text, HTML, title, and the metadata fields:
``published``, ``authors``, ``site_name``...) and prints a short summary with the
publication dates and the ``mainc/`` stats (``mainc/metadata/published``...).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def start_server(delay: float) -> tuple[subprocess.Popen[str], str]:
    """Start the site server on a free loopback port; return it and its base URL."""
    command = [sys.executable, str(HERE / "newsdemo" / "server.py"), "--port", "0"]
    server = subprocess.Popen([*command, "--delay", str(delay)], stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    line = server.stdout.readline()  # "serving ... at http://127.0.0.1:PORT/ ..."
    if " at " not in line:
        server.kill()
        raise SystemExit(f"run_crawl: the site server did not start ({line.strip()!r})")
    return server, line.split(" at ")[1].split()[0]


def crawl(url: str, output: Path, mode: str | None) -> dict[str, object]:
    """Run the news spider over ``url``; return the crawl's stats ({} if it did not start)."""
    sys.path.insert(0, str(HERE))
    os.environ["SCRAPY_SETTINGS_MODULE"] = "newsdemo.settings"
    from scrapy.crawler import CrawlerProcess
    from scrapy.utils.project import get_project_settings

    settings = get_project_settings()
    feed = {"format": "jsonlines", "overwrite": True, "encoding": "utf-8"}
    settings.set("FEEDS", {str(output): feed})
    if mode:
        settings.set("MAINC_WORKER_MODE", mode)
    process = CrawlerProcess(settings)
    crawler = process.create_crawler("news")
    process.crawl(crawler, start_url=url)
    process.start()
    if process.bootstrap_failed:  # a bad setting, say: the ERROR line above says which
        return {}
    assert crawler.stats is not None
    return crawler.stats.get_stats()


def summarize(output: Path, stats: dict[str, object], seconds: float) -> None:
    items = [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines() if line]
    print(f"\n{len(items)} articles in {seconds:.1f} s -> {output}")
    for item in items:
        info = item.get("mainc", {})
        text = " ".join(item.get("main_text", "").split())
        published = (item.get("published") or "")[:10]  # the day of the publication date
        print(
            f"  {info.get('lang') or 'en':2} {info.get('algorithm', '?'):8} {published:10} "
            f"{len(item.get('main_text', '')):5} chars  {item.get('url', '').split('/', 3)[-1]:40}"
            f"  {text[:48]}{' ...' if len(text) > 48 else ''}"
            + (f"  [{info['reason']}]" if info.get("reason") else "")
        )
    counted = {key: value for key, value in sorted(stats.items()) if key.startswith("mainc/")}
    print("stats: " + ", ".join(f"{key}={value:g}" for key, value in counted.items()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=HERE / "output.jsonl")
    parser.add_argument("--mode", choices=("process", "thread", "inline"), default=None)
    parser.add_argument("--delay", type=float, default=0.0, help="server delay per page, seconds")
    args = parser.parse_args()
    server, url = start_server(args.delay)
    try:
        started = time.perf_counter()
        stats = crawl(url, args.output.resolve(), args.mode)
        if stats:
            summarize(args.output.resolve(), stats, time.perf_counter() - started)
    finally:
        server.terminate()
        server.wait(10)
    return 0 if stats.get("finish_reason") == "finished" else 1


if __name__ == "__main__":
    raise SystemExit(main())
