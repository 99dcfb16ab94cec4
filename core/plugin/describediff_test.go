package plugin

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk"
)

func TestDescribeDiffIsOneBoundedLine(t *testing.T) {
	m := &Manifest{Name: "acme", Version: "1.0.0", Components: []sdk.Component{{Kind: "matcher", Keys: []string{"a", "b"}}}}
	if d := describeDiff(sdk.Description{Name: "acme", Version: "1.0.0", Components: m.Components}, m); d != "" {
		t.Fatalf("agreeing description reported as %q", d)
	}
	var keys []string
	for i := range 5000 {
		keys = append(keys, fmt.Sprintf("key-%04d-%s", i, strings.Repeat("x", 100)))
	}
	d := describeDiff(sdk.Description{
		Name:       "acme\n\x1b[31mforged line",
		Version:    strings.Repeat("9", 10000),
		Components: []sdk.Component{{Kind: "matcher", Keys: append(keys, "a")}},
	}, m)
	if strings.ContainsAny(d, "\n\r\x1b") {
		t.Errorf("diff spans lines or carries escapes: %q", d)
	}
	if len(d) > diffMaxBytes+len("…") {
		t.Errorf("diff is %d bytes", len(d))
	}
	for _, want := range []string{"the binary is acme\\n", "manifest says acme@1.0.0"} {
		if !strings.Contains(d, want) {
			t.Errorf("diff lacks %q: %s", want, d)
		}
	}
	d = describeDiff(sdk.Description{Name: "acme", Version: "1.0.0", Components: []sdk.Component{{Kind: "matcher", Keys: append(keys, "a")}}}, m)
	for _, want := range []string{"the binary also serves matcher key-0000", "and 4997 more", "the binary does not serve matcher b"} {
		if !strings.Contains(d, want) {
			t.Errorf("diff lacks %q: %s", want, d)
		}
	}
}

// A manifest declaring a key reflexive that the binary does not is a
// mismatch (the host may have passed assertions on its word); a binary
// declaring more than its manifest is not.
func TestDescribeDiffNamesAReflexiveKeyTheBinaryDoesNotDeclare(t *testing.T) {
	comps := []sdk.Component{{Kind: "matcher", Keys: []string{"a", "b"}}}
	m := &Manifest{Name: "acme", Version: "1.0.0", Components: comps, Capabilities: []string{sdk.Reflexive("a")}}
	d := describeDiff(sdk.Description{Name: "acme", Version: "1.0.0", Components: comps}, m)
	if !strings.Contains(d, "the binary does not declare reflexive matcher a") {
		t.Fatalf("diff %q does not name the reflexive key", d)
	}
	both := []string{sdk.Reflexive("a"), sdk.Reflexive("b")}
	if d := describeDiff(sdk.Description{Name: "acme", Version: "1.0.0", Components: comps, Capabilities: both}, m); d != "" {
		t.Fatalf("a binary declaring more than its manifest reported as %q", d)
	}
}
