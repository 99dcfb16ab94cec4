package compliance

import (
	"fmt"
	"os/exec"
	"path/filepath"
)

// fakeBin is the deliberately broken stdio server (testdata/fakeserver),
// switched into one misbehaviour at a time with MCPTEST_FAKE.
var fakeBin string

func buildFakes(dir string) error {
	fakeBin = filepath.Join(dir, "fakeserver")
	build := exec.Command("go", "build", "-o", fakeBin, "./core/compliance/testdata/fakeserver")
	build.Dir = repoRoot()
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("build fake server: %v\n%s", err, out)
	}
	return nil
}
