package compliance

import (
	"errors"
	"net/http"
	"strings"
)

// Target says how to reach the server under test: a command to spawn for
// stdio, or the URL of a Streamable HTTP endpoint.
type Target struct {
	// Command is the stdio server's program and arguments.
	Command []string
	// Env is added to the stdio server's environment.
	Env []string
	// Dir is the stdio server's working directory.
	Dir string
	// URL is the Streamable HTTP endpoint.
	URL string
	// Header is sent with every HTTP request (credentials, custom
	// headers). It is never copied into a report.
	Header http.Header
	// Client, when set, does the HTTP transport (TLS settings, proxies).
	// It must not follow redirects, or checks see the redirect's target.
	Client *http.Client
}

// Transport is how the target is reached.
func (t Target) Transport() Transport {
	if t.URL != "" {
		return HTTP
	}
	return Stdio
}

// Label names the target in reports: the URL, or the command line.
func (t Target) Label() string {
	if t.URL != "" {
		return t.URL
	}
	return strings.Join(t.Command, " ")
}

func (t Target) validate() error {
	switch {
	case t.URL == "" && len(t.Command) == 0:
		return errors.New("no server: give a command or a URL")
	case t.URL != "" && len(t.Command) > 0:
		return errors.New("give a command or a URL, not both")
	case t.URL != "" && !strings.HasPrefix(t.URL, "http://") && !strings.HasPrefix(t.URL, "https://"):
		return errors.New("the URL must start with http:// or https://")
	}
	return nil
}
