// Package chartscale picks a chart's value axis: a top a little above
// the largest value and round steps to it (0, 0.25, 0.50, … rather than
// 0, 0.23, 0.46), so gridlines read at a glance. It is the logic behind
// ui/widgets/barchart, kept here to be tested without a window.
package chartscale

import "math"

// Axis is a value axis: gridlines at every Step from 0 to Top.
type Axis struct {
	Step, Top float64
}

// Ticks are the gridlines' values, 0 first.
func (a Axis) Ticks() []float64 {
	if a.Step <= 0 {
		return []float64{0}
	}
	n := int(math.Round(a.Top / a.Step))
	out := make([]float64, 0, n+1)
	for i := 0; i <= n; i++ {
		out = append(out, float64(i)*a.Step)
	}
	return out
}

// Nice is the axis for values up to largest with about lines gridlines:
// steps of 1, 2, 2.5 or 5 times a power of ten. An empty chart (largest
// 0) gets an axis from 0 to 1.
func Nice(largest float64, lines int) Axis {
	if lines < 1 {
		lines = 4
	}
	if largest <= 0 || math.IsNaN(largest) || math.IsInf(largest, 0) {
		return Axis{Step: 1.0 / float64(lines), Top: 1}
	}
	raw := largest / float64(lines)
	pow := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * pow
	for _, m := range []float64{1, 2, 2.5, 5} {
		if m*pow >= raw {
			step = m * pow
			break
		}
	}
	return Axis{Step: step, Top: math.Ceil(largest/step-1e-9) * step}
}

// Place maps v on the axis to a distance from its bottom in a chart
// height tall.
func (a Axis) Place(v, height float64) float64 {
	if a.Top <= 0 {
		return 0
	}
	return v / a.Top * height
}

// Every is how often to label the x axis so that labels width wide fit
// in slots each slot wide with a gap: 1 labels every bar.
func Every(slot, width float64) int {
	if slot <= 0 {
		return 1
	}
	return max(1, int(math.Ceil(width/slot)))
}
