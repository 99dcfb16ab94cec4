package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkDataRows loads one test with 10,000 rows from a JSON Lines
// file: the rows file is parsed and the test copied once per row.
func BenchmarkDataRows(b *testing.B) {
	dir := b.TempDir()
	var rows strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&rows, `{"name": "r%d", "a": %d, "b": %d, "sum": %d}`+"\n", i, i, i+1, 2*i+1)
	}
	if err := os.WriteFile(filepath.Join(dir, "rows.jsonl"), []byte(rows.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	suite := filepath.Join(dir, "suite.yml")
	if err := os.WriteFile(suite, []byte(`servers:
  s: {command: ["x"]}
tools:
  - name: add ${data.a}
    server: s
    tool: add
    data: {file: rows.jsonl}
    args: {a: "${data.a}", b: "${data.b}"}
    expect:
      - {target: result.structuredContent.sum, matcher: {exact: "${data.sum}"}}
`), 0o644); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		s, err := Load(suite)
		if err != nil || len(s.Tools) != 10000 {
			b.Fatal(err)
		}
	}
}
