#!/usr/bin/python3
"""Render every chat template of the corpus with every conversation, as
Hugging Face transformers' apply_chat_template renders it, and list the
Jinja constructs each template uses.

Usage (from anywhere; paths are relative to this script):

    /usr/bin/python3 gen/testdata/chat/render.py

want/: templates/<t>.jinja rendered with conversations/<c>.json goes to
want/<t>/<c>.txt, the exact output bytes; when rendering raises, the file is
want/<t>/<c>.raises instead and holds "<ExceptionType>: <message>\\n". Other
files under want/ are deleted, so a removed template or conversation leaves
nothing behind.

INVENTORY.md: per template, the constructs it uses, read from Jinja2's own
parse tree (see constructs()), the table construct -> number of templates
using it, and what promptgen does with each template today, read from
status.json (written by `make chatcorpus`, see README.md).

The environment and the call follow transformers' source,
src/transformers/utils/chat_template_utils.py at commit 5e43e2e892453b405ce6d2cb94387b3a3213f30a
(v4.4x; _compile_jinja_template and _render_with_assistant_indices), and
PreTrainedTokenizerBase.apply_chat_template of the same version:
  - ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True,
    extensions=[AssistantTracker, jinja2.ext.loopcontrols]); everything
    else is Jinja2's default (plain Undefined, autoescape off, the single
    trailing newline of a template dropped).
  - AssistantTracker: the {% generation %}...{% endgeneration %} block, a
    CallBlock whose method returns its body; the tracker only records
    offsets when return_assistant_tokens_mask is asked for, which this
    corpus never does, so the block renders its body and nothing else.
  - filters["tojson"]: json.dumps(x, ensure_ascii=False, indent=indent,
    separators=separators, sort_keys=False) (keys in insertion order, no
    HTML escaping), replacing Jinja2's own tojson.
  - globals["raise_exception"](message): raises
    jinja2.exceptions.TemplateError(message).
  - globals["strftime_now"](format): datetime.now().strftime(format); here
    the clock is fixed at 2026-01-08T09:30:00 (UTC), so outputs reproduce.
  - render(messages=..., tools=..., documents=...,
    add_generation_prompt=..., **special_tokens, **kwargs): tools and
    documents are passed even when absent (as None, so `tools is defined`
    holds and `tools is none` too); tools that are dicts are passed as they
    are; documents must be dicts (else TypeError, as transformers checks);
    add_generation_prompt defaults to False. Every other key of the
    conversation (bos_token, eos_token, and template kwargs such as
    enable_thinking or date_string) is passed by name, as the tokenizer's
    special tokens and apply_chat_template's **kwargs are.
One difference: apply_chat_template itself fails with IndexError on an empty
message list (it looks at conversation[0] to detect a batch) before the
template runs; conversations/empty.json renders the template with
messages=[] instead, since what the template does with it is the question.

Output is deterministic: UTF-8, "\\n" line endings, no newline translation,
nothing appended to the rendered text.
"""

import collections
import datetime
import json
import os
import re
import shutil
import sys

import jinja2
import jinja2.ext
import jinja2.meta
import jinja2.nodes as nodes
import jinja2.sandbox

HERE = os.path.dirname(os.path.abspath(__file__))
NOW = datetime.datetime(2026, 1, 8, 9, 30, 0)
CONTEXT_KEYS = ("messages", "tools", "documents", "add_generation_prompt")


class AssistantTracker(jinja2.ext.Extension):
    """transformers' {% generation %} block, with the tracker inactive."""

    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        return nodes.CallBlock(self.call_method("_generation_support"), [], [], body).set_lineno(lineno)

    def _generation_support(self, caller):
        return caller()


def raise_exception(message):
    raise jinja2.exceptions.TemplateError(message)


def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


def strftime_now(format):
    return NOW.strftime(format)


def environment():
    env = jinja2.sandbox.ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=[AssistantTracker, jinja2.ext.loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    return env


def render(env, source, conversation):
    documents = conversation.get("documents")
    if documents is not None:
        for document in documents:
            if not isinstance(document, dict):
                raise TypeError("Documents should be a list of dicts with 'title' and 'text' keys!")
    kwargs = {k: v for k, v in conversation.items() if k not in CONTEXT_KEYS}
    return env.from_string(source).render(
        messages=conversation["messages"], tools=conversation.get("tools"), documents=documents,
        add_generation_prompt=conversation.get("add_generation_prompt", False), **kwargs)


def write(path, text):
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)


def read(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def names(directory, ext):
    return sorted(n[: -len(ext)] for n in os.listdir(directory) if n.endswith(ext))


def render_all(env, templates, conversations):
    """Writes want/ and returns {template: {conversation: "ok" | exception type}}."""
    want = os.path.join(HERE, "want")
    os.makedirs(want, exist_ok=True)
    for name in os.listdir(want):
        if name not in templates:
            shutil.rmtree(os.path.join(want, name))
    results = {}
    for t, source in templates.items():
        directory = os.path.join(want, t)
        os.makedirs(directory, exist_ok=True)
        written = set()
        results[t] = {}
        for c, conversation in conversations.items():
            try:
                out, ext = render(env, source, conversation), ".txt"
                results[t][c] = "ok"
            except Exception as e:  # the template's own errors, and Python's
                out, ext = "%s: %s\n" % (type(e).__name__, e), ".raises"
                results[t][c] = type(e).__name__
            write(os.path.join(directory, c + ext), out)
            written.add(c + ext)
        for name in os.listdir(directory):
            if name not in written:
                os.remove(os.path.join(directory, name))
    return results


# Names that the transformers environment defines: calls of these are
# functions, not template variables.
def env_globals(env):
    return set(env.globals)


def constructs(env, source):
    """Returns a Counter of the constructs source uses, by their INVENTORY name."""
    found = collections.Counter()
    tree = env.parse(source)
    macros = {m.name for m in tree.find_all(nodes.Macro)}
    globals_ = env_globals(env)
    for v in sorted(jinja2.meta.find_undeclared_variables(tree) - globals_):
        found["variable `%s`" % v] += 1
    for pattern, name in ((r"\{%-|-%\}|\{\{-|-\}\}|\{#-|-#\}", "whitespace control `-`"),
                          (r"\{#", "comment `{# #}`"), (r"\{%-?\s*raw\s*-?%\}", "`{% raw %}`")):
        n = len(re.findall(pattern, source))
        if n:
            found[name] += n
    walk(tree, found, macros, globals_)
    return found


BINOPS = {nodes.Add: "+", nodes.Sub: "-", nodes.Mul: "*", nodes.Div: "/", nodes.FloorDiv: "//",
          nodes.Mod: "%", nodes.Pow: "**"}
COMPARE = {"eq": "==", "ne": "!=", "lt": "<", "lteq": "<=", "gt": ">", "gteq": ">=",
           "in": "in", "notin": "not in"}


def const_kind(node):
    v = node.value
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "float"
    return "string"


def walk(node, found, macros, globals_):
    add = lambda name: found.__setitem__(name, found[name] + 1)
    if isinstance(node, nodes.For):
        add("`{% for %}`")
        if isinstance(node.target, nodes.Tuple):
            add("`{% for a, b in %}` (unpacking)")
        if node.else_:
            add("`{% for %}…{% else %}`")
        if node.test is not None:
            add("`{% for x in xs if cond %}`")
        if node.recursive:
            add("`{% for %}` recursive")
    elif isinstance(node, nodes.If):
        add("`{% if %}`")
        if node.elif_:
            add("`{% elif %}`")
        if node.else_:
            add("`{% else %}`")
    elif isinstance(node, nodes.Assign):
        if isinstance(node.target, nodes.NSRef):
            add("`{% set ns.attr = %}`")
        elif isinstance(node.target, nodes.Tuple):
            add("`{% set a, b = %}`")
        else:
            add("`{% set x = %}`")
    elif isinstance(node, nodes.AssignBlock):
        add("`{% set x %}…{% endset %}`")
        if node.filter is not None:
            add("`{% set x | filter %}` block")
    elif isinstance(node, nodes.Macro):
        add("`{% macro %}`")
        if node.defaults:
            add("macro argument defaults")
    elif isinstance(node, nodes.CallBlock):
        call = node.call
        if isinstance(call, nodes.Call) and isinstance(call.node, nodes.ExtensionAttribute):
            add("`{% generation %}`")
        else:
            add("`{% call %}`")
    elif isinstance(node, nodes.FilterBlock):
        add("`{% filter %}` block")
        add("filter `%s`" % node.filter.name)
    elif isinstance(node, nodes.Break):
        add("`{% break %}`")
    elif isinstance(node, nodes.Continue):
        add("`{% continue %}`")
    elif isinstance(node, nodes.Include):
        add("`{% include %}`")
    elif isinstance(node, (nodes.Import, nodes.FromImport)):
        add("`{% import %}`")
    elif isinstance(node, nodes.Extends):
        add("`{% extends %}`")
    elif isinstance(node, nodes.Block):
        add("`{% block %}`")
    elif isinstance(node, nodes.With):
        add("`{% with %}`")
    elif isinstance(node, nodes.Output):
        if any(not isinstance(n, nodes.TemplateData) for n in node.nodes):
            add("`{{ expr }}` output")
    elif isinstance(node, nodes.Filter):
        if node.node is not None:  # a filter block's filter is counted there
            add("filter `%s`" % node.name)
        if node.kwargs:
            add("keyword arguments")
    elif isinstance(node, nodes.Test):
        add("test `%s`" % node.name)
    elif isinstance(node, nodes.Call):
        callee = node.node
        if isinstance(callee, nodes.Name):
            if callee.name in macros:
                add("macro call")
            elif callee.name in globals_:
                add("global `%s()`" % callee.name)
            elif callee.name == "loop":
                add("`loop(...)` recursive call")
            elif callee.name == "caller":
                add("`caller()`")
            else:
                add("call of a variable `%s()`" % callee.name)
        elif isinstance(callee, nodes.Getattr):
            if isinstance(callee.node, nodes.Name) and callee.node.name == "loop":
                add("`loop.%s()`" % callee.attr)
            else:
                add("method `.%s()`" % callee.attr)
        elif not isinstance(callee, nodes.ExtensionAttribute):  # {% generation %}'s, counted there
            add("call of an expression")
        if node.kwargs:
            add("keyword arguments")
        if node.dyn_args is not None or node.dyn_kwargs is not None:
            add("`*args`/`**kwargs` in a call")
    elif isinstance(node, nodes.Getattr):
        if isinstance(node.node, nodes.Name) and node.node.name == "loop":
            add("`loop.%s`" % node.attr)
        else:
            add("attribute `a.b`")
    elif isinstance(node, nodes.Getitem):
        arg = node.arg
        if isinstance(arg, nodes.Slice):
            add("slice `a[i:j]`")
            if arg.step is not None:
                add("slice with step `a[::k]`")
        elif isinstance(arg, nodes.Const) and isinstance(arg.value, str):
            add("subscript `a['key']`")
        elif isinstance(arg, nodes.Const) and isinstance(arg.value, int):
            add("subscript `a[0]`")
        elif isinstance(arg, nodes.Neg) and isinstance(arg.node, nodes.Const):
            add("negative index `a[-1]`")
        else:
            add("subscript `a[expr]`")
    elif type(node) in BINOPS:
        add("operator `%s`" % BINOPS[type(node)])
    elif isinstance(node, nodes.Concat):
        add("operator `~`")
    elif isinstance(node, nodes.Compare):
        for op in node.ops:
            add("operator `%s`" % COMPARE[op.op])
    elif isinstance(node, nodes.And):
        add("operator `and`")
    elif isinstance(node, nodes.Or):
        add("operator `or`")
    elif isinstance(node, nodes.Not):
        add("operator `not`")
    elif isinstance(node, nodes.Neg):
        if not isinstance(node.node, nodes.Const):
            add("unary `-`")
    elif isinstance(node, nodes.CondExpr):
        add("`x if c else y`" if node.expr2 is not None else "`x if c` (no else)")
    elif isinstance(node, nodes.List):
        add("list literal")
    elif isinstance(node, nodes.Dict):
        add("dict literal")
    elif isinstance(node, nodes.Tuple) and node.ctx == "load":
        add("tuple literal")
    elif isinstance(node, nodes.Const):
        if const_kind(node) in ("none", "boolean", "float"):
            add("%s literal" % const_kind(node))
    for child in node.iter_child_nodes():
        walk(child, found, macros, globals_)


def status_section(status, templates, conversations):
    """The promptgen part of INVENTORY.md, from status.json."""
    if status is None:
        return ["No status.json: run `make chatcorpus` to measure promptgen.", ""]
    missing = sorted(set(templates) - set(status["templates"]))
    if missing:
        sys.exit("status.json has no entry for %s: run make chatcorpus" % ", ".join(missing))
    rows = []
    compiled = 0
    all_match = 0
    matches = 0
    reasons = collections.Counter()
    outcomes = collections.Counter()
    for t in templates:
        s = status["templates"][t]
        convs = s.get("conversations", {})
        ok = [c for c in conversations if convs.get(c) == "match"]
        outcomes.update(re.sub(r"^(\w+: )\d+:\d+: ", r"\1", o) for o in convs.values() if o != "match")
        if s["compiles"]:
            compiled += 1
            if len(ok) == len(conversations):
                all_match += 1
        else:
            reasons[re.sub(r"^\d+:\d+: ", "", s["error"])] += 1
        matches += len(ok)
        detail = s["error"] if not s["compiles"] else "; ".join(
            "%s: %s" % (c, convs.get(c, "missing")) for c in conversations if convs.get(c) != "match") or "all match"
        rows.append("| %s | %s | %d/%d | %s |" % (
            t, "yes" if s["compiles"] else "no", len(ok), len(conversations), detail.replace("|", "\\|")))
    out = [
        "## promptgen today",
        "",
        "Measured by `make chatcorpus`: %s." % status["how"],
        "",
        "- templates that compile: %d of %d" % (compiled, len(templates)),
        "- templates that compile and match Jinja2 on every conversation: %d of %d" % (all_match, len(templates)),
        "- template × conversation pairs that match: %d of %d" % (matches, len(templates) * len(conversations)),
        "",
        "First rejection, by message (templates that do not compile; positions dropped):",
        "",
        "| templates | first error |",
        "| ---: | --- |",
    ]
    out += ["| %d | %s |" % (n, r.replace("|", "\\|")) for r, n in sorted(reasons.items(), key=lambda x: (-x[1], x[0]))]
    out += ["", "Renderings of the templates that compile that do not match, by outcome (positions dropped):", "",
            "| renderings | outcome |", "| ---: | --- |"]
    out += ["| %d | %s |" % (n, o.replace("|", "\\|")) for o, n in sorted(outcomes.items(), key=lambda x: (-x[1], x[0]))]
    out += ["", "| template | compiles | matches | first error, or the conversations that do not match |",
            "| --- | --- | ---: | --- |", *rows, ""]
    return out


def inventory(env, templates, conversations, results, status):
    per_template = {t: constructs(env, s) for t, s in templates.items()}
    counts = collections.Counter()
    for found in per_template.values():
        counts.update(found.keys())
    raises = collections.Counter(c for r in results.values() for c, v in r.items() if v != "ok")
    out = [
        "# Chat template corpus: inventory",
        "",
        "Written by render.py; do not edit. %d templates × %d conversations = %d renderings"
        % (len(templates), len(conversations), len(templates) * len(conversations)),
        "(%d render, %d raise)." % (sum(v == "ok" for r in results.values() for v in r.values()),
                                   sum(raises.values())),
        "",
        "Renderings that raise, per conversation: " + ", ".join(
            "%s %d" % (c, raises[c]) for c in conversations) + ".",
        "",
    ]
    out += status_section(status, templates, conversations)
    out += [
        "## Constructs by number of templates",
        "",
        "Read from Jinja2's parse tree (render.py, constructs()). `variable` rows are",
        "the template's free variables (jinja2.meta.find_undeclared_variables, less the",
        "environment's globals): besides the context (messages, tools, ...) they include",
        "names a template sets only inside a block (an if or a for body, whose `set` does",
        "not leak out of a for) and reads where the set may not have run.",
        "",
        "| construct | templates |",
        "| --- | ---: |",
    ]
    out += ["| %s | %d |" % (k.replace("|", "\\|"), n) for k, n in sorted(counts.items(), key=lambda x: (-x[1], x[0]))]
    out += ["", "## Constructs per template", "", "Each construct with its number of uses in the template.", ""]
    for t, found in per_template.items():
        out.append("- **%s** (%d bytes): %s" % (t, len(templates[t].encode("utf-8")), ", ".join(
            "%s ×%d" % (k.replace("|", "\\|"), found[k]) for k in sorted(found))))
    out.append("")
    write(os.path.join(HERE, "INVENTORY.md"), "\n".join(out))


def main():
    env = environment()
    tdir, cdir = os.path.join(HERE, "templates"), os.path.join(HERE, "conversations")
    templates = {t: read(os.path.join(tdir, t + ".jinja")) for t in names(tdir, ".jinja")}
    conversations = {}
    for c in names(cdir, ".json"):
        with open(os.path.join(cdir, c + ".json"), encoding="utf-8") as f:
            conversations[c] = json.load(f)
        if not isinstance(conversations[c].get("messages"), list):
            sys.exit("conversations/%s.json: no messages list" % c)
    results = render_all(env, templates, conversations)
    status = None
    status_path = os.path.join(HERE, "status.json")
    if os.path.exists(status_path):
        with open(status_path, encoding="utf-8") as f:
            status = json.load(f)
    inventory(env, templates, conversations, results, status)


if __name__ == "__main__":
    main()
