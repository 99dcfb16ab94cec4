package httpwire

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/mcptest/mcptest/core/session/internal/wire"
)

// ErrTransport is matched (errors.Is) by errors for HTTP exchanges that
// failed below the JSON-RPC layer: the server could not be reached, the
// connection or stream broke, or it answered with an HTTP error status
// whose body is not a JSON-RPC error. Such errors are *HTTPError values.
var ErrTransport = errors.New("transport failure")

// ErrAuth is matched by errors about credentials: the server answered 401
// or 403, or the OAuth token endpoint refused to issue a token. They match
// ErrTransport too.
var ErrAuth = errors.New("authentication failed")

// excerptLimit bounds how much of an error response body an HTTPError
// quotes, and errorBodyLimit how much of it is read.
const (
	excerptLimit   = 512
	errorBodyLimit = 64 << 10
)

// HTTPError describes an HTTP exchange with a URL server that failed below
// the JSON-RPC layer. errors.Is(err, ErrTransport) is true for it, and
// errors.Is(err, ErrAuth) too when Status is 401 or 403. Its text never
// holds a configured secret.
type HTTPError struct {
	// Server is the session's name (Config.Name).
	Server string
	// Method and URL are the request's.
	Method, URL string
	// Status is the HTTP status code, or 0 when no response arrived.
	Status int
	// Header is the response's header, or nil.
	Header http.Header
	// Body is the start of the response body, sanitised and cut to 512
	// bytes.
	Body string
	// Hint explains a likely cause, such as which environment variable
	// held the rejected token; it may be empty.
	Hint string
	// Err is the underlying network error, or nil for an error status.
	Err error
}

// Error implements error.
func (e *HTTPError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "server %q: %s %s: ", e.Server, e.Method, e.URL)
	switch {
	case e.Status != 0:
		fmt.Fprintf(&b, "HTTP %d %s", e.Status, http.StatusText(e.Status))
		if wa := e.Header.Get("WWW-Authenticate"); wa != "" && (e.Status == 401 || e.Status == 403) {
			fmt.Fprintf(&b, " (WWW-Authenticate: %s)", wire.Sanitize(wire.Cut(wa, excerptLimit)))
		}
	case e.Err != nil:
		b.WriteString(e.Err.Error())
	default:
		b.WriteString("failed")
	}
	if e.Hint != "" {
		b.WriteString(": ")
		b.WriteString(e.Hint)
	}
	if e.Body != "" {
		fmt.Fprintf(&b, "; body: %s", e.Body)
	}
	return b.String()
}

// Is reports whether target is ErrTransport, or ErrAuth for a 401 or 403.
func (e *HTTPError) Is(target error) bool {
	return target == ErrTransport || (target == ErrAuth && (e.Status == 401 || e.Status == 403))
}

// Unwrap returns the underlying network error.
func (e *HTTPError) Unwrap() error { return e.Err }

// excerpt returns the start of body as one sanitised line of at most
// excerptLimit bytes, scrubbed of secrets.
func excerpt(body []byte, r *wire.Redactor) string {
	// Scrubbed before the cut, so a secret across it leaves no prefix;
	// only the start, with a margin, is worth scrubbing.
	more := len(body) > excerptLimit+wire.MaskMargin
	if more {
		body = body[:excerptLimit+wire.MaskMargin]
	}
	s := strings.TrimSpace(string(r.ScrubBytes(body)))
	cutAt := more || len(s) > excerptLimit
	s = wire.Cut(s, excerptLimit)
	s = strings.Join(strings.Fields(strings.ToValidUTF8(s, "\uFFFD")), " ")
	s = wire.Sanitize(s)
	if cutAt {
		s += "…"
	}
	return s
}

// readLimited reads at most limit bytes of r, and reports whether more was
// left.
func readLimited(r io.Reader, limit int) ([]byte, bool, error) {
	b, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
	if len(b) > limit {
		return b[:limit], true, err
	}
	return b, false, err
}
