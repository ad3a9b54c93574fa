package export

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/library"
	"easel/internal/testsupport/benchfloor"
)

// Exporting 500 images as JPEG against the floor of the same decodes and
// encodes spread over every core by a plain loop, timed in pairs. Goal:
// at most 1.3x, and every core used (cores-used near NumCPU).
func BenchmarkExport500JPEG(b *testing.B) {
	l, err := library.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	var items []library.Item
	for i := 0; i < 500; i++ {
		img := image.NewNRGBA(image.Rect(0, 0, 512, 512))
		for y := 0; y < 512; y++ {
			for x := 0; x < 512; x++ {
				img.SetNRGBA(x, y, color.NRGBA{uint8(x + i), uint8(y), uint8(x ^ y), 255})
			}
		}
		var buf bytes.Buffer
		png.Encode(&buf, img)
		id, err := l.Add(context.Background(), library.NewItem{Image: api.Image{Data: buf.Bytes(), Format: "png", Width: 512, Height: 512}, Kind: "generate", Prompt: "bench"})
		if err != nil {
			b.Fatal(err)
		}
		it, _ := l.Get(context.Background(), id)
		items = append(items, it)
	}
	floor := func() float64 {
		return benchfloor.MedianNs(1, func() {
			var next int64
			var mu sync.Mutex
			var wg sync.WaitGroup
			for w := 0; w < runtime.NumCPU(); w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						mu.Lock()
						i := next
						next++
						mu.Unlock()
						if i >= int64(len(items)) {
							return
						}
						data, _ := os.ReadFile(l.Path(items[i]))
						img, _ := png.Decode(bytes.NewReader(data))
						var out bytes.Buffer
						_ = jpeg.Encode(&out, img, &jpeg.Options{Quality: 90})
					}
				}()
			}
			wg.Wait()
		})
	}
	var cores []float64
	exportRun := func() float64 {
		dir := memDir(b)
		cpu0 := cpuTime()
		start := time.Now()
		ns := benchfloor.MedianNs(1, func() {
			for _, r := range Run(context.Background(), items, l.Path, Options{Dir: dir, Format: "jpeg", Quality: 90}, nil) {
				if r.Err != nil {
					b.Fatal(r.Err)
				}
			}
		})
		cores = append(cores, float64(cpuTime()-cpu0)/float64(time.Since(start)))
		return ns
	}
	// Three pairs a round at least: one pair on this noisy machine
	// swings by a third.
	b.ResetTimer()
	floors, ratios := benchfloor.Pairs(max(b.N, 3), floor, exportRun)
	b.ReportMetric(benchfloor.Median(floors)/1e6, "floor-ms")
	b.ReportMetric(benchfloor.Median(ratios), "ratio-to-parallel-decode+encode")
	b.ReportMetric(benchfloor.Median(cores), "cores-used")
	b.ReportMetric(float64(runtime.NumCPU()), "cores")
}

// memDir is a folder in memory (/dev/shm) when there is one: the figure
// is the export's work against the floor's, not this machine's disk.
func memDir(b *testing.B) string {
	dir, err := os.MkdirTemp("/dev/shm", "easel-export-bench")
	if err != nil {
		return b.TempDir()
	}
	b.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}
