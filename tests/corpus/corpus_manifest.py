"""The corpus's manifest for the corpus suites: where the corpus is (env
DXSPV_CORPUS, else the directory given) and its rows (manifest.tsv)."""
import csv
import os


def read_manifest(corpus_arg):
    """(corpus directory, rows as dicts), or (corpus directory, None) after
    printing why the suite is skipped (exit status 77) when there is no corpus."""
    corpus = os.environ.get("DXSPV_CORPUS") or corpus_arg
    manifest = os.path.join(corpus, "manifest.tsv")
    if not os.path.isfile(manifest):
        print(f"corpus not found at {corpus} (set DXSPV_CORPUS): skipped")
        return corpus, None
    with open(manifest, newline="", encoding="utf-8") as f:
        return corpus, list(csv.DictReader(f, delimiter="\t"))
