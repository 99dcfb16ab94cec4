package report

// Node statuses of a composition node.
const (
	// NodeOK is a node whose tool answered with a result that is not an
	// error.
	NodeOK = "ok"
	// NodeError is a node that could not run to a good answer: the tool
	// returned isError, the server answered with a JSON-RPC error, the call
	// failed, or a reference in its arguments could not be resolved.
	NodeError = "error"
	// NodeSkipped is a node that did not run because a node it needs did
	// not finish ok.
	NodeSkipped = "skipped"
)

// Node is the outcome of one node of a composition.
type Node struct {
	// ID is the node's id in the composition.
	ID string `json:"id"`
	// Tool is the tool the node calls.
	Tool string `json:"tool"`
	// Server is the server the node calls.
	Server string `json:"server,omitempty"`
	// Status is NodeOK, NodeError or NodeSkipped.
	Status     string  `json:"status"`
	DurationMS float64 `json:"duration_ms"`
	// CacheHit is set when the node's answer came from the result cache.
	CacheHit bool `json:"cache_hit,omitempty"`
	// Error says why the node errored or was skipped.
	Error string `json:"error,omitempty"`
}
