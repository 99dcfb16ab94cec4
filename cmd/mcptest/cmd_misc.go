package main

import (
	"context"
	"fmt"
	"io"

	"github.com/mcptest/mcptest/schemas"
	"github.com/mcptest/mcptest/sdk"
)

func cmdSchema(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("schema", stderr)
	manifest := fs.Bool("plugin-manifest", false, "print the plugin manifest schema instead")
	report := fs.Bool("report", false, "print the JSON report schema instead")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	switch {
	case *manifest:
		_, _ = stdout.Write(schemas.PluginManifestV1)
	case *report:
		_, _ = stdout.Write(schemas.ReportV1)
	default:
		_, _ = stdout.Write(schemas.SuiteV1)
	}
	return 0
}

func cmdVersion(_ context.Context, _ []string, stdout, _ io.Writer) int {
	fmt.Fprintf(stdout, "mcptest %s (plugin protocol %d.%d)\n", version, sdk.ProtocolVersion, sdk.ProtocolMinor)
	return 0
}
