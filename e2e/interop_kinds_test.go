package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// filesystemSuite runs server-filesystem on fixture copies.
const (
	filesystemSuite = "examples/interop/filesystem.yml"
	filesystemTests = 7
)

// TestInteropFilesystemFixtures runs @modelcontextprotocol/server-filesystem
// on copies of a fixture directory, one test at a time: a file one test
// writes is gone for the next when the server restarts per test, and seen
// by the next when it does not; the original directory is never written
// and no copy is left behind.
func TestInteropFilesystemFixtures(t *testing.T) {
	npmServer(t, "server-filesystem")
	tmp := t.TempDir()
	original := filepath.Join(root, "examples", "interop", "fixtures", "fs")
	before := treeOf(t, original)
	r, rep := runInterop(t, []string{"TMPDIR=" + tmp}, "-j", "1", filesystemSuite)
	wantAllPassed(t, r, rep, filesystemTests)
	if after := treeOf(t, original); after != before {
		t.Errorf("the original fixture changed:\nbefore: %s\nafter:  %s", before, after)
	}
	wantEmpty(t, tmp)
}

// treeOf lists the files under dir with their sizes.
func treeOf(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		fmt.Fprintf(&b, "%s:%d ", rel, info.Size())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestInteropEverythingLegacySSE runs the everything suite against the
// server's legacy HTTP+SSE mode, chosen in the suite with
// http.transport: sse (no protocol revision pinned).
func TestInteropEverythingLegacySSE(t *testing.T) {
	entry := npmServer(t, "server-everything")
	port := startHTTPServer(t, entry, "sse")
	raw, err := os.ReadFile(filepath.Join(root, everythingSuite))
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	start, end := strings.Index(text, "servers:"), strings.Index(text, "defaultTest:")
	if start < 0 || end < start {
		t.Fatal("the everything suite has no servers block before defaultTest")
	}
	text = text[:start] + fmt.Sprintf("servers:\n  everything:\n    url: \"http://127.0.0.1:%d/sse\"\n    http: {transport: sse}\n\n", port) + text[end:]
	suite := filepath.Join(t.TempDir(), "everything-sse.yml")
	if err := os.WriteFile(suite, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	r, rep := runInterop(t, nil, suite)
	wantAllPassed(t, r, rep, everythingTests)
	wantServer(t, rep, "sse", "mcp-servers/everything")
}
