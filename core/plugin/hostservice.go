package plugin

import (
	"slices"

	"github.com/mcptest/mcptest/sdk"
)

// servicesFor returns the Host to serve to a plugin with the given
// capabilities and components, or nil to serve none. Serving it costs every start of the
// plugin a broker listener and a gRPC server on the host's side, and the
// plugin's side answers the offer, so it is offered only where it can be
// used: to plugins with a matcher or a scorer (the only components handed
// a Host) that do not declare sdk.CapabilityNoHost. A plugin that
// declares nothing keeps getting it, so plugins built before the
// capability existed work as before.
func (h *Host) servicesFor(capabilities []string, components []sdk.Component) sdk.Host {
	if h.opts.Services == nil || slices.Contains(capabilities, sdk.CapabilityNoHost) {
		return nil
	}
	for _, c := range components {
		if c.Kind == sdk.KindMatcher || c.Kind == sdk.KindScorer {
			return h.opts.Services
		}
	}
	return nil
}
