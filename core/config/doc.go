// Package config loads mcptest suite files: it reads the v1 YAML format
// into a typed Suite and reports every problem of a file at once, each
// with its file, line, column and JSON pointer, before anything runs.
//
// The loader walks yaml.v3 nodes rather than decoding into structs, so
// that every value keeps its position. Each object of the format (the
// suite, a server, a tool test, an assertion) has a table of keys
// (objectSpec) that separates the keys this build reads from the v1 keys
// it does not support yet, which fail with "not supported yet by this
// build" instead of "unknown key". Values that are free-form JSON (tool
// args, matcher arguments) are converted from YAML by yamljson.go.
//
// schemas/v1.json describes the same format for editors; a test keeps the
// two in step.
package config
