#!/usr/bin/python3
"""Writes want.json, what Jinja2 renders for the goType prompts of
gen/bind_test.go (TestGoTypeRender): prompts/greet.yaml and prompts/dup.yaml,
bound to the Go types of package crm, and the default template of prompts/agent (a set that
autobinds them), each with the values of goTypeMain written as the dicts
their JSON encoding makes.

Usage (from anywhere; make golden runs it):
    /usr/bin/python3 gen/testdata/gotype/golden.py

A Go struct becomes the dict promptgen reads it as: keys by json tag name
(an untagged field by the name the template finds it by, nickname for
Nickname), no key for a nil pointer, an empty omitempty field, or a `-` or
unexported field; a float64 is a float, a time.Time its JSON string. The
environment is Jinja2's default, as the prompts set no option.
"""

import json
import os

import jinja2
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))

ADA = {
    "name": "Ada", "loyalty_status": "gold", "nickname": "ada",
    "orders": [{"id": "A1", "qty": 2, "total": 9.5, "paid": True}, {"id": "B2", "qty": 1, "total": 3.0, "paid": False}],
    "tags": ["vip", "early"], "address": {"city": "Paris"}, "scores": {"b": 2, "a": 1},
    "created": "0001-01-01T00:00:00Z",
}
BO = {"name": "Bo", "nickname": "bo", "orders": [], "created": "0001-01-01T00:00:00Z"}
ITEMS = [{"name": "pen"}, {"name": "ink"}]
ORDER = {"id": "C3", "qty": 4, "total": 0.0, "paid": False}
# crm.Dup{Name: "name", Other: "other", Odd: "odd"}: Other's tag names the
# key "Name", which the untagged Name loses; Odd's tag, holding a quote, is
# no key, so Odd keeps its Go name.
DUP = {"Name": "other", "Odd": "odd"}


def main():
    env = jinja2.Environment()
    with open(os.path.join(HERE, "prompts", "greet.yaml"), encoding="utf-8") as f:
        greet = env.from_string(yaml.safe_load(f)["template"])
    with open(os.path.join(HERE, "prompts", "dup.yaml"), encoding="utf-8") as f:
        dup = env.from_string(yaml.safe_load(f)["template"])
    with open(os.path.join(HERE, "prompts", "agent", "promptset.yaml"), encoding="utf-8") as f:
        agent = env.from_string(yaml.safe_load(f)["templates"]["main"]["default"])
    want = {
        "greet ada": greet.render(customer=ADA, items=ITEMS),
        "greet bo": greet.render(customer=BO),
        "agent ada": agent.render(customer=ADA, order=ORDER),
        "agent bo": agent.render(customer=BO),
        "dup": dup.render(d=DUP),
    }
    with open(os.path.join(HERE, "want.json"), "w", encoding="utf-8", newline="") as f:
        json.dump(want, f, ensure_ascii=False, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
