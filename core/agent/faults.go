package agent

import (
	"fmt"
	"sync"
	"time"

	"github.com/mcptest/mcptest/core/config"
)

// Fault kinds.
const (
	// FaultHang: every matching call never answers.
	FaultHang = "hang"
	// FaultWedged: the first matching call never answers, and from then
	// on no call to that server answers (the server is stuck).
	FaultWedged = "wedged"
	// FaultSlow: matching calls answer after delay_ms; a delay at or over
	// the call timeout reads as no answer.
	FaultSlow = "slow"
	// FaultRecoverAfter: the first `failures` matching calls never
	// answer, later ones answer normally.
	FaultRecoverAfter = "recover_after"
)

// injector decides, call by call, whether an injected fault answers
// instead of the server. Nothing here waits: the loop advances the run's
// virtual clock by the delay or the timeout.
type injector struct {
	faults []*config.Fault
	mu     sync.Mutex
	hits   map[*config.Fault]int
	wedged map[string]*config.Fault // server -> the fault that wedged it
}

func newInjector(faults []*config.Fault) *injector {
	return &injector{faults: faults, hits: map[*config.Fault]int{}, wedged: map[string]*config.Fault{}}
}

// effect is what a fault does to one call.
type effect struct {
	fault *config.Fault
	// delay is the virtual time before the call answers; noAnswer means
	// it never does (the loop gives up at the call timeout).
	delay    time.Duration
	noAnswer bool
}

// apply returns the fault effect on a call to tool on server, or nil when
// the call goes to the server untouched.
func (in *injector) apply(server, tool string, timeout time.Duration) *effect {
	if in == nil || len(in.faults) == 0 {
		return nil
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if f := in.wedged[server]; f != nil {
		return &effect{fault: f, noAnswer: true}
	}
	for _, f := range in.faults {
		if (f.Tool != "" && f.Tool != tool) || (f.Server != "" && f.Server != server) {
			continue
		}
		in.hits[f]++
		switch f.Kind {
		case FaultHang:
			return &effect{fault: f, noAnswer: true}
		case FaultWedged:
			in.wedged[server] = f
			return &effect{fault: f, noAnswer: true}
		case FaultSlow:
			d := time.Duration(f.DelayMS) * time.Millisecond
			return &effect{fault: f, delay: d, noAnswer: d >= timeout}
		case FaultRecoverAfter:
			if in.hits[f] <= f.Failures {
				return &effect{fault: f, noAnswer: true}
			}
		}
	}
	return nil
}

// timeoutMessage is what the model is told about a call given up.
func timeoutMessage(e *effect, timeout time.Duration) string {
	return fmt.Sprintf("the tool call timed out after %d ms without an answer (injected fault %q, %s)",
		timeout.Milliseconds(), e.fault.Name, e.fault.Kind)
}
