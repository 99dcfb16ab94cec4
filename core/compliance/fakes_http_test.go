package compliance

import "testing"

// httpBrokenCases are the HTTP-only checks' misbehaviours.
var httpBrokenCases = []struct {
	check, flags string
	want         Status
}{
	{"H01", "h01-text-plain", Fail},
	{"H02", "h02-200", Fail},
	{"H03", "h03-404", Fail},
	{"H04", "h04-no-404", Fail},
	{"H05", "h05-ignore-version", Fail},
	{"H06", "h06-no-origin-check", Fail},
	{"S05", "s05-no-header-check", Fail},
}

func TestFakeHTTPCorrect(t *testing.T) {
	url := startServer(t, fakeBin, nil, "--http", "127.0.0.1:0")
	rs := runChecks(t, Target{URL: url}, Options{})
	for id, r := range rs {
		if r.Status != Pass && r.Status != NotApplicable {
			t.Errorf("%s: %s", id, r.Status)
		}
	}
	for _, c := range httpBrokenCases {
		if c.check[0] == 'H' && rs[c.check].Status != Pass {
			t.Errorf("%s should pass against the correct fake", c.check)
		}
	}
	if t.Failed() {
		t.Logf("\n%s", summary(rs))
	}
}

func TestFakeHTTPModernCorrect(t *testing.T) {
	url := startServer(t, fakeBin, nil, "--http", "127.0.0.1:0")
	rs := runChecks(t, Target{URL: url}, Options{Revision: "2026-07-28"})
	for id, r := range rs {
		if r.Status != Pass && r.Status != NotApplicable {
			t.Errorf("%s: %s", id, r.Status)
		}
	}
	for _, id := range []string{"S01", "S03", "S04", "S05", "J04", "H01", "H06"} {
		if rs[id].Status != Pass {
			t.Errorf("%s should pass, got %s", id, rs[id].Status)
		}
	}
	if t.Failed() {
		t.Logf("\n%s", summary(rs))
	}
}

func TestFakeHTTPBroken(t *testing.T) {
	for _, c := range httpBrokenCases {
		t.Run(c.check+"/"+c.flags, func(t *testing.T) {
			t.Parallel()
			url := startServer(t, fakeBin, []string{"MCPTEST_FAKE=" + c.flags}, "--http", "127.0.0.1:0")
			opts := Options{Only: []string{c.check}}
			if c.check[0] == 'S' {
				opts.Revision = "2026-07-28"
			}
			rs := runChecks(t, Target{URL: url}, opts)
			if r := rs[c.check]; r.Status != c.want {
				t.Fatalf("got %s, want %s\n%s", r.Status, c.want, summary(rs))
			}
		})
	}
}
