package discover

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mcptest/mcptest/core/probe"
)

// Options tune Discover.
type Options struct {
	// Timeout bounds each probe; zero means 5 s.
	Timeout time.Duration
	// Header is sent with every probe (credentials).
	Header http.Header
	// ClientVersion is sent as clientInfo.version.
	ClientVersion string
}

// Result is what Discover found.
type Result struct {
	// URL is the endpoint probed.
	URL string
	// CardURL is where a discovery document was found; Card is it, or
	// CardErr why it was refused.
	CardURL string
	Card    *Card
	CardErr error
	// Streamable is set when the endpoint answered initialize (or
	// server/discover) over Streamable HTTP.
	Streamable bool
	// SSE is set when a GET opened a legacy HTTP+SSE stream whose first
	// event is the endpoint event.
	SSE bool
	// Revisions are the revisions the server accepted, newest first.
	Revisions []string
	// Rejected maps a revision the server did not accept to what it said.
	Rejected map[string]string
	// ServerName and ServerVersion are what the server said about itself.
	ServerName, ServerVersion string
	// AuthChallenge is the WWW-Authenticate header of a 401 answer;
	// ResourceMetadata the protected-resource metadata URL it names.
	AuthChallenge    string
	ResourceMetadata string
	// Notes are other observations, one line each.
	Notes []string
}

// Reachable reports whether anything MCP answered.
func (r *Result) Reachable() bool {
	return r.Streamable || r.SSE || r.AuthChallenge != ""
}

// Discover reads the discovery document of the URL's origin and probes
// the endpoint: the given URL, or the card's endpoint when the URL names
// only an origin.
func Discover(ctx context.Context, raw string, opt Options) (*Result, error) {
	if opt.Timeout <= 0 {
		opt.Timeout = 5 * time.Second
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--url %q: give an http:// or https:// URL", raw)
	}
	res := &Result{URL: raw, Rejected: map[string]string{}}
	origin := u.Scheme + "://" + u.Host
	hc := &probe.HTTPClient{Header: opt.Header, MaxBody: 1 << 20}
	for _, p := range CardPaths {
		card := &probe.HTTPClient{URL: origin + p, Header: opt.Header, MaxBody: 1 << 20}
		cctx, cancel := context.WithTimeout(ctx, opt.Timeout)
		resp, err := card.Do(cctx, probe.HTTPRequest{Method: http.MethodGet, Header: http.Header{"Accept": {"application/json"}}})
		cancel()
		if err != nil || resp.Status == http.StatusNotFound || resp.Status == http.StatusMethodNotAllowed {
			continue
		}
		if resp.Status != http.StatusOK {
			res.Notes = append(res.Notes, fmt.Sprintf("%s answered HTTP %d", p, resp.Status))
			continue
		}
		res.CardURL = origin + p
		res.Card, res.CardErr = ParseCard(resp.Body)
		break
	}
	if res.Card != nil && (u.Path == "" || u.Path == "/") && res.Card.Transport.Endpoint != "" {
		if ep, err := u.Parse(res.Card.Transport.Endpoint); err == nil {
			res.URL = ep.String()
		}
	}
	hc.URL = res.URL
	probeStreamable(ctx, hc, res, opt)
	if res.AuthChallenge == "" && !res.Streamable {
		probeSSE(ctx, hc, res, opt)
	}
	return res, nil
}

// probeStreamable offers each revision, newest first, in an initialize
// POST (server/discover for the stateless era) and records which the
// server accepts; a 401 ends the probe with its challenge.
func probeStreamable(ctx context.Context, hc *probe.HTTPClient, res *Result, opt Options) {
	revs := append([]string{probe.Rev20260728}, reverse(probe.LegacyRevisions)...)
	for i, rev := range revs {
		method, params := "initialize", probe.InitializeParams(rev, nil, opt.ClientVersion)
		if probe.IsModern(rev) {
			method, params = "server/discover", probe.WithMeta(map[string]any{}, probe.ModernMeta(rev, nil, opt.ClientVersion))
		}
		cctx, cancel := context.WithTimeout(ctx, opt.Timeout)
		resp, err := hc.Do(cctx, probe.HTTPRequest{Header: probe.PostHeaders(rev, "", method, params), Body: probe.Request(i+1, method, params),
			Until: func(*probe.Event) bool { return true }})
		cancel()
		if err != nil {
			res.Notes = append(res.Notes, fmt.Sprintf("%s %s: %v", method, rev, err))
			return
		}
		if resp.Status == http.StatusUnauthorized {
			res.AuthChallenge = resp.Header.Get("WWW-Authenticate")
			if res.AuthChallenge == "" {
				res.AuthChallenge = "(none)"
			}
			res.ResourceMetadata = challengeParam(res.AuthChallenge, "resource_metadata")
			return
		}
		msg := firstMessage(resp)
		if msg == nil {
			res.Rejected[rev] = fmt.Sprintf("HTTP %d, no JSON-RPC answer", resp.Status)
			continue
		}
		if msg.Error != nil {
			res.Streamable = true
			res.Rejected[rev] = "JSON-RPC error " + strings.TrimSpace(string(msg.Error.Code)) + ": " + strings.Trim(string(msg.Error.Message), `"`)
			continue
		}
		var body struct {
			ProtocolVersion   string   `json:"protocolVersion"`
			SupportedVersions []string `json:"supportedVersions"`
			ServerInfo        struct {
				Name, Version string
			} `json:"serverInfo"`
		}
		_ = json.Unmarshal(msg.Result, &body)
		res.Streamable = true
		if res.ServerName == "" {
			res.ServerName, res.ServerVersion = body.ServerInfo.Name, body.ServerInfo.Version
		}
		switch {
		case probe.IsModern(rev) && len(body.SupportedVersions) > 0:
			res.Revisions = append(res.Revisions, rev)
		case body.ProtocolVersion == rev:
			res.Revisions = append(res.Revisions, rev)
		default:
			res.Rejected[rev] = "answered with " + body.ProtocolVersion
		}
	}
}

// probeSSE opens a GET stream and looks for the legacy endpoint event.
func probeSSE(ctx context.Context, hc *probe.HTTPClient, res *Result, opt Options) {
	cctx, cancel := context.WithTimeout(ctx, min(opt.Timeout, 2*time.Second))
	defer cancel()
	resp, err := hc.Do(cctx, probe.HTTPRequest{Method: http.MethodGet, Header: http.Header{"Accept": {"text/event-stream"}},
		Until: func(*probe.Event) bool { return true }})
	if err != nil || !resp.SSE {
		return
	}
	if len(resp.Events) > 0 && resp.Events[0].Type == "endpoint" {
		res.SSE = true
	}
}

// firstMessage returns the first JSON-RPC message of a response.
func firstMessage(resp *probe.HTTPResponse) *probe.Message {
	if resp.SSE {
		for _, e := range resp.Events {
			if m, err := probe.Parse([]byte(e.Data)); err == nil {
				return m
			}
		}
		return nil
	}
	m, err := probe.Parse(resp.Body)
	if err != nil {
		return nil
	}
	return m
}

// challengeParam reads one auth-param of a WWW-Authenticate value.
func challengeParam(h, name string) string {
	i := strings.Index(h, name+"=")
	if i < 0 {
		return ""
	}
	v := h[i+len(name)+1:]
	if strings.HasPrefix(v, `"`) {
		if j := strings.Index(v[1:], `"`); j >= 0 {
			return v[1 : j+1]
		}
		return v[1:]
	}
	if j := strings.IndexAny(v, ", "); j >= 0 {
		return v[:j]
	}
	return v
}

func reverse(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[len(s)-1-i] = v
	}
	return out
}
