// Package svgchart draws the small charts of mcptest's HTML pages (the
// html reporter, `mcptest report trend`) as inline SVG, generated in Go:
// no script, no font, nothing fetched. Colours come from presentation
// attributes and CSS classes, never style attributes, so the pages'
// Content-Security-Policy (which pins the one stylesheet) holds. Every
// text is escaped; a chart is safe to place in a page as it is.
package svgchart

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// Bar is one bar of a bar chart.
type Bar struct {
	// Label is shown under the bar; Title is the tooltip (defaults to
	// Label and the value).
	Label, Title string
	Value        float64
	// Class is the CSS class of the bar (st-passed, st-failed...).
	Class string
}

// Size of the charts, in SVG user units; the page scales them.
const (
	width   = 640
	height  = 200
	marginL = 44
	marginR = 12
	marginT = 12
	marginB = 40
)

// Bars draws a vertical bar chart; title labels it for screen readers.
// yUnit follows the values on the axis ("", " ms", "%").
func Bars(title string, bars []Bar, yUnit string) string {
	var b strings.Builder
	open(&b, title, "bars")
	top := niceMax(maxOf(bars))
	if counts(bars) {
		// Counts read best in whole numbers: a top that four divides.
		top = math.Max(4, math.Ceil(maxOf(bars)/4)*4)
	}
	axis(&b, top, yUnit)
	plotW := float64(width - marginL - marginR)
	plotH := float64(height - marginT - marginB)
	if n := len(bars); n > 0 {
		slot := plotW / float64(n)
		bw := math.Max(1, slot*0.8)
		for i, bar := range bars {
			h := 0.0
			if top > 0 {
				h = plotH * bar.Value / top
			}
			x := float64(marginL) + slot*float64(i) + (slot-bw)/2
			y := float64(marginT) + plotH - h
			tip := bar.Title
			if tip == "" {
				tip = fmt.Sprintf("%s: %s", bar.Label, num(bar.Value))
			}
			fmt.Fprintf(&b, `<rect class="bar %s" x="%.1f" y="%.1f" width="%.1f" height="%.1f" data-value="%s"><title>%s</title></rect>`,
				attr(bar.Class), x, y, bw, h, num(bar.Value), esc(tip))
			if n <= 16 || i%int(math.Ceil(float64(n)/16)) == 0 {
				fmt.Fprintf(&b, `<text class="xlabel" x="%.1f" y="%d" text-anchor="middle">%s</text>`, x+bw/2, height-marginB+14, esc(bar.Label))
			}
		}
	}
	b.WriteString("</svg>")
	return b.String()
}

// Series is one line of a line chart.
type Series struct {
	Name  string
	Class string
	// Values holds one value per point; NaN leaves a gap.
	Values []float64
}

// Lines draws line charts over the same points (labelled by xLabels),
// with a dot per value.
func Lines(title string, xLabels []string, series []Series, yUnit string, yMax float64) string {
	var b strings.Builder
	open(&b, title, "lines")
	top := yMax
	if top <= 0 {
		for _, s := range series {
			for _, v := range s.Values {
				if !math.IsNaN(v) && v > top {
					top = v
				}
			}
		}
		top = niceMax(top)
	}
	axis(&b, top, yUnit)
	plotW := float64(width - marginL - marginR)
	plotH := float64(height - marginT - marginB)
	n := len(xLabels)
	xAt := func(i int) float64 {
		if n <= 1 {
			return float64(marginL) + plotW/2
		}
		return float64(marginL) + plotW*float64(i)/float64(n-1)
	}
	yAt := func(v float64) float64 {
		if top <= 0 {
			return float64(marginT) + plotH
		}
		return float64(marginT) + plotH - plotH*math.Min(v, top)/top
	}
	for i, l := range xLabels {
		if n <= 12 || i%int(math.Ceil(float64(n)/12)) == 0 || i == n-1 {
			// The end labels align inwards, so neither is cut at the edge.
			anchor := "middle"
			switch {
			case n > 1 && i == 0:
				anchor = "start"
			case n > 1 && i == n-1:
				anchor = "end"
			}
			fmt.Fprintf(&b, `<text class="xlabel" x="%.1f" y="%d" text-anchor="%s">%s</text>`, xAt(i), height-marginB+14, anchor, esc(l))
		}
	}
	for _, s := range series {
		var pts []string
		for i, v := range s.Values {
			if math.IsNaN(v) {
				continue
			}
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", xAt(i), yAt(v)))
		}
		if len(pts) > 1 {
			fmt.Fprintf(&b, `<polyline class="line %s" fill="none" points="%s"><title>%s</title></polyline>`, attr(s.Class), strings.Join(pts, " "), esc(s.Name))
		}
		for i, v := range s.Values {
			if math.IsNaN(v) || i >= n {
				continue
			}
			fmt.Fprintf(&b, `<circle class="dot %s" cx="%.1f" cy="%.1f" r="3" data-value="%s"><title>%s</title></circle>`,
				attr(s.Class), xAt(i), yAt(v), num(v), esc(fmt.Sprintf("%s · %s: %s%s", xLabels[i], s.Name, num(v), yUnit)))
		}
	}
	b.WriteString("</svg>")
	return b.String()
}

// Segment is one part of a stacked bar.
type Segment struct {
	Value float64
	Class string
	Title string
}

// Stack draws one horizontal stacked bar (a suite's or a server's
// statuses), w units wide.
func Stack(title string, segs []Segment, w int) string {
	total := 0.0
	for _, s := range segs {
		total += s.Value
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart stack" viewBox="0 0 %d 14" width="%d" height="14" role="img" aria-label="%s"><title>%s</title>`, w, w, esc(title), esc(title))
	x := 0.0
	for _, s := range segs {
		if s.Value <= 0 || total <= 0 {
			continue
		}
		sw := float64(w) * s.Value / total
		fmt.Fprintf(&b, `<rect class="bar %s" x="%.1f" y="0" width="%.1f" height="14" data-value="%s"><title>%s</title></rect>`, attr(s.Class), x, sw, num(s.Value), esc(s.Title))
		x += sw
	}
	b.WriteString("</svg>")
	return b.String()
}

// Marker is a vertical line across a bar chart at a fraction (0..1) of
// its width: a threshold on a score histogram.
type Marker struct {
	At    float64
	Label string
}

// WithMarkers adds vertical markers to a chart made by Bars whose bars
// span the whole width evenly (a histogram of 0..1).
func WithMarkers(svg string, markers []Marker) string {
	if len(markers) == 0 {
		return svg
	}
	plotW := float64(width - marginL - marginR)
	var b strings.Builder
	for _, m := range markers {
		x := float64(marginL) + plotW*math.Max(0, math.Min(1, m.At))
		fmt.Fprintf(&b, `<line class="marker" x1="%.1f" x2="%.1f" y1="%d" y2="%d"><title>%s</title></line>`, x, x, marginT, height-marginB, esc(m.Label))
		fmt.Fprintf(&b, `<text class="mlabel" x="%.1f" y="%d" text-anchor="middle">%s</text>`, x, marginT-2, esc(m.Label))
	}
	return strings.TrimSuffix(svg, "</svg>") + b.String() + "</svg>"
}

// open starts a chart's svg element.
func open(b *strings.Builder, title, kind string) {
	fmt.Fprintf(b, `<svg class="chart %s" viewBox="0 0 %d %d" role="img" aria-label="%s"><title>%s</title>`,
		kind, width, height, esc(title), esc(title))
}

// axis draws the frame and four horizontal grid lines labelled up to top.
func axis(b *strings.Builder, top float64, unit string) {
	plotH := float64(height - marginT - marginB)
	for i := 0; i <= 4; i++ {
		y := float64(marginT) + plotH - plotH*float64(i)/4
		fmt.Fprintf(b, `<line class="grid" x1="%d" x2="%d" y1="%.1f" y2="%.1f"/>`, marginL, width-marginR, y, y)
		fmt.Fprintf(b, `<text class="ylabel" x="%d" y="%.1f" text-anchor="end">%s</text>`, marginL-4, y+4, esc(num(top*float64(i)/4)+unit))
	}
}

// niceMax rounds a maximum up to 1, 2 or 5 times a power of ten, so the
// axis reads in round numbers.
func niceMax(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if v <= m*p {
			return m * p
		}
	}
	return 10 * p
}

// counts reports whether every bar is a whole number.
func counts(bars []Bar) bool {
	for _, b := range bars {
		if b.Value != math.Trunc(b.Value) {
			return false
		}
	}
	return true
}

func maxOf(bars []Bar) float64 {
	m := 0.0
	for _, b := range bars {
		m = math.Max(m, b.Value)
	}
	return m
}

// num renders a number briefly: integers as such, others with up to two
// decimals.
func num(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return fmt.Sprintf("%.0f", v)
	}
	s := fmt.Sprintf("%.2f", v)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}

func esc(s string) string { return html.EscapeString(s) }

// attr keeps a class name to the characters a class needs.
func attr(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == ' ' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}
