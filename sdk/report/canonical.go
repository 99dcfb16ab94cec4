package report

import (
	"encoding/json"
	"fmt"
	"io"
)

// WriteCanonical writes run as the canonical report document: indented
// JSON (two spaces) with a trailing newline, HTML characters not escaped
// (values read as the server sent them), schema_version filled in when
// missing, and the two required lists (suites, tests) written as [] rather
// than null, so the document always satisfies schemas/report.v1.json. It is
// what the json reporter writes, and what a host writes itself for a
// reporter that declares its output canonical (sdk.CanonicalReporter).
// run is not changed.
func WriteCanonical(w io.Writer, run *Run) error {
	out := *run
	if out.SchemaVersion == "" {
		out.SchemaVersion = SchemaVersion
	}
	if out.Suites == nil {
		out.Suites = []string{}
	}
	if out.Tests == nil {
		out.Tests = []Test{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&out); err != nil {
		return fmt.Errorf("encode report: %w", err)
	}
	return nil
}
