package vendor

import (
	"fmt"
	"net/http"
	"os"

	"github.com/mcptest/mcptest/sdk"
)

// Spec describes one provider plugin: everything its main.go used to
// spell out again (scrub the environment, read the retry policy, build
// the plugin around the shared transport, serve).
type Spec struct {
	// Name is the plugin's name and its one provider key; Version its
	// version.
	Name    string
	Version string
	// Prices are the vendor's list prices, which a providers: entry can
	// override.
	Prices []sdk.ModelPrice
	// Scrub names the variables the vendor's SDK would read by itself
	// (ScrubEnv).
	Scrub []string
	// New makes the provider around the HTTP client of the shared
	// transport (Client).
	New func(*http.Client) sdk.Provider
}

// Plugin builds the plugin, with the retry policy read from the
// environment (PolicyFromEnv).
func (s Spec) Plugin() (*sdk.Plugin, error) {
	policy, err := PolicyFromEnv()
	if err != nil {
		return nil, err
	}
	return &sdk.Plugin{
		Name:      s.Name,
		Version:   s.Version,
		Providers: map[string]sdk.Provider{s.Name: s.New(Client(policy))},
		Prices:    s.Prices,
	}, nil
}

// Serve is a provider plugin's main: it scrubs the SDK's variables,
// builds the plugin and serves it; a plugin that cannot be built exits 1
// with the reason on stderr, which the host shows.
func Serve(s Spec) {
	ScrubEnv(s.Scrub...)
	p, err := s.Plugin()
	if err != nil {
		fmt.Fprintf(os.Stderr, "mcptest-plugin-%s: %v\n", s.Name, err)
		os.Exit(1)
	}
	sdk.Serve(p)
}
