package bench

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// hugeSuiteBytes is the size of the suite BenchmarkValidateHuge writes.
const hugeSuiteBytes = 50 << 20

// BenchmarkValidateHuge runs `mcptest validate` on a generated 50 MB suite
// of about 330,000 tool tests (written to a temporary directory, never
// committed) and reports mcptest's peak resident set and wall time. The
// budgets (DESIGN.md) are absolute: at most 600 MB and 10 s.
func BenchmarkValidateHuge(b *testing.B) {
	bins := builtBinaries(b)
	dir := b.TempDir()
	suite := filepath.Join(dir, "huge.yml")
	tests := writeHugeSuite(b, suite)
	var mb, secs float64
	for range b.N {
		m, d := peakRSSOf(b, bins, dir, 0, "validate", suite)
		mb += m
		secs += d.Seconds()
	}
	n := float64(b.N)
	b.ReportMetric(mb/n, "MB-validate-50MB")
	b.ReportMetric(secs/n, "s-validate-50MB")
	b.ReportMetric(float64(tests), "tests")
}

// writeHugeSuite writes a suite of hugeSuiteBytes of small tool tests and
// returns how many tests it holds.
func writeHugeSuite(b *testing.B, path string) int {
	b.Helper()
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	size, _ := fmt.Fprint(w, "servers:\n  local: {command: [\"./server\"]}\ntools:\n")
	n := 0
	for ; size < hugeSuiteBytes; n++ {
		k, _ := fmt.Fprintf(w, "  - name: \"t%06d\"\n    server: local\n    tool: echo\n    args: {message: hi %d}\n    expect:\n"+
			"      - target: result.isError\n        matcher: {exact: false}\n", n, n)
		size += k
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	return n
}
