#!/usr/bin/python3
"""Writes want.json, what Jinja2 renders for the Go filter prompts of
gen/gofilter_test.go (TestGoFilterRender): prompts/note.yaml and the default
template of prompts/agent, with the values of goFilterMain, and the filters
of `filters:` registered as the Python functions below, which do what the Go
functions of textutilSource do.

Usage (from anywhere; make golden runs it):
    /usr/bin/python3 gen/testdata/gofilter/golden.py
"""

import json
import os

import jinja2
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))


def redact(s, mask):
    return s.replace("secret", mask)


def shout(s):
    if s == "quiet":
        raise ValueError("quiet does not shout")
    return s.upper() + "!"


def initials(names):
    return [n[:1] for n in names]


def repeat(s, n):
    return s * n


def pad(s, width, fill):
    while len(s) < width:
        s += fill
    return s


def total(orders):
    return sum(o["total"] * o["qty"] for o in orders) * 1.0


ORDERS = [{"id": "A1", "qty": 2, "total": 9.5, "paid": True}, {"id": "B2", "qty": 1, "total": 3.0, "paid": False}]


def main():
    env = jinja2.Environment()
    env.filters.update(redact=redact, shout=shout, initials=initials, total=total, repeat=repeat, pad=pad)
    with open(os.path.join(HERE, "prompts", "note.yaml"), encoding="utf-8") as f:
        note = env.from_string(yaml.safe_load(f)["template"])
    with open(os.path.join(HERE, "prompts", "agent", "promptset.yaml"), encoding="utf-8") as f:
        s = yaml.safe_load(f)
    env.globals["greeting"] = None
    greeting = env.from_string(s["components"]["greeting"])
    agent = env.from_string(s["templates"]["main"]["default"])
    want = {
        "note ada": note.render(name="ada", note="the secret is out", team=["Ada Lovelace", "Bo", "Cy"], orders=ORDERS),
        "note bo": note.render(name="bo", note="no secrets", team=[], orders=[]),
        "agent": agent.render(greeting=greeting.render(user="ada"), topic="tools"),
    }
    with open(os.path.join(HERE, "want.json"), "w", encoding="utf-8", newline="") as f:
        json.dump(want, f, ensure_ascii=False, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
