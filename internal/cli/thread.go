package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"easel/internal/atomicfile"
	"easel/internal/catalogue"
	"easel/internal/export"
	"easel/internal/imageio"
	"easel/internal/library"
	"easel/internal/pricing"
	"easel/internal/saver"
)

// A thread is a designer's iterations on a picture, kept in the gallery
// (library.Lineage): `easel edit --continue` adds a turn, `--branch`
// goes on from an earlier one, `easel thread` lists them. The turns are
// the window's too: a result of --continue joins the gallery as well as
// --out.

// pictureRef finds the gallery picture ref names: a gallery id as easel
// prints it ("12" or "#12"), or a file whose bytes the gallery holds (a
// picture Easel wrote, wherever it was copied). With add, a file the
// gallery does not hold joins it (imported) to start a thread from.
func pictureRef(ctx context.Context, lib *library.Library, ref string, add bool) (int64, error) {
	if id, err := strconv.ParseInt(strings.TrimPrefix(ref, "#"), 10, 64); err == nil {
		if _, gerr := lib.Get(ctx, id); gerr != nil {
			return 0, errors.New(catalogue.F("the gallery has no picture %d", id))
		}
		return id, nil
	}
	data, err := os.ReadFile(ref)
	if err != nil {
		return 0, errors.New(catalogue.F("%s is neither a gallery id nor a file Easel can read: %v", ref, err))
	}
	id, ok, err := lib.Lineage().ItemOf(ctx, data)
	switch {
	case err != nil:
		return 0, err
	case ok:
		return id, nil
	case !add:
		return 0, errors.New(catalogue.F("%s is not in the gallery: continue from it (easel edit --continue) to start a thread", ref))
	}
	imported, err := lib.Import(ctx, ref, data)
	return imported.ID, err
}

// continued is the picture an edit --continue ref goes on from: ref's
// own, or with branch the picture of that turn of ref's thread.
func continued(ctx context.Context, lib *library.Library, ref string, branch int) (library.Item, error) {
	id, err := pictureRef(ctx, lib, ref, branch == 0)
	if err != nil {
		return library.Item{}, err
	}
	if branch > 0 {
		turns, err := lib.Lineage().Thread(ctx, id)
		if err != nil {
			return library.Item{}, err
		}
		if branch > len(turns) {
			return library.Item{}, errors.New(catalogue.F("the thread of %s has %d turns, so there is no turn %d to branch from", ref, len(turns), branch))
		}
		id = turns[branch-1].Item
	}
	return lib.Get(ctx, id)
}

// tellTurns says on stderr the turns an edit continuing from made: its
// place in the thread and how much the service changed outside the marks.
func tellTurns(ctx context.Context, env Env, lib *library.Library, from int64, since time.Time) {
	turns, err := lib.Lineage().Thread(ctx, from)
	if err != nil {
		return
	}
	number := library.Numbers(turns)
	prefs, _ := env.Profiles.Load() // the drift limit; the default when unreadable
	for _, t := range turns {
		if t.Parent != from || t.Created.Before(since.Truncate(time.Millisecond)) {
			continue
		}
		line := catalogue.F("turn %d of the thread (after turn %d), gallery picture %d", t.Number, number[from], t.Item) + wayWords(t) + driftWords(t)
		if prefs.Strayed(t.Drift) {
			line += "; " + catalogue.F("that is over your limit of %d %%: look at it before going on from it", int(prefs.TurnLimit()*100+0.5))
		}
		fmt.Fprintln(env.Stderr, "easel: "+line)
	}
}

// wayWords is how a turn went, after a "; ".
func wayWords(t library.Turn) string {
	if way := t.WaySaid(); way != "" {
		return "; " + way
	}
	return ""
}

// driftWords is what a turn changed outside the marks, after a "; ".
func driftWords(t library.Turn) string {
	if t.Drift == nil {
		return ""
	}
	return "; " + catalogue.F("the service changed %d %% of the picture outside your marks", t.DriftPercent())
}

// runThread lists the turns of the thread a picture is in: each one's
// number, the turn it continued, how it was sent, what it cost, how much
// it changed outside the marks and its prompt.
func runThread(ctx context.Context, args []string, env Env) error {
	fs := newFlags("thread", env)
	asJSON := jsonFlag(fs)
	sheet := fs.String("sheet", "", catalogue.T("also write the thread's contact sheet (each turn labelled with its place, cost, drift and prompt) to this PNG file"))
	var act threadActs
	act.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageErr(env, catalogue.T("thread takes one gallery id or image file"))
	}
	lib, err := openLedger(env)
	if err != nil {
		return err
	}
	defer lib.Close()
	id, err := pictureRef(ctx, lib, fs.Arg(0), false)
	if err != nil {
		return err
	}
	turns, err := lib.Lineage().Thread(ctx, id)
	if err != nil {
		return err
	}
	if len(turns) == 0 {
		turns = []library.Turn{{Item: id, Thread: id, Number: 1}} // a picture never continued: a thread of one
	}
	if *sheet != "" {
		if err := writeThreadSheet(ctx, lib, id, *sheet); err != nil {
			return err
		}
	}
	if act.restoreFrom > 0 || act.changes > 0 {
		// What was made is the output: its paths, a line each.
		return act.run(ctx, env, lib, id, turns)
	}
	rows := threadRows(ctx, lib, turns)
	if *asJSON {
		return printDoc(env.Stdout, threadDoc{Thread: turns[0].Thread, Turns: rows})
	}
	for _, r := range rows {
		fmt.Fprintln(env.Stdout, r.line(id))
	}
	return nil
}

// threadRow is one turn as `easel thread` shows it.
type threadRow struct {
	Turn    int        `json:"turn"`
	After   int        `json:"after,omitempty"`
	Item    int64      `json:"item"`
	Way     string     `json:"way,omitempty"`
	Note    string     `json:"note,omitempty"`
	Cost    *jsonMoney `json:"cost,omitempty"`
	Drift   *float64   `json:"changed_outside_marks,omitempty"`
	Prompt  string     `json:"prompt"`
	Created time.Time  `json:"created"`
}

type threadDoc struct {
	Thread int64       `json:"thread"`
	Turns  []threadRow `json:"turns"`
}

func threadRows(ctx context.Context, lib *library.Library, turns []library.Turn) []threadRow {
	number := library.Numbers(turns)
	rows := make([]threadRow, 0, len(turns))
	for _, t := range turns {
		r := threadRow{Turn: t.Number, After: number[t.Parent], Item: t.Item, Way: t.Way, Note: t.Note, Drift: t.Drift, Created: t.Created}
		if it, err := lib.Get(ctx, t.Item); err == nil {
			r.Prompt = it.Prompt
		}
		if e, ok, _ := lib.Ledger().EntryOf(ctx, t.Item); ok {
			amount, _ := e.Spent()
			r.Cost = money(pricing.Money{Amount: amount, Currency: e.Currency})
		}
		rows = append(rows, r)
	}
	return rows
}

// line is the row for a person: the turn asked about marked with "*".
func (r threadRow) line(asked int64) string {
	mark := " "
	if r.Item == asked {
		mark = "*"
	}
	head := catalogue.F("turn %d", r.Turn)
	if r.After > 0 {
		head += " " + catalogue.F("(after %d)", r.After)
	}
	parts := []string{fmt.Sprintf("%s %-16s", mark, head), catalogue.F("picture %d", r.Item)}
	switch r.Way {
	case library.WayImages:
		parts = append(parts, catalogue.T("sent as an edit"))
	case library.WayResponses:
		parts = append(parts, catalogue.T("sent in the service's conversation"))
	case library.WayRestored:
		parts = append(parts, catalogue.T("made here, not sent"))
	case "":
		parts = append(parts, catalogue.T("the start"))
	}
	if r.Cost != nil {
		parts = append(parts, pricing.Money{Amount: r.Cost.Amount, Currency: r.Cost.Currency}.String())
	}
	if r.Drift != nil {
		parts = append(parts, catalogue.F("%d %% changed outside the marks", int(*r.Drift*100+0.5)))
	}
	line := strings.Join(parts, " · ")
	if r.Note != "" {
		line += " (" + r.Note + ")"
	}
	return line + "\n    " + strings.ReplaceAll(r.Prompt, "\n", " ")
}

// writeThreadSheet writes the contact sheet of item's thread to path, as PNG.
func writeThreadSheet(ctx context.Context, lib *library.Library, item int64, path string) error {
	img, err := export.ThreadSheet(ctx, lib, item)
	if err != nil {
		return err
	}
	data, err := imageio.EncodePNG(img)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(path, data); err != nil {
		return fmt.Errorf(catalogue.T("cannot write %s: %w"), path, err)
	}
	return nil
}

// threadActs are what `easel thread` does besides listing, as the
// window's thread does: take an area back from a turn, draw where a turn
// changed.
type threadActs struct {
	restoreFrom, changes int
	mask, out            string
}

func (a *threadActs) register(fs *flag.FlagSet) {
	fs.IntVar(&a.restoreFrom, "restore-from", 0, catalogue.T("take the area --mask marks (its transparent pixels) back from this turn into the picture named, as a new turn made here, not sent; the picture goes to --out"))
	fs.StringVar(&a.mask, "mask", "", catalogue.T("with --restore-from, a PNG whose transparent pixels mark the area to take back"))
	fs.IntVar(&a.changes, "changes", 0, catalogue.T("write where this turn changed the picture it continued (red: outside the marks) to --out"))
	fs.StringVar(&a.out, "out", ".", catalogue.T("folder for --restore-from's picture and --changes' map"))
}

// run does what was asked of the thread of item (turns), printing the
// path of each file it writes.
func (a *threadActs) run(ctx context.Context, env Env, lib *library.Library, item int64, turns []library.Turn) error {
	turn := func(n int) (library.Turn, error) {
		if n < 1 || n > len(turns) {
			return library.Turn{}, errors.New(catalogue.F("the thread has %d turns, so there is no turn %d", len(turns), n))
		}
		return turns[n-1], nil
	}
	if a.changes > 0 {
		t, err := turn(a.changes)
		if err != nil {
			return err
		}
		heat, err := export.TurnChanges(ctx, lib, t)
		if err != nil {
			return err
		}
		if err := a.write(env, fmt.Sprintf("easel-turn-%d-changes.png", t.Number), heat); err != nil {
			return err
		}
	}
	if a.restoreFrom == 0 {
		return nil
	}
	src, err := turn(a.restoreFrom)
	if err != nil {
		return err
	}
	return a.restore(ctx, env, lib, item, src)
}

// restore takes the area --mask marks back from turn src into item, as
// the window's Take area back does, and writes the picture it made.
func (a *threadActs) restore(ctx context.Context, env Env, lib *library.Library, item int64, src library.Turn) error {
	if a.mask == "" {
		return usageErr(env, catalogue.T("--restore-from needs --mask: the area to take back"))
	}
	maskData, err := imageio.ReadFile(a.mask)
	if err != nil {
		return fmt.Errorf(catalogue.T("cannot read the mask %s: %w"), a.mask, err)
	}
	current, err := lib.Get(ctx, item)
	if err != nil {
		return err
	}
	source, err := lib.Get(ctx, src.Item)
	if err != nil {
		return err
	}
	id, err := saver.Restore(ctx, lib, current, source, src.Number, maskData, saver.RestoreFeather)
	if err != nil {
		return err
	}
	made, err := lib.Get(ctx, id)
	if err != nil {
		return err
	}
	data, err := imageio.ReadFile(lib.Path(made))
	if err == nil {
		err = a.writeBytes(env, fmt.Sprintf("easel-restored-%d.png", id), data)
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stderr, "easel: "+catalogue.F("the area is back from turn %d, in gallery picture %d: the next turn, made here and not charged", src.Number, id))
	return nil
}

// write writes img as PNG into --out as name, and says its path.
func (a *threadActs) write(env Env, name string, img image.Image) error {
	data, err := imageio.EncodePNG(img)
	if err != nil {
		return err
	}
	return a.writeBytes(env, name, data)
}

func (a *threadActs) writeBytes(env Env, name string, data []byte) error {
	path := filepath.Join(a.out, name)
	if err := atomicfile.Write(path, data); err != nil {
		return fmt.Errorf(catalogue.T("cannot write %s: %w"), path, err)
	}
	fmt.Fprintln(env.Stdout, path)
	return nil
}
