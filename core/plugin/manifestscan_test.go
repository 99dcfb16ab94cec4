package plugin

import (
	"encoding/json"
	"math"
	"reflect"
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
