package sdk_test

import (
	"os/exec"
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

// TestSDKStaysLight keeps plugin authors' dependency graph small: no SDK
// package may import anything from mcptest's core or its heavy libraries.
func TestSDKStaysLight(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, f := range forbiddenDeps {
			if dep == f || strings.HasPrefix(dep, f+"/") {
				t.Errorf("sdk depends on %s", dep)
			}
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
	if len(mods) == 0 || mods[0] != "github.com/mcptest/mcptest/sdk" {
		t.Fatalf("main module is %q, want github.com/mcptest/mcptest/sdk (sdk/go.mod missing?)", mods)
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
