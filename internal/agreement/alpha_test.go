package agreement

import (
	"errors"
	"math"
	"testing"
)

// nan marks a value a coder did not give.
var nan = math.NaN()

// reliability turns a coders × units table into units of values.
func reliability(coders [][]float64) [][]float64 {
	units := make([][]float64, len(coders[0]))
	for _, row := range coders {
		for u, v := range row {
			units[u] = append(units[u], v)
		}
	}
	return units
}

// The worked example of Krippendorff (2011), "Computing Krippendorff's
// Alpha-Reliability", section C: four observers, twelve units, values
// 1..5 with missing data. The paper gives alpha = 0.743 (nominal) and
// 0.849 (interval).
var paperExample = reliability([][]float64{
	{1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan},
	{1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3},
	{nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan},
	{1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan},
})

func TestPaperExampleInterval(t *testing.T) {
	got, err := Alpha(paperExample, Interval)
	if err != nil || math.Abs(got-0.849) > 0.0005 {
		t.Fatalf("interval alpha = %.4f, %v; the paper gives 0.849", got, err)
	}
}

func TestPaperExampleNominal(t *testing.T) {
	got, err := Alpha(paperExample, Nominal)
	if err != nil || math.Abs(got-0.743) > 0.0005 {
		t.Fatalf("nominal alpha = %.4f, %v; the paper gives 0.743", got, err)
	}
}

// The binary example of the same paper (section A): two observers, ten
// units, alpha = 0.095.
func TestPaperBinaryExample(t *testing.T) {
	units := reliability([][]float64{
		{0, 1, 0, 0, 0, 0, 0, 0, 1, 0},
		{1, 1, 1, 0, 0, 1, 0, 0, 0, 0},
	})
	got, err := Alpha(units, Nominal)
	if err != nil || math.Abs(got-0.095) > 0.0005 {
		t.Fatalf("alpha = %.4f, %v; the paper gives 0.095", got, err)
	}
}

func TestPerfectAgreementIsOne(t *testing.T) {
	got, err := Alpha([][]float64{{0.2, 0.2, 0.2}, {0.9, 0.9, 0.9}}, Interval)
	if err != nil || got != 1 {
		t.Fatalf("alpha = %v, %v; want 1", got, err)
	}
}

func TestUndefined(t *testing.T) {
	for name, units := range map[string][][]float64{
		"no data":       nil,
		"single values": {{0.5}, {0.7}},
		"no variance":   {{1, 1, 1}},
		"all missing":   {{nan, nan}},
	} {
		if _, err := Alpha(units, Interval); !errors.Is(err, ErrUndefined) {
			t.Errorf("%s: err = %v, want ErrUndefined", name, err)
		}
	}
}
