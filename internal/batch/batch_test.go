package batch

import (
	"context"
	"image"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/demoservice"
)

// 2 variables × 3 values × 2 sizes are 12 requests, each filled in and
// sized, sent with at most the set concurrency in flight, as the demo
// service counts them.
func TestABatchRespectsItsConcurrency(t *testing.T) {
	vars := []Var{}
	for _, s := range []string{"animal=cat,dog", "style=ink,oil,clay", "size=1024x1024,1536x1024"} {
		v, err := ParseVar(s)
		if err != nil {
			t.Fatal(err)
		}
		vars = append(vars, v)
	}
	table, err := Cross(vars)
	if err != nil {
		t.Fatal(err)
	}
	cells, err := Plan("a {animal} in {style}", table, api.ImageOptions{Model: "fault-" + demoservice.FaultSlowFirstByte})
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 12 || cells[0].Prompt != "a cat in ink" || cells[1].Options.Size != "1536x1024" || cells[11].Prompt != "a dog in clay" {
		t.Fatalf("cells: %d, first %+v, last %+v", len(cells), cells[0], cells[11])
	}
	srv := demoservice.New(demoservice.Config{Key: "k", SlowFirstByte: 150 * time.Millisecond})
	hs := httptest.NewServer(srv)
	defer hs.Close()
	c := api.New(api.Config{BaseURL: hs.URL + "/v1", APIKey: "k"})
	out := Run(context.Background(), cells, 3, func(ctx context.Context, _ int, cell Cell) (*api.ImageResult, error) {
		return c.Generate(ctx, api.GenerateRequest{Prompt: cell.Prompt, ImageOptions: cell.Options}, nil)
	})
	total, peak := srv.ImageRequests()
	if total != 12 || peak > 3 || peak < 2 {
		t.Errorf("the service answered %d requests, at most %d at once; want 12, at most 3", total, peak)
	}
	for i, o := range out {
		if !o.Ran || o.Err != nil || o.Result == nil || len(o.Result.Images) != 1 {
			t.Errorf("cell %d (%s): ran %v, %v", i, o.Cell.Label(), o.Ran, o.Err)
		}
	}
}

// Cancelling stops the rest: what was never sent says so.
func TestCancelStopsTheRest(t *testing.T) {
	table, _ := Cross([]Var{{Name: "n", Values: []string{"1", "2", "3", "4", "5", "6"}}})
	cells, err := Plan("p{n}", table, api.ImageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	sent := 0
	out := Run(ctx, cells, 1, func(ctx context.Context, _ int, c Cell) (*api.ImageResult, error) {
		sent++
		if sent == 2 {
			cancel()
		}
		return &api.ImageResult{}, nil
	})
	notRun := 0
	for _, o := range out {
		if !o.Ran {
			notRun++
		}
	}
	if sent != 2 || notRun != 4 {
		t.Errorf("sent %d, not run %d; want 2 and 4", sent, notRun)
	}
}

// Mistakes in the table are said before anything is sent.
func TestPlanRefusesWhatCannotBeFilled(t *testing.T) {
	for _, c := range []struct {
		prompt string
		table  Table
		want   string
	}{
		{"a {animal}", Table{Columns: []string{"style"}, Rows: [][]string{{"ink"}}}, "{animal}"},
		{"a {animal}", Table{Columns: []string{"animal", "colour"}, Rows: [][]string{{"cat", "red"}}}, `"colour"`},
		{"a {animal}", Table{Columns: []string{"animal"}}, "no rows"},
	} {
		if _, err := Plan(c.prompt, c.table, api.ImageOptions{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q over %v: %v, want it to name %s", c.prompt, c.table.Columns, err, c.want)
		}
	}
	if _, err := Cross([]Var{{"a", make([]string, 30)}, {"b", make([]string, 30)}}); err == nil {
		t.Error("900 crossed requests were taken")
	}
}

// Rows come from CSV or from a spreadsheet's tab-separated copy.
func TestReadRows(t *testing.T) {
	for _, in := range []string{"animal,size\ncat,1024x1024\n\"dog, spotted\",1536x1024\n", "animal\tsize\r\ncat\t1024x1024\r\ndog, spotted\t1536x1024\r\n"} {
		tb, err := ReadRows(strings.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		if len(tb.Rows) != 2 || tb.Rows[1][0] != "dog, spotted" || tb.Columns[1] != "size" {
			t.Errorf("%q: %+v", in, tb)
		}
	}
	if _, err := ReadRows(strings.NewReader("a,b\n1\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("a short line: %v", err)
	}
}

// The sheet holds every cell in a grid, a failed one drawn empty.
func TestSheetLaysOutEveryCell(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 40, 20))
	s := Sheet([]SheetCell{{img, "cat · ink"}, {nil, "dog · oil"}, {img, "x"}, {img, "y"}, {img, "z"}}, 64)
	// 5 cells: 3 columns, 2 rows.
	if s.Rect.Dx() != 3*72+8 || s.Rect.Dy() != 2*90+8 {
		t.Errorf("sheet %v", s.Rect)
	}
}
