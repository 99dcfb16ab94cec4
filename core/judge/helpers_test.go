package judge

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/internal/redact"
)

func redactorOf(secrets ...string) *redact.Redactor { return redact.New(secrets...) }

func grepDir(t *testing.T, dir, needle string) string {
	t.Helper()
	var hit string
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, _ := os.ReadFile(path)
		if strings.Contains(string(raw), needle) {
			hit = path
		}
		return nil
	})
	return hit
}
