// Package agreement computes Krippendorff's alpha, the reliability
// coefficient mcptest reports for a jury: how far the jurors' scores agree
// beyond what chance would give. It follows Krippendorff's "Computing
// Krippendorff's Alpha-Reliability" (2011): values are pooled per unit,
// units with fewer than two values are not pairable and drop out, and
// alpha = 1 - D_o / D_e, the observed over the expected disagreement,
// under a difference metric (Interval for scores, Nominal for labels).
package agreement

import (
	"errors"
	"math"
)

// ErrUndefined: alpha has no value for the data, because fewer than two
// pairable values exist or every pairable value is the same (no expected
// disagreement to compare against).
var ErrUndefined = errors.New("krippendorff's alpha is undefined for these data")

// Metric is a squared difference function δ² between two values.
type Metric func(a, b float64) float64

// Interval is the interval metric, (a-b)².
func Interval(a, b float64) float64 { return (a - b) * (a - b) }

// Nominal is the nominal metric: 0 for equal values, 1 otherwise.
func Nominal(a, b float64) float64 {
	if a == b {
		return 0
	}
	return 1
}

// Alpha computes Krippendorff's alpha over units: units[u] holds the
// values the coders gave unit u (a coder that did not grade it is simply
// absent; NaN values are ignored too).
func Alpha(units [][]float64, delta Metric) (float64, error) {
	// Pairable values: those in units with at least two.
	var pooled []float64
	var observed float64
	for _, unit := range units {
		vals := present(unit)
		m := len(vals)
		if m < 2 {
			continue
		}
		var sum float64
		for i := range vals {
			for j := range vals {
				if i != j {
					sum += delta(vals[i], vals[j])
				}
			}
		}
		observed += sum / float64(m-1)
		pooled = append(pooled, vals...)
	}
	n := len(pooled)
	if n < 2 {
		return 0, ErrUndefined
	}
	var expected float64
	for i := range pooled {
		for j := range pooled {
			if i != j {
				expected += delta(pooled[i], pooled[j])
			}
		}
	}
	if expected == 0 {
		return 0, ErrUndefined
	}
	// D_o = observed / n; D_e = expected / (n (n-1)).
	return 1 - float64(n-1)*observed/expected, nil
}

func present(unit []float64) []float64 {
	out := make([]float64, 0, len(unit))
	for _, v := range unit {
		if !math.IsNaN(v) {
			out = append(out, v)
		}
	}
	return out
}
