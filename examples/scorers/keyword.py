#!/usr/bin/env python3
"""An exec scorer: pass when the candidate contains the criteria text."""
import json
import sys


def main():
    doc = json.load(sys.stdin)
    output = doc.get("output") or ""
    criteria = doc.get("criteria")
    if not isinstance(criteria, str) or not criteria:
        print("keyword.py: the eval needs a free-form rubric to look for", file=sys.stderr)
        return 2
    found = criteria.lower() in output.lower()
    json.dump({
        "verdict": "pass" if found else "fail",
        "score": 1.0 if found else 0.0,
        "reasoning": ("found " if found else "did not find ") + repr(criteria),
        "cost_usd": None,
    }, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
