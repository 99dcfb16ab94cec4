package main

import (
	"context"
	"fmt"
	"io"

	"github.com/mcptest/mcptest/core/assert"
	"github.com/mcptest/mcptest/core/plugin"
)

func cmdValidate(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var pf pluginFlags
	var sf suiteFlags
	fs := newFlagSet("validate", stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mcptest validate [flags] SUITE.yml... (or --config SUITE.yml)")
		fmt.Fprintln(stderr, "Loads the suites, resolves every matcher and scorer type to a plugin and has the plugins vet their arguments; no server is started.")
		fs.PrintDefaults()
	}
	pf.register(fs)
	sf.register(fs)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if len(sf.files(fs.Args())) == 0 {
		fmt.Fprintln(stderr, "mcptest validate: no suite given; usage: mcptest validate [flags] SUITE.yml... (or --config SUITE.yml)")
		return 2
	}
	p, _, code, ok := loadAndPlan(sf.files(fs.Args()), pf, sf, nil, stderr)
	if !ok {
		return code
	}
	printGaps(p, stderr)
	host := plugin.NewHost(pf.launcher(stderr), plugin.HostOptions{CallTimeout: pf.timeout})
	defer host.Close()
	if err := assert.CheckArguments(ctx, host, p); err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	fmt.Fprintf(stdout, "%d suite(s), %d test(s): valid\n", len(p.Suites), p.Total+p.EvalsNotRun)
	return 0
}
