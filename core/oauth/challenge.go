package oauth

import (
	"net/http"
	"strings"
)

// Challenge is the Bearer challenge of a WWW-Authenticate header (RFC 6750
// §3, RFC 9728 §5.1).
type Challenge struct {
	// ResourceMetadata is the URL of the protected-resource metadata.
	ResourceMetadata string
	// Scope lists the scopes the request needs, in the server's order.
	Scope []string
	// Error is the error code, such as "invalid_token" or
	// "insufficient_scope".
	Error string
}

// ParseChallenge reads the Bearer challenge among the WWW-Authenticate
// headers of h. Unknown schemes and parameters are ignored; a missing or
// malformed header gives the zero Challenge.
func ParseChallenge(h http.Header) Challenge {
	var c Challenge
	for _, v := range h.Values("WWW-Authenticate") {
		params, ok := bearerParams(v)
		if !ok {
			continue
		}
		c.ResourceMetadata = params["resource_metadata"]
		c.Scope = strings.Fields(params["scope"])
		c.Error = params["error"]
		return c
	}
	return c
}

// bearerParams returns the auth-params of the Bearer challenge in v, a
// WWW-Authenticate value that may hold several challenges.
func bearerParams(v string) (map[string]string, bool) {
	s := strings.TrimSpace(v)
	for s != "" {
		scheme, rest, _ := strings.Cut(s, " ")
		if strings.EqualFold(scheme, "Bearer") || strings.EqualFold(strings.TrimSuffix(scheme, ","), "Bearer") {
			return parseParams(rest), true
		}
		// Skip to the next challenge: the next token not followed by '='.
		next := nextChallenge(rest)
		if next < 0 {
			return nil, false
		}
		s = strings.TrimSpace(rest[next:])
	}
	return nil, false
}

// nextChallenge returns the offset in s of the scheme of the next
// challenge, or -1.
func nextChallenge(s string) int {
	inQuote := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && inQuote:
			i++
		case c == '"':
			inQuote = !inQuote
		case c == ',' && !inQuote:
			j := i + 1
			for j < len(s) && s[j] == ' ' {
				j++
			}
			k := j
			for k < len(s) && s[k] != '=' && s[k] != ' ' && s[k] != ',' {
				k++
			}
			if k < len(s) && s[k] == ' ' && k > j {
				return j
			}
		}
	}
	return -1
}

// parseParams reads name=value pairs separated by commas; values may be
// quoted strings with backslash escapes. It stops at the next challenge.
func parseParams(s string) map[string]string {
	out := map[string]string{}
	for {
		s = strings.TrimLeft(s, " ,")
		eq := strings.IndexByte(s, '=')
		if eq <= 0 {
			return out
		}
		name := strings.ToLower(strings.TrimSpace(s[:eq]))
		if strings.ContainsAny(name, " ") {
			return out // the scheme of another challenge
		}
		s = strings.TrimLeft(s[eq+1:], " ")
		var val string
		if strings.HasPrefix(s, `"`) {
			var b strings.Builder
			i := 1
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				b.WriteByte(s[i])
			}
			val, s = b.String(), s[min(i+1, len(s)):]
		} else {
			end := strings.IndexByte(s, ',')
			if end < 0 {
				end = len(s)
			}
			val, s = strings.TrimSpace(s[:end]), s[end:]
		}
		if _, seen := out[name]; !seen {
			out[name] = val
		}
	}
}
