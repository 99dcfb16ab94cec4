// Package vendortest sets up a provider plugin's tests: a fake of the
// vendor's API and the plugin served in-process over real gRPC.
package vendortest

import (
	"testing"

	"github.com/mcptest/mcptest/internal/vendorfake"
	"github.com/mcptest/mcptest/plugins/providers/internal/vendor"
	"github.com/mcptest/mcptest/sdk/plugintest"
)

// Setup starts a fake of api (a vendorfake vendor name) that accepts key
// ("" leaves the fake's key to the test), and the plugin of spec with
// retries backing off 1 ms, so retry tests do not wait.
func Setup(t *testing.T, api string, spec vendor.Spec, key string) (*vendorfake.Fake, *plugintest.Conn) {
	t.Helper()
	t.Setenv(vendor.EnvBackoff, "1ms")
	fake := vendorfake.New(t, api)
	if key != "" {
		fake.Key = key
	}
	p, err := spec.Plugin()
	if err != nil {
		t.Fatal(err)
	}
	return fake, plugintest.New(t, p, nil)
}
