package session

import (
	"crypto/tls"

	"github.com/mcptest/mcptest/core/session/internal/httpwire"
)

// ClientTLS returns the TLS configuration a URL session uses for o, for
// other clients of the same server (the compliance probes of a suite) to
// trust and verify exactly what the session does.
func ClientTLS(o TLSOptions) (*tls.Config, error) { return httpwire.TLSConfig(o) }
