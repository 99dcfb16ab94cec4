package vendor

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk"
)

// Spec.Plugin offers the one provider under the plugin's name, built
// around the shared transport; a malformed retry variable stops it with
// the variable named.
func TestSpecPlugin(t *testing.T) {
	var got *http.Client
	s := Spec{Name: "acme", Version: "1.2.3", Prices: []sdk.ModelPrice{{Model: "a*", InputPerMTok: 1}},
		New: func(c *http.Client) sdk.Provider { got = c; return nil }}
	p, err := s.Plugin()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.Providers["acme"]; !ok || p.Name != "acme" || p.Version != "1.2.3" || len(p.Prices) != 1 {
		t.Errorf("plugin = %+v", p)
	}
	if got == nil {
		t.Fatal("New was not given a client")
	}
	if _, ok := got.Transport.(*Transport); !ok {
		t.Errorf("the client's transport is %T, want the retrying *Transport", got.Transport)
	}
	t.Setenv(EnvRetries, "lots")
	if _, err := s.Plugin(); err == nil || !strings.Contains(err.Error(), EnvRetries) {
		t.Errorf("bad %s: %v", EnvRetries, err)
	}
}
