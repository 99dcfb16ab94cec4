package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// cpuProfileEnv names the file a CPU profile of the whole mcptest process
// is written to, for whoever works on mcptest's own speed.
const cpuProfileEnv = "MCPTEST_CPUPROFILE"

// startProfile starts the CPU profile $MCPTEST_CPUPROFILE asks for and
// returns the function that ends it; nothing happens when it is unset.
func startProfile() (stop func()) {
	path := os.Getenv(cpuProfileEnv)
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "mcptest: %s: %v\n", cpuProfileEnv, err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(os.Stderr, "mcptest: %s: %v\n", cpuProfileEnv, err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
