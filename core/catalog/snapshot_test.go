package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadCassette rebuilds a catalog from a cassette's recorded
// listings, every page of tools/list included.
func TestLoadCassette(t *testing.T) {
	c, err := Load("testdata/listing.cassette.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Tools) != 2 || c.Tools[0].Name != "echo" || c.Tools[1].Name != "add" {
		t.Errorf("tools = %+v", c.Tools)
	}
	if len(c.Prompts) != 1 || !c.Prompts[0].Arguments[0].Required {
		t.Errorf("prompts = %+v", c.Prompts)
	}
	if c.Server.Name != "cassette-demo" || c.Server.Version != "3.1.0" {
		t.Errorf("server = %+v", c.Server)
	}
}

// TestSnapshotRoundTrip writes a snapshot and reads it back unchanged.
func TestSnapshotRoundTrip(t *testing.T) {
	c, err := Load("testdata/old.json")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "snap.json")
	if err := c.WriteFile(path, nil); err != nil {
		t.Fatal(err)
	}
	back, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if res := Diff(c, back); len(res.Changes) != 0 {
		t.Errorf("round trip changed: %+v", res.Changes)
	}
}

// TestLoadRejects names the file, the line and the field of a bad
// snapshot, and refuses files that are no catalog.
func TestLoadRejects(t *testing.T) {
	dir := t.TempDir()
	cases := []struct{ name, text, want string }{
		{"unknown.json", "{\"format\": \"mcptest-catalog\", \"version\": 1,\n \"tols\": []}", `unknown field "tols"`},
		{"type.json", "{\"format\": \"mcptest-catalog\", \"version\": 1,\n\n \"tools\": {}}", "line 3"},
		{"version.json", `{"format": "mcptest-catalog", "version": 9}`, "version 9 is not supported"},
		{"noname.json", `{"format": "mcptest-catalog", "version": 1, "tools": [{"description": "x"}]}`, "tools[0] has no name"},
		{"other.json", `{"hello": 1}`, "neither"},
		{"format.json", `{"format": "something-else"}`, `format "something-else"`},
		{"empty-cassette.json", `{"version": 1, "exchanges": [{"method": "ping", "result": {}}]}`, "recorded no tools/list"},
	}
	for _, tc := range cases {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(path)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.name) {
			t.Errorf("%s: err = %v; want it to name the file and say %q", tc.name, err, tc.want)
		}
	}
	if _, err := Load(filepath.Join(dir, "other.json")); !errors.Is(err, ErrNotCatalog) {
		t.Errorf("other.json: %v is not ErrNotCatalog", err)
	}
}

// TestChangelogEscapes keeps server-written text from adding markdown
// structure to the changelog.
func TestChangelogEscapes(t *testing.T) {
	old := &Catalog{Tools: []Tool{{Name: "t", Description: "plain"}}}
	new := &Catalog{Tools: []Tool{{Name: "t", Description: "x\n# Heading [link](http://x) <b>"}}}
	md := Diff(old, new).Changelog("a", "b")
	if strings.Contains(md, "\n# Heading") || strings.Contains(md, "<b>") || strings.Contains(md, "[link]") {
		t.Errorf("changelog not escaped:\n%s", md)
	}
	if !strings.Contains(md, "### Non-breaking") || !strings.Contains(md, "0 breaking, 1 non-breaking") {
		t.Errorf("changelog:\n%s", md)
	}
}
