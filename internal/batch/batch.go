// Package batch runs one brief many ways: a prompt with {variables}, a
// table of their values (crossed, typed, pasted from a spreadsheet or
// read from CSV) in which an option such as size, quality or model may be
// a column, and a runner that sends the requests with at most so many in
// flight. Designers iterate by varying one thing at a time; a batch does
// the varying and labels every result with what varied.
package batch

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"

	"easel/internal/api"
	"easel/internal/catalogue"
)

// MaxRequests bounds a batch: a typo in a crossed table (ten columns of
// ten values) must not send ten billion paid requests.
const MaxRequests = 500

// Options are the columns that set a request's options rather than fill
// the prompt.
var Options = []string{"size", "quality", "model", "background", "format"}

var varRE = regexp.MustCompile(`\{([A-Za-z_][A-Za-z0-9_-]*)\}`)

// Vars are the variables a prompt names, each once, in order.
func Vars(prompt string) []string {
	var out []string
	for _, m := range varRE.FindAllStringSubmatch(prompt, -1) {
		if !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}

// Table is the values, one row per request.
type Table struct {
	Columns []string
	Rows    [][]string
}

// Var is a variable and its values.
type Var struct {
	Name   string
	Values []string
}

// ParseVar reads "name=a,b,c".
func ParseVar(s string) (Var, error) {
	name, values, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return Var{}, fmt.Errorf(catalogue.T("%q is not name=value,value"), s)
	}
	v := Var{Name: name}
	for _, x := range strings.Split(values, ",") {
		if x = strings.TrimSpace(x); x != "" {
			v.Values = append(v.Values, x)
		}
	}
	if len(v.Values) == 0 {
		return Var{}, fmt.Errorf(catalogue.T("the variable %s has no values"), name)
	}
	return v, nil
}

// Cross is every combination of the variables' values, the first
// variable varying slowest. It stops at MaxRequests rows with an error.
func Cross(vars []Var) (Table, error) {
	t := Table{}
	n := 1
	for _, v := range vars {
		t.Columns = append(t.Columns, v.Name)
		n *= max(1, len(v.Values))
		if n > MaxRequests {
			return Table{}, fmt.Errorf(catalogue.T("these values make more than %d requests: cross fewer, or give the rows"), MaxRequests)
		}
	}
	t.Rows = [][]string{{}}
	for _, v := range vars {
		var next [][]string
		for _, row := range t.Rows {
			for _, x := range v.Values {
				next = append(next, append(slices.Clone(row), x))
			}
		}
		t.Rows = next
	}
	if len(vars) == 0 {
		t.Rows = nil
	}
	return t, nil
}

// ReadRows reads a table whose first line names the columns: CSV, or
// tab-separated as a spreadsheet copies it.
func ReadRows(r io.Reader) (Table, error) {
	data, err := io.ReadAll(io.LimitReader(r, 4<<20))
	if err != nil {
		return Table{}, err
	}
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	cr := csv.NewReader(strings.NewReader(text))
	first, _, _ := strings.Cut(text, "\n")
	if strings.Count(first, "\t") > strings.Count(first, ",") {
		cr.Comma = '\t'
	}
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	recs, err := cr.ReadAll()
	if err != nil {
		return Table{}, fmt.Errorf(catalogue.T("the rows are not CSV: %w"), err)
	}
	if len(recs) < 2 {
		return Table{}, errors.New(catalogue.T("the rows need a first line naming the columns and at least one line of values"))
	}
	t := Table{Columns: recs[0]}
	for i, rec := range recs[1:] {
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		if len(rec) != len(t.Columns) {
			return Table{}, fmt.Errorf(catalogue.T("line %d has %d values for %d columns"), i+2, len(rec), len(t.Columns))
		}
		t.Rows = append(t.Rows, rec)
	}
	if len(t.Rows) > MaxRequests {
		return Table{}, fmt.Errorf(catalogue.T("the rows make %d requests, more than %d"), len(t.Rows), MaxRequests)
	}
	return t, nil
}

// Cell is one request of a batch.
type Cell struct {
	// Values are the row's values by column, in the table's order.
	Values []string
	// Columns name them.
	Columns []string
	// Prompt is the template with the row's values put in.
	Prompt string
	// Options are the base options with the row's option columns set.
	Options api.ImageOptions
}

// Label is the cell's values, as a contact sheet names it.
func (c Cell) Label() string { return strings.Join(c.Values, " · ") }

// Plan fills prompt from each row of t over the base options. Every
// variable the prompt names needs a column; a column that is neither a
// variable nor an option is a mistake said before anything is sent.
func Plan(prompt string, t Table, base api.ImageOptions) ([]Cell, error) {
	vars := Vars(prompt)
	for _, v := range vars {
		if !slices.Contains(t.Columns, v) {
			return nil, fmt.Errorf(catalogue.T("the prompt names {%s} but no values are given for it"), v)
		}
	}
	for _, c := range t.Columns {
		if !slices.Contains(vars, c) && !slices.Contains(Options, c) {
			return nil, fmt.Errorf(catalogue.T("the column %q is neither a variable of the prompt nor an option (%s)"), c, strings.Join(Options, ", "))
		}
	}
	if len(t.Rows) == 0 {
		return nil, errors.New(catalogue.T("the batch has no rows"))
	}
	cells := make([]Cell, 0, len(t.Rows))
	for _, row := range t.Rows {
		c := Cell{Values: row, Columns: t.Columns, Options: base}
		c.Prompt = varRE.ReplaceAllStringFunc(prompt, func(m string) string {
			return row[slices.Index(t.Columns, m[1:len(m)-1])]
		})
		for i, col := range t.Columns {
			switch col {
			case "size":
				c.Options.Size = row[i]
			case "quality":
				c.Options.Quality = row[i]
			case "model":
				c.Options.Model = row[i]
			case "background":
				c.Options.Background = row[i]
			case "format":
				c.Options.OutputFormat = row[i]
			}
		}
		cells = append(cells, c)
	}
	return cells, nil
}

// Outcome is what became of one cell.
type Outcome struct {
	Cell Cell
	// Result is the service's answer; nil when the cell failed or was not run.
	Result *api.ImageResult
	Err    error
	// Ran is false for a cell a cancel stopped before it was sent.
	Ran bool
}

// Run sends each cell through send with at most concurrency in flight,
// in order, and returns every cell's outcome in the cells' order.
// Cancelling ctx sends nothing more; what was in flight ends as send
// ends it, and the cells never sent say Ran false.
func Run(ctx context.Context, cells []Cell, concurrency int, send func(ctx context.Context, i int, c Cell) (*api.ImageResult, error)) []Outcome {
	concurrency = max(1, concurrency)
	out := make([]Outcome, len(cells))
	slots := make(chan struct{}, concurrency)
	var wg sync.WaitGroup
	for i, c := range cells {
		out[i].Cell = c
		select {
		case <-ctx.Done():
			continue
		case slots <- struct{}{}:
		}
		if ctx.Err() != nil {
			<-slots
			continue
		}
		out[i].Ran = true
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			out[i].Result, out[i].Err = send(ctx, i, c)
		}()
	}
	wg.Wait()
	return out
}
