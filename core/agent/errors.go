package agent

import "errors"

// Errors callers test with errors.Is.
var (
	// ErrToolCatalogue: the servers' tools cannot be merged (a name
	// offered twice) or listed.
	ErrToolCatalogue = errors.New("tool catalogue")
	// ErrModel: a model call failed (transport, provider error, refusal
	// by a budget); the run could not be carried out.
	ErrModel = errors.New("model call failed")
	// ErrCap: a cap stopped the run (a quality failure, not an
	// infrastructure error); the trace says which.
	ErrCap = errors.New("agent run stopped by a cap")
)
