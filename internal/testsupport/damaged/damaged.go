// Package damaged makes, for tests, a gallery whose index has a damaged
// page: what a failing disk or a copy cut short leaves, which Easel must
// say and refuse to pay into.
package damaged

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"easel/internal/library"
)

// Filled makes a gallery in dir with enough ledger rows to fill many
// pages of its index, and says where that index is.
func Filled(tb testing.TB, dir string) (db string) {
	tb.Helper()
	lib, err := library.Open(dir)
	if err != nil {
		tb.Fatal(err)
	}
	for i := range 200 {
		_, _ = lib.Ledger().Record(context.Background(), library.Entry{Profile: "p", Model: model, Kind: library.SpendChat,
			Outcome: library.Billed, Currency: "USD", Job: fmt.Sprint(i)})
	}
	if err := lib.Close(); err != nil {
		tb.Fatal(err)
	}
	return filepath.Join(dir, "library.db")
}

// model is the rows' model name: long, so the rows fill pages, and
// found again to damage one of them.
var model = strings.Repeat("m", 500)

// Gallery makes a Filled gallery in dir, then overwrites one page of
// its ledger rows near the middle of its index with junk (its first and
// last bytes kept). A page of rows, not whatever lies mid-file: a free
// page is read by no check, and no row is lost with it.
func Gallery(tb testing.TB, dir string) {
	tb.Helper()
	db := Filled(tb, dir)
	data, err := os.ReadFile(db)
	if err != nil {
		tb.Fatal(err)
	}
	at := bytes.Index(data[len(data)/2:], []byte(model))
	if at < 0 {
		tb.Fatal("damaged: no ledger row in the second half of the index")
	}
	page := 4096 * ((len(data)/2 + at) / 4096)
	for i := page + 8; i < page+4096-8; i++ {
		data[i] = 0xA5
	}
	if err := os.WriteFile(db, data, 0o600); err != nil {
		tb.Fatal(err)
	}
}
