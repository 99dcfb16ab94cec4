package httpwire

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"

	"github.com/mcptest/mcptest/internal/safefile"
)

// TLSConfig builds the client TLS configuration of a URL session.
func TLSConfig(o TLSOptions) (*tls.Config, error) {
	conf := &tls.Config{MinVersion: tls.VersionTLS12}
	if o.MinVersion == "1.3" {
		conf.MinVersion = tls.VersionTLS13
	}
	//nolint:gosec // The user asked for it; the CLI prints a warning banner.
	conf.InsecureSkipVerify = o.InsecureSkipVerify
	if o.CABundlePath != "" {
		// A CA bundle is a few hundred KiB at most; refuse FIFOs, devices
		// and huge files before reading (internal/safefile).
		pem, err := safefile.ReadFile(o.CABundlePath, 16<<20)
		if err != nil {
			return nil, fmt.Errorf("tls: read CA bundle: %w", err)
		}
		// Trust the bundle in addition to the system roots, so a bundle
		// for an internal CA does not break public endpoints.
		pool, err := x509.SystemCertPool()
		if err != nil || pool == nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("tls: CA bundle %s holds no PEM certificate", o.CABundlePath)
		}
		conf.RootCAs = pool
	}
	return conf, nil
}
