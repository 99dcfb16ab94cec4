package contract

import (
	"context"
	"errors"
)

// Host is mcptest itself, as seen from a plugin: it routes model calls to the
// provider plugin that owns the model, so plugins hold no provider keys.
type Host interface {
	// Complete runs a chat completion on the named provider ("" for the
	// run's default).
	Complete(ctx context.Context, provider string, req ChatRequest) (ChatResponse, error)
	// Embed computes embeddings on the named provider.
	Embed(ctx context.Context, provider string, req EmbedRequest) (EmbedResponse, error)
}

// CapabilityNoHost declares that the plugin never calls its Host. The
// host then does not serve the Host to it: no broker connection is
// offered at start, which spares every start of the plugin a listener, a
// gRPC server and a round trip on each side. Should the plugin call its
// Host all the same, the call returns ErrNoHost. Plugins that declare
// nothing are offered the Host as before; reporters and providers, which
// are never handed one, need not declare it.
const CapabilityNoHost = "no-host"

// ErrNoHost is returned by Host methods when the host offers no Host service.
var ErrNoHost = errors.New("mcptest host offers no model calls to this plugin")

// ErrNoModelKey is matched (errors.Is) by the error of a Host call whose
// model has no key in mcptest's environment; the message names the
// variable to set. A plugin should report such an item as deferred rather
// than failed: nothing was judged.
var ErrNoModelKey = errors.New("no key for the model")

// ErrCostCap is matched (errors.Is) by the error of a Host call that the
// run's --max-cost budget refused: the call could have crossed it, or its
// model has no price to count it by. Nothing was sent. A plugin should
// error its item (never pass or fail it), and a jury should not go on
// without the refused juror.
var ErrCostCap = errors.New("refused under the --max-cost budget")
