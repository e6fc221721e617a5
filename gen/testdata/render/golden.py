#!/usr/bin/python3
"""Regenerate golden outputs for promptgen with real Jinja2.

Usage (from the repository root):

    /usr/bin/python3 gen/testdata/render/golden.py [PATH]
    /usr/bin/python3 gen/testdata/render/golden.py --prompts [PROMPTS [FIXTURES]]

Case mode (the default) renders the render corpus. PATH defaults to the
directory holding this script. It may be a render directory (one containing
cases/), a cases/ directory, or a single case directory (one containing
prompt.yaml). For every case directory (sorted by name) this loads
prompt.yaml (keys: description, jinja, inputs, template), renders `template`
once per <scenario>.json with the JSON object as the context, and writes the
exact output bytes to <scenario>.want. .want files without a matching .json
are deleted. Without PATH it also renders divergences/: cases where promptgen
differs from Jinja2 on purpose (see docs/template-language.md, "Deliberate divergences"). Their
data skips the typed-world checks below, Jinja2's output goes to
<scenario>.jinja, and the hand-written <scenario>.promptgen next to it says
what promptgen prints instead.

Prompts mode (--prompts) renders the real prompt files that generated/ is
made from, for the behaviour tests of generated/ and example/. PROMPTS
defaults to prompts/ and FIXTURES to generated/testdata/, both at the
repository root. Prompt files are found as promptgen finds them (*.yaml and
*.yml in the prompt format; *.jinja, *.j2, *.md and *.txt, which are the
template as is; hidden files and directories, and template sets, are
skipped), and a prompt's key is its path without extension. Each template of
a template set (a directory with a promptset.yaml) is a prompt too, keyed by
the set's directory and the template's full path in the set
(agent/main/BrowseLink.enterprise); it renders with the set's jinja options
and components as promptgen renders it: a name that is a component visible
from the template's namespace is the component rendered with the same data,
{% include "name" %} includes it, and each component is in the version of the
template's path, else unversioned, else its first. The set's default_template
is the template at path default_template. A scenario named
<scenario>@<name>.json renders with the set's predefined_variables <name>: each
predefined value fills a variable the scenario leaves out (a scenario that
gives a variable a zero value, which Go would also fill unless the field is
optional, is an error). (A component included
from a component of another namespace is looked up from the including
component's namespace; a name it prints is looked up from the template's, as
Jinja2's include shares the context: promptgen differs there.) YAML prompts may
use every key of the prompt format (model, parameters, outputFormat,
outputSchema, examples, go_name, ...); only template, jinja and inputs matter
here. For every prompt, each FIXTURES/<key>/<scenario>.json is rendered to
<scenario>.want.txt next to it; .want.txt files without a .json are deleted.
A prompt without fixtures, or fixtures without a prompt, is an error.

In both modes the jinja2.Environment comes from the prompt's optional `jinja:`
key (trim_blocks, lstrip_blocks, keep_trailing_newline; all default to False,
everything else is Jinja2's default: plain Undefined, autoescape off; plain
template files use the defaults), or with `profile: transformers` is the
environment of Hugging Face transformers' chat templates, as
gen/testdata/chat/render.py builds it; outputs are written as UTF-8 with no
newline translation and nothing appended.

Before rendering, scenario data is checked against the typed-world rules of
promptgen where that can be done mechanically: lists are homogeneous, and when
the prompt declares `inputs` (shorthand, or a JSON Schema of type object),
every value matches its declared type (a `number` must be a JSON float such
as 1.0, required variables are present, required strings are non-empty,
object keys follow declaration order, map keys are sorted, enum values are
listed), every optional input is present in one scenario and absent in
another, and the template reads no variable the inputs do not declare but
those it sets or loops over itself (undefined where no set of them ran).

Any problem (bad YAML, a Jinja2 error, a rule violation) aborts with a
non-zero exit status and a message naming the case or prompt and scenario.
"""

import importlib.util
import json
import os
import re
import sys

import jinja2
import jinja2.ext
import jinja2.meta
from jinja2.defaults import DEFAULT_FILTERS, DEFAULT_TESTS
import jinja2.sandbox
import jinja2.nodes as nodes
import yaml

JINJA_OPTIONS = ("trim_blocks", "lstrip_blocks", "keep_trailing_newline", "profile")
# The environments `profile` selects.
JINJA_PROFILES = ("transformers",)
# Jinja2's own globals that promptgen supports calling.
ALLOWED_GLOBALS = {"namespace", "range", "dict"}
# The methods of the loop variable that promptgen supports calling.
LOOP_METHODS = {"cycle"}
# The globals of the transformers profile.
PROFILE_GLOBALS = {"raise_exception", "strftime_now"}
# The keys of a case's prompt.yaml.
PROMPT_KEYS = {"description", "jinja", "inputs", "template", "tools"}
# The top-level keys of the prompt format (topLevelKeys in gen/internal/load/load.go).
FORMAT_KEYS = {"description", "model", "parameters", "extra_parameters", "template", "inputs", "outputFormat",
               "outputParsing", "outputSchema", "examples", "messages", "sections", "components", "jinja",
               "go_name", "system", "variables", "tokenizer", "markers", "special_tokens", "tools", "tool_choice"}
# Message roles (messageRoles in gen/internal/load/load.go).
MESSAGE_ROLES = ("system", "user", "assistant", "tool_request", "tool_result")
# File extensions of prompt files (kindOf in gen/internal/load/load.go).
YAML_EXTS = (".yaml", ".yml")
PLAIN_EXTS = (".jinja", ".j2", ".md", ".txt")
# Documentation files that the tree may hold, ignored by name (docNames in load.go).
DOC_NAMES = {"README", "LICENSE", "LICENCE", "COPYING", "CHANGELOG", "CONTRIBUTING", "CODEOWNERS"}


def is_template_file(fname):
    """Whether promptgen's loader reads fname as a prompt or template
    (kindOf in gen/internal/load/load.go); other files are errors there."""
    ext = os.path.splitext(fname)[1]
    if fname.startswith(".") or fname.endswith(("~", ".orig", ".bak")) or ext not in YAML_EXTS + PLAIN_EXTS:
        return False
    return ext in YAML_EXTS or fname.split(".")[0].upper() not in DOC_NAMES
SHORTHAND_TYPES = {"string", "int", "number", "bool", "object", "image"}
# The keys of an image input's value (runtime.Image's JSON).
IMAGE_KEYS = {"url", "media_type", "data", "detail"}

# The Jinja2 subset promptgen supports (see docs/template-language.md).
ALLOWED_FILTERS = {
    "default", "d", "upper", "lower", "title", "capitalize", "trim", "join",
    "length", "count", "tojson", "replace", "first", "last", "int", "float",
    "string", "round", "indent", "truncate", "sort", "unique", "list", "map",
    "items", "dictsort", "select", "reject", "selectattr", "rejectattr", "reverse", "safe", "format",
    "center", "escape", "e", "filesizeformat", "urlencode", "sum", "min", "max", "wordwrap", "striptags", "xmlattr", "wordcount", "groupby", "slice", "forceescape",
    "batch", "abs",
}
# The filters map(name, ...) applies (MapFilters in gen/internal/builtins/filters.go,
# and of the items converted to dynamic values, DynMapFilters).
MAP_FILTERS = {"abs", "capitalize", "center", "count", "filesizeformat", "float", "indent", "int", "length",
               "lower", "replace", "round", "string", "striptags", "title", "trim", "truncate", "upper",
               "urlencode", "wordcount", "wordwrap", "tojson", "first", "last", "list", "sort", "dictsort",
               "sum", "min", "max"}
CHAT_KEYS = ("messages", "tools", "documents", "add_generation_prompt", "bos_token", "eos_token")
ALLOWED_TESTS = {"defined", "undefined", "none", "string", "number", "even", "odd", "divisibleby",
                 "boolean", "true", "false", "integer", "float", "mapping", "iterable", "sequence", "callable",
                 "==", "eq", "equalto", "!=", "ne", "<", "lt", "lessthan", "<=", "le", ">", "gt", "greaterthan",
                 ">=", "ge", "in", "sameas", "lower", "upper", "escaped", "filter", "test"}
ALLOWED_METHODS = {
    "strip", "lstrip", "rstrip", "upper", "lower", "title", "capitalize",
    "startswith", "endswith", "split", "replace", "items", "keys", "values", "get",
    "find", "rfind", "count", "index", "rindex", "zfill", "ljust", "rjust", "center",
    "swapcase", "splitlines", "partition", "rpartition", "format",
    # the list methods that modify a list (the sandbox of the transformers
    # profile raises SecurityError on all but pop and clear, which alone
    # promptgen supports outside it with the first three)
    "append", "extend", "insert", "pop", "clear", "remove", "reverse", "sort",
    # and the dict method update, which promptgen supports only in the
    # sandbox, which raises SecurityError where it runs
    "update",
}
FORBIDDEN_NODES = (
    nodes.Block, nodes.Extends,
    nodes.Include, nodes.Import, nodes.FromImport, nodes.With, nodes.Scope,
    nodes.ScopedEvalContextModifier,
)


class CaseError(Exception):
    pass


# ---------------------------------------------------------------------------
# Typed-world checks on scenario data.


def json_kind(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "list"
    if isinstance(v, dict):
        return "object"
    raise CaseError("unexpected JSON value %r" % (v,))


def check_homogeneous(v, where):
    """Lists hold one kind of value; objects in a list share keys and key order."""
    if v is None:
        raise CaseError("%s: JSON null is not used in this corpus (absent means undefined)" % where)
    if isinstance(v, list):
        kinds = {json_kind(x) for x in v}
        if len(kinds) > 1:
            raise CaseError("%s: heterogeneous list %r" % (where, sorted(kinds)))
        if kinds == {"object"}:
            # Items may omit optional keys, but present keys keep one order.
            order = []
            for x in v:
                for k in x:
                    if k not in order:
                        order.append(k)
            for i, x in enumerate(v):
                idx = [order.index(k) for k in x]
                if idx != sorted(idx):
                    raise CaseError("%s[%d]: keys %r are not in the order of the other items %r"
                                    % (where, i, list(x), order))
        for i, x in enumerate(v):
            check_homogeneous(x, "%s[%d]" % (where, i))
    elif isinstance(v, dict):
        for k, x in v.items():
            check_homogeneous(x, "%s.%s" % (where, k))


def normalize_type(t, where):
    """Turn an `inputs` entry into (schema_dict, optional)."""
    if isinstance(t, str):
        optional = t.endswith("?")
        name = t[:-1] if optional else t
        if name not in SHORTHAND_TYPES:
            raise CaseError("%s: unknown shorthand type %r" % (where, t))
        return {"type": {"string": "string", "int": "integer", "number": "number",
                         "bool": "boolean", "object": "object", "image": "image"}[name]}, optional
    if isinstance(t, list):
        if len(t) != 1:
            raise CaseError("%s: list shorthand must have exactly one item type" % where)
        item, item_opt = normalize_type(t[0], where + "[]")
        if item_opt:
            raise CaseError("%s: list items cannot be optional" % where)
        return {"type": "array", "items": item}, False
    if isinstance(t, dict):
        return t, bool(t.get("optional", False)) or schema_type(t, where)[1]
    raise CaseError("%s: cannot understand type %r" % (where, t))


def schema_type(sch, where):
    """A JSON Schema's type name and whether it admits null, as promptgen reads
    it: `type` may list "null" besides one type, and a missing `type` is
    implied by properties/additionalProperties, items or a string enum."""
    typ = sch.get("type")
    if typ is None:
        if "properties" in sch or "additionalProperties" in sch:
            return "object", False
        if "items" in sch:
            return "array", False
        enum = sch.get("enum")
        if isinstance(enum, list) and enum and all(isinstance(x, str) for x in enum):
            return "string", False
        raise CaseError("%s: schema without type" % where)
    if isinstance(typ, list):
        names = [x for x in typ if x not in ("null", None)]
        if len(names) != 1:
            raise CaseError("%s: type %r must be one type, optionally with \"null\"" % (where, typ))
        return names[0], len(names) < len(typ)
    return typ, False


def input_vars(inputs):
    """The declared variables as (name, schema, optional), in declaration order.
    `inputs` is either shorthand (name: type) or a JSON Schema of type object,
    whose properties not listed in `required` are optional."""
    if inputs.get("type") == "object":
        props = inputs.get("properties")
        if not isinstance(props, dict):
            raise CaseError("inputs: a schema of type object needs properties")
        required = set(inputs.get("required") or ())
        out = []
        for name, sch in props.items():
            if not isinstance(sch, dict):
                raise CaseError("inputs.properties.%s: want a schema mapping" % name)
            nullable = schema_type(sch, "inputs.properties.%s" % name)[1]
            out.append((name, sch, name not in required or nullable))
        return out
    return [(name,) + normalize_type(t, "inputs.%s" % name) for name, t in inputs.items()]


def schema_of(s, where):
    """Schema for a nested position (JSON Schema or shorthand)."""
    if isinstance(s, (str, list)):
        sch, opt = normalize_type(s, where)
        if opt:
            raise CaseError("%s: `?` is only for top-level inputs" % where)
        return sch
    return s


def check_value(v, sch, where):
    typ = schema_type(sch, where)[0]
    kind = json_kind(v)
    enum = sch.get("enum")
    if isinstance(enum, list) and v not in enum:
        raise CaseError("%s: %r is not one of the enum values %r" % (where, v, enum))
    if typ == "string":
        if kind != "string":
            raise CaseError("%s: want string, got %s" % (where, kind))
    elif typ == "integer":
        if kind != "int":
            raise CaseError("%s: want int, got %s" % (where, kind))
    elif typ == "number":
        if kind != "float":
            raise CaseError("%s: want a float (write 1.0, not 1), got %s" % (where, kind))
    elif typ == "boolean":
        if kind != "bool":
            raise CaseError("%s: want bool, got %s" % (where, kind))
    elif typ == "image":
        if kind != "object" or not v or not set(v) <= IMAGE_KEYS:
            raise CaseError("%s: want an image, an object of %s" % (where, ", ".join(sorted(IMAGE_KEYS))))
    elif typ == "array":
        if kind != "list":
            raise CaseError("%s: want list, got %s" % (where, kind))
        items = sch.get("items")
        if items is not None:
            for i, x in enumerate(v):
                check_value(x, schema_of(items, where + "[]"), "%s[%d]" % (where, i))
    elif typ == "object":
        if kind != "object":
            raise CaseError("%s: want object, got %s" % (where, kind))
        props = sch.get("properties")
        addl = sch.get("additionalProperties")
        if props is None and isinstance(addl, dict):
            # A map: keys are iterated in sorted order by promptgen.
            if list(v.keys()) != sorted(v.keys()):
                raise CaseError("%s: map keys must be given in sorted order" % where)
            for k, x in v.items():
                check_value(x, schema_of(addl, where + ".*"), "%s[%r]" % (where, k))
        elif props is not None:
            required = set(sch.get("required", []))
            order = list(props.keys())
            extra = [k for k in v if k not in props]
            if extra:
                raise CaseError("%s: undeclared keys %r" % (where, extra))
            present = [k for k in order if k in v]
            if list(v.keys()) != present:
                raise CaseError("%s: keys %r not in declaration order %r" % (where, list(v.keys()), order))
            for k in order:
                psch = schema_of(props[k], "%s.%s" % (where, k))
                ptyp, nullable = schema_type(psch, "%s.%s" % (where, k))
                if k not in v:
                    if k in required and not nullable:
                        raise CaseError("%s: missing required key %r" % (where, k))
                    continue
                if k in required and not nullable and ptyp == "string" and v[k] == "":
                    raise CaseError("%s.%s: required string must be non-empty" % (where, k))
                check_value(v[k], psch, "%s.%s" % (where, k))
        # else: `object` shorthand, fields inferred from the template.
    else:
        raise CaseError("%s: unsupported schema type %r" % (where, typ))


def check_scenario(data, inputs, where, used=None):
    """Check data against inputs. With used (a set template's variables),
    only those are required: the other inputs of the set may be absent."""
    if not isinstance(data, dict):
        raise CaseError("%s: scenario must be a JSON object" % where)
    for k, v in data.items():
        check_homogeneous(v, "%s: %s" % (where, k))
    if inputs is None:
        return
    declared = input_vars(inputs)
    for name in data:
        if name not in [d[0] for d in declared]:
            raise CaseError("%s: variable %r is not declared in inputs" % (where, name))
    for name, sch, optional in declared:
        if name not in data:
            if not optional and (used is None or name in used):
                raise CaseError("%s: required variable %r is missing" % (where, name))
            continue
        if not optional and schema_type(sch, name)[0] == "string" and data[name] == "":
            raise CaseError("%s: required string %r must be non-empty" % (where, name))
        check_value(data[name], sch, "%s: %s" % (where, name))


# ---------------------------------------------------------------------------
# Template subset checks.


# With `inputs: chat` (runtime/chat.Context), the template also has the
# tests and dict methods of dynamic values.
CHAT_TESTS = {"boolean", "true", "false", "integer", "float", "mapping", "iterable", "sequence"}
CHAT_METHODS = {"get", "values"}
# and the filters map applies to dynamic values only.
CHAT_MAP_FILTERS = {"first", "last", "tojson", "list", "sort", "dictsort", "sum", "min", "max"}


def chat_context(data, tools):
    """The keyword arguments a chat template renders with, as
    apply_chat_template passes them (gen/testdata/chat/render.py): tools the
    prompt's declared ones (or None) when absent, documents None when
    absent, add_generation_prompt False, the other keys by name."""
    ctx = dict(data)
    ctx.setdefault("tools", tools)
    ctx.setdefault("documents", None)
    ctx.setdefault("add_generation_prompt", False)
    return ctx


def check_subset(ast, allow_include=False, chat=False, macros=frozenset()):
    """Check that ast is in promptgen's subset; it may call macros, those
    of the templates that include it or that it includes, and its own."""
    macros = macros | {m.name for m in ast.find_all(nodes.Macro)}
    for node in ast.find_all(nodes.Node):
        if isinstance(node, nodes.Include) and allow_include:
            if not isinstance(node.template, nodes.Const) or node.ignore_missing or not node.with_context:
                raise CaseError("include is supported as {% include \"component\" %} only")
            continue
        if isinstance(node, nodes.CallBlock) and isinstance(node.call.node, nodes.ExtensionAttribute):
            continue  # the transformers profile's {% generation %}
        if isinstance(node, FORBIDDEN_NODES):
            raise CaseError("uses {%% %s %%}, which is outside the supported subset"
                            % type(node).__name__.lower())
        # A filter or test Jinja2 lacks is allowed: in an if or a conditional
        # expression, it fails only where it runs (promptgen too).
        if isinstance(node, nodes.Filter) and node.name not in ALLOWED_FILTERS and node.name in DEFAULT_FILTERS:
            raise CaseError("uses filter %r, which is outside the supported subset" % node.name)
        if isinstance(node, nodes.Filter) and node.name == "map":
            if node.args:
                if not isinstance(node.args[0], nodes.Const) or node.args[0].value not in MAP_FILTERS | (CHAT_MAP_FILTERS if chat else set()):
                    raise CaseError("map(name) is only supported for the filters %s" % sorted(MAP_FILTERS))
            elif [k.key for k in node.kwargs] not in (["attribute"], ["attribute", "default"]):
                raise CaseError("map is only supported as map(attribute=...[, default=...]) or map(name, ...)")
        if isinstance(node, nodes.Test) and node.name not in ALLOWED_TESTS and not (chat and node.name in CHAT_TESTS) and node.name in DEFAULT_TESTS:
            raise CaseError("uses test %r, which is outside the supported subset" % node.name)
        if isinstance(node, nodes.Call):
            fn = node.node
            if isinstance(fn, nodes.ExtensionAttribute):
                continue  # the generation block's call
            if isinstance(fn, nodes.Name) and fn.name in ALLOWED_GLOBALS | PROFILE_GLOBALS | macros | {"caller"}:
                continue
            if isinstance(fn, nodes.Getattr) and isinstance(fn.node, nodes.Name) and fn.node.name == "loop" and fn.attr in LOOP_METHODS:
                continue
            if not (isinstance(fn, nodes.Getattr) and (fn.attr in ALLOWED_METHODS or chat and fn.attr in CHAT_METHODS)):
                raise CaseError("calls something other than an allowed string method")
            if fn.attr in ("items", "keys") and node.args:
                raise CaseError(".items() and .keys() take no arguments")


# ---------------------------------------------------------------------------
# Loading prompts.


def prompt_parts(doc, keys, what):
    """Check a prompt document and return its template, jinja options and
    inputs. keys are the top-level keys allowed; what names the file."""
    if not isinstance(doc, dict):
        raise CaseError("%s is not a mapping" % what)
    unknown = set(doc) - keys
    if unknown:
        raise CaseError("%s has unknown keys %r" % (what, sorted(unknown)))
    for k in ("messages", "sections"):
        if k in doc:
            raise CaseError("%s: %r is not supported by promptgen yet" % (what, k))
    if not isinstance(doc.get("template"), str):
        raise CaseError("%s needs a string template" % what)
    jin = doc.get("jinja") or {}
    if not isinstance(jin, dict) or set(jin) - set(JINJA_OPTIONS):
        raise CaseError("jinja: may only set %s" % ", ".join(JINJA_OPTIONS))
    for k, v in jin.items():
        if k == "profile" and v not in JINJA_PROFILES:
            raise CaseError("jinja.profile must be one of %s" % ", ".join(JINJA_PROFILES))
        if k != "profile" and not isinstance(v, bool):
            raise CaseError("jinja.%s must be a bool" % k)
    inputs = doc.get("inputs")
    if inputs is not None and not isinstance(inputs, dict) and inputs != "chat":
        raise CaseError("inputs must be a mapping, or chat")
    return doc["template"], jin, inputs


def declared_tools(doc, tools_dir):
    """The tools a chat prompt declares (`tools:`), as a generated chat
    template passes them when the context has none: transformers' form
    (runtime/chat.Tools), each tool's keys in the order its file writes
    them. A name is a file of tools_dir (None where there is none)."""
    tools = []
    for t in doc.get("tools") or []:
        if isinstance(t, str):
            if tools_dir is None:
                raise CaseError("tool %r names a tools/ file, and there is none here" % t)
            with open(os.path.join(tools_dir, t + ".yaml"), encoding="utf-8") as f:
                t = dict(yaml.safe_load(f), name=t)
        if "x-aliases" in json.dumps(t.get("parameters")):
            raise CaseError("tool %s: x-aliases are left out of the schema a model gets; no case uses them yet" % t["name"])
        fn = {"name": t["name"]}
        if t.get("description"):
            fn["description"] = t["description"]
        fn["parameters"] = t.get("parameters", {"type": "object", "properties": {}})
        tools.append({"type": "function", "function": fn})
    return tools or None


def load_case(case_dir):
    path = os.path.join(case_dir, "prompt.yaml")
    with open(path, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    template, jin, inputs = prompt_parts(doc, PROMPT_KEYS, "prompt.yaml")
    if not isinstance(doc.get("description"), str) or not doc["description"].strip():
        raise CaseError("prompt.yaml needs a one-line description")
    return template, jin, inputs, declared_tools(doc, None)


def load_prompt_file(path, tools_dir):
    """A file of the prompts tree: YAML in the prompt format, or a plain
    template read byte for byte (Jinja2 normalises its newlines itself),
    with its declared tools (declared_tools)."""
    if path.endswith(PLAIN_EXTS):
        with open(path, encoding="utf-8", newline="") as f:
            return f.read(), {}, None, None
    with open(path, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    return prompt_parts(doc, FORMAT_KEYS, os.path.basename(path)) + (declared_tools(doc, tools_dir),)


# ---------------------------------------------------------------------------
# Template sets (gen/internal/load/sets.go).


def transformers_module():
    """gen/testdata/chat/render.py, which builds transformers' environment."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "chat", "render.py")
    spec = importlib.util.spec_from_file_location("chat_render", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def environment(jin, **kw):
    """The environment of the `jinja:` options. With profile: transformers
    it is transformers' (see gen/testdata/chat/render.py): a sandbox with
    trim_blocks and lstrip_blocks on unless the options say otherwise, loop
    controls, the generation block, its tojson, raise_exception and
    strftime_now (whose clock render.py fixes)."""
    if jin.get("profile") == "transformers":
        tf = transformers_module()
        env = jinja2.sandbox.ImmutableSandboxedEnvironment(
            trim_blocks=jin.get("trim_blocks", True),
            lstrip_blocks=jin.get("lstrip_blocks", True),
            keep_trailing_newline=jin.get("keep_trailing_newline", False),
            extensions=[tf.AssistantTracker, jinja2.ext.loopcontrols],
            **kw,
        )
        env.filters["tojson"] = tf.tojson
        env.globals["raise_exception"] = tf.raise_exception
        env.globals["strftime_now"] = tf.strftime_now
        return env
    return jinja2.Environment(
        trim_blocks=jin.get("trim_blocks", False),
        lstrip_blocks=jin.get("lstrip_blocks", False),
        keep_trailing_newline=jin.get("keep_trailing_newline", False),
        **kw,
    )


def read_template_file(path):
    """The template of a file in a set: a plain file as is, or the
    `template` of a YAML file."""
    if path.endswith(PLAIN_EXTS):
        with open(path, encoding="utf-8", newline="") as f:
            return f.read()
    with open(path, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    if not isinstance(doc, dict) or not isinstance(doc.get("template"), str):
        raise CaseError("%s needs a string template" % path)
    return doc["template"]


class TemplateSet:
    """A template set as promptgen loads it: templates by full path
    ("main/BrowseLink.enterprise") and component versions by namespace and
    name, in promptgen's order (unversioned first, then inline ones as
    listed, then files by name)."""

    def __init__(self, root, key):
        self.key = key
        with open(os.path.join(root, "promptset.yaml"), encoding="utf-8") as f:
            doc = yaml.safe_load(f) or {}
        self.doc = doc
        self.jinja = doc.get("jinja") or {}
        self.inputs = doc.get("inputs")
        self.default_name = doc.get("default_name", "default")
        self.predefined = doc.get("predefined_variables") or {}
        self.templates = {}   # path -> (namespace, name, version, source)
        self.components = {}  # namespace -> {name: [(version, source)]}
        self.add_components("", doc.get("components") or {})
        self.add_namespace("", doc.get("templates") or {})
        # The system default: a template of the set's root namespace at
        # path default_template (ir.DefaultTemplatePath).
        dt = doc.get("default_template")
        if dt is not None:
            self.add_template("", "default_template", "", dt["template"] if isinstance(dt, dict) else dt)
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            rel_dir = os.path.relpath(dirpath, root).replace(os.sep, "/")
            segs = [] if rel_dir == "." else rel_dir.split("/")
            for fname in sorted(filenames):
                ext = os.path.splitext(fname)[1]
                if fname == "promptset.yaml" or not is_template_file(fname):
                    continue
                name, _, version = fname[: -len(ext)].partition(".")
                source = read_template_file(os.path.join(dirpath, fname))
                if segs and segs[-1] == "components":
                    self.components.setdefault("/".join(segs[:-1]), {}).setdefault(name, []).append((version, source))
                else:
                    self.add_template("/".join(segs), name, version, source)
        for by_name in self.components.values():
            for versions in by_name.values():
                versions.sort(key=lambda v: v[0] != "")

    def add_template(self, ns, name, version, source):
        path = "/".join(x for x in (ns, name) if x) + ("." + version if version else "")
        if path in self.templates:
            raise CaseError("set %s: template %s is defined twice" % (self.key, path))
        self.templates[path] = (ns, name, version, source)

    def add_components(self, ns, m):
        for name, v in m.items():
            entries = [("", v)] if isinstance(v, str) else [(e.get("version", ""), e["content"]) for e in v]
            self.components.setdefault(ns, {}).setdefault(name, []).extend(entries)

    def add_namespace(self, ns, m):
        for k, v in m.items():
            if k == "components":
                self.add_components(ns, v)
            elif isinstance(v, dict) and "template" not in v:
                self.add_namespace("/".join(x for x in (ns, k) if x), v)
            else:
                name, _, version = k.partition(".")
                self.add_template(ns, name, version, v["template"] if isinstance(v, dict) else v)

    def lookup(self, ns, name):
        """The namespace of component name as seen from ns: ns, then ns
        without its first segment, ..., then the set's root."""
        while True:
            if name in self.components.get(ns, {}):
                return ns
            if ns == "":
                return None
            ns = ns.partition("/")[2]

    def visible(self, ns):
        names = set()
        while True:
            names |= set(self.components.get(ns, {}))
            if ns == "":
                return names
            ns = ns.partition("/")[2]


class SetTemplate:
    """One template of a set, rendered as promptgen renders it: a name
    that is a component renders the component (rendered beforehand with the
    same data and put in the context, as the spec's TemplateManager does),
    {% include "name" %} renders it with the template's context, and each
    component is in the version of the template's path, else unversioned,
    else its first (runtime.VariantFor)."""

    def __init__(self, st, path):
        self.st = st
        self.ns, _, self.version, _ = st.templates[path]
        self.root = "T:" + path
        self.env = environment(st.jinja, loader=jinja2.FunctionLoader(self.source))
        self.env.join_path = self.include

    def ns_of(self, name):
        if name.startswith("T:"):
            return self.st.templates[name[2:]][0]
        return name[2:].rpartition(":")[0]

    def include(self, template, parent):
        ns = self.ns_of(parent)
        if "/" in template:
            clean = os.path.normpath(template).replace(os.sep, "/")
            if template.startswith("/") or clean == ".." or clean.startswith("../"):
                raise CaseError("include %r leaves the set" % template)
            cns, _, base = clean.rpartition("/")
            if cns == "components":
                cns = ""
            elif cns.endswith("/components"):
                cns = cns[: -len("/components")]
            if base not in self.st.components.get(cns, {}):
                raise CaseError("no component %r" % template)
            return "C:%s:%s" % (cns, base)
        cns = self.st.lookup(ns, template)
        if cns is None:
            raise CaseError("no component %r" % template)
        return "C:%s:%s" % (cns, template)

    def source(self, name):
        if name.startswith("T:"):
            return self.st.templates[name[2:]][3]
        ns, _, cname = name[2:].rpartition(":")
        versions = self.st.components[ns][cname]
        names = [v for v, _ in versions]
        pick = self.version if self.version and self.version in names else ("" if "" in names else names[0])
        return dict(versions)[pick]

    def refs(self, name):
        """The components that the names of template `name` refer to."""
        ast = self.env.parse(self.source(name))
        ns = self.ns_of(name)
        return {n: "C:%s:%s" % (self.st.lookup(ns, n), n)
                for n in jinja2.meta.find_undeclared_variables(ast) & self.st.visible(ns)}

    def includes(self, name):
        ast = self.env.parse(self.source(name))
        return [self.include(node.template.value, name) for node in ast.find_all(nodes.Include)]

    def reachable(self):
        seen, todo = [], [self.root]
        while todo:
            n = todo.pop()
            if n in seen:
                continue
            seen.append(n)
            todo += list(self.refs(n).values()) + self.includes(n)
        return seen

    def asts(self):
        return [self.env.parse(self.source(n)) for n in self.reachable()]

    def free(self):
        free = set()
        for n in self.reachable():
            ast = self.env.parse(self.source(n))
            free |= jinja2.meta.find_undeclared_variables(ast) - self.st.visible(self.ns_of(n))
        return free

    def render_name(self, name, data):
        ctx = dict(data)
        for var, comp in self.refs(name).items():
            ctx[var] = self.render_name(comp, data)
        return self.env.get_template(name).render(ctx)

    def render(self, data):
        return self.render_name(self.root, data)

    def predefine(self, data, name, where):
        """data with the set's predefined variables name filling the
        variables it leaves out (the generated Render's Merge with
        AttributeOnly)."""
        if name not in self.st.predefined:
            raise CaseError("%s: the set has no predefined_variables %r" % (where, name))
        out = dict(data)
        for k, v in self.st.predefined[name].items():
            if k in data and not data[k]:
                raise CaseError("%s: %s is a zero value, which predefined variables may fill: leave it out"
                                % (where, k))
            out.setdefault(k, v)
        return out


def set_dirs(root):
    """{set key: directory} of the template sets under root."""
    found = {}
    for dirpath, dirnames, _ in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        if os.path.isfile(os.path.join(dirpath, "promptset.yaml")):
            found[os.path.relpath(dirpath, root).replace(os.sep, "/")] = dirpath
            dirnames[:] = []
    return found


# ---------------------------------------------------------------------------
# Rendering.


def include_loader(prompt_dir, root):
    """The loader of a prompt's {% include "file" %}: the plain template
    files of its folder, then of each folder above it up to root, as
    promptgen looks for them."""
    paths, d = [], os.path.abspath(prompt_dir)
    root = os.path.abspath(root)
    while True:
        paths.append(d)
        if d == root or not d.startswith(root + os.sep):
            return jinja2.FileSystemLoader(paths)
        d = os.path.dirname(d)


def included_asts(env, ast, seen=None):
    """The ASTs of the template files that ast includes, at any depth."""
    seen = set() if seen is None else seen
    out = []
    for node in ast.find_all(nodes.Include):
        if not isinstance(node.template, nodes.Const) or node.template.value in seen:
            continue
        seen.add(node.template.value)
        source, _, _ = env.loader.get_source(env, node.template.value)
        inc = env.parse(source)
        out += [inc] + included_asts(env, inc, seen)
    return out


def render_dir(label, template, jin, inputs, scen_dir, want_ext, typed=True, set_template=None, tools=None, loader=None):
    """Render template with every <scenario>.json of scen_dir into
    <scenario><want_ext>, after the data and subset checks; delete stale
    outputs. label names the case or prompt in messages. typed=False skips
    the typed-world data checks, for divergence cases whose data breaks
    them on purpose. A template of a set comes as set_template instead of
    template (a SetTemplate: it brings its components). tools are a chat
    template's declared tools (declared_tools). loader finds the template
    files that {% include %} names (include_loader)."""
    included_reads = set()
    try:
        if set_template is None:
            env = environment(jin, **({"loader": loader} if loader else {}))
            ast = env.parse(template)
            asts, render = [ast], env.from_string(template).render
            # A macro defined in an if is a name Jinja2 may leave unset,
            # not a variable of the data.
            free = jinja2.meta.find_undeclared_variables(ast) - {m.name for m in ast.find_all(nodes.Macro)}
            if loader:
                # An included file reads the data, and the includer's names
                # where they are set at the include (where not, the data's:
                # such a key is used too).
                bound = {n.name for n in ast.find_all(nodes.Name) if n.ctx == "store"}
                for inc in included_asts(env, ast):
                    asts.append(inc)
                    reads = jinja2.meta.find_undeclared_variables(inc) - {m.name for a in asts for m in a.find_all(nodes.Macro)}
                    free |= reads - bound
                    included_reads |= reads
        else:
            asts, free, render = set_template.asts(), set_template.free(), set_template.render
    except jinja2.TemplateError as e:
        raise CaseError("%s: template does not compile: %s: %s" % (label, type(e).__name__, e))
    chat = inputs == "chat"
    if chat:
        # Keys a chat context holds are passed whether the template reads
        # them or not, as apply_chat_template does; no typed-world rules.
        typed, inputs, plain = False, None, render
        render = lambda data: plain(chat_context(data, tools))
        free = free | set(CHAT_KEYS)
    try:
        # An included file calls its includer's macros, and the files it
        # includes its own.
        macros = {m.name for ast in asts for m in ast.find_all(nodes.Macro)}
        for ast in asts:
            check_subset(ast, allow_include=set_template is not None or loader is not None, chat=chat, macros=macros)
        declared = input_vars(inputs) if inputs is not None else None
    except CaseError as e:
        raise CaseError("%s: %s" % (label, e))
    if declared is not None and set_template is not None:
        # A set declares the inputs of all its templates; a template's
        # fixtures need only those it uses.
        declared = [d for d in declared if d[0] in free]

    files = sorted(os.listdir(scen_dir))
    scenarios = [f[: -len(".json")] for f in files if f.endswith(".json")]
    if not scenarios:
        raise CaseError("%s: no <scenario>.json files" % label)

    if declared is not None:
        # A name the template sets or loops over (or a macro's or call
        # block's parameter), read where no set of it may have run, is the
        # template's variable there, which declared inputs leave
        # undefined: they need not declare it.
        bound = {n.name for ast in asts for n in ast.find_all(nodes.Name) if n.ctx in ("store", "param")}
        undeclared = sorted(free - bound - {d[0] for d in declared})
        if undeclared:
            raise CaseError("%s: template uses variables not in inputs: %s"
                            % (label, ", ".join(undeclared)))
    seen = set()
    seen_absent = set()

    written = 0
    for sc in scenarios:
        where = "%s, scenario %s" % (label, sc)
        try:
            with open(os.path.join(scen_dir, sc + ".json"), encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError) as e:
            raise CaseError("%s: bad JSON: %s" % (where, e))
        if set_template is not None and "@" in sc:
            data = set_template.predefine(data, sc.partition("@")[2], where)
        if typed:
            check_scenario(data, inputs, where, free if set_template is not None else None)
        # A set's feed is shared by its templates: a scenario may hold
        # variables that only other templates use.
        unused = sorted(set(data) - free - included_reads) if set_template is None and not chat else []
        if unused:
            raise CaseError("%s: variables not used by the template: %s" % (where, ", ".join(unused)))
        seen |= set(data)
        seen_absent |= {d[0] for d in declared or ()} - set(data)
        try:
            out = render(data)
        except Exception as e:  # any Jinja2 or Python error is fatal
            raise CaseError("%s: Jinja2 raised %s: %s" % (where, type(e).__name__, e))
        with open(os.path.join(scen_dir, sc + want_ext), "w", encoding="utf-8", newline="") as f:
            f.write(out)
        written += 1

    if declared is not None and typed:
        for var, _, optional in declared:
            if optional and not (var in seen and var in seen_absent):
                raise CaseError("%s: optional input %r must be present in one scenario "
                                "and absent in another" % (label, var))
    elif not chat:
        never = sorted(free - seen)
        if never:
            raise CaseError("%s: variables never given by any scenario (typo?): %s"
                            % (label, ", ".join(never)))

    for f in files:
        if f.endswith(want_ext) and f[: -len(want_ext)] not in scenarios:
            os.remove(os.path.join(scen_dir, f))
            print("removed stale %s/%s" % (label, f))
    return written


def render_messages_dir(label, doc, scen_dir):
    """Render a messages prompt: every message's template with each
    <scenario>.json, written to <scenario>.want.txt as a JSON array of
    {role, content}. Only role and template entries, and user messages with
    content parts, are supported here: a text part renders to {"type":
    "text", "text"}; an image part to {"type": "image", "url"}, or for a
    base64 data URL (data:<media type>;base64,<data>) to {"type": "image",
    "media_type", "data"}, as runtime.ImagePart splits one, with the part's
    detail. An image part whose template is one image input ("{{ photo }}",
    of type image, image? or [image]) gives its images as they are, one part
    per image (none when unset), the part's detail replacing theirs, as the
    generated Messages does (runtime.ImageParts)."""
    msgs = doc["messages"]
    jin = doc.get("jinja") or {}
    env = environment(jin)
    images = {}  # the image inputs: name -> whether a list
    for name, sch, _ in input_vars(doc.get("inputs") or {}):
        if sch.get("type") == "image":
            images[name] = False
        elif sch.get("type") == "array" and (sch.get("items") or {}).get("type") == "image":
            images[name] = True
    for m in msgs:
        if set(m) == {"role", "content"} and m["role"] == "user":
            for part in m["content"]:
                kinds = set(part) - {"detail"}
                if len(kinds) != 1 or not kinds <= {"text", "image"} or "detail" in part and "image" not in part:
                    raise CaseError("%s: a content part is {text} or {image[, detail]}" % label)
                check_subset(env.parse(part[kinds.pop()]))
            continue
        if set(m) != {"role", "template"} or m["role"] not in MESSAGE_ROLES:
            raise CaseError("%s: golden.py renders {role, template} and {role: user, content} messages only" % label)
        check_subset(env.parse(m["template"]))

    def image_input(part):
        m = re.fullmatch(r"\{\{\s*(\w+)\s*\}\}", part.get("image", ""))
        return m.group(1) if m and m.group(1) in images else None

    def render_parts(part, data):
        if "text" in part:
            return [{"type": "text", "text": env.from_string(part["text"]).render(data)}]
        name = image_input(part)
        if name is not None:
            value = data.get(name)
            given = value if images[name] else [] if value is None else [value]
            out = []
            for img in given:
                img = dict(img)
                if part.get("detail"):
                    img["detail"] = part["detail"]
                out.append(dict(type="image", **img))
            return out
        url = env.from_string(part["image"]).render(data)
        media_type, sep, b64 = url[len("data:"):].partition(";base64,")
        img = {"type": "image", "url": url}
        if url.startswith("data:") and sep:
            img = {"type": "image", "media_type": media_type, "data": b64}
        if part.get("detail"):
            img["detail"] = part["detail"]
        return [img]

    def render_message(m, data):
        if "content" in m:
            return {"role": m["role"], "content": [x for p in m["content"] for x in render_parts(p, data)]}
        return {"role": m["role"], "content": env.from_string(m["template"]).render(data)}
    written = 0
    files = sorted(os.listdir(scen_dir))
    scenarios = [f[: -len(".json")] for f in files if f.endswith(".json")]
    for sc in scenarios:
        with open(os.path.join(scen_dir, sc + ".json"), encoding="utf-8") as f:
            data = json.load(f)
        check_scenario(data, doc.get("inputs"), "%s, scenario %s" % (label, sc))
        out = [render_message(m, data) for m in msgs]
        with open(os.path.join(scen_dir, sc + ".want.txt"), "w", encoding="utf-8", newline="") as f:
            f.write(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
        written += 1
    return written


def render_sections_dir(label, doc, scen_dir):
    """Render a sectioned prompt with every <scenario>.json of scen_dir into
    <scenario>.want.txt, assembled as runtime.AppendPrompt does (see
    runtime/sections.go): the head, then each section whose `when` is true,
    as "## title" (when it has one) and its body with trailing newlines
    removed, between <!-- BEGIN: name --> and <!-- END: name --> lines when
    markers are on (the default); the parts joined by blank lines, and a
    final newline. Budgets are not applied: a fixture must fit them (the
    Go tests check that promptgen, which enforces them, prints the same)."""
    env = environment(doc.get("jinja") or {})
    markers = doc.get("markers", True)
    head = doc.get("template", "")
    templates = [head]
    for sec in doc["sections"]:
        if "when" in sec:
            # As gen/internal/check/sections.go compiles it.
            templates.append("{% if " + sec["when"] + " %}1{% endif %}")
        templates.append(sec["template"])
    free = set()
    for t in templates:
        ast = env.parse(t)
        check_subset(ast)
        free |= jinja2.meta.find_undeclared_variables(ast)
    written = 0
    files = sorted(os.listdir(scen_dir))
    for sc in [f[: -len(".json")] for f in files if f.endswith(".json")]:
        where = "%s, scenario %s" % (label, sc)
        with open(os.path.join(scen_dir, sc + ".json"), encoding="utf-8") as f:
            data = json.load(f)
        check_scenario(data, doc.get("inputs"), where)
        unused = sorted(set(data) - free)
        if unused:
            raise CaseError("%s: variables not used by the template: %s" % (where, ", ".join(unused)))
        render = lambda t: env.from_string(t).render(data)
        head_text = render(head).rstrip("\n")
        parts = [head_text] if head_text else []
        for sec in doc["sections"]:
            if "when" in sec and render("{% if " + sec["when"] + " %}1{% endif %}") != "1":
                continue
            text = render(sec["template"]).rstrip("\n")
            if sec.get("title"):
                text = "## " + sec["title"] + "\n" + text
            if markers:
                text = "<!-- BEGIN: %s -->\n%s\n<!-- END: %s -->" % (sec["name"], text, sec["name"])
            parts.append(text)
        if markers and "<!--" in head_text + "".join(render(sec["template"]) for sec in doc["sections"]):
            # promptgen escapes marker look-alikes that come from the data.
            raise CaseError("%s: a template printed '<!--': golden.py does not escape markers" % where)
        with open(os.path.join(scen_dir, sc + ".want.txt"), "w", encoding="utf-8", newline="") as f:
            f.write("\n\n".join(parts) + "\n")
        written += 1
    return written


def run_case(case_dir):
    """Render one case. A case under divergences/ documents where promptgen
    differs from Jinja2 on purpose: Jinja2's output goes to <scenario>.jinja,
    next to the hand-written <scenario>.promptgen that the Go test checks."""
    case_dir = os.path.normpath(case_dir)
    name = os.path.basename(case_dir)
    divergence = os.path.basename(os.path.dirname(case_dir)) == "divergences"
    try:
        template, jin, inputs, tools = load_case(case_dir)
    except (CaseError, OSError, yaml.YAMLError) as e:
        raise CaseError("case %s: %s" % (name, e))
    # A case's template files beside prompt.yaml are what it may include.
    loader = include_loader(case_dir, case_dir) if any(f.endswith(PLAIN_EXTS) for f in os.listdir(case_dir)) else None
    if divergence:
        return render_dir("divergence " + name, template, jin, inputs, case_dir, ".jinja", typed=False, tools=tools, loader=loader)
    return render_dir("case " + name, template, jin, inputs, case_dir, ".want", tools=tools, loader=loader)


def case_dirs(path):
    if os.path.isfile(os.path.join(path, "prompt.yaml")):
        return [path]
    if os.path.isdir(os.path.join(path, "cases")):
        path = os.path.join(path, "cases")
    dirs = []
    for entry in sorted(os.listdir(path)):
        d = os.path.join(path, entry)
        if os.path.isdir(d):
            if not os.path.isfile(os.path.join(d, "prompt.yaml")):
                raise CaseError("case %s: missing prompt.yaml" % entry)
            dirs.append(d)
    if not dirs:
        raise CaseError("no case directories under %s" % path)
    return dirs


# ---------------------------------------------------------------------------
# Prompts mode.


def prompt_files(root):
    """{key: path} of the prompt files under root, found as promptgen's loader
    finds them (walk in gen/internal/load/load.go)."""
    found = {}
    for dirpath, dirnames, filenames in os.walk(root):
        # Template sets are read apart, and the tools/ folder at the root
        # holds tools, not prompts.
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".")
                             and not os.path.isfile(os.path.join(dirpath, d, "promptset.yaml"))
                             and not (dirpath == root and d == "tools"))
        for f in sorted(filenames):
            ext = os.path.splitext(f)[1]
            if not is_template_file(f):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), root).replace(os.sep, "/")
            key = rel[: -len(ext)]
            if key in found:
                raise CaseError("prompts %s and %s have the same key %s" % (found[key], rel, key))
            found[key] = rel
    return found


def fixture_dirs(root):
    """{key: directory} of the directories under root that hold *.json files."""
    found = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        if any(f.endswith(".json") for f in filenames):
            found[os.path.relpath(dirpath, root).replace(os.sep, "/")] = dirpath
    return found


def run_prompts(prompts_root, fixtures_root):
    """Render every prompt of prompts_root with its fixtures; return the
    numbers of prompts and scenarios."""
    prompts = prompt_files(prompts_root)
    sets = {}  # fixture key -> (TemplateSet, path)
    for key, d in set_dirs(prompts_root).items():
        try:
            st = TemplateSet(d, key)
        except (CaseError, OSError, KeyError, TypeError, AttributeError, yaml.YAMLError) as e:
            raise CaseError("set %s: %s" % (key, e))
        for path in st.templates:
            sets[key + "/" + path] = (st, path)
    prompts.update({k: None for k in sets})
    if not prompts:
        raise CaseError("no prompt files or template sets under %s" % prompts_root)
    fixtures = fixture_dirs(fixtures_root) if os.path.isdir(fixtures_root) else {}
    orphans = sorted(set(fixtures) - set(prompts))
    if orphans:
        raise CaseError("fixtures in %s have no prompt in %s: %s"
                        % (fixtures_root, prompts_root, ", ".join(orphans)))
    missing = sorted(set(prompts) - set(fixtures))
    if missing:
        raise CaseError("prompts without fixtures (add %s/<key>/<scenario>.json): %s"
                        % (fixtures_root, ", ".join(missing)))
    total = 0
    tools_dir = os.path.join(prompts_root, "tools")
    if not os.path.isdir(tools_dir) or os.path.isfile(os.path.join(tools_dir, "promptset.yaml")):
        tools_dir = None
    for key in sorted(prompts):
        label = "prompt " + key
        if key in sets:
            st, path = sets[key]
            tools = declared_tools(st.doc, tools_dir) if st.inputs == "chat" else None
            total += render_dir("set template " + key, None, st.jinja, st.inputs, fixtures[key], ".want.txt",
                                set_template=SetTemplate(st, path), tools=tools)
            continue
        if prompts[key].endswith(YAML_EXTS):
            with open(os.path.join(prompts_root, prompts[key]), encoding="utf-8") as f:
                doc = yaml.safe_load(f)
            if isinstance(doc, dict) and "messages" in doc:
                total += render_messages_dir(label, doc, fixtures[key])
                continue
            if isinstance(doc, dict) and "sections" in doc:
                total += render_sections_dir(label, doc, fixtures[key])
                continue
        try:
            template, jin, inputs, tools = load_prompt_file(os.path.join(prompts_root, prompts[key]), tools_dir)
        except (CaseError, OSError, UnicodeDecodeError, yaml.YAMLError) as e:
            raise CaseError("%s: %s" % (label, e))
        loader = include_loader(os.path.dirname(os.path.join(prompts_root, prompts[key])), prompts_root)
        total += render_dir(label, template, jin, inputs, fixtures[key], ".want.txt", tools=tools, loader=loader)
    # Outputs left where no scenario is any more.
    for dirpath, _, filenames in os.walk(fixtures_root):
        for f in sorted(filenames):
            if f.endswith(".want.txt") and f[: -len(".want.txt")] + ".json" not in filenames:
                os.remove(os.path.join(dirpath, f))
                print("removed stale %s" % os.path.join(dirpath, f))
    return len(prompts), total


def main(argv):
    args = argv[1:]
    prompts_mode = args[:1] == ["--prompts"]
    if prompts_mode:
        args = args[1:]
    if len(args) > (2 if prompts_mode else 1) or any(a.startswith("-") for a in args):
        print("usage: golden.py [PATH]\n       golden.py --prompts [PROMPTS [FIXTURES]]",
              file=sys.stderr)
        return 2
    if not jinja2.__version__.startswith("3.1."):
        print("golden.py: need Jinja2 3.1.x, have %s" % jinja2.__version__, file=sys.stderr)
        return 1
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        if prompts_mode:
            repo = os.path.relpath(os.path.join(here, "..", "..", ".."))
            prompts_root = args[0] if args else os.path.join(repo, "prompts")
            fixtures_root = args[1] if len(args) > 1 else os.path.join(repo, "generated", "testdata")
            n, total = run_prompts(prompts_root, fixtures_root)
            what = "prompts"
        else:
            dirs = case_dirs(args[0] if args else here)
            if not args:
                dirs += case_dirs(os.path.join(here, "divergences"))
            n, total = len(dirs), sum(run_case(d) for d in dirs)
            what = "cases"
    except CaseError as e:
        print("golden.py: %s" % e, file=sys.stderr)
        return 1
    print("golden.py: %d %s, %d scenarios (Jinja2 %s)" % (n, what, total, jinja2.__version__))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
