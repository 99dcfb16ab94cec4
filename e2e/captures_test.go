package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

// readReport reads a JSON report.
func readReport(t *testing.T, path string) report.Run {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r report.Run
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// blobHit finds whether one of the two identical json_blob requests (the
// composition's blob node and the plain test) was answered from the
// cache. Tests run concurrently, so either may go first and be the one
// that reaches the server; the other waits for it and shares its answer.
func blobHit(t *testing.T, r report.Run) bool {
	t.Helper()
	node, nodeSeen, plain := false, false, false
	for _, tr := range r.Tests {
		switch tr.Name {
		case "json_blob feeds add and echo":
			for _, n := range tr.Nodes {
				if n.ID == "blob" {
					node, nodeSeen = n.CacheHit, true
				}
			}
		case "json_blob answers with JSON text":
			plain = tr.CacheHit
		}
	}
	if !nodeSeen {
		t.Fatal("no blob node in the report")
	}
	if node && plain {
		t.Error("both json_blob requests say they were answered from the cache")
	}
	return node || plain
}

// TestCapturesAndCompositionsExample runs the example the docs point to,
// with and without the result cache, and with a cache folder across two
// runs.
func TestCapturesAndCompositionsExample(t *testing.T) {
	work := filepath.Dir(binDir)
	suite := filepath.Join(root, "examples", "captures-and-compositions.yml")
	out := filepath.Join(t.TempDir(), "run.json")

	r := mcptestIn(t, work, nil, "run", "--reporter", "pretty", "--reporter", "json="+out, suite)
	if r.code != 0 {
		t.Fatalf("example failed:\n%s", r)
	}
	mustContain(t, "stdout", r.stdout, "8 passed", "0 failed")
	rep := readReport(t, out)
	if !blobHit(t, rep) {
		t.Errorf("the blob node repeats another test's request: one of the two should be a cache hit")
	}

	r = mcptestIn(t, work, nil, "run", "--no-cache", "--reporter", "json="+out, suite)
	if r.code != 0 {
		t.Fatalf("--no-cache run failed:\n%s", r)
	}
	if blobHit(t, readReport(t, out)) {
		t.Errorf("--no-cache still answered from cache")
	}

	cache := filepath.Join(t.TempDir(), "cache")
	for i := range 2 {
		r = mcptestIn(t, work, nil, "run", "--cache-dir", cache, "--reporter", "json="+out, suite)
		if r.code != 0 {
			t.Fatalf("run %d with a cache folder failed:\n%s", i+1, r)
		}
	}
	hits := 0
	for _, tr := range readReport(t, out).Tests {
		if tr.CacheHit {
			hits++
		}
	}
	// Every real tool test of the second run comes from the folder; the
	// two injected errors never reach the cache.
	if hits != 4 {
		t.Errorf("second run with a cache folder: %d cache hits, want 4", hits)
	}

	r = mcptestIn(t, work, nil, "run", "--no-cache", "--cache-dir", cache, suite)
	if r.code != 2 {
		t.Errorf("--no-cache with --cache-dir: exit %d\n%s", r.code, r)
	}
}
