// Package builtins is what promptgen knows of Jinja2's built-in filters,
// tests, methods, globals and Markup, as data and as rules that need
// only the syntax and the IR:
//
//   - which filters exist and how each reads its operand (Filters: flags,
//     argument kinds and the checks of its final types), their aliases, the
//     unsupported ones named in errors, those map applies (MapFilters);
//   - the names of loop attributes, of dict and str methods, of the
//     transformers profile's globals and of macros' special names;
//   - the builtins Jinja2 defines as other syntax: the comparison tests,
//     even, odd and divisibleby (ModTest), sameas, dict(k=v), the filter of
//     a {% filter %} block (CaptureFilter);
//   - which values may be Markup (Markup), and which operands an and/or
//     yields (Yields).
//
// Like go/types' universe, it is the table the checker applies: check
// does the inference and the lowering, and each rule reports through the
// Errorf check passes. The parameters of filters, tests and methods are
// ir's (FilterParams, TestParams, MethodParams), as the backends
// implement them.
//
// It imports ir and tmpl only. It must not import check or any stage.
package builtins
