package plugin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk"
)

// scanManifestCases are manifests whose encodings the scanner must read
// as encoding/json does, or leave to it.
func scanManifestCases() []Manifest {
	return []Manifest{
		{},
		{ManifestVersion: 1, Name: "text", Version: "0.1.0", ProtocolVersions: []int{1}, Executable: "mcptest-plugin-text",
			SHA256:       "e648abb35ed5e20e571a16df7ec08c8aafdab187b03373b1886e75ae2a5aacf7",
			Components:   []sdk.Component{{Kind: "matcher", Keys: []string{"exact", "contains", "regex"}}, {Kind: "scorer", Keys: []string{}}},
			Capabilities: []string{"no-host", "vet-pure"}},
		{ManifestVersion: 1, Name: "anthropic", Version: "1.2.3-rc.1+b5", ProtocolVersions: []int{1, 2, -7}, Executable: "p",
			Components: []sdk.Component{{Kind: "provider", Keys: nil}}, Env: []string{"ANTHROPIC_API_KEY"},
			Prices: []sdk.ModelPrice{{Model: "claude-*", InputPerMTok: 3, OutputPerMTok: 15}, {Model: "x", InputPerMTok: 0.25, OutputPerMTok: 1e-7},
				{Model: "big", InputPerMTok: 1e21, OutputPerMTok: math.MaxFloat64}, {Model: "neg", InputPerMTok: -0.5}}},
		{Name: `quote " and \ backslash`, Version: "<&>", Executable: "é", Capabilities: []string{"\u2028", "tab\t"}},
		{ProtocolVersions: []int{}, Components: []sdk.Component{}, Capabilities: []string{}, Env: []string{}, Prices: []sdk.ModelPrice{}},
	}
}

// The scanner reads every manifest save can write as encoding/json reads
// it, or declines; whatever it declines encoding/json reads instead.
func TestScanManifestAgreesWithEncodingJSON(t *testing.T) {
	scanned := 0
	for _, m := range scanManifestCases() {
		enc, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if checkScanManifest(t, enc) {
			scanned++
		}
	}
	if scanned < 3 {
		t.Errorf("the scanner read %d of the plain manifests, want at least 3", scanned)
	}
}

func FuzzScanManifest(f *testing.F) {
	for _, m := range scanManifestCases() {
		enc, _ := json.Marshal(m)
		f.Add(enc)
	}
	f.Add([]byte(`{"manifest_version":01,"name":"a","version":"b","protocol_versions":[1],"executable":"c","components":null}`))
	f.Fuzz(func(t *testing.T, b []byte) { checkScanManifest(t, b) })
}

// checkScanManifest fails t when scanManifest reads b otherwise than
// encoding/json's decoder of b's first value; it reports whether the
// scanner read it.
func checkScanManifest(t *testing.T, b []byte) bool {
	t.Helper()
	got, n, ok := scanManifest(b)
	if !ok {
		return false
	}
	var want Manifest
	if err := json.Unmarshal(b[:n], &want); err != nil {
		t.Fatalf("scanManifest read %q as %+v, encoding/json refuses it: %v", b[:n], got, err)
	}
	if !reflect.DeepEqual(*got, want) {
		t.Fatalf("scanManifest read %q as\n%+v\nencoding/json as\n%+v", b[:n], *got, want)
	}
	return true
}

// A cache file in save's layout is searched entry by entry; one in any
// other layout (here indented) is decoded whole, with the same result;
// a key that is not there is a miss either way.
func TestManifestCacheLookupLayouts(t *testing.T) {
	m := scanManifestCases()[1]
	enc, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	key := manifestKey([]byte("text manifest"))
	other := manifestKey([]byte("other"))
	file := map[string]json.RawMessage{key: enc, other: json.RawMessage(`{"name":"other"}`)}
	compact, _ := json.Marshal(file)
	indented, _ := json.MarshalIndent(file, "", "  ")
	for name, raw := range map[string][]byte{"compact": compact, "indented": indented} {
		c := &manifestCache{path: "x", raw: raw, entries: map[string]json.RawMessage{}}
		c.once.Do(func() {})
		got, _, ok := c.lookup(key)
		if !ok || !reflect.DeepEqual(*got, m) {
			t.Errorf("%s: lookup = %+v, %v; want %+v", name, got, ok, m)
		}
		if name == "compact" && c.decoded {
			t.Errorf("compact: the file was decoded whole for an entry in save's layout")
		}
		if _, _, ok := c.lookup(manifestKey([]byte("absent"))); ok {
			t.Errorf("%s: a key not in the file was found", name)
		}
	}
}

// Two sets of plugins in use on one machine (two projects, two builds)
// share the cache file: each run's save keeps the other's entries, so
// neither parses its manifests again at every run. Past the bound, the
// entries the saving run did not use go first.
func TestManifestCacheSaveKeepsOtherRunsEntries(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("file ownership checks are unix-only")
	}
	path := filepath.Join(t.TempDir(), "plugin-manifests.json")
	manifestFor := func(name string) []byte {
		return []byte(strings.Replace(cacheTestManifest, "name: shout", "name: "+name, 1))
	}
	a, b := newManifestCache(path), newManifestCache(path)
	if _, err := a.parse(manifestFor("alpha")); err != nil {
		t.Fatal(err)
	}
	a.save()
	if _, err := b.parse(manifestFor("beta")); err != nil {
		t.Fatal(err)
	}
	b.save()
	c := newManifestCache(path)
	for _, name := range []string{"alpha", "beta"} {
		c.once.Do(c.load)
		if _, _, ok := c.lookup(manifestKey(manifestFor(name))); !ok {
			t.Errorf("the manifest of %s left the cache when another run saved", name)
		}
	}

	// A full file: the saving run's entries stay, the file stays bounded.
	full := map[string]json.RawMessage{}
	enc, _ := json.Marshal(scanManifestCases()[1])
	for i := range maxManifestEntries + 10 {
		full[manifestKey(fmt.Appendf(nil, "m%d", i))] = enc
	}
	raw, _ := json.Marshal(full)
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	d := newManifestCache(path)
	if _, err := d.parse(manifestFor("gamma")); err != nil {
		t.Fatal(err)
	}
	d.save()
	var after map[string]json.RawMessage
	got, _ := os.ReadFile(path)
	if err := json.Unmarshal(got, &after); err != nil {
		t.Fatal(err)
	}
	if _, ok := after[manifestKey(manifestFor("gamma"))]; !ok || len(after) != maxManifestEntries {
		t.Errorf("after a save into a full file: %d entries, gamma kept %v; want %d and true", len(after), ok, maxManifestEntries)
	}
}

// Every entry the index finds is a key of the file, pointing at the start
// of that key's value; a file save wrote is indexed whole.
func TestIndexManifestsAgreesWithEncodingJSON(t *testing.T) {
	file := map[string]json.RawMessage{}
	for i, m := range scanManifestCases() {
		enc, _ := json.Marshal(m)
		file[manifestKey(fmt.Appendf(nil, "m%d", i))] = enc
	}
	raw, _ := json.Marshal(file)
	idx := checkIndexManifests(t, raw)
	if len(idx) != len(file) {
		t.Errorf("indexed %d of the %d entries save wrote", len(idx), len(file))
	}
}

func FuzzIndexManifests(f *testing.F) {
	enc, _ := json.Marshal(scanManifestCases()[1])
	raw, _ := json.Marshal(map[string]json.RawMessage{manifestKey([]byte("a")): enc})
	f.Add(raw)
	f.Fuzz(func(t *testing.T, raw []byte) { checkIndexManifests(t, raw) })
}

// checkIndexManifests fails t when an entry of the index of raw (a file
// that decodes) is not a key of the file at the start of its value.
func checkIndexManifests(t *testing.T, raw []byte) map[string]int {
	t.Helper()
	idx := indexManifests(raw)
	var all map[string]json.RawMessage
	if json.Unmarshal(raw, &all) != nil {
		return idx
	}
	for k, i := range idx {
		v, ok := all[k]
		if !ok || !bytes.HasPrefix(raw[i:], v) {
			t.Fatalf("index of %s: %s at %d, which is not its value", raw, k, i)
		}
	}
	return idx
}
