package report

// ExitInterrupted is the exit code of a run stopped by a signal (Ctrl-C,
// SIGTERM). Its report is complete: the tests the interrupt cut short or
// came before are skipped with error kind ErrorKindInterrupted, and one
// run error has source ErrorSourceInterrupt.
const ExitInterrupted = 130

// ErrorKindInterrupted is the Error.Kind of a test an interrupt skipped.
const ErrorKindInterrupted = "interrupted"

// ErrorSourceInterrupt is the RunError.Source saying which signal stopped
// the run.
const ErrorSourceInterrupt = "interrupt"

// Interrupted reports whether the run was stopped by a signal, so a
// reporter can say "interrupted" rather than "errored".
func (r *Run) Interrupted() bool {
	if r == nil {
		return false
	}
	if r.ExitCode == ExitInterrupted {
		return true
	}
	for _, e := range r.Errors {
		if e.Source == ErrorSourceInterrupt {
			return true
		}
	}
	return false
}
