//go:build !linux

package plugin

import "os/exec"

// setParentDeathSignal has no portable equivalent outside Linux; there the
// managed-client cleanup on exit and on signals does the work.
func setParentDeathSignal(*exec.Cmd) {}
