package agent

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/sdk"
)

func faults(f ...*config.Fault) []*config.Fault { return f }

func slowEcho(delay int) *config.Fault {
	return &config.Fault{Name: "slow-echo", Tool: "echo", Kind: FaultSlow, DelayMS: delay}
}

// retrier calls echo until a call answers, then replies; after giveUp
// timeouts it replies anyway.
func retrier(giveUp int) *scripted {
	timeouts := 0
	return &scripted{reply: func(n int, req sdk.ChatRequest) (sdk.ChatResponse, error) {
		if n > 0 {
			text := lastToolText(req)
			if !strings.Contains(text, "timed out") {
				return says("got: " + text), nil
			}
			timeouts++
			if timeouts >= giveUp {
				return says("the tool is down, sorry"), nil
			}
		}
		return calls("echo", `{"message":"x"}`), nil
	}}
}

func TestFaults(t *testing.T) {
	rec := &config.Recovery{MaxDetectionMS: 3000, MaxRecoveryMS: 10000, RequireCleanTimeout: true}
	cases := []struct {
		name      string
		fault     *config.Fault
		model     *scripted
		recovery  *config.Recovery
		hits      int
		timedOut  int
		answered  bool // the last call reached the server
		gateFails []string
	}{
		{"hang, model gives up", &config.Fault{Name: "f", Tool: "echo", Kind: FaultHang}, retrier(2), rec, 2, 2, false, nil},
		{"recover_after 2", &config.Fault{Name: "f", Tool: "echo", Kind: FaultRecoverAfter, Failures: 2}, retrier(5), rec, 2, 2, true, nil},
		{"wedged server", &config.Fault{Name: "f", Server: "demo", Tool: "echo", Kind: FaultWedged}, retrier(3), rec, 3, 3, false, nil},
		{"slow under the timeout answers", slowEcho(500), retrier(1), rec, 1, 0, true, nil},
		{"slow at the timeout reads as a hang", slowEcho(3000), retrier(1), rec, 1, 1, false, nil},
		{"fault on another tool never fires", &config.Fault{Name: "f", Tool: "add", Kind: FaultHang}, retrier(1), rec, 0, 0, true, []string{"fault_hit"}},
		{"model loops until max_turns", &config.Fault{Name: "f", Tool: "echo", Kind: FaultHang}, retrier(100), rec, 10, 10, false, []string{"recovered", "max_recovery_ms"}},
		{"recovery slower than max_recovery_ms", &config.Fault{Name: "f", Tool: "echo", Kind: FaultHang}, retrier(4),
			&config.Recovery{MaxDetectionMS: 3000, MaxRecoveryMS: 10000}, 4, 4, false, []string{"max_recovery_ms"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tools := demoTools(t, "demo")
			sp := Spec{Model: "m", Servers: []string{"demo"}, Prompt: "p", Faults: faults(c.fault), Recovery: c.recovery,
				CallTimeout: time.Duration(c.recovery.MaxDetectionMS) * time.Millisecond}
			tr, _ := Run(context.Background(), sp, c.model, tools)
			timedOut := 0
			for _, r := range tr.ToolResults {
				if r.TimedOut {
					timedOut++
					if !r.IsError || r.Fault != c.fault.Name || !strings.Contains(r.Error, "3000 ms") {
						t.Errorf("timed-out result = %+v", r)
					}
				}
			}
			if len(tr.Faults) != c.hits || timedOut != c.timedOut {
				t.Fatalf("fault hits %d timed out %d, want %d and %d", len(tr.Faults), timedOut, c.hits, c.timedOut)
			}
			last := tr.ToolResults[len(tr.ToolResults)-1]
			if answered := !last.TimedOut && len(last.Result) > 4; answered != c.answered {
				t.Errorf("last call answered = %v, want %v (%+v)", answered, c.answered, last)
			}
			// Virtual time: each timeout counts its 3 s in the run's duration.
			if min := float64(3000 * c.timedOut); tr.Conversation.DurationMS < min {
				t.Errorf("duration_ms %.0f, want at least %.0f of virtual time", tr.Conversation.DurationMS, min)
			}
			var failed []string
			for _, g := range RecoveryGate(tr, c.recovery) {
				if !g.Passed {
					failed = append(failed, g.Name)
				}
			}
			if strings.Join(failed, ",") != strings.Join(c.gateFails, ",") {
				t.Fatalf("gate failures %v, want %v (stats %+v)", failed, c.gateFails, tr.Recovery)
			}
		})
	}
}

func TestWedgedServerStopsAnsweringEveryTool(t *testing.T) {
	tools := demoTools(t, "demo")
	m := sequence(calls("echo", `{"message":"x"}`), calls("add", `{"a":1,"b":2}`), says("both dead"))
	sp := Spec{Model: "m", Servers: []string{"demo"}, Prompt: "p", CallTimeout: time.Second,
		Faults: faults(&config.Fault{Name: "w", Tool: "echo", Kind: FaultWedged})}
	tr, err := Run(context.Background(), sp, m, tools)
	if err != nil {
		t.Fatal(err)
	}
	if !tr.ToolResults[1].TimedOut || tr.ToolResults[1].Name != "add" {
		t.Fatalf("after a wedge, add must hang too: %+v", tr.ToolResults[1])
	}
}

func TestDetectionOverBudgetFailsTheGate(t *testing.T) {
	tools := demoTools(t, "demo")
	rec := &config.Recovery{MaxDetectionMS: 1000}
	sp := Spec{Model: "m", Servers: []string{"demo"}, Prompt: "p", Recovery: rec, CallTimeout: 5 * time.Second,
		Faults: faults(&config.Fault{Name: "f", Tool: "echo", Kind: FaultHang})}
	tr, _ := Run(context.Background(), sp, retrier(1), tools)
	g := RecoveryGate(tr, rec)
	if g[0].Name != "max_detection_ms" || g[0].Passed || !strings.Contains(g[0].Message, "5000 ms") {
		t.Fatalf("gate = %+v", g)
	}
}
