package redact

import (
	"net/http"
	"slices"
)

// alwaysSecretHeaders carry credentials whatever the suite says.
var alwaysSecretHeaders = []string{"Authorization", "Proxy-Authorization"}

// Header returns a copy of h for a report or an error: the values of
// Authorization, Proxy-Authorization and the headers named in secret
// (any case) are replaced by Mask whole, and every other value is masked
// like any text.
func (r *Redactor) Header(h http.Header, secret ...string) http.Header {
	names := slices.Clone(alwaysSecretHeaders)
	for _, s := range secret {
		names = append(names, http.CanonicalHeaderKey(s))
	}
	out := make(http.Header, len(h))
	for name, values := range h {
		whole := slices.Contains(names, http.CanonicalHeaderKey(name))
		vals := make([]string, len(values))
		for i, v := range values {
			if whole {
				vals[i] = Mask
			} else {
				vals[i] = r.String(v)
			}
		}
		out[name] = vals
	}
	return out
}
