#!/usr/bin/python3
"""Regenerate the expected outputs of package chatformat with real Jinja2
and Python's re and html modules.

Usage (from anywhere; paths are relative to this script):

    /usr/bin/python3 runtime/chatformat/testdata/golden.py

chat/: every case of chat/cases.json is rendered with every template of
templates/ (see templates/README.md), as transformers' apply_chat_template
renders it. The exact output bytes go to chat/<case>.<style>.txt; when the
template raises, "<ExceptionType>: <message>\n" goes to
chat/<case>.<style>.err instead. Other files of chat/ named like outputs
are deleted, so a removed case leaves nothing behind.

tagged/: every text of tagged/cases.json is read as prompt-utils.md's tagged
prompt, by the regular expressions of the original implementation
(a2rchi's PromptFormatter._tuplize_tagged_prompt and _strip_tags) with
promptgen's two additions, marked "promptgen:" below. tagged/want.json holds,
per case, the messages (or that parsing fails), the tag-stripped text, and
the messages rendered with templates/chatml.jinja.

html/: every string of html/cases.json goes through the original
_strip_html (html.unescape, then removal of <...>); html/want.json holds the
results in order.

Output is deterministic: cases keep their order, JSON is written with sorted
keys, two-space indentation and a final newline, and every file is UTF-8
with "\\n" line endings and no newline translation.
"""

import html
import json
import os
import re
import sys

import jinja2
import jinja2.ext
import jinja2.sandbox

HERE = os.path.dirname(os.path.abspath(__file__))
STYLES = ("chatml", "instruct", "llama2")

# prompt_validator.SUPPORTED_INPUT_VARIABLES as the spec lists it.
TAGS = ["question", "history", "documents", "context", "submission_text", "rubric_text",
        "summary", "analysis", "additional_comments", "condense_output", "retriever_output",
        "condensed_question"]
# PromptFormatter.tag_roles; other tags are system messages.
TAG_ROLES = {"question": "user", "documents": "assistant", "condensed_question": "user"}
# promptgen: history lines name a speaker, which maps to a role (the
# original passes the speaker on as the role).
SPEAKERS = {"User": "user", "AI": "assistant"}


def write(path, text):
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)


def write_json(path, value):
    write(path, json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True) + "\n")


def read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def environment():
    """The environment of transformers' _compile_jinja_template."""

    def raise_exception(message):
        raise jinja2.exceptions.TemplateError(message)

    env = jinja2.sandbox.ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=[jinja2.ext.loopcontrols])
    env.globals["raise_exception"] = raise_exception
    return env


def load_templates(env):
    templates = {}
    for style in STYLES:
        with open(os.path.join(HERE, "templates", style + ".jinja"), encoding="utf-8") as f:
            templates[style] = env.from_string(f.read())
    return templates


def render(template, messages):
    return template.render(messages=messages, add_generation_prompt=True,
                           bos_token="<s>", eos_token="</s>")


def chat(templates):
    directory = os.path.join(HERE, "chat")
    cases = read_json(os.path.join(directory, "cases.json"))
    names = [c["name"] for c in cases]
    if len(set(names)) != len(names):
        sys.exit("chat/cases.json: duplicate case names")
    written = set()
    for case in cases:
        for style in STYLES:
            base = os.path.join(directory, "%s.%s" % (case["name"], style))
            try:
                out, ext = render(templates[style], case["messages"]), ".txt"
            except Exception as e:  # the template's own errors, and Python's
                out, ext = "%s: %s\n" % (type(e).__name__, e), ".err"
            write(base + ext, out)
            written.add(os.path.basename(base + ext))
    for name in sorted(os.listdir(directory)):
        if name.endswith((".txt", ".err")) and name not in written:
            os.remove(os.path.join(directory, name))


# promptgen: the escapes of chatformat.Escape, undone once, left to right.
UNESCAPE = re.compile(r"&(?:(amp)|(lt)|#([0-9]{1,7}));")


def unescape(s):
    def repl(m):
        if m.group(1):
            return "&"
        if m.group(2):
            return "<"
        n = int(m.group(3))
        if n > 0x10FFFF or 0xD800 <= n <= 0xDFFF:
            return m.group(0)
        return chr(n)

    return UNESCAPE.sub(repl, s)


def tuplize(text):
    """_tuplize_tagged_prompt, with history_utils.tuplize_history inlined."""
    pattern = re.compile(rf"<({'|'.join(TAGS)})>(.*?)</\1>", re.DOTALL | re.IGNORECASE)
    result = []
    pos = 0
    for match in pattern.finditer(text):
        start, end = match.span()
        if start > pos:
            system_text = text[pos:start].strip()
            if system_text:
                result.append({"role": "system", "content": unescape(system_text)})
        tag_type = match.group(1).lower()
        tag_content = match.group(2).strip()
        if tag_type == "history":
            # promptgen: an empty history adds no message (the original
            # adds an empty system message).
            for line in tag_content.strip().splitlines():
                if ": " not in line:
                    raise ValueError("history line without \": \": %r" % line)
                speaker, message = line.split(": ", 1)
                if speaker not in SPEAKERS:
                    raise ValueError("unknown speaker %r" % speaker)
                result.append({"role": SPEAKERS[speaker], "content": unescape(message)})
        else:
            result.append({"role": TAG_ROLES.get(tag_type, "system"), "content": unescape(tag_content)})
        pos = end
    if pos < len(text):
        system_text = text[pos:].strip()
        if system_text:
            result.append({"role": "system", "content": unescape(system_text)})
    return result


def strip_tags(text):
    """_strip_tags, then promptgen's unescaping."""
    pattern = re.compile(rf"</?({'|'.join(map(re.escape, TAGS))})>", re.IGNORECASE)
    return unescape(pattern.sub("", text))


def tagged(templates):
    directory = os.path.join(HERE, "tagged")
    cases = read_json(os.path.join(directory, "cases.json"))
    want = {}
    for case in cases:
        name, text = case["name"], case["text"]
        if name in want:
            sys.exit("tagged/cases.json: duplicate case %r" % name)
        out = {"strip": strip_tags(text)}
        try:
            messages = tuplize(text)
        except ValueError as e:
            out["error"] = str(e)
        else:
            out["messages"] = messages
            out["chatml"] = render(templates["chatml"], messages)
        want[name] = out
    write_json(os.path.join(directory, "want.json"), want)


def strip_html(text):
    """_strip_html."""
    text = html.unescape(text)
    return re.sub(r"<[^>]+>", "", text)


def html_cases():
    directory = os.path.join(HERE, "html")
    cases = read_json(os.path.join(directory, "cases.json"))
    write_json(os.path.join(directory, "want.json"), [strip_html(c) for c in cases])


def main():
    templates = load_templates(environment())
    chat(templates)
    tagged(templates)
    html_cases()


if __name__ == "__main__":
    main()
