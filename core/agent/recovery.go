package agent

import (
	"fmt"

	"github.com/mcptest/mcptest/core/config"
)

// recoveryStats computes the figures of the recovery gate from a
// finished trace; end is the run's duration.
func recoveryStats(t *Trace, r *config.Recovery, end float64) *RecoveryStats {
	st := &RecoveryStats{FaultHits: len(t.Faults), CleanTimeouts: len(t.Faults) > 0}
	if len(t.Faults) == 0 {
		return st
	}
	for _, h := range t.Faults {
		st.DetectionMS = max(st.DetectionMS, h.DetectionMS)
		if h.TimedOut && h.DetectionMS > float64(r.MaxDetectionMS) {
			st.CleanTimeouts = false
		}
	}
	// The run ended after the last faulted call (it is in the trace), so a
	// completed run with a final reply answered despite the fault.
	st.Recovered = t.Conversation.StopReason == StopCompleted && t.FinalResponse != ""
	if st.Recovered {
		st.RecoveryMS = end - t.Faults[0].AtMS
	}
	return st
}

// GateCheck is one check of the recovery gate.
type GateCheck struct {
	// Name is the gate's field: max_detection_ms, max_recovery_ms,
	// recovered or require_clean_timeout.
	Name string
	// Target is the trace path of the figure judged (recovery.*).
	Target string
	// Passed reports the verdict; Message says why when it failed and
	// what was measured when it passed.
	Passed  bool
	Message string
	// Expected and Actual are the limit and the measured value.
	Expected any
	Actual   any
}

// RecoveryGate judges a trace against the test's recovery block. A gate
// over faults that never fired fails: a recovery test that never saw its
// fault tested nothing.
func RecoveryGate(t *Trace, r *config.Recovery) []GateCheck {
	if r == nil {
		return nil
	}
	st := t.Recovery
	if st == nil {
		st = recoveryStats(t, r, t.Conversation.DurationMS)
	}
	if st.FaultHits == 0 {
		return []GateCheck{{Name: "fault_hit", Target: "recovery.fault_hits", Expected: ">= 1", Actual: 0,
			Message: "no injected fault fired: the model never called a faulted tool, so recovery was not exercised"}}
	}
	var out []GateCheck
	det := GateCheck{Name: "max_detection_ms", Target: "recovery.detection_ms", Expected: r.MaxDetectionMS, Actual: st.DetectionMS,
		Passed: st.DetectionMS <= float64(r.MaxDetectionMS)}
	det.Message = fmt.Sprintf("longest wait on a faulted call %.0f ms, budget %d ms", st.DetectionMS, r.MaxDetectionMS)
	if !det.Passed {
		det.Message += " (raise the budget, or lower performance.default_timeout_ms, the per-call timeout)"
	}
	out = append(out, det)
	rec := GateCheck{Name: "recovered", Target: "recovery.recovered", Expected: true, Actual: st.Recovered, Passed: st.Recovered}
	if st.Recovered {
		rec.Message = "the model finished the run after the fault"
	} else {
		rec.Message = fmt.Sprintf("the model did not recover: the run stopped with %s and no final reply after the fault", t.Conversation.StopReason)
	}
	out = append(out, rec)
	if r.MaxRecoveryMS > 0 {
		c := GateCheck{Name: "max_recovery_ms", Target: "recovery.recovery_ms", Expected: r.MaxRecoveryMS, Actual: st.RecoveryMS,
			Passed: st.Recovered && st.RecoveryMS <= float64(r.MaxRecoveryMS)}
		c.Message = fmt.Sprintf("recovery took %.0f ms, budget %d ms", st.RecoveryMS, r.MaxRecoveryMS)
		if !st.Recovered {
			c.Message = "no recovery to time"
		}
		out = append(out, c)
	}
	if r.RequireCleanTimeout {
		c := GateCheck{Name: "require_clean_timeout", Target: "recovery.clean_timeouts", Expected: true, Actual: st.CleanTimeouts, Passed: st.CleanTimeouts}
		c.Message = "every unanswered faulted call was given up within max_detection_ms"
		if !st.CleanTimeouts {
			c.Message = fmt.Sprintf("a faulted call was not given up within max_detection_ms %d", r.MaxDetectionMS)
		}
		out = append(out, c)
	}
	return out
}
