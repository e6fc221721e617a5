// Package builtins is what promptgen knows of Jinja2's built-in filters,
// tests, methods, globals and Markup, as data and as rules that need
// only the syntax and the IR: which filters exist and how each reads its
// operand (Filters, with its argument kinds and the checks of its final
// types), their aliases and the unsupported ones named in errors, the
// tests that are comparisons or arithmetic (ComparisonTests, ModTest), the
// names of loop attributes and of dict and str methods, the globals of
// the transformers profile, which values may be Markup (Markup), and
// which operands an and/or yields (Yields). Like go/types' universe, it
// is the table the checker applies; check does the inference and lowering
// and reports through the Errorf it passes. The parameters of filters,
// tests and methods are ir's (FilterParams, TestParams, MethodParams), as
// the backends implement them.
//
// It imports ir and tmpl only. It must not import check or any stage.
package builtins
