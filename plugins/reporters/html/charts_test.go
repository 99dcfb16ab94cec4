package main

import (
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// values returns the data-value of the chart marks (bars, dots) under n
// that have the class.
func values(n *html.Node, class string) []string {
	var out []string
	for _, m := range all(n, byClass(class)) {
		if v, ok := attr(m, "data-value"); ok {
			out = append(out, v)
		}
	}
	return out
}

// checkCharts checks the overview of the sample report in a parsed page,
// as served or as Chromium left it.
func checkCharts(t *testing.T, doc *html.Node) {
	t.Helper()
	// Durations 1, 1, 1, 2, 3.25, 4.5 and 12 ms: bars from ≤ 1 ms to ≤ 20 ms.
	lat := byID(t, doc, "chart-latency")
	if got := strings.Join(values(lat, "bar"), ","); got != "3,1,2,0,1" {
		t.Errorf("latency bars = %s, want 3,1,2,0,1", got)
	}
	caption := text(all(lat, byTag("figcaption"))[0])
	for _, want := range []string{"7 timed", "p50 2.0 ms", "p95 12 ms", "max 12 ms"} {
		if !strings.Contains(caption, want) {
			t.Errorf("latency caption %q lacks %q", caption, want)
		}
	}
	var slow []string
	for _, row := range all(byID(t, doc, "slowest"), byTag("tr"))[1:] {
		slow = append(slow, text(all(row, byTag("td"))[0]))
	}
	if len(slow) != 7 || slow[0] != "server crashed" || !strings.HasPrefix(slow[1], "echo fails") || slow[2] != "echo passes" {
		t.Errorf("slowest = %q", slow)
	}
	tables := all(byID(t, doc, "overview"), byClass("breakdown"))
	if len(tables) != 2 {
		t.Fatalf("%d breakdown tables, want suites and servers", len(tables))
	}
	rows := func(tb *html.Node) []string {
		var out []string
		for _, row := range all(tb, byTag("tr"))[1:] {
			var cells []string
			for _, td := range all(row, byTag("td"))[:6] {
				cells = append(cells, strings.Join(strings.Fields(text(td)), " "))
			}
			out = append(out, strings.Join(cells, "|"))
		}
		return out
	}
	if got := strings.Join(rows(tables[0]), "; "); got != "suites/smoke.yml|2|1|0|1|1; suites/compliance.yml|1|1|1|0|0" {
		t.Errorf("by suite: %s", got)
	}
	if got := strings.Join(rows(tables[1]), "; "); got != "demo in suites/smoke.yml|2|1|0|0|1; broken in suites/smoke.yml|0|0|0|1|0; demo in suites/compliance.yml|1|1|1|0|0" {
		t.Errorf("by server: %s", got)
	}
	scores := byID(t, doc, "chart-scores")
	if got := strings.Join(values(scores, "bar"), ","); got != "0,0,0,0,0,0,0,1,0,0" {
		t.Errorf("score bars = %s", got)
	}
	if m := all(scores, byClass("marker")); len(m) != 1 || !strings.Contains(text(m[0]), "threshold 0.7") {
		t.Errorf("threshold markers: %d", len(m))
	}
}

func TestOverviewCharts(t *testing.T) {
	checkCharts(t, parseHTML(t, renderRun(t, reporttest.Sample())))
	// A run of skipped tests only has no histogram, and one without
	// scores no score chart; nothing breaks.
	run := reporttest.Sample()
	for i := range run.Tests {
		run.Tests[i].Score, run.Tests[i].Threshold = nil, nil
	}
	doc := parseHTML(t, renderRun(t, run))
	if n := all(doc, func(n *html.Node) bool { id, _ := attr(n, "id"); return id == "chart-scores" }); len(n) != 0 {
		t.Error("a score chart for a run without scores")
	}
}

// TestChartsInChromium renders the overview in headless Chromium, reads
// the DOM back and takes a screenshot, checking that the bars are drawn
// in the page's colours (the stylesheet reached the SVG through the CSP).
func TestChartsInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Chromium")
	}
	browser := chromiumPath(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "report.html")
	if err := os.WriteFile(path, []byte(renderRun(t, reporttest.Sample())), 0o644); err != nil {
		t.Fatal(err)
	}
	checkCharts(t, dumpDOM(t, browser, "file://"+path))

	shot := filepath.Join(dir, "shot.png")
	if d := os.Getenv("MCPTEST_KEEP_SHOT"); d != "" {
		shot = d // to look at the page by eye
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	_, stderr, err := runChromium(ctx, browser,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--hide-scrollbars",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--force-color-profile=srgb",
		"--user-data-dir="+t.TempDir(), "--window-size=1200,2400", "--screenshot="+shot, "file://"+path)
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, tail(stderr.String(), 20))
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v\n%s", err, tail(stderr.String(), 20))
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	// The light theme's pass and fail colours (report.css) fill the bars.
	pass := color.RGBA{0x1a, 0x7f, 0x37, 0xff}
	fail := color.RGBA{0xcf, 0x22, 0x2e, 0xff}
	// Text in those colours alone makes well under 1,000 pixels; the bars
	// make tens of thousands (measured: 24,383 and 5,003 with the charts
	// styled, 474 and 621 without).
	if n := countColour(img, pass); n < 5000 {
		t.Errorf("%d pixels of the pass colour: the bars were not drawn", n)
	}
	if n := countColour(img, fail); n < 2000 {
		t.Errorf("%d pixels of the fail colour: the status bars were not drawn", n)
	}
}

// countColour counts the pixels within a small distance of c.
func countColour(img image.Image, c color.RGBA) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if near(r>>8, c.R) && near(g>>8, c.G) && near(bl>>8, c.B) {
				n++
			}
		}
	}
	return n
}

func near(a uint32, b uint8) bool {
	d := int(a) - int(b)
	return d > -6 && d < 6
}
