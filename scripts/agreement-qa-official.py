"""The oracle of `npm run agreement:qa`: EM and F1 as HotpotQA's official
`hotpot_evaluate_v1.py` defines them, re-implemented here from its specification
(docs/decisions/0020-household-rules-and-qa-f1.md; shared/docs/reflexion-reference.md
section 2.4) in the same language and with the same standard library (`re`,
`string`, `collections.Counter`), so that Python's own semantics (str.lower,
Unicode-aware \\b, str.split) decide every case.

Reads JSON lines {"prediction": str, "gold": str} on stdin and writes one JSON line
per input: {"em": bool, "f1": float, "precision": float, "recall": float,
"normalizedPrediction": str, "normalizedGold": str}. Floats are written with repr
precision (json.dumps), so the caller can compare them bit for bit.
"""

import json
import re
import string
import sys
from collections import Counter

PUNCTUATION = set(string.punctuation)
ARTICLES = re.compile(r"\b(a|an|the)\b")
SPECIAL = ("yes", "no", "noanswer")


def normalise(text):
    """Lower-case, drop ASCII punctuation, blank out whole-word articles, collapse whitespace."""
    lowered = text.lower()
    without_punctuation = "".join(ch for ch in lowered if ch not in PUNCTUATION)
    without_articles = ARTICLES.sub(" ", without_punctuation)
    return " ".join(without_articles.split())


def scores(prediction, gold):
    """(f1, precision, recall) with the yes/no/noanswer rule and multiset token overlap."""
    p = normalise(prediction)
    g = normalise(gold)
    if (p in SPECIAL or g in SPECIAL) and p != g:
        return 0.0, 0.0, 0.0
    p_tokens = p.split()
    g_tokens = g.split()
    overlap = sum((Counter(p_tokens) & Counter(g_tokens)).values())
    if overlap == 0:
        return 0.0, 0.0, 0.0
    precision = 1.0 * overlap / len(p_tokens)
    recall = 1.0 * overlap / len(g_tokens)
    return (2 * precision * recall) / (precision + recall), precision, recall


def main():
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        pair = json.loads(line)
        prediction, gold = pair["prediction"], pair["gold"]
        f1, precision, recall = scores(prediction, gold)
        out.write(
            json.dumps(
                {
                    "em": normalise(prediction) == normalise(gold),
                    "f1": f1,
                    "precision": precision,
                    "recall": recall,
                    "normalizedPrediction": normalise(prediction),
                    "normalizedGold": normalise(gold),
                },
                ensure_ascii=True,
            )
            + "\n"
        )


if __name__ == "__main__":
    main()
