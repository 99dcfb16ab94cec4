package compliance

import (
	"strings"
	"testing"
)

func TestParseBaseline(t *testing.T) {
	bl, err := ParseBaseline([]byte("version: 1\nserver: demo\nknown_failures:\n  - id: J06\n    reason: null ids are dropped\n  - H06\n"))
	if err != nil {
		t.Fatal(err)
	}
	if bl.Entries["J06"] != "null ids are dropped" || len(bl.Order) != 2 || bl.Order[1] != "H06" {
		t.Errorf("entries: %+v", bl)
	}
	js, err := ParseBaseline([]byte(`{"version":1,"known_failures":[{"id":"P01"},"J07"]}`))
	if err != nil || len(js.Entries) != 2 {
		t.Fatalf("JSON baseline: %+v %v", js, err)
	}
	empty, err := ParseBaseline(nil)
	if err != nil || len(empty.Entries) != 0 {
		t.Fatalf("empty baseline: %v", err)
	}
}

func TestParseBaselineRefusesMistakes(t *testing.T) {
	for name, text := range map[string]string{
		"unknown id":    "known_failures: [J99]",
		"duplicate":     "known_failures: [J06, J06]",
		"unknown key":   "known_failure: [J06]",
		"entry key":     "known_failures:\n  - {id: J06, why: x}",
		"version":       "version: 2\nknown_failures: []",
		"not a list":    "known_failures: J06",
		"nested object": "known_failures:\n  - [J06]",
	} {
		if _, err := ParseBaseline([]byte(text)); err == nil {
			t.Errorf("%s: accepted %q", name, text)
		}
	}
}

func result(id string, st Status) *Result {
	c, _ := Lookup(id)
	return &Result{Check: c, Status: st, Message: id + " message"}
}

func TestBaselineApply(t *testing.T) {
	bl, err := ParseBaseline([]byte("known_failures:\n  - {id: J06, reason: known}\n  - J01\n  - T04\n  - P01\n"))
	if err != nil {
		t.Fatal(err)
	}
	rs := []*Result{result("J06", Fail), result("J01", Pass), result("T04", NotApplicable), result("P01", Warn), result("J07", Fail)}
	stale := bl.Apply(rs)
	if len(stale) != 1 || stale[0] != "J01" || !rs[1].Stale {
		t.Errorf("stale: %v", stale)
	}
	if !rs[0].Known || rs[0].KnownReason != "known" || !rs[3].Known || rs[4].Known || rs[2].Known || rs[2].Stale {
		t.Errorf("known flags wrong: %+v %+v %+v %+v", rs[0], rs[2], rs[3], rs[4])
	}
	v := Count(rs)
	if v.Known != 2 || v.Failed != 1 || v.Stale != 1 || v.ExitCode(false, false) != 1 {
		t.Errorf("verdict %+v", v)
	}
	// A nil baseline changes nothing.
	var none *Baseline
	if none.Apply(rs) != nil {
		t.Error("nil baseline reported stale entries")
	}
}

func TestWriteBaselineRoundTrip(t *testing.T) {
	rs := []*Result{result("J06", Fail), result("J01", Pass), result("P01", Warn)}
	rs[0].Message = `request with a null id: "quoted" and: colons`
	var b strings.Builder
	if err := WriteBaseline(&b, "demo server", rs); err != nil {
		t.Fatal(err)
	}
	bl, err := ParseBaseline([]byte(b.String()))
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if len(bl.Entries) != 2 || bl.Entries["J06"] != rs[0].Message {
		t.Errorf("round trip lost entries: %+v\n%s", bl.Entries, b.String())
	}
	b.Reset()
	if err := WriteBaseline(&b, "", []*Result{result("J01", Pass)}); err != nil {
		t.Fatal(err)
	}
	if bl, err := ParseBaseline([]byte(b.String())); err != nil || len(bl.Entries) != 0 {
		t.Errorf("empty baseline does not read back: %v\n%s", err, b.String())
	}
}

func TestExitCodes(t *testing.T) {
	cases := []struct {
		v                   Verdict
		strict, stale, want int
	}{
		{Verdict{Passed: 3}, 0, 0, 0},
		{Verdict{Warned: 1}, 0, 0, 0},
		{Verdict{Warned: 1}, 1, 0, 1},
		{Verdict{Failed: 1}, 0, 0, 1},
		{Verdict{Known: 2}, 0, 0, 0},
		{Verdict{Stale: 1, Passed: 1}, 0, 0, 0},
		{Verdict{Stale: 1, Passed: 1}, 0, 1, 1},
		{Verdict{Errored: 1, Failed: 1}, 0, 0, 2},
	}
	for _, c := range cases {
		if got := c.v.ExitCode(c.strict == 1, c.stale == 1); got != c.want {
			t.Errorf("%+v strict=%d stale=%d: exit %d, want %d", c.v, c.strict, c.stale, got, c.want)
		}
	}
}
