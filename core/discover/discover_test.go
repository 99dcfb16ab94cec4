package discover

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/server"
)

// newOrigin serves a real mcp-go Streamable HTTP server at /mcp and card
// (when not empty) at the server-card path.
func newOrigin(t *testing.T, card string, auth bool) *httptest.Server {
	t.Helper()
	s := server.NewMCPServer("card-demo", "2.0.0", server.WithToolCapabilities(false))
	mux := http.NewServeMux()
	var mcp http.Handler = server.NewStreamableHTTPServer(s)
	if auth {
		mcp = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://auth.invalid/.well-known/oauth-protected-resource", scope="mcp"`)
			w.WriteHeader(http.StatusUnauthorized)
		})
	}
	mux.Handle("/mcp", mcp)
	if card != "" {
		mux.HandleFunc("/.well-known/mcp/server-card.json", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(card))
		})
	}
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts
}

const goodCard = `{"$schema": "https://example.invalid/server-card.json", "version": "1.0", "protocolVersion": "2025-06-18",
 "serverInfo": {"name": "card-demo", "version": "2.0.0"}, "transport": {"type": "streamable-http", "endpoint": "/mcp"},
 "capabilities": {"tools": {}}}`

// TestDiscoverCard follows a valid card from the origin to its endpoint
// and finds the revisions the server accepts.
func TestDiscoverCard(t *testing.T) {
	ts := newOrigin(t, goodCard, false)
	res, err := Discover(context.Background(), ts.URL, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Card == nil || res.CardErr != nil || res.URL != ts.URL+"/mcp" || !res.Streamable || res.ServerName != "card-demo" {
		t.Fatalf("result %+v", res)
	}
	if len(res.Revisions) == 0 || res.Revisions[0] < "2025-06-18" {
		t.Errorf("revisions %v", res.Revisions)
	}
	block := res.ServersBlock()
	for _, want := range []string{"servers:\n  card-demo:\n    url: \"" + ts.URL + "/mcp\"\n", "# discovery document " + ts.URL} {
		if !strings.Contains(block, want) {
			t.Errorf("block lacks %q:\n%s", want, block)
		}
	}
}

// TestDiscoverStrictCard refuses a card with a field the format does not
// define, naming it, and still probes the endpoint.
func TestDiscoverStrictCard(t *testing.T) {
	ts := newOrigin(t, strings.Replace(goodCard, `"version": "1.0"`, `"version": "1.0", "transprot": {}`, 1), false)
	res, err := Discover(context.Background(), ts.URL+"/mcp", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(res.CardErr, ErrCard) || !strings.Contains(res.CardErr.Error(), "transprot") {
		t.Errorf("card error %v", res.CardErr)
	}
	if !res.Streamable {
		t.Error("the endpoint was not probed")
	}
}

// TestDiscoverAuthChallenge reports a 401 and its protected-resource
// metadata, and the block asks for a token.
func TestDiscoverAuthChallenge(t *testing.T) {
	ts := newOrigin(t, "", true)
	res, err := Discover(context.Background(), ts.URL+"/mcp", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.ResourceMetadata != "http://auth.invalid/.well-known/oauth-protected-resource" || !res.Reachable() {
		t.Errorf("result %+v", res)
	}
	if b := res.ServersBlock(); !strings.Contains(b, "bearer_token_env: MCP_TOKEN") || !strings.Contains(b, "authorization required") {
		t.Errorf("block:\n%s", b)
	}
}

// TestParseCardRules checks the required fields.
func TestParseCardRules(t *testing.T) {
	for _, bad := range []string{
		`{"serverInfo": {"version": "1"}, "transport": {"type": "sse"}}`,
		`{"serverInfo": {"name": "a", "version": "1"}, "transport": {"type": "carrier-pigeon"}}`,
		`{"serverInfo": {"name": "a", "version": "1"}, "transport": {"type": "sse"}} {}`,
		`[]`,
	} {
		if _, err := ParseCard([]byte(bad)); !errors.Is(err, ErrCard) {
			t.Errorf("%s: err = %v", bad, err)
		}
	}
}
