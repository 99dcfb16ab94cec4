package session

import (
	"net/http"
	"slices"
	"strings"
	"sync"
)

// Redacted replaces a secret wherever mcptest records or prints text.
const Redacted = "[REDACTED]"

// minSecretLen is the shortest secret that is scrubbed from free text;
// replacing every "a" or "1" in a frame would destroy it and hide nothing.
const minSecretLen = 4

// redactor scrubs the secrets a session was configured with (bearer token,
// headers read from the environment, OAuth credentials and tokens) from
// frames, header records and error messages. Server responses are not
// trusted: a server may echo a credential back, so every text that leaves
// the session through a frame or an error passes through scrub.
type redactor struct {
	headers []string // canonical names of headers whose values are secret

	mu      sync.RWMutex // add runs while frames are scrubbed
	secrets []string     // longest first, so a secret containing another goes whole
}

// newRedactor returns a redactor for secrets (empty ones are ignored) and
// the given secret header names, besides Authorization and
// Proxy-Authorization, which are always secret.
func newRedactor(secrets []string, headers []string) *redactor {
	r := &redactor{headers: []string{"Authorization", "Proxy-Authorization"}}
	for _, h := range headers {
		r.headers = append(r.headers, http.CanonicalHeaderKey(h))
	}
	for _, s := range secrets {
		r.add(s)
	}
	return r
}

// add registers one more secret value, such as a freshly fetched OAuth
// access token.
func (r *redactor) add(secret string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(secret) < minSecretLen || slices.Contains(r.secrets, secret) {
		return
	}
	r.secrets = append(r.secrets, secret)
	slices.SortFunc(r.secrets, func(a, b string) int { return len(b) - len(a) })
}

// scrub returns s with every known secret replaced by Redacted.
func (r *redactor) scrub(s string) string {
	if r == nil {
		return s
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, secret := range r.secrets {
		if strings.Contains(s, secret) {
			s = strings.ReplaceAll(s, secret, Redacted)
		}
	}
	return s
}

// header returns a copy of h with the values of secret headers replaced by
// Redacted and every other value scrubbed.
func (r *redactor) header(h http.Header) http.Header {
	out := make(http.Header, len(h))
	for name, values := range h {
		secret := r != nil && slices.Contains(r.headers, name)
		vals := make([]string, len(values))
		for i, v := range values {
			switch {
			case secret:
				vals[i] = Redacted
			default:
				vals[i] = r.scrub(v)
			}
		}
		out[name] = vals
	}
	return out
}
