// Package load owns the prompt tree: it walks the prompts directory
// (symbolic links refused, non-prompt files skipped), reads prompt files,
// template sets (promptset.yaml, namespaces, components, version suffixes)
// and fragments into the ir specs with exact positions, and checks each
// prompt's examples against its schemas once it is typed.
//
// It imports ir, src, tmpl, diag, schema, runtime/params (the known
// parameters) and internal/nolink (which reads the directory without
// following links). It must not
// import gen, check or a backend: it reads files, it does not compile
// templates.
package load
