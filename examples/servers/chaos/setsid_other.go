//go:build !unix

package main

import "os/exec"

// setsid does nothing where sessions do not exist.
func setsid(*exec.Cmd) {}
