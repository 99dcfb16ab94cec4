package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcptest/mcptest/sdk"
)

// TestConcurrentFirstRecording has 50 assertions record the same key at
// once, each in its own gRPC call: all pass, one file results.
func TestConcurrentFirstRecording(t *testing.T) {
	c, dir := conn(t), t.TempDir()
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			c.MustPass(match(t, c, run{dir: dir, arg: `"shared/key"`, actual: `{"same":true}`}))
		})
	}
	wg.Wait()
	if got := readFile(t, dir, "shared/key.json"); got != "{\n  \"same\": true\n}\n" {
		t.Errorf("file = %q", got)
	}
	assertNoTemporaries(t, dir)
}

// TestConcurrentUpdates has 50 assertions re-record the same key with
// different values at once: the file ends up holding exactly one of them.
func TestConcurrentUpdates(t *testing.T) {
	c, dir := conn(t), t.TempDir()
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() {
			value := fmt.Sprintf(`{"writer":%d,"pad":"%s"}`, i, strings.Repeat("x", 1000*i))
			c.MustPass(match(t, c, run{dir: dir, arg: `{"name":"race","update":true}`, actual: value}))
		})
	}
	wg.Wait()
	var got struct {
		Writer int    `json:"writer"`
		Pad    string `json:"pad"`
	}
	if err := json.Unmarshal([]byte(readFile(t, dir, "race.json")), &got); err != nil {
		t.Fatalf("the snapshot is not valid JSON: %v", err)
	}
	if got.Writer < 0 || got.Writer >= 50 || len(got.Pad) != 1000*got.Writer {
		t.Errorf("the snapshot mixes writers: writer %d with %d bytes of padding", got.Writer, len(got.Pad))
	}
	assertNoTemporaries(t, dir)
}

// TestConcurrentDirect drives the matcher without gRPC from many
// goroutines on several keys, for the race detector.
func TestConcurrentDirect(t *testing.T) {
	m, dir := newMatcher(), t.TempDir()
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Go(func() {
			in := input(dir, fmt.Sprintf(`"k%d"`, i%4), fmt.Sprintf(`%d`, i%4))
			r, err := m.Match(t.Context(), in)
			if err != nil || !r.Pass {
				t.Errorf("item %d: %+v %v", i, r, err)
			}
		})
	}
	wg.Wait()
	assertNoTemporaries(t, dir)
}

// assertNoTemporaries fails if a temporary file was left behind.
func assertNoTemporaries(t *testing.T, dir string) {
	t.Helper()
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".tmp-") {
			t.Errorf("temporary file left: %s", p)
		}
		return nil
	})
}

// input builds a MatchInput as the SDK would hand it to the matcher.
func input(dir, arg, actual string) sdk.MatchInput {
	return sdk.MatchInput{
		Key: "snapshot", Actual: json.RawMessage(actual), Argument: json.RawMessage(arg),
		Options: sdk.MatchOptions{SuiteDir: dir, SuiteFile: filepath.Join(dir, "suite.yml")},
	}
}
