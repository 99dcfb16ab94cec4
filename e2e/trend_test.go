package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestHistoryAndTrend saves three runs with --history, one of whose tests
// flips between passing and failing, and reads them back with report
// trend: the table, the flaky test, and the HTML page as Chromium builds
// it.
func TestHistoryAndTrend(t *testing.T) {
	suite := writeSuite(t, `
servers:
  demo:
    command: ["DEMO"]
tools:
  - name: steady
    server: demo
    tool: echo
    args: {message: "a"}
    expect:
      - {target: "result.content[0].text", matcher: {exact: "a"}}
  - name: flips
    server: demo
    tool: echo
    args: {message: "b"}
    expect:
      - {target: "result.content[0].text", matcher: {exact: "${WANT}"}}
`)
	history := filepath.Join(t.TempDir(), "history")
	for i, want := range []string{"b", "x", "b"} {
		r := mcptestIn(t, t.TempDir(), []string{"WANT=" + want}, "run", "--history", history, suite)
		if wantCode := map[bool]int{true: 0, false: 1}[want == "b"]; r.code != wantCode {
			t.Fatalf("run %d: exit %d\n%s", i, r.code, r)
		}
	}
	files, _ := filepath.Glob(filepath.Join(history, "*.json"))
	if len(files) != 3 {
		t.Fatalf("history holds %v", files)
	}
	page := filepath.Join(t.TempDir(), "trend.html")
	r := mcptest(t, "report", "trend", "--history", history, "-o", page)
	if r.code != 0 {
		t.Fatalf("trend:\n%s", r)
	}
	mustContain(t, "trend", r.stdout, "100.0%", "50.0%", "flaky tests (passed and failed in the last 3 runs):",
		suite+"::tools::flips: 2 passed, 1 failed, 2 flip(s), last passed")
	if strings.Contains(r.stdout, "::tools::steady") {
		t.Errorf("a steady test named flaky:\n%s", r.stdout)
	}
	// The same runs given as files, one of them twice over, are read alike.
	r = mcptest(t, "report", "trend", files[0], files[1])
	mustContain(t, "trend of two", r.stdout, "flips: 1 passed, 1 failed, 1 flip(s), last failed")

	raw, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"<script", "http://", "https://", " style="} {
		if strings.Contains(string(raw), bad) {
			t.Errorf("the trend page holds %q", bad)
		}
	}
	doc, err := html.Parse(strings.NewReader(chromiumText(t, page)))
	if err != nil {
		t.Fatal(err)
	}
	dots := func(id string) []string {
		var out []string
		var walk func(n *html.Node, in bool)
		walk = func(n *html.Node, in bool) {
			if n.Type == html.ElementNode {
				for _, a := range n.Attr {
					if a.Key == "id" && a.Val == id {
						in = true
					}
				}
				if in && n.Data == "circle" {
					for _, a := range n.Attr {
						if a.Key == "data-value" {
							out = append(out, a.Val)
						}
					}
				}
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c, in)
			}
		}
		walk(doc, false)
		return out
	}
	if got := strings.Join(dots("chart-pass-rate"), ","); got != "100,50,100" {
		t.Errorf("pass rate points %s", got)
	}
	if n := len(dots("chart-duration")); n != 3 {
		t.Errorf("%d duration points", n)
	}
	if n := len(dots("chart-p95")); n != 3 {
		t.Errorf("%d p95 points", n)
	}
	dom := chromiumText(t, page)
	if !strings.Contains(dom, `id="flaky"`) || !strings.Contains(dom, "::tools::flips") {
		t.Errorf("the page names no flaky test")
	}
	r = mcptest(t, "report", "trend", "--history", t.TempDir())
	if r.code != 2 || !strings.Contains(r.stderr, "no run reports") {
		t.Errorf("empty history:\n%s", r)
	}
}

// TestHTMLOverviewFromALiveRun renders a real run's HTML report and
// checks its overview as Chromium builds it.
func TestHTMLOverviewFromALiveRun(t *testing.T) {
	suite := writeSuite(t, fourSuite)
	page := filepath.Join(t.TempDir(), "report.html")
	r := mcptestIn(t, t.TempDir(), nil, "run", "--reporter", "html="+page, suite)
	if r.code != 1 {
		t.Fatalf("want exit 1:\n%s", r)
	}
	dom := chromiumText(t, page)
	doc, err := html.Parse(strings.NewReader(dom))
	if err != nil {
		t.Fatal(err)
	}
	var bars int
	var rows []string
	var walk func(n *html.Node, where string)
	walk = func(n *html.Node, where string) {
		if n.Type == html.ElementNode {
			for _, a := range n.Attr {
				if a.Key == "id" && (a.Val == "chart-latency" || a.Val == "slowest") {
					where = a.Val
				}
				if a.Key == "class" && a.Val == "breakdown" {
					where = "breakdown"
				}
			}
			if where == "chart-latency" && n.Data == "rect" {
				for _, a := range n.Attr {
					if a.Key == "data-value" {
						var v int
						for _, c := range a.Val {
							v = v*10 + int(c-'0')
						}
						bars += v
					}
				}
			}
			if where == "breakdown" && n.Data == "tr" {
				rows = append(rows, strings.Join(strings.Fields(nodeText(n)), " "))
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, where)
		}
	}
	walk(doc, "")
	if bars != 4 {
		t.Errorf("the latency histogram counts %d tests, want 4", bars)
	}
	joined := strings.Join(rows, "\n")
	for _, want := range []string{suite + " 2 2 0 0 0", "demo in " + suite + " 2 2 0 0 0"} {
		if !strings.Contains(joined, want) {
			t.Errorf("breakdown lacks %q:\n%s", want, joined)
		}
	}
}

// nodeText is the text under n.
func nodeText(n *html.Node) string {
	if n.Type == html.TextNode {
		return n.Data
	}
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		b.WriteString(nodeText(c) + " ")
	}
	return b.String()
}
