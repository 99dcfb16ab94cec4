// Command gateprobe is a matcher plugin that declares its vetting pure
// (sdk.CapabilityVetPure), for the tests of the run's gate: which
// arguments it was asked to vet, whether it was started at all, and in
// which order it and the servers started. Its "gateprobe" matcher passes
// on any value; the argument "bad" is rejected when vetted.
//
// The environment (mcptest passes its own to plugins) steers it:
//
//	GATEPROBE_LOG=PATH       append "start" when it starts and
//	                         "vet ARG" for each argument it vets
//	GATEPROBE_WAIT_FOR=PATH  before serving, wait up to 20 s for PATH to
//	                         exist (a server's start marker), else exit 3
//	GATEPROBE_FAIL=1         exit 4 at once, as a plugin that cannot start
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/mcptest/mcptest/sdk"
)

type probe struct{}

func (probe) Match(context.Context, sdk.MatchInput) (sdk.MatchResult, error) {
	return sdk.Pass(), nil
}

func (probe) CheckArgument(_ string, arg json.RawMessage) error {
	logLine("vet " + string(arg))
	if string(arg) == `"bad"` {
		return sdk.InvalidArgument("gateprobe rejects %s on purpose", arg)
	}
	return nil
}

// logLine appends one line to $GATEPROBE_LOG, when set.
func logLine(s string) {
	path := os.Getenv("GATEPROBE_LOG")
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintln(f, s)
}

func main() {
	if os.Getenv("GATEPROBE_FAIL") == "1" {
		fmt.Fprintln(os.Stderr, "gateprobe: failing to start on purpose")
		os.Exit(4)
	}
	logLine("start")
	if path := os.Getenv("GATEPROBE_WAIT_FOR"); path != "" {
		deadline := time.Now().Add(20 * time.Second)
		for {
			if _, err := os.Stat(path); err == nil {
				break
			}
			if time.Now().After(deadline) {
				fmt.Fprintf(os.Stderr, "gateprobe: %s never appeared: no server started before this plugin\n", path)
				os.Exit(3)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	sdk.Serve(&sdk.Plugin{
		Name:         "gateprobe",
		Version:      "0.0.1",
		Matchers:     map[string]sdk.Matcher{"gateprobe": probe{}},
		Capabilities: []string{sdk.CapabilityVetPure},
	})
}
