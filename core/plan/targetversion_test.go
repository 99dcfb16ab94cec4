package plan

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plugin"
)

func TestTargetVersionPicksOneOfTheSuiteList(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.yml")
	text := "target_versions: [\"2025-06-18\", \"2025-11-25\"]\nservers:\n  s:\n    command: [\"x\"]\ntools:\n  - name: t\n    server: s\n    tool: echo\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	reg := plugin.NewRegistry(nil)
	build := func(v string) error {
		_, err := BuildWith([]*config.Suite{s}, reg, Options{Run: true, TargetVersion: v})
		return err
	}
	if err := build(""); err == nil || !strings.Contains(err.Error(), "--target-version") {
		t.Errorf("no flag: %v", err)
	}
	if err := build("2025-06-18"); err != nil {
		t.Errorf("listed revision refused: %v", err)
	}
	if err := build("2024-11-05"); err == nil || !strings.Contains(err.Error(), "not in the suite's target_versions") {
		t.Errorf("unlisted revision: %v", err)
	}
	if err := build("1999-01-01"); !errors.Is(err, ErrBadTargetVersion) {
		t.Errorf("unknown revision: %v", err)
	}
}
