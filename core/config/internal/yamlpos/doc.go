// Package yamlpos is the YAML layer of the suite loader: it reads yaml.v3
// nodes while keeping the position of every value, so that each problem
// becomes an Error with its file, line, column and JSON pointer.
//
// It knows YAML and JSON, not the suite format: following aliases and
// merge keys (node.go), checking an object against a table of keys with a
// did-you-mean for unknown ones (object.go), reading strings, booleans,
// enums, numbers and durations (scalars.go, numbers.go), locating syntax
// errors that yaml.v3 reports without a column (syntax.go) and converting
// free-form values to JSON (yamljson.go). A Reader holds the errors and
// caches of one file; core/config embeds it in its loader and supplies the
// tables of keys of the v1 format.
package yamlpos
