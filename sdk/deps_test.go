package sdk_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestSDKStaysLight keeps plugin authors' dependency graph small: the SDK
// must import nothing from mcptest's core and none of its heavy libraries.
func TestSDKStaysLight(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	forbidden := []string{
		"github.com/mcptest/mcptest/core",
		"github.com/mcptest/mcptest/plugins",
		"github.com/mcptest/mcptest/cmd",
		"github.com/google/cel-go",
		"github.com/mark3labs/mcp-go",
		"github.com/santhosh-tekuri/jsonschema",
		"gopkg.in/yaml.v3",
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, f := range forbidden {
			if dep == f || strings.HasPrefix(dep, f+"/") {
				t.Errorf("sdk depends on %s", dep)
			}
		}
	}
}
