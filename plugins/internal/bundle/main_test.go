package main

import (
	"slices"
	"testing"
)

// The bundle is built without cgo unless the environment says otherwise.
func TestBuildEnvTurnsCgoOffUnlessChosen(t *testing.T) {
	got := buildEnv([]string{"PATH=/bin", "HOME=/root"})
	if !slices.Contains(got, "CGO_ENABLED=0") {
		t.Errorf("buildEnv without CGO_ENABLED = %q, want CGO_ENABLED=0 added", got)
	}
	chosen := []string{"PATH=/bin", "CGO_ENABLED=1"}
	if got := buildEnv(chosen); !slices.Equal(got, chosen) {
		t.Errorf("buildEnv with CGO_ENABLED=1 = %q, want it unchanged", got)
	}
}
