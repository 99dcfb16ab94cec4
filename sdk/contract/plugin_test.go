package contract

import (
	"bytes"
	"context"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

// validName agrees with namePattern, the rule it checks by hand, on names
// at and around every boundary of the rule.
func TestValidNameMatchesThePattern(t *testing.T) {
	re := regexp.MustCompile(namePattern)
	names := []string{"", "a", "-", "ab", "a-", "-a", "0a", "a0", "A", "aB", "a_b", "a.b", "a b", "é", "aé",
		"text", "json", "my-plugin-2", "--", "a--b", "9", "99", "a\n", "a\x00"}
	for n := 60; n <= 66; n++ {
		names = append(names, strings.Repeat("a", n), "-"+strings.Repeat("a", n-1), strings.Repeat("a", n-1)+"-")
	}
	for _, c := range []byte{'/', ':', '@', '[', '`', '{', '`', 0x7f, 0x80, 0xff} {
		names = append(names, "ab"+string([]byte{c}), string([]byte{c})+"ab")
	}
	for _, name := range names {
		if got, want := validName(name), re.MatchString(name); got != want {
			t.Errorf("validName(%q) = %v, the pattern says %v", name, got, want)
		}
	}
}

// Validate names the rule a bad name breaks.
func TestValidateRefusesABadName(t *testing.T) {
	p := &Plugin{Name: "Bad_Name", Version: "1"}
	err := p.Validate()
	if err == nil || !strings.Contains(err.Error(), namePattern) {
		t.Fatalf("Validate() = %v, want an error naming %s", err, namePattern)
	}
}

// A reflexive declaration must name a matcher the plugin serves; one that
// does is accepted and reported by Describe.
func TestValidateRefusesAReflexiveKeyNotServed(t *testing.T) {
	m := MatcherFunc(func(context.Context, MatchInput) (MatchResult, error) { return Pass(), nil })
	p := &Plugin{Name: "refl", Version: "1", Matchers: map[string]Matcher{"same": m}, Capabilities: []string{Reflexive("other")}}
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), `no matcher "other"`) {
		t.Fatalf("Validate() = %v, want an error naming the key it does not serve", err)
	}
	p.Capabilities = []string{Reflexive("same")}
	if err := p.Validate(); err != nil {
		t.Fatalf("Validate() = %v, want nil", err)
	}
	if got := p.Describe().Capabilities; len(got) != 1 || got[0] != "matcher-reflexive:same" {
		t.Fatalf("Describe().Capabilities = %q", got)
	}
}

// A reporter made with CanonicalReporter declares its format final-only
// and canonical, and writes report.WriteCanonical of run_finished.
func TestCanonicalReporterDeclaresItselfAndWritesTheCanonicalDocument(t *testing.T) {
	p := &Plugin{Name: "canon", Version: "1", Reporters: map[string]Reporter{"json": CanonicalReporter(), "other": FinalReporter(nil)}}
	d := p.Describe()
	if !d.Canonical("json") || d.Canonical("other") || !d.FinalOnly("other") {
		t.Fatalf("capabilities %q", d.Capabilities)
	}
	run := &report.Run{RunID: "r <&>", Tests: []report.Test{{ID: "a", Name: "ä <b>"}}}
	var want, got bytes.Buffer
	if err := report.WriteCanonical(&want, run); err != nil {
		t.Fatal(err)
	}
	evs := []report.Event{{Type: report.EventRunStarted}, {Type: report.EventRunFinished, Run: run}}
	i := 0
	next := func() (report.Event, bool) {
		if i == len(evs) {
			return report.Event{}, false
		}
		i++
		return evs[i-1], true
	}
	if err := CanonicalReporter().Render(context.Background(), NewRenderSession("json", next, &got, io.Discard, io.Discard)); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() || !strings.Contains(got.String(), `"r <&>"`) {
		t.Fatalf("rendered\n%s\nwant\n%s", got.String(), want.String())
	}
}
