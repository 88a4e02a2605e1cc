"""Write trafilatura's main text for every page of a real-page corpus, for `npm run score:reader`.

    python3 bench/reader/external/trafilatura-texts.py CORPUS_DIR OUT.json [default|precision|recall]

CORPUS_DIR is laid out as test/fixtures/real/<corpus>/ is (expected.json and the gzipped pages beside it). Each page
is decoded with its recorded charset and read with `trafilatura.extract` (plain text, tables kept, comments left out;
`favor_precision` or `favor_recall` for the other two modes). OUT.json is a list of {id, text, ms, error}: a page
that raises is scored as empty and its error kept.

trafilatura is not one of aeq's dependencies and this script is never run by CI: it measures the best-known open
extractor on the same pages and the same scorer as aeq, so that a target for aeq's reader can be read against the
state of the art. docs/real-inputs.md ("The state of the art on the same pages") says which versions were read and
how they were installed on a machine without PyPI.
"""
import gzip
import json
import sys
import time
import warnings

warnings.filterwarnings("ignore")

import trafilatura  # noqa: E402

MODES = {"default": {}, "precision": {"favor_precision": True}, "recall": {"favor_recall": True}}


def main() -> None:
    if len(sys.argv) not in (3, 4) or (len(sys.argv) == 4 and sys.argv[3] not in MODES):
        sys.exit(f"usage: {sys.argv[0]} CORPUS_DIR OUT.json [{'|'.join(MODES)}]")
    corpus_dir, out = sys.argv[1], sys.argv[2]
    mode = MODES[sys.argv[3] if len(sys.argv) == 4 else "default"]
    with open(f"{corpus_dir}/expected.json", encoding="utf-8") as f:
        pages = json.load(f)
    rows = []
    for i, page in enumerate(pages):
        with gzip.open(f"{corpus_dir}/{page['file']}") as f:
            html = f.read().decode(page.get("charset") or "utf-8", errors="replace")
        started = time.perf_counter()
        try:
            text, error = trafilatura.extract(html, output_format="txt", include_comments=False,
                                              include_tables=True, **mode) or "", None
        except Exception as e:  # noqa: BLE001 - any crash is that page's failure, not the run's
            text, error = "", repr(e)[:200]
        rows.append({"id": page["id"], "text": text, "ms": round((time.perf_counter() - started) * 1000, 1),
                     "error": error})
        print(f"\r{i + 1}/{len(pages)}", end="", file=sys.stderr)
    print(file=sys.stderr)
    with open(out, "w", encoding="utf-8") as f:
        json.dump(rows, f, ensure_ascii=False)


if __name__ == "__main__":
    main()
