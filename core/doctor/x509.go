package doctor

import "crypto/x509"

// x509HostError is a certificate that does not name the host.
type x509HostError = x509.HostnameError
