package bench

import (
	"path/filepath"
	"testing"
	"time"
)

// throughputTests is the suite size of the DESIGN.md budget "1,000
// tool-call tests ≤ 1.1× a bare mcp-go client loop making the same 1,000
// calls".
const throughputTests = 1000

// BenchmarkThroughput runs a 1,000-test suite (one echo call and one exact
// assertion each) with `mcptest run`, and a bare mcp-go client that starts
// the same server and makes the same 1,000 calls one after another. Both
// include starting and stopping the server, since a run cannot skip that;
// the ratio run/bare is the figure the budget is stated in.
//
// As in BenchmarkColdStart, each op runs both, alternating the order.
func BenchmarkThroughput(b *testing.B) {
	bins := builtBinaries(b)
	dir := b.TempDir()
	suite := filepath.Join(dir, "throughput.yml")
	writeSuite(b, suite, bins.demo, throughputTests)

	bareLoop(b, bins.demo)
	runSuite(b, bins, dir, suite)

	var bare, run time.Duration
	b.ResetTimer()
	for i := range b.N {
		if i%2 == 0 {
			bare += timed(func() { bareLoop(b, bins.demo) })
			run += timed(func() { runSuite(b, bins, dir, suite) })
		} else {
			run += timed(func() { runSuite(b, bins, dir, suite) })
			bare += timed(func() { bareLoop(b, bins.demo) })
		}
	}
	n := float64(b.N)
	b.ReportMetric(ms(run)/n, "ms-run")
	b.ReportMetric(ms(bare)/n, "ms-bare")
	b.ReportMetric(float64(run)/float64(bare), "x-bare")
}

// bareLoop is the floor: one server, the suite's 1,000 echo calls in
// order, each answer checked.
func bareLoop(b *testing.B, demo string) {
	c := bareClient(b, demo)
	for i := range throughputTests {
		callEcho(b, c, echoMessage(i))
	}
	if err := c.Close(); err != nil {
		b.Fatalf("close the bare client: %v", err)
	}
}
