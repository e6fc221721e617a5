#!/usr/bin/python3
"""Render a batch of templates with real Jinja2 for promptgen's tests
(internal/pyjinja: the differential fuzzer, the chat corpus).

Reads a JSON array from stdin, each item {"template": str, "options":
{"trim_blocks": bool, "lstrip_blocks": bool, "keep_trailing_newline": bool,
"profile": bool}, "data": object, "includes": {name: template}, optional},
and writes a JSON array to stdout with,
for each item in order, {"out": the rendered text} or, where rendering
raises, {"type": the exception's type name, "message": str(exception)}.
The environment is Jinja2's default but for those options, as in
gen/testdata/render/golden.py; with profile, it is transformers' (jinja:
{profile: transformers}), as gen/testdata/chat/render.py builds it.
"""

import importlib.util
import json
import os
import sys

import jinja2


def transformers_environment():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "gen", "testdata", "chat", "render.py")
    spec = importlib.util.spec_from_file_location("chat_render", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.environment()


def main():
    jobs = json.load(sys.stdin)
    envs = {}
    results = []
    for job in jobs:
        opts = job["options"]
        key = (opts["trim_blocks"], opts["lstrip_blocks"], opts["keep_trailing_newline"], opts["profile"])
        env = envs.get(key)
        if env is None and key[3]:
            env = envs[key] = transformers_environment()
            env.trim_blocks, env.lstrip_blocks, env.keep_trailing_newline = key[:3]
        elif env is None:
            env = envs[key] = jinja2.Environment(
                trim_blocks=key[0], lstrip_blocks=key[1], keep_trailing_newline=key[2])
        if job.get("includes"):
            env = env.overlay(loader=jinja2.DictLoader(job["includes"]))
        try:
            results.append({"out": env.from_string(job["template"]).render(job["data"])})
        except Exception as e:  # any failure is Jinja2 raising
            results.append({"type": type(e).__name__, "message": str(e)})
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
