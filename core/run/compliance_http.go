package run

import (
	"fmt"
	"net"
	"net/http"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/session"
)

// httpHeader turns a server's custom headers into an http.Header.
func httpHeader(hs []session.Header) http.Header {
	h := http.Header{}
	for _, x := range hs {
		h.Add(x.Name, x.Value)
	}
	return h
}

// complianceClient is the HTTP client compliance checks use against a URL
// server: its TLS settings and timeouts, and no redirects (a check must
// see the answer of the URL it probed).
func complianceClient(srv *config.Server) (*http.Client, error) {
	tlsConf, err := session.ClientTLS(session.TLSOptions{
		InsecureSkipVerify: srv.HTTP.TLS.InsecureSkipVerify,
		CABundlePath:       srv.HTTP.TLS.CABundlePath,
		MinVersion:         srv.HTTP.TLS.MinVersion,
	})
	if err != nil {
		return nil, fmt.Errorf("server %q: %w", srv.Name, err)
	}
	dialer := &net.Dialer{Timeout: srv.HTTP.ConnectTimeout}
	return &http.Client{
		Transport: &http.Transport{
			Proxy:               http.ProxyFromEnvironment,
			DialContext:         dialer.DialContext,
			TLSClientConfig:     tlsConf,
			TLSHandshakeTimeout: srv.HTTP.ConnectTimeout,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}, nil
}
