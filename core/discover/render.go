package discover

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
)

var nameUnsafe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9_-]+`) })

// serverName picks the suite's name for the server: what it called
// itself, made safe as a YAML key and a test-id part.
func (r *Result) serverName() string {
	name := r.ServerName
	if name == "" && r.Card != nil {
		name = r.Card.ServerInfo.Name
	}
	name = strings.Trim(nameUnsafe().ReplaceAllString(name, "-"), "-")
	if name == "" {
		return "server"
	}
	return name
}

// Summary is the findings as comment lines.
func (r *Result) Summary() []string {
	var out []string
	switch {
	case r.CardErr != nil:
		out = append(out, fmt.Sprintf("discovery document %s: %v", r.CardURL, r.CardErr))
	case r.Card != nil:
		out = append(out, fmt.Sprintf("discovery document %s: %s %s, transport %s %s", r.CardURL, r.Card.ServerInfo.Name, r.Card.ServerInfo.Version, r.Card.Transport.Type, r.Card.Transport.Endpoint))
	default:
		out = append(out, "discovery document: none published (tried "+strings.Join(CardPaths, ", ")+")")
	}
	var transports []string
	if r.Streamable {
		transports = append(transports, "Streamable HTTP")
	}
	if r.SSE {
		transports = append(transports, "legacy HTTP+SSE (revision 2024-11-05)")
	}
	if len(transports) == 0 {
		transports = append(transports, "none answered")
	}
	out = append(out, "endpoint "+r.URL+": "+strings.Join(transports, ", "))
	if r.ServerName != "" {
		out = append(out, "server: "+r.ServerName+" "+r.ServerVersion)
	}
	if len(r.Revisions) > 0 {
		out = append(out, "revisions accepted: "+strings.Join(r.Revisions, ", "))
	}
	revs := make([]string, 0, len(r.Rejected))
	for rev := range r.Rejected {
		revs = append(revs, rev)
	}
	sort.Sort(sort.Reverse(sort.StringSlice(revs)))
	if !r.Streamable && len(revs) > 0 {
		// One line, not one per revision: nothing spoke Streamable HTTP.
		out = append(out, "no Streamable HTTP: a POST of initialize got "+r.Rejected[revs[len(revs)-1]])
		revs = nil
	}
	for _, rev := range revs {
		out = append(out, "revision "+rev+" not accepted: "+r.Rejected[rev])
	}
	if r.AuthChallenge != "" {
		line := "authorization required: WWW-Authenticate " + r.AuthChallenge
		if r.ResourceMetadata != "" {
			line += " (protected-resource metadata at " + r.ResourceMetadata + ")"
		}
		out = append(out, line)
	}
	out = append(out, r.Notes...)
	return out
}

// ServersBlock renders a servers: block ready to paste into a suite, with
// the findings as comments above it.
func (r *Result) ServersBlock() string {
	var b strings.Builder
	for _, l := range r.Summary() {
		b.WriteString("# " + strings.ReplaceAll(l, "\n", " ") + "\n")
	}
	b.WriteString("servers:\n  " + r.serverName() + ":\n")
	b.WriteString("    url: " + strconv.Quote(r.URL) + "\n")
	if r.SSE && !r.Streamable {
		b.WriteString("    http:\n      transport: sse\n")
	}
	if r.AuthChallenge != "" {
		b.WriteString("    auth:\n      # the server demands a token: set MCP_TOKEN, or use oauth: (docs/authorization.md)\n      bearer_token_env: MCP_TOKEN\n")
	}
	return b.String()
}
