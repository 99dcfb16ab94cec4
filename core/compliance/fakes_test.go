package compliance

import (
	"testing"

	"github.com/mcptest/mcptest/internal/testbin"
)

// fakeBin returns the deliberately broken stdio server (testdata/fakeserver),
// switched into one misbehaviour at a time with MCPTEST_FAKE. It is built
// once for the package's tests; in -short mode it skips t instead.
func fakeBin(t testing.TB) string {
	return testbin.Build(t, "github.com/mcptest/mcptest/core/compliance/testdata/fakeserver")
}
