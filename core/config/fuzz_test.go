package config

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad feeds arbitrary bytes to the loader, seeded with every valid
// and invalid testdata suite. The loader must never panic, and must
// return either a suite or located errors, never both and never neither.
// A short run is part of `make fuzz-short`.
func FuzzLoad(f *testing.F) {
	for _, dir := range []string{"valid", "invalid"} {
		files, _ := filepath.Glob(filepath.Join("testdata", dir, "*.yml"))
		for _, p := range files {
			data, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	// The suite lives in an empty directory, so that relative imports and
	// a .env file cannot reach outside it.
	dir := f.TempDir()
	path := filepath.Join(dir, "fuzz.yml")
	opts := testOptions()
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := loadBytesWith(path, data, opts)
		switch {
		case err == nil && s == nil:
			t.Fatal("no suite and no error")
		case err != nil && s != nil:
			t.Fatal("a suite along with errors")
		case err != nil:
			var errs Errors
			if !errors.As(err, &errs) || len(errs) == 0 {
				t.Fatalf("error %T is not a non-empty Errors", err)
			}
			for _, e := range errs {
				if e.File == "" || e.Msg == "" {
					t.Fatalf("error without a file or a message: %#v", e)
				}
			}
		}
	})
}
