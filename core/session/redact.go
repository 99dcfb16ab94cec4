package session

import (
	"net/http"

	"github.com/mcptest/mcptest/internal/redact"
)

// Redacted replaces a secret wherever mcptest records or prints text. It
// is redact.Mask: the whole program masks with one redactor.
const Redacted = redact.Mask

// redactor is a session's use of the program's one redactor
// (internal/redact): the secrets the session was configured with (bearer
// token, headers read from the environment, OAuth credentials and tokens)
// and the names of the headers whose values are secret. Server responses
// are not trusted: a server may echo a credential back in any JSON escape
// form, so every text that leaves the session through a frame or an error
// passes through scrub.
type redactor struct {
	r       *redact.Redactor
	headers []string // headers whose values are secret, besides Authorization
}

// newRedactor returns a redactor for secrets (empty and too-short ones are
// ignored, see redact.MinLen) and the given secret header names, besides
// Authorization and Proxy-Authorization, which are always secret.
func newRedactor(secrets []string, headers []string) *redactor {
	return &redactor{r: redact.New(secrets...), headers: headers}
}

// add registers one more secret value, such as a freshly fetched OAuth
// access token.
func (r *redactor) add(secret string) { r.r.Add(secret) }

// scrub returns s with every known secret replaced by Redacted.
func (r *redactor) scrub(s string) string {
	if r == nil {
		return s
	}
	return r.r.String(s)
}

// scrubBytes is scrub for bytes; b itself is not modified.
func (r *redactor) scrubBytes(b []byte) []byte {
	if r == nil {
		return b
	}
	return r.r.Bytes(b)
}

// header returns a copy of h with the values of secret headers replaced by
// Redacted and every other value scrubbed.
func (r *redactor) header(h http.Header) http.Header {
	if r == nil {
		return (*redact.Redactor)(nil).Header(h)
	}
	return r.r.Header(h, r.headers...)
}
