package costcap

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk"
)

func TestReserveRefusesBeforeCrossing(t *testing.T) {
	c := New(0.01)
	r, err := c.Reserve("m", 0.006, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Reserve("m", 0.006, true); !errors.Is(err, ErrMaxCost) {
		t.Fatalf("second reservation: err = %v, want ErrMaxCost", err)
	}
	if !c.Stopped() {
		t.Fatal("cap not marked stopped")
	}
	actual := 0.001
	r.Settle(&actual)
	if got := c.Spent(); math.Abs(got-0.001) > 1e-12 {
		t.Fatalf("spent = %v after settling, want 0.001", got)
	}
	if _, err := c.Reserve("m", 0.006, true); err != nil {
		t.Fatalf("after settling, a call that fits is refused: %v", err)
	}
}

func TestUnknownCostKeepsEstimate(t *testing.T) {
	c := New(1)
	r, _ := c.Reserve("m", 0.25, true)
	r.Settle(nil)
	r.Settle(nil)
	if c.Spent() != 0.25 {
		t.Fatalf("spent = %v, want the estimate 0.25", c.Spent())
	}
}

func TestUnpricedRefusedUnderCap(t *testing.T) {
	_, err := New(1).Reserve("mystery-model", 0, false)
	if !errors.Is(err, ErrUnpriced) || !strings.Contains(err.Error(), "mystery-model") {
		t.Fatalf("err = %v, want ErrUnpriced naming the model", err)
	}
}

func TestNilCapAllowsAll(t *testing.T) {
	var c *Cap
	r, err := c.Reserve("m", 1e9, false)
	if err != nil {
		t.Fatal(err)
	}
	r.Release()
	c.Add(3)
	if c.Stopped() || c.Spent() != 0 {
		t.Fatal("nil cap keeps state")
	}
	if _, ok := c.Max(); ok {
		t.Fatal("nil cap has a max")
	}
}

func TestEstimate(t *testing.T) {
	req := sdk.ChatRequest{System: strings.Repeat("x", 300), Messages: []sdk.Message{{Role: "user", Content: strings.Repeat("y", 300)}}, MaxTokens: 1000}
	p := sdk.ModelPrice{InputPerMTok: 3, OutputPerMTok: 15}
	// 600 bytes / 3 = 200 tokens, plus 4 for the message: 204 in, 1000 out.
	want := (204*3.0 + 1000*15.0) / 1e6
	if got := Estimate(req, p); math.Abs(got-want) > 1e-12 {
		t.Fatalf("estimate = %v, want %v", got, want)
	}
}

// TestUSDKeepsSmallAmounts: sub-cent budgets and estimates are written
// with their digits, never rounded to $0.0000.
func TestUSDKeepsSmallAmounts(t *testing.T) {
	for v, want := range map[float64]string{0.00001: "$0.00001", 0.000312345: "$0.0003123", 0.0421: "$0.0421", 0: "$0", 12.5: "$12.5"} {
		if got := USD(v); got != want {
			t.Errorf("USD(%v) = %q, want %q", v, got, want)
		}
	}
	_, err := New(0.00001).Reserve("m", 0.0003, true)
	if err == nil || !strings.Contains(err.Error(), "up to $0.0003 and $0 of the $0.00001 budget") {
		t.Fatalf("err = %v", err)
	}
}
