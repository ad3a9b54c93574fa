package chartscale

import (
	"math"
	"testing"
)

// Steps are round and the top is the first step at or above the largest
// value.
func TestNiceAxes(t *testing.T) {
	for _, tc := range []struct {
		largest   float64
		step, top float64
	}{
		{0.92, 0.25, 1},
		{0.37, 0.1, 0.4},
		{4, 1, 4},
		{17, 5, 20},
		{1234, 500, 1500},
		{21120, 10000, 30000},
		{0, 0.25, 1},
	} {
		a := Nice(tc.largest, 4)
		if math.Abs(a.Step-tc.step) > 1e-9 || math.Abs(a.Top-tc.top) > 1e-9 {
			t.Errorf("%v: %+v, want step %v top %v", tc.largest, a, tc.step, tc.top)
		}
		if a.Top < tc.largest {
			t.Errorf("%v: the top %v is below the largest value", tc.largest, a.Top)
		}
	}
	if ticks := Nice(0.92, 4).Ticks(); len(ticks) != 5 || ticks[4] != 1 {
		t.Errorf("ticks %v", ticks)
	}
	if p := (Axis{Step: 0.25, Top: 1}).Place(0.5, 200); p != 100 {
		t.Errorf("place %v", p)
	}
	if Every(20, 50) != 3 || Every(80, 50) != 1 {
		t.Error("x labels")
	}
}
