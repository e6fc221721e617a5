#!/usr/bin/python3
"""Render a batch of templates with real Jinja2 for promptgen's tests
(internal/pyjinja: the differential fuzzer, the chat corpus).

Reads a JSON array from stdin, each item {"template": str, "options":
{"trim_blocks": bool, "lstrip_blocks": bool, "keep_trailing_newline": bool,
"profile": bool}, "data": object, "includes": {name: template}, optional},
and writes a JSON array to stdout with,
for each item in order, {"out": the rendered text} or, where rendering
raises, {"type": the exception's type name, "message": str(exception),
"partial": what the template yielded before it raised} (the top level
yields each piece of output as it goes; a block, macro or call buffers
its own), and "opaque": true where a {{ }} printed a generator, an
iterator or a method, or a list, tuple or dict holding one, whose text
holds its address, also where that text
was then dropped or cut (a block set never printed, truncate), or where
a filter, a call (str.format), ~ or % made a string holding an address
(str() of such an object, never printed: |string|length).
An item with "probe": {"template": "" for the template or an include's
name, "offset": a byte offset in it} that renders is rendered again with a
probe at the construct holding that offset, and its result gets
"reached": whether Jinja2 ran that construct (probed_template).
The environment is Jinja2's default but for those options, as in
gen/testdata/render/golden.py; with profile, it is transformers' (jinja:
{profile: transformers}), as gen/testdata/chat/render.py builds it.
"""

import functools
import importlib.util
import json
import operator
import os
import re
import sys
import types

import jinja2
import jinja2.runtime
from jinja2 import nodes
from jinja2.compiler import CodeGenerator
from jinja2.lexer import TokenStream, newline_re
from jinja2.parser import Parser


def transformers_environment():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "gen", "testdata", "chat", "render.py")
    spec = importlib.util.spec_from_file_location("chat_render", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.environment()


PROBE = "difffuzz_reached"


def located_tree(env, source):
    """The AST of source, each node's lineno replaced by the offset in the
    lexer's source (line breaks made \\n) of the token that starts it (of
    its operator or name for some), and the start and end offsets of the
    tokens inside tags."""
    source = env.preprocess(source)
    text = "\n".join(newline_re.split(source)[::2])
    spans = []

    def located():
        pos = 0
        for _, kind, value in env.lexer.tokeniter(source, None):
            # Between two tokens lies only what the lexer drops: spaces in
            # tags, the whitespace a strip removes around data.
            at = text.find(value, pos) if value else -1
            at = pos if at < 0 else at
            pos = at + len(value)
            if kind not in ("data", "whitespace", "block_begin", "variable_begin", "comment"):
                spans.append((at, pos))
            yield at, kind, value

    stream = TokenStream(env.lexer.wrap(located(), None), None, None)
    for ext in env.iter_extensions():
        stream = ext.filter_stream(stream)
        if not isinstance(stream, TokenStream):
            stream = TokenStream(stream, None, None)
    parser = Parser(env, source)
    parser.stream = stream
    # A node is made once its last token is read, its tokens ending where
    # the stream's current one starts, or (a name, a constant) while that
    # token is current.
    init = nodes.Node.__init__

    def init_with_end(node, *args, **kwargs):
        init(node, *args, **kwargs)
        node.difffuzz_end = max(parser.stream.current.lineno, (node.lineno or 0) + 1)

    nodes.Node.__init__ = init_with_end
    try:
        return parser.parse(), spans
    finally:
        nodes.Node.__init__ = init


def token_at(source, spans, byte_offset):
    """The start of the token in spans holding the byte_offset-th byte of
    source, or of the first after it (the tag's first one for its
    delimiter)."""
    prefix = source.encode()[:byte_offset].decode(errors="ignore")
    offset = len("\n".join(newline_re.split(prefix)[::2]))
    return next((start for start, end in spans if offset < end), offset)


def extent(node):
    """Where node's tokens start and end, those of its subtree included (a
    statement node is made before its body is read); (0, 0) for none."""
    subtree = [node, *node.find_all(nodes.Node)]
    starts = [n.lineno for n in subtree if n.lineno is not None]
    ends = [n.difffuzz_end for n in subtree if hasattr(n, "difffuzz_end")]
    return (min(starts), max(ends)) if starts and ends else (0, 0)


def probed_template(env, source, byte_offset):
    """The AST of source with a call of PROBE where Jinja2 evaluates the
    innermost node holding byte_offset: around it, (probe() or node), where
    it is an expression that is read, else as a statement before its
    statement (around the test of an elif); None where no node holds it."""
    tree, spans = located_tree(env, source)
    offset = token_at(source, spans, byte_offset)
    path = [(tree, None, None)]  # (node, its field in its parent, its index there)
    while True:
        inner = None
        for field, value in path[-1][0].iter_fields():
            listed = isinstance(value, list)
            for i, child in enumerate(value if listed else [value]):
                if isinstance(child, nodes.Node):
                    lo, hi = extent(child)
                    if lo <= offset < hi:
                        inner = (child, field, i if listed else None)
        if inner is None:
            break
        path.append(inner)

    def probe():
        return nodes.Call(nodes.Name(PROBE, "load"), [], [], None, None)

    for depth in range(len(path) - 1, 0, -1):
        node, field, index = path[depth]
        parent = path[depth - 1][0]
        if field == "elif_":
            node.test = nodes.Or(probe(), node.test)
        elif (isinstance(node, nodes.Expr) and getattr(node, "ctx", "load") == "load"
              and not isinstance(node, nodes.NSRef) and field not in ("target", "targets", "call", "filter")):
            if index is None:
                setattr(parent, field, nodes.Or(probe(), node))
            else:
                getattr(parent, field)[index] = nodes.Or(probe(), node)
        elif isinstance(node, nodes.Stmt) and index is not None:
            getattr(parent, field).insert(index, nodes.ExprStmt(probe()))
        else:
            continue
        tree.set_environment(env)
        tree.set_lineno(1)  # only the new nodes, which have none
        return tree
    return None


class ProbeLoader(jinja2.DictLoader):
    """Includes, the probed one compiled from its probed AST."""

    def __init__(self, mapping, name, tree):
        super().__init__(mapping)
        self.probed, self.tree = name, tree

    def load(self, environment, name, globals=None):
        if name != self.probed:
            return super().load(environment, name, globals)
        code = environment.compile(self.tree, name)
        return environment.template_class.from_code(environment, code, environment.make_globals(globals), None)


def reached(env, job):
    """Whether Jinja2, rendering job, runs the construct at its probe: None
    where no node holds the probe's offset, false in an included file that
    does not parse."""
    name, includes = job["probe"]["template"], job.get("includes") or {}
    try:
        tree = probed_template(env, includes[name] if name else job["template"], job["probe"]["offset"])
    except jinja2.TemplateSyntaxError:
        # an included file that does not parse, which Jinja2 rendering
        # job never loaded (it would have raised)
        return False
    if tree is None:
        return None
    ran = []

    def record():
        ran.append(True)
        return ""

    penv = env.overlay(loader=ProbeLoader(includes, name, tree)) if name else env.overlay()
    penv.globals = dict(env.globals, **{PROBE: record})
    code = penv.compile(job["template"] if name else tree)
    try:
        penv.template_class.from_code(penv, code, penv.make_globals(None), None).render(job["data"])
    except Exception:
        pass  # raised after the probe ran, or before it could
    return bool(ran)


OPAQUE = (types.GeneratorType, types.BuiltinMethodType, types.MethodType, type(reversed([])), reversed)
printed_opaque = []


def holds_opaque(value, depth=0):
    """Whether value is an opaque object (OPAQUE) or a list, tuple or
    dict that holds one, whose repr then holds its address."""
    if isinstance(value, OPAQUE):
        return True
    if depth > 20:
        return False
    if isinstance(value, (list, tuple)):
        return any(holds_opaque(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return any(holds_opaque(v, depth + 1) for v in value.values())
    return False


def finalize(value):
    """Jinja2's finalize, which each {{ }} passes its value through:
    it records a print of an opaque object, or of a list, tuple or dict
    holding one (holds_opaque), and changes nothing."""
    if holds_opaque(value):
        printed_opaque.append(True)
    return value


ADDRESS = re.compile(r" at 0x[0-9a-f]+>", re.IGNORECASE)


def noted(value):
    """value, recorded in printed_opaque where it is a string holding an
    address (an opaque object's text, made but perhaps never printed:
    |string|length, (g ~ '')[:3]); an upper-cased one too."""
    if isinstance(value, str) and ADDRESS.search(value):
        printed_opaque.append(True)
    return value


def noting(f):
    """f, its result passed through noted; Jinja2's pass_context and the
    like are kept (functools.wraps copies them)."""
    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        return noted(f(*args, **kwargs))
    return wrapper


def noting_format(f):
    """f, a function that formats its other arguments with a string (%,
    the format filter), also recorded in printed_opaque where they hold an
    opaque object, whose text the format may cut ('%.3s' % g)."""
    @functools.wraps(f)
    def wrapper(value, *args, **kwargs):
        if isinstance(value, str) and holds_opaque((args, kwargs)):
            printed_opaque.append(True)
        return noted(f(value, *args, **kwargs))
    return wrapper


formatted = noting_format(operator.mod)


class NotingCodeGenerator(CodeGenerator):
    """Jinja2's code generator with each ~ passed through noted and each
    % made by formatted."""

    def visit_Concat(self, node, frame):
        self.write("environment.noted(")
        super().visit_Concat(node, frame)
        self.write(")")

    def visit_Mod(self, node, frame):
        self.write("environment.formatted(")
        self.visit(node.left, frame)
        self.write(", ")
        self.visit(node.right, frame)
        self.write(")")


def noting_environment(env):
    """env with what makes a string of a value noted: its filters, % and
    ~; calls are noted for all (jinja2.runtime, patched in main)."""
    env.filters = {name: noting(f) for name, f in env.filters.items()}
    env.filters["format"] = noting_format(env.filters["format"])
    env.code_generator_class = NotingCodeGenerator
    env.noted, env.formatted = noted, formatted
    return env


def main():
    # str.format, and a macro's text; % and ~ of constants, which Jinja2
    # folds as it compiles (a template, then its includes, in the job)
    jinja2.runtime.Context.call = noting(jinja2.runtime.Context.call)
    nodes._binop_to_func["%"] = formatted
    nodes.Concat.as_const = noting(nodes.Concat.as_const)
    jobs = json.load(sys.stdin)
    envs = {}
    results = []
    for job in jobs:
        opts = job["options"]
        key = (opts["trim_blocks"], opts["lstrip_blocks"], opts["keep_trailing_newline"], opts["profile"])
        env = envs.get(key)
        if env is None and key[3]:
            env = envs[key] = noting_environment(transformers_environment())
            env.trim_blocks, env.lstrip_blocks, env.keep_trailing_newline = key[:3]
        elif env is None:
            env = envs[key] = noting_environment(jinja2.Environment(
                trim_blocks=key[0], lstrip_blocks=key[1], keep_trailing_newline=key[2]))
        env.finalize = finalize
        if job.get("includes"):
            env = env.overlay(loader=jinja2.DictLoader(job["includes"]))
        parts = []
        printed_opaque.clear()
        try:
            # generate, which render joins, so that what was printed before
            # a raise is known
            for part in env.from_string(job["template"]).generate(job["data"]):
                parts.append(part)
            result = {"out": "".join(parts)}
        except Exception as e:  # any failure is Jinja2 raising
            result = {"type": type(e).__name__, "message": str(e), "partial": "".join(parts)}
        if printed_opaque:
            result["opaque"] = True
        if "out" in result and job.get("probe"):
            result["reached"] = reached(env, job)
        results.append(result)
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
