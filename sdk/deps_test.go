package sdk_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// forbiddenDeps are what a plugin author must never pull in through the
// SDK: mcptest's root module (core, plugins, cmd) and its heavy libraries.
var forbiddenDeps = []string{
	"github.com/mcptest/mcptest/core",
	"github.com/mcptest/mcptest/plugins",
	"github.com/mcptest/mcptest/cmd",
	"github.com/mcptest/mcptest/internal",
	"github.com/google/cel-go",
	"github.com/mark3labs/mcp-go",
	"github.com/santhosh-tekuri/jsonschema",
	"gopkg.in/yaml.v3",
}

// sdkModule is the SDK module's path; its packages are named relative to it.
const sdkModule = "github.com/mcptest/mcptest/sdk"

// deps lists the packages the given SDK packages depend on, themselves
// included.
func deps(t *testing.T, pkgs ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list", "-deps"}, pkgs...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	return strings.Fields(string(out))
}

// under reports whether pkg is prefix or a package below it.
func under(pkg, prefix string) bool { return pkg == prefix || strings.HasPrefix(pkg, prefix+"/") }

// TestSDKStaysLight keeps plugin authors' dependency graph small: no SDK
// package may import anything from mcptest's core or its heavy libraries.
func TestSDKStaysLight(t *testing.T) {
	for _, dep := range deps(t, "./...") {
		for _, f := range forbiddenDeps {
			if under(dep, f) {
				t.Errorf("sdk depends on %s", dep)
			}
		}
	}
}

// TestAuthorPackageNeedsOnlyWhatServeNeeds: what a plugin binary links
// through package sdk is the contract, the report types, and the transport
// Serve runs on; not the host's clients (pluginrpc/hostrpc), no test
// helper, nothing else of the module.
func TestAuthorPackageNeedsOnlyWhatServeNeeds(t *testing.T) {
	want := []string{
		sdkModule,
		sdkModule + "/contract",
		sdkModule + "/pluginrpc",
		sdkModule + "/proto/mcptest/plugin/v1",
		sdkModule + "/report",
	}
	var got []string
	for _, dep := range deps(t, ".") {
		if under(dep, sdkModule) {
			got = append(got, dep)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("package sdk depends on the SDK packages\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestPluginBinariesDoNotLinkGoPlugin: a plugin serves go-plugin's
// protocol through pluginrpc's own server, because linking go-plugin costs
// every plugin start the initialisation of net/rpc, encoding/gob,
// html/template, yamux and the protobuf descriptor set-up of gRPC
// reflection. Only the host's side (hostrpc) and the test helpers use it.
func TestPluginBinariesDoNotLinkGoPlugin(t *testing.T) {
	for _, dep := range deps(t, ".") {
		for _, f := range []string{"github.com/hashicorp/go-plugin", "net/rpc", "encoding/gob", "google.golang.org/grpc/reflection"} {
			if under(dep, f) {
				t.Errorf("package sdk, which every plugin binary links, depends on %s", dep)
			}
		}
	}
}

// TestImportsPointOneWay: contract carries no transport, and pluginrpc,
// which serves the contract, never reaches back to the author package, the
// test helpers or the host's side. A cycle between them could not build,
// but a leak of gRPC into contract, or of the host's clients into
// pluginrpc, could.
func TestImportsPointOneWay(t *testing.T) {
	for _, dep := range deps(t, "./contract") {
		for _, f := range []string{"google.golang.org/grpc", "google.golang.org/protobuf", "github.com/hashicorp/go-plugin", sdkModule + "/pluginrpc", sdkModule + "/proto"} {
			if under(dep, f) {
				t.Errorf("sdk/contract depends on %s; it must stay free of transport", dep)
			}
		}
	}
	for _, dep := range deps(t, "./pluginrpc") {
		if dep == sdkModule || under(dep, sdkModule+"/plugintest") || dep == sdkModule+"/pluginrpc/hostrpc" {
			t.Errorf("sdk/pluginrpc depends on %s", dep)
		}
	}
}

// TestSDKModuleStandsAlone: the SDK is its own module, so a plugin's
// go.mod that requires it never gets mcptest's root module, nor the heavy
// libraries of the core, even as requirements that are never built.
// (yaml.v3 is allowed here: testify, a test dependency of hclog, lists it.)
func TestSDKModuleStandsAlone(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Path}}", "all").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -m all: %v\n%s", err, out)
	}
	mods := strings.Fields(string(out))
	if len(mods) == 0 || mods[0] != sdkModule {
		t.Fatalf("main module is %q, want %s (sdk/go.mod missing?)", mods, sdkModule)
	}
	for _, m := range mods[1:] {
		if m == "github.com/mcptest/mcptest" {
			t.Errorf("the SDK module requires mcptest's root module")
		}
		for _, heavy := range []string{"github.com/google/cel-go", "github.com/mark3labs/mcp-go", "github.com/santhosh-tekuri/jsonschema"} {
			if strings.HasPrefix(m, heavy) {
				t.Errorf("the SDK module requires %s", m)
			}
		}
	}
}
