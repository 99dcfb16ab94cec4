package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// cpuProfileEnv names the file a CPU profile of the whole mcptest process
// is written to, for whoever works on mcptest's own speed.
const cpuProfileEnv = "MCPTEST_CPUPROFILE"

// memProfileEnv names the file a heap profile is written to when mcptest
// ends: its alloc_space view shows where memory was allocated over the
// whole run, which is what peaks come from.
const memProfileEnv = "MCPTEST_MEMPROFILE"

// startProfile starts the profiles $MCPTEST_CPUPROFILE and
// $MCPTEST_MEMPROFILE ask for and returns the function that ends them;
// nothing happens when they are unset.
func startProfile() (stop func()) {
	stopCPU := startCPUProfile()
	path := os.Getenv(memProfileEnv)
	if path == "" {
		return stopCPU
	}
	// Sample every 64 KiB allocated (the default is 512 KiB), so that the
	// allocations behind a peak are all seen.
	runtime.MemProfileRate = 64 << 10
	return func() {
		stopCPU()
		f, err := os.Create(path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "mcptest: %s: %v\n", memProfileEnv, err)
			return
		}
		defer f.Close()
		if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
			fmt.Fprintf(os.Stderr, "mcptest: %s: %v\n", memProfileEnv, err)
		}
	}
}

// startCPUProfile starts the CPU profile $MCPTEST_CPUPROFILE asks for.
func startCPUProfile() (stop func()) {
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
