#!/usr/bin/python3
"""Regenerate the golden outputs of the promptgen render corpus with real Jinja2.

Usage (from the repository root):

    /usr/bin/python3 gen/testdata/render/golden.py [PATH]

PATH defaults to the directory holding this script. It may be a render
directory (one containing cases/), a cases/ directory, or a single case
directory (one containing prompt.yaml).

For every case directory (sorted by name) this loads prompt.yaml, builds a
jinja2.Environment from its optional `jinja:` key (trim_blocks, lstrip_blocks,
keep_trailing_newline; all default to False, everything else is Jinja2's
default: plain Undefined, autoescape off), renders `template` once per
<scenario>.json with the JSON object as the context, and writes the exact
output bytes (UTF-8, no newline translation, nothing appended) to
<scenario>.want. .want files without a matching .json are deleted.

Before rendering, scenario data is checked against the typed-world rules of
promptgen where that can be done mechanically: lists are homogeneous, and when
the case declares `inputs`, every value matches its declared type (a `number`
must be a JSON float such as 1.0, required variables are present, required
strings are non-empty, object keys follow declaration order, map keys are
sorted).

Any problem (bad YAML, a Jinja2 error, a rule violation) aborts with a
non-zero exit status and a message naming the case and scenario.
"""

import json
import os
import sys

import jinja2
import jinja2.meta
import jinja2.nodes as nodes
import yaml

JINJA_OPTIONS = ("trim_blocks", "lstrip_blocks", "keep_trailing_newline")
PROMPT_KEYS = {"description", "jinja", "inputs", "template"}
SHORTHAND_TYPES = {"string", "int", "number", "bool", "object"}

# The Jinja2 subset promptgen supports (see README.md).
ALLOWED_FILTERS = {
    "default", "d", "upper", "lower", "title", "capitalize", "trim", "join",
    "length", "count", "tojson", "replace", "first", "last", "int", "float",
    "string", "round", "indent", "truncate", "sort", "unique", "list", "map",
}
ALLOWED_TESTS = {"defined", "undefined", "none", "string", "number"}
ALLOWED_METHODS = {
    "strip", "lstrip", "rstrip", "upper", "lower", "title", "capitalize",
    "startswith", "endswith", "split", "replace", "items",
}
FORBIDDEN_NODES = (
    nodes.Macro, nodes.CallBlock, nodes.FilterBlock, nodes.Block, nodes.Extends,
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
                         "bool": "boolean", "object": "object"}[name]}, optional
    if isinstance(t, list):
        if len(t) != 1:
            raise CaseError("%s: list shorthand must have exactly one item type" % where)
        item, item_opt = normalize_type(t[0], where + "[]")
        if item_opt:
            raise CaseError("%s: list items cannot be optional" % where)
        return {"type": "array", "items": item}, False
    if isinstance(t, dict):
        return t, bool(t.get("optional", False))
    raise CaseError("%s: cannot understand type %r" % (where, t))


def schema_of(s, where):
    """Schema for a nested position (JSON Schema or shorthand)."""
    if isinstance(s, (str, list)):
        sch, opt = normalize_type(s, where)
        if opt:
            raise CaseError("%s: `?` is only for top-level inputs" % where)
        return sch
    return s


def check_value(v, sch, where):
    typ = sch.get("type")
    if typ is None:
        raise CaseError("%s: schema without type" % where)
    kind = json_kind(v)
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
                if k not in v:
                    if k in required:
                        raise CaseError("%s: missing required key %r" % (where, k))
                    continue
                if k in required and psch.get("type") == "string" and v[k] == "":
                    raise CaseError("%s.%s: required string must be non-empty" % (where, k))
                check_value(v[k], psch, "%s.%s" % (where, k))
        # else: `object` shorthand, fields inferred from the template.
    else:
        raise CaseError("%s: unsupported schema type %r" % (where, typ))


def check_scenario(data, inputs, where):
    if not isinstance(data, dict):
        raise CaseError("%s: scenario must be a JSON object" % where)
    for k, v in data.items():
        check_homogeneous(v, "%s: %s" % (where, k))
    if inputs is None:
        return
    for name in data:
        if name not in inputs:
            raise CaseError("%s: variable %r is not declared in inputs" % (where, name))
    for name, t in inputs.items():
        sch, optional = normalize_type(t, "inputs.%s" % name)
        if name not in data:
            if not optional:
                raise CaseError("%s: required variable %r is missing" % (where, name))
            continue
        if not optional and sch.get("type") == "string" and data[name] == "":
            raise CaseError("%s: required string %r must be non-empty" % (where, name))
        check_value(data[name], sch, "%s: %s" % (where, name))


# ---------------------------------------------------------------------------
# Template subset checks.


def check_subset(ast):
    for node in ast.find_all(nodes.Node):
        if isinstance(node, FORBIDDEN_NODES):
            raise CaseError("uses {%% %s %%}, which is outside the supported subset"
                            % type(node).__name__.lower())
        if isinstance(node, nodes.Filter) and node.name not in ALLOWED_FILTERS:
            raise CaseError("uses filter %r, which is outside the supported subset" % node.name)
        if isinstance(node, nodes.Filter) and node.name == "map":
            if node.args or [k.key for k in node.kwargs] != ["attribute"]:
                raise CaseError("map is only supported as map(attribute=...)")
        if isinstance(node, nodes.Test) and node.name not in ALLOWED_TESTS:
            raise CaseError("uses test %r, which is outside the supported subset" % node.name)
        if isinstance(node, nodes.Call):
            fn = node.node
            if not (isinstance(fn, nodes.Getattr) and fn.attr in ALLOWED_METHODS):
                raise CaseError("calls something other than an allowed string method")
            if fn.attr == "items" and node.args:
                raise CaseError(".items() takes no arguments")


# ---------------------------------------------------------------------------
# Rendering.


def load_case(case_dir):
    path = os.path.join(case_dir, "prompt.yaml")
    with open(path, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    if not isinstance(doc, dict):
        raise CaseError("prompt.yaml is not a mapping")
    unknown = set(doc) - PROMPT_KEYS
    if unknown:
        raise CaseError("prompt.yaml has unknown keys %r" % sorted(unknown))
    if not isinstance(doc.get("description"), str) or not doc["description"].strip():
        raise CaseError("prompt.yaml needs a one-line description")
    if not isinstance(doc.get("template"), str):
        raise CaseError("prompt.yaml needs a string template")
    jin = doc.get("jinja") or {}
    if not isinstance(jin, dict) or set(jin) - set(JINJA_OPTIONS):
        raise CaseError("jinja: may only set %s" % ", ".join(JINJA_OPTIONS))
    for k, v in jin.items():
        if not isinstance(v, bool):
            raise CaseError("jinja.%s must be a bool" % k)
    inputs = doc.get("inputs")
    if inputs is not None and not isinstance(inputs, dict):
        raise CaseError("inputs must be a mapping")
    return doc, jin, inputs


def run_case(case_dir):
    name = os.path.basename(os.path.normpath(case_dir))
    try:
        doc, jin, inputs = load_case(case_dir)
    except (CaseError, OSError, yaml.YAMLError) as e:
        raise CaseError("case %s: %s" % (name, e))

    env = jinja2.Environment(
        trim_blocks=jin.get("trim_blocks", False),
        lstrip_blocks=jin.get("lstrip_blocks", False),
        keep_trailing_newline=jin.get("keep_trailing_newline", False),
    )
    try:
        ast = env.parse(doc["template"])
        tmpl = env.from_string(doc["template"])
    except jinja2.TemplateError as e:
        raise CaseError("case %s: template does not compile: %s: %s" % (name, type(e).__name__, e))
    try:
        check_subset(ast)
    except CaseError as e:
        raise CaseError("case %s: %s" % (name, e))
    free = jinja2.meta.find_undeclared_variables(ast)

    files = sorted(os.listdir(case_dir))
    scenarios = [f[: -len(".json")] for f in files if f.endswith(".json")]
    if not scenarios:
        raise CaseError("case %s: no <scenario>.json files" % name)

    if inputs is not None:
        undeclared = sorted(free - set(inputs))
        if undeclared:
            raise CaseError("case %s: template uses variables not in inputs: %s"
                            % (name, ", ".join(undeclared)))
    seen = set()
    seen_absent = set()

    written = 0
    for sc in scenarios:
        where = "case %s, scenario %s" % (name, sc)
        try:
            with open(os.path.join(case_dir, sc + ".json"), encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError) as e:
            raise CaseError("%s: bad JSON: %s" % (where, e))
        check_scenario(data, inputs, where)
        unused = sorted(set(data) - free)
        if unused:
            raise CaseError("%s: variables not used by the template: %s" % (where, ", ".join(unused)))
        seen |= set(data)
        seen_absent |= set(inputs or ()) - set(data)
        try:
            out = tmpl.render(data)
        except Exception as e:  # any Jinja2 or Python error is fatal
            raise CaseError("%s: Jinja2 raised %s: %s" % (where, type(e).__name__, e))
        with open(os.path.join(case_dir, sc + ".want"), "w", encoding="utf-8", newline="") as f:
            f.write(out)
        written += 1

    if inputs is not None:
        for var, t in inputs.items():
            if normalize_type(t, "inputs.%s" % var)[1] and not (var in seen and var in seen_absent):
                raise CaseError("case %s: optional input %r must be present in one scenario "
                                "and absent in another" % (name, var))
    if inputs is None:
        never = sorted(free - seen)
        if never:
            raise CaseError("case %s: variables never given by any scenario (typo?): %s"
                            % (name, ", ".join(never)))

    for f in files:
        if f.endswith(".want") and f[: -len(".want")] not in scenarios:
            os.remove(os.path.join(case_dir, f))
            print("removed stale %s/%s" % (name, f))
    return written


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


def main(argv):
    if len(argv) > 2:
        print("usage: golden.py [PATH]", file=sys.stderr)
        return 2
    if not jinja2.__version__.startswith("3.1."):
        print("golden.py: need Jinja2 3.1.x, have %s" % jinja2.__version__, file=sys.stderr)
        return 1
    root = argv[1] if len(argv) == 2 else os.path.dirname(os.path.abspath(__file__))
    try:
        dirs = case_dirs(root)
        total = 0
        for d in dirs:
            total += run_case(d)
    except CaseError as e:
        print("golden.py: %s" % e, file=sys.stderr)
        return 1
    print("golden.py: %d cases, %d scenarios (Jinja2 %s)" % (len(dirs), total, jinja2.__version__))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
