package report

import "testing"

func TestRunInterrupted(t *testing.T) {
	cases := []struct {
		run  *Run
		want bool
	}{
		{nil, false},
		{&Run{ExitCode: 2, Errors: []RunError{{Source: "plugin"}}}, false},
		{&Run{ExitCode: ExitInterrupted}, true},
		// A merged report recomputes its exit code; the run error stays.
		{&Run{ExitCode: 2, Errors: []RunError{{Source: ErrorSourceInterrupt, Message: "interrupted by SIGINT"}}}, true},
	}
	for i, c := range cases {
		if got := c.run.Interrupted(); got != c.want {
			t.Errorf("case %d: Interrupted() = %v, want %v", i, got, c.want)
		}
	}
}
