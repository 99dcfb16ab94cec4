// Package config loads mcptest suite files: it reads the v1 YAML format
// into a typed Suite and reports every problem at once, each with its
// file, line, column and JSON pointer, before anything runs.
//
// Loading one suite (build.go) goes through these steps:
//
//  1. parse the file, then its imports, depth first (imports.go);
//  2. collect the names every file declares (servers, fixtures, rubrics,
//     providers, faults), so that each file can check its references
//     with exact positions (refs.go);
//  3. read the variables of every file, the dotenv files and the
//     environment, and resolve them (variables.go, with the syntax,
//     precedence and dotenv reading in internal/vars);
//  4. interpolate the strings of every file in place (interpolate.go);
//  5. walk each file's YAML nodes into a typed fragment (validate_*.go),
//     then merge the fragments in order (merge.go);
//  6. merge defaultTest into the tests (defaulttest.go), apply the
//     command-line server overrides (overrides.go) and collect the
//     secrets to redact (secrets.go walks the fields that name
//     credentials; internal/vars collects and checks the values).
//
// The walk uses yaml.v3 nodes rather than decoding into structs, so that
// every value keeps its position; internal/yamlpos is that layer (aliases,
// merge keys, scalars, syntax errors, YAML to JSON for free-form values
// such as tool args). Each object of the format has a table of keys
// (yamlpos.ObjectSpec, declared beside its validate_*.go reader) that
// rejects unknown keys with a did-you-mean.
//
// schemas/v1.json describes the same format for editors; a test keeps the
// schema's objects and the loader's tables in step.
//
// # Size
//
// The package is about 7,900 lines without tests (late 2026), well over
// the ~3,000 the project aims for, and stays one package on purpose. Most
// of it is the format itself: one reader per object of the v1 format
// (validate_*.go, about 4,000 lines) and the typed Suite they fill
// (types_*.go and suite.go, about 1,200), which is the package's public
// API. The rest is the pipeline listed above, with data rows (about
// 2,500).
//
// The readers cannot leave without the loader's internals going with
// them: each is a method on the loader and shares its error collector,
// the tables of names declared across all files (refs.go, for references
// with exact positions), the record of ${fixture} uses, and the
// assertion reader that tests, agents, evals and rubric-graded matchers
// all embed. The types they fill are what callers import, so a validation
// sub-package would need an alias for every type or an import cycle. The
// parts with no such ties have left: internal/yamlpos (positions,
// decoding, syntax errors) and internal/vars (variable syntax,
// precedence, dotenv files, secrets). The agent, eval and rubric readers
// (validate_agents.go, validate_evals.go, validate_rubric.go, about 800
// lines) are the next candidates, once they have a loader of their own,
// and so is the parsing of data-row files (CSV, JSON Lines, YAML into
// nodes: the pure functions of datarows.go), once that code settles.
package config
