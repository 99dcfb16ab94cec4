package svgchart

import (
	"math"
	"strings"
	"testing"
)

func TestTextIsEscaped(t *testing.T) {
	evil := `<script>alert(1)</script>" onload="x`
	for _, svg := range []string{
		Bars(evil, []Bar{{Label: evil, Value: 1, Class: `st-passed" onclick="x`}}, ""),
		Lines(evil, []string{evil}, []Series{{Name: evil, Values: []float64{1}}}, "", 0),
		Stack(evil, []Segment{{Value: 1, Title: evil}}, 100),
		WithMarkers(Bars("t", nil, ""), []Marker{{At: 0.5, Label: evil}}),
	} {
		if strings.Contains(svg, "<script") || strings.Contains(svg, `" onload`) || strings.Contains(svg, `" onclick`) {
			t.Errorf("unescaped text: %s", svg)
		}
		if strings.Contains(svg, "style=") {
			t.Errorf("a style attribute, which the CSP blocks: %s", svg)
		}
	}
}

func TestNiceMax(t *testing.T) {
	for _, tc := range []struct{ in, want float64 }{{0, 1}, {3, 5}, {7, 10}, {12, 20}, {0.3, 0.5}, {100, 100}, {240, 250}} {
		if got := niceMax(tc.in); got != tc.want {
			t.Errorf("niceMax(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestLinesSkipGaps(t *testing.T) {
	svg := Lines("t", []string{"a", "b", "c"}, []Series{{Name: "s", Class: "st-passed", Values: []float64{1, math.NaN(), 3}}}, "", 0)
	if n := strings.Count(svg, "<circle"); n != 2 {
		t.Errorf("%d dots, want 2 (the gap has none)", n)
	}
}
