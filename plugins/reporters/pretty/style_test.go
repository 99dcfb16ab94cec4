package main

import (
	"strings"
	"testing"
)

func TestPainterNeverPassesUntrustedEscapes(t *testing.T) {
	for _, color := range []bool{false, true} {
		p := painter{color: color}
		got := p.paint(red, "x\x1b[2Jy")
		if strings.Contains(got, "\x1b[2J") {
			t.Errorf("color=%v: %q", color, got)
		}
		if !color && strings.ContainsRune(got, 0x1b) {
			t.Errorf("colour off but got %q", got)
		}
	}
}
