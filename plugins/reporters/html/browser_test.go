package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// These tests open the sample report in Debian's headless Chromium and
// read back the DOM after the page's script has run, so they check what a
// person sees: the text, the counts, the details and the filters.

// chromiumPath finds the browser. Without one the tests skip, except in
// CI, where a missing browser is a broken setup. In -short mode they skip
// before looking: a browser start costs seconds, too slow for every save.
func chromiumPath(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("launches headless Chromium; skipped in -short mode (make test runs it)")
	}
	for _, p := range []string{"/usr/bin/chromium", "chromium", "chromium-browser"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed; .ci/run installs Debian's chromium package")
	}
	t.Skip("chromium is not installed")
	return ""
}

// dumpDOM loads url in headless Chromium and returns the serialised DOM.
func dumpDOM(t *testing.T, browser, url string) *html.Node {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	stdout, stderr, err := runChromium(ctx, browser,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+t.TempDir(), "--dump-dom", url)
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, tail(stderr.String(), 20))
	}
	if stdout.Len() == 0 {
		t.Fatalf("chromium printed no DOM\n%s", tail(stderr.String(), 20))
	}
	return parseHTML(t, stdout.String())
}

// runChromium runs Chromium with args and runs it once more when Chromium
// itself died of a signal: on a loaded machine headless Chromium sometimes
// segfaults before it loads anything, which says nothing about the page
// under test. Any other failure is returned as is.
func runChromium(ctx context.Context, browser string, args ...string) (stdout, stderr *bytes.Buffer, err error) {
	for attempt := 0; ; attempt++ {
		stdout, stderr = new(bytes.Buffer), new(bytes.Buffer)
		cmd := exec.CommandContext(ctx, browser, args...)
		cmd.WaitDelay = 5 * time.Second
		cmd.Stdout, cmd.Stderr = stdout, stderr
		err = cmd.Run()
		var exit *exec.ExitError
		if attempt > 0 || ctx.Err() != nil || !errors.As(err, &exit) || !signalled(exit.ProcessState) {
			return stdout, stderr, err
		}
	}
}

// signalled reports whether a process ended by a signal.
func signalled(ps *os.ProcessState) bool {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled()
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// visible returns the data-status of each test the page does not hide.
func visible(doc *html.Node) []string {
	var out []string
	for _, n := range tests(doc) {
		if _, hidden := attr(n, "hidden"); !hidden {
			id, _ := attr(n, "id")
			out = append(out, id)
		}
	}
	return out
}

func TestBrowser(t *testing.T) {
	browser := chromiumPath(t)
	run := reporttest.Sample()
	page := renderRun(t, run)
	path := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	url := "file://" + path

	t.Run("unfiltered", func(t *testing.T) {
		doc := dumpDOM(t, browser, url)
		root := all(doc, byTag("html"))[0]
		if v, _ := attr(root, "data-js"); v != "ready" {
			t.Fatal("the page script did not run (blocked by the CSP?)")
		}
		if v, _ := attr(root, "data-css"); v != "ready" {
			t.Error("the stylesheet was not applied (blocked by the CSP?)")
		}
		if _, hidden := attr(byID(t, doc, "filters"), "hidden"); hidden {
			t.Error("the filter bar is still hidden")
		}
		if got := text(byID(t, doc, "shown")); got != "8 of 8 tests shown" {
			t.Errorf("shown = %q", got)
		}
		counts := text(byID(t, doc, "counts"))
		for _, want := range []string{"Passed3", "Failed2", "Warned1", "Errored1", "Skipped1", "Total8"} {
			if !strings.Contains(strings.Join(strings.Fields(counts), ""), want) {
				t.Errorf("header counts %q lack %s", counts, want)
			}
		}
		list := tests(doc)
		if len(list) != 8 || len(visible(doc)) != 8 {
			t.Fatalf("%d tests, %d visible", len(list), len(visible(doc)))
		}
		if name := text(all(list[1], byClass("name"))[0]); name != textsafe.Clean(run.Tests[1].Name) {
			t.Errorf("hostile name shows as %q", name)
		}
		if n := all(doc, byTag("b")); len(n) != 0 {
			t.Errorf("the hostile name injected %d <b> elements", len(n))
		}
		details := text(list[1])
		for _, want := range []string{"echo should say goodbye", `"goodbye"`, `"hello"`, "expected boolean, got string", `"method": "tools/call"`} {
			if !strings.Contains(details, want) {
				t.Errorf("failure details lack %q", want)
			}
		}
		if _, open := attr(list[1], "open"); !open {
			t.Error("the failed test is not expanded")
		}
	})

	t.Run("hostile", func(t *testing.T) {
		evil := hostileRun()
		path := filepath.Join(t.TempDir(), "hostile.html")
		if err := os.WriteFile(path, []byte(renderRun(t, evil)), 0o644); err != nil {
			t.Fatal(err)
		}
		doc := dumpDOM(t, browser, "file://"+path)
		if v, _ := attr(all(doc, byTag("html"))[0], "data-js"); v != "ready" {
			t.Fatal("the page script did not run")
		}
		checkInert(t, doc, evil)
	})

	for _, tc := range []struct {
		fragment string
		want     string
		shown    string
	}{
		{"#status=failed", "test-2,test-7", "2 of 8 tests shown"},
		{"#status=warned", "test-8", "1 of 8 tests shown"},
		{"#status=failed,errored&q=ECHO", "test-2", "1 of 8 tests shown"},
		{"#tag=slow", "test-5", "1 of 8 tests shown"},
		{"#tag=fast&tag=slow", "test-1,test-5", "2 of 8 tests shown"},
		{"#status=none", "", "0 of 8 tests shown"},
	} {
		t.Run(tc.fragment, func(t *testing.T) {
			doc := dumpDOM(t, browser, url+tc.fragment)
			if got := strings.Join(visible(doc), ","); got != tc.want {
				t.Errorf("visible tests = %s, want %s", got, tc.want)
			}
			if got := text(byID(t, doc, "shown")); got != tc.shown {
				t.Errorf("shown = %q, want %q", got, tc.shown)
			}
			_, emptyHidden := attr(byID(t, doc, "empty"), "hidden")
			if emptyHidden != (tc.want != "") {
				t.Errorf("the no-match message hidden = %v", emptyHidden)
			}
		})
	}
}
