package main

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcptest/mcptest/core/report"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// sampleTrend is three runs whose second failed a test.
func sampleTrend(t *testing.T) *report.Trend {
	t.Helper()
	var runs []*rpt.Run
	for i, st := range []rpt.Status{rpt.StatusPassed, rpt.StatusFailed, rpt.StatusPassed} {
		runs = append(runs, &rpt.Run{RunID: "run-" + string(rune('a'+i)), StartedAt: time.Date(2026, 1, 1, 0, i, 0, 0, time.UTC),
			DurationMS: float64(100 * (i + 1)), Tests: []rpt.Test{
				{ID: "s.yml::tools::<b>steady</b>", Status: rpt.StatusPassed, DurationMS: 10},
				{ID: "s.yml::tools::flips", Status: st, DurationMS: float64(20 * (i + 1))},
			}})
	}
	tr, err := report.NewTrend(runs, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestTrendPage(t *testing.T) {
	page, err := trendPage(sampleTrend(t))
	if err != nil {
		t.Fatal(err)
	}
	s := string(page)
	for _, want := range []string{`id="chart-pass-rate"`, `data-value="50"`, `id="flaky"`, "s.yml::tools::flips", "Content-Security-Policy"} {
		if !strings.Contains(s, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, bad := range []string{"<b>steady", "<script", " style=", "http:", "https:"} {
		if strings.Contains(s, bad) {
			t.Errorf("page holds %q", bad)
		}
	}
}

// TestTrendPageInChromium takes a screenshot of the page and checks that
// the lines were drawn in the stylesheet's colours, which only happens
// when the CSP let the stylesheet in.
func TestTrendPageInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Chromium")
	}
	browser, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium is not installed; .ci/run installs Debian's chromium package")
		}
		t.Skip("chromium is not installed")
	}
	page, err := trendPage(sampleTrend(t))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "trend.html")
	if err := os.WriteFile(path, page, 0o644); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "shot.png")
	if d := os.Getenv("MCPTEST_KEEP_SHOT"); d != "" {
		shot = d
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--hide-scrollbars", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--force-color-profile=srgb", "--user-data-dir="+t.TempDir(), "--window-size=1200,1600", "--screenshot="+shot, "file://"+path)
	cmd.WaitDelay = 5 * time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	// The pass-rate line is the light theme's pass colour, #1a7f37.
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if near(r>>8, 0x1a) && near(g>>8, 0x7f) && near(bl>>8, 0x37) {
				n++
			}
		}
	}
	if n < 300 {
		t.Errorf("%d pixels of the pass colour: the pass-rate line was not drawn", n)
	}
}

func near(a uint32, b int) bool { d := int(a) - b; return d > -6 && d < 6 }
