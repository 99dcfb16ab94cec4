package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeBigSuite writes a suite of n tool tests, each with args and two
// assertions, and returns its path.
func writeBigSuite(tb testing.TB, n int) string {
	tb.Helper()
	var b strings.Builder
	b.WriteString("# yaml-language-server: $schema=https://mcptest.sh/schema/v1.json\n")
	b.WriteString("servers:\n  local:\n    command: [\"./server\", \"--stdio\"]\n    env: {LOG_LEVEL: info}\n")
	b.WriteString("  other:\n    command: [\"./other\"]\n")
	b.WriteString("performance:\n  default_timeout_ms: 10000\n")
	b.WriteString("tools:\n")
	for i := range n {
		server := "local"
		if i%2 == 1 {
			server = "other"
		}
		fmt.Fprintf(&b, `  - name: "generated test %05d"
    server: %s
    tool: echo
    args:
      message: "hello %d"
      count: %d
      nested: {list: [1, 2, 3], flag: true, ratio: 0.5}
    timeout_ms: 5000
    tags: [smoke, generated]
    expect:
      - target: result.content[0].text
        matcher:
          contains: "hello"
        message: echo should greet
      - target: result.isError
        matcher: {exact: false}
`, i, server, i, i)
	}
	path := filepath.Join(tb.TempDir(), "big.yml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

func TestLoad10k(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a 10,000-test suite (seconds on a busy machine); skipped in -short mode (make test runs it)")
	}
	path := writeBigSuite(t, 10_000)
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tools) != 10_000 {
		t.Fatalf("%d tests", len(s.Tools))
	}
	last := s.Tools[9999]
	if last.Name != "generated test 09999" || last.Server != "other" || len(last.Expect) != 2 ||
		string(last.Args) != `{"message":"hello 9999","count":9999,"nested":{"list":[1,2,3],"flag":true,"ratio":0.5}}` {
		t.Errorf("last test = %+v args %s", last, last.Args)
	}
	if last.Pos.Pointer != "/tools/9999" || last.Expect[1].Matcher.Pos.Pointer != "/tools/9999/expect/1/matcher" {
		t.Errorf("positions = %+v %+v", last.Pos, last.Expect[1].Matcher.Pos)
	}
}

// BenchmarkLoad10k measures loading a 10,000-test suite (about 160,000
// lines); the budget is well under one second per load.
func BenchmarkLoad10k(b *testing.B) {
	path := writeBigSuite(b, 10_000)
	info, _ := os.Stat(path)
	b.SetBytes(info.Size())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(path); err != nil {
			b.Fatal(err)
		}
	}
}
