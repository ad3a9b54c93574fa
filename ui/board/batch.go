package board

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/batch"
	"easel/internal/catalogue"
	"easel/internal/imageio"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/spend"
	"easel/internal/work"
	"easel/ui/batches"
	"easel/ui/dialogs"
	"easel/ui/kit"
	"easel/ui/room"
	"easel/ui/widgets/choice"
)

// batchView is the template's side of a batch board: the values, how
// they combine, how many at once, and the sheet and files at the end.
type batchView struct {
	// batches are the window's batches, where the cheaper lane goes.
	batches *batches.Panel
	values  *widget.Entry
	mode    *choice.Choice
	// lane is Now or Cheaper (the Batch API), shown once the service is
	// known to take batches; laneNote says while it is asked, or why not.
	lane        *choice.Choice
	laneNote    *widget.Label
	concurrency *widget.Select
	stop        *widget.Button
	sheet       *widget.Button
	files       *widget.Button
}

func modeLabels() []string {
	return []string{catalogue.T("Cross the values"), catalogue.T("One request per row")}
}

// cheaper reports whether the batch goes through the Batch API.
func (v *batchView) cheaper() bool { return v.lane.Visible() && batches.Cheaper(v.lane.Selected) }

// OpenBatch shows a board that fills a prompt's {variables} from values
// crossed (a line "name = a, b, c" each) or from rows (CSV, or a
// spreadsheet's copy, its first line naming the columns); size, quality,
// model, background and format set options. It says how many requests
// and what they cost before sending, runs them with at most so many in
// flight, and ends with a labelled contact sheet and the files.
//
// panel, the window's batches of the Batch API (nil without a gallery),
// is where the cheaper lane sends the requests as one batch.
func OpenBatch(h Host, panel *batches.Panel, prompt string, base api.ImageOptions) *Board {
	b := &Board{host: h, base: base, concurrency: 2}
	v := &batchView{batches: panel}
	b.prompt = widget.NewMultiLineEntry()
	b.prompt.Wrapping = fyne.TextWrapWord
	b.prompt.SetText(prompt)
	b.prompt.SetMinRowsVisible(2)
	b.prompt.OnChanged = func(string) { b.updateBatch(v) }
	v.values = widget.NewMultiLineEntry()
	v.values.SetMinRowsVisible(3)
	v.values.OnChanged = func(string) { b.updateBatch(v) }
	v.mode = choice.New(modeLabels(), func(string) { b.updateBatch(v) })
	v.mode.Horizontal, v.mode.Required = true, true
	v.lane = choice.New(batches.Lanes(), func(string) { b.updateBatch(v) })
	v.lane.Horizontal, v.lane.Required = true, true
	v.lane.Hide()
	v.laneNote = kit.HintLabel(catalogue.T("Asking the service whether it takes batches…"))
	v.concurrency = widget.NewSelect([]string{"1", "2", "3", "4"}, func(s string) { b.concurrency, _ = strconv.Atoi(s) })
	v.concurrency.SetSelected("2")
	b.estimate = kit.HintLabel("")
	b.status = kit.HintLabel("")
	b.run = &widget.Button{Text: catalogue.T("Run batch"), Icon: theme.MediaPlayIcon(), Importance: widget.HighImportance, OnTapped: func() { b.sendBatch(v) }}
	v.stop = &widget.Button{Text: catalogue.T("Stop sending"), Icon: theme.MediaStopIcon(), OnTapped: func() { b.stopBatch(v) }}
	v.stop.Hide()
	v.sheet = &widget.Button{Text: catalogue.T("Save contact sheet…"), Icon: theme.DocumentSaveIcon(), OnTapped: b.saveSheet}
	v.files = &widget.Button{Text: catalogue.T("Export the files…"), Icon: theme.DownloadIcon(), OnTapped: b.exportFiles}
	v.sheet.Disable()
	v.files.Disable()
	b.layout = &fitGrid{width: cellSmall}
	b.grid = container.New(b.layout)
	vars := prompt
	if len(batch.Vars(vars)) > 0 {
		var lines []string
		for _, n := range batch.Vars(vars) {
			lines = append(lines, n+" = ")
		}
		v.values.SetText(strings.Join(lines, "\n"))
	}
	form := widget.NewForm(
		widget.NewFormItem(catalogue.T("Prompt"), b.prompt),
		kit.FormItem(catalogue.T("Values"), v.values, catalogue.T("Crossed: a line “name = a, b, c” for each {name} in the prompt. Rows: a first line naming the columns, then one line per request, as CSV or pasted from a spreadsheet. A size, quality or model column sets that option.")),
		widget.NewFormItem("", v.mode),
		kit.FormItem(catalogue.T("When"), container.NewVBox(v.lane, v.laneNote), catalogue.T("Now sends the requests at once. Cheaper sends them as one batch of the Batch API: done within 24 hours, at about half the price; it goes on if you close Easel, and the pictures land in the gallery when they come.")),
		widget.NewFormItem(catalogue.T("At once"), container.NewHBox(v.concurrency)),
	)
	top := container.NewVBox(form, container.NewBorder(nil, nil, nil, container.NewHBox(v.stop, b.run), b.estimate))
	b.undo = &widget.Button{}
	b.undo.Hide()
	body := container.NewBorder(top, b.status, nil, nil, container.NewVScroll(b.grid))
	b.d = dialog.NewCustomWithoutButtons(catalogue.T("Batch from a template"), body, h.Window())
	b.finish = &widget.Button{}
	b.d.SetButtons([]fyne.CanvasObject{v.sheet, v.files, &widget.Button{Text: catalogue.T("Close"), OnTapped: b.d.Hide}})
	v.mode.SetSelected(modeLabels()[0])
	v.lane.SetSelected(batches.Lanes()[0])
	b.offerLanes(v)
	size := h.Window().Canvas().Size()
	b.d.Resize(fyne.NewSize(size.Width*0.94, size.Height*0.92))
	b.d.Show()
	b.view = v
	b.onEnded = func() {
		v.stop.Hide()
		v.sheet.Enable()
		v.files.Enable()
	}
	return b
}

// offerLanes shows the lane choice when the service takes batches, and
// says why not when it does not.
func (b *Board) offerLanes(v *batchView) {
	panel, client := v.batches, b.host.Service().Client()
	if panel == nil || client == nil {
		v.laneNote.SetText(catalogue.T("Only now: there is no gallery or no service to keep a batch with."))
		return
	}
	panel.Offered(client, func(ok bool, why string) {
		if !ok {
			v.laneNote.SetText(catalogue.F("Only now: %s.", why))
			return
		}
		v.laneNote.Hide()
		v.lane.Show()
		b.updateBatch(v)
	})
}

// table reads the values as the mode says.
func (v *batchView) table() (batch.Table, error) {
	if v.mode.Selected == modeLabels()[1] {
		return batch.ReadRows(strings.NewReader(v.values.Text))
	}
	var vars []batch.Var
	for _, line := range strings.Split(v.values.Text, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		x, err := batch.ParseVar(line)
		if err != nil {
			return batch.Table{}, err
		}
		vars = append(vars, x)
	}
	return batch.Cross(vars)
}

// cells are the batch as planned, or why it cannot be.
func (b *Board) cellsOf(v *batchView) ([]batch.Cell, error) {
	t, err := v.table()
	if err != nil {
		return nil, err
	}
	return batch.Plan(b.prompt.Text, t, b.base)
}

// updateBatch says how many requests and what they cost, or what is
// wrong with the values.
func (b *Board) updateBatch(v *batchView) {
	if b.estimate == nil || b.run == nil {
		return
	}
	cells, err := b.cellsOf(v)
	if err != nil {
		b.estimate.SetText(kit.Sentences([]string{strings.TrimSpace(kit.ErrorText(err))})[0])
		b.run.Disable()
		return
	}
	p := b.host.Service().Current()
	total := spend.Options(p.Prices, cells[0].Options, cells[0].Prompt, 0, "")
	for _, c := range cells[1:] {
		total = total.Plus(spend.Options(p.Prices, c.Options, c.Prompt, 0, ""))
	}
	said := total.String()
	if cheap, note := spend.InLane(total, spend.LaneBatch, cells[0].Options.Model); v.lane.Visible() && note != "" {
		said = catalogue.F("%s now, %s within 24 h through the Batch API", total, cheap)
	}
	b.estimate.SetText(catalogue.F("%d requests: %s", len(cells), said))
	b.run.Enable()
}

// sendBatch checks every request, asks the budget's question for the
// whole batch, and starts the first few.
func (b *Board) sendBatch(v *batchView) {
	h := b.host
	if !room.Ready(h) {
		b.status.SetText(room.ServiceText(h))
		return
	}
	cells, err := b.cellsOf(v)
	if err != nil {
		b.status.SetText(kit.ErrorText(err))
		return
	}
	p, client := h.Service().Current(), h.Service().Client()
	var reqs []jobs.Request
	for _, c := range cells {
		r := api.GenerateRequest{Prompt: c.Prompt, ImageOptions: c.Options}
		r.N = max(r.N, 1)
		if err := r.Check(client.Limits()); err != nil {
			b.status.SetText(catalogue.F("%s: %s", c.Label(), kit.ErrorText(err)))
			return
		}
		req := jobs.Request{Profile: p.ID, Group: p.UsingGroup(), Service: client, Prices: p.Prices, Generate: &r}
		if v.cheaper() {
			req.Lane = spend.LaneBatch
		}
		reqs = append(reqs, req)
	}
	if v.cheaper() {
		room.GuardBudget(h, p, reqs, func() { b.sendAsBatch(v, reqs) })
		return
	}
	room.GuardBudget(h, p, reqs, func() {
		b.cells, b.grid.Objects, b.pending, b.stopped, b.inFlight = nil, nil, nil, false, 0
		for i, r := range reqs {
			c := newCell(b, cells[i].Label())
			c.keep.Hide()
			b.cells = append(b.cells, c)
			b.pending = append(b.pending, pending{req: r, cell: c})
			b.grid.Add(c.box)
		}
		b.grid.Refresh()
		b.run.Disable()
		v.stop.Show()
		v.sheet.Disable()
		v.files.Disable()
		b.sendNext()
	})
}

// sendAsBatch makes the requests one batch of the Batch API: its card is
// in Text to image's jobs, where it is followed until its pictures are
// in the gallery, whether or not this board stays open.
func (b *Board) sendAsBatch(v *batchView, reqs []jobs.Request) {
	b.run.Disable()
	b.status.SetText(catalogue.T("Making the batch: uploading its requests…"))
	h := b.host
	v.batches.Send(h.Service().Client(), h.Service().Current(), reqs, b.prompt.Text, func(err error) {
		b.run.Enable()
		if err != nil {
			b.status.SetText(kit.ErrorText(err))
			return
		}
		b.status.SetText(catalogue.N("Sent as one batch of %d requests, to be done within 24 hours: its card is in Text to image's jobs, and its pictures land in the gallery.", len(reqs), len(reqs)))
	})
}

// sendNext fills the free slots from the pending requests; when nothing
// is pending or running, the batch has ended.
func (b *Board) sendNext() {
	for !b.stopped && b.inFlight < max(b.concurrency, 1) && len(b.pending) > 0 {
		p := b.pending[0]
		b.pending = b.pending[1:]
		p.req.Listener = b.listener()
		id, err := b.host.Runner().Submit(p.req)
		if err != nil {
			p.cell.state.SetText(err.Error())
			p.cell.ended = true
			continue
		}
		p.cell.job = id
		p.cell.state.SetText(catalogue.T("Sending…"))
		b.inFlight++
	}
	if b.inFlight == 0 && (len(b.pending) == 0 || b.stopped) {
		b.batchEnded()
	}
}

// stopBatch sends nothing more; what is out finishes (it may be paid).
func (b *Board) stopBatch(v *batchView) {
	b.stopped = true
	for _, p := range b.pending {
		p.cell.state.SetText(catalogue.T("Not sent"))
		p.cell.ended = true
	}
	b.sendNext()
}

// batchEnded says what was made, failed and never sent.
func (b *Board) batchEnded() {
	made, failed, notSent := 0, 0, 0
	for _, c := range b.cells {
		switch {
		case len(c.items) > 0:
			made++
		case c.job == "":
			notSent++
		default:
			failed++
		}
	}
	b.status.SetText(catalogue.F("%d made, %d failed, %d not sent.", made, failed, notSent))
	b.run.Enable()
	if b.onEnded != nil {
		b.onEnded()
	}
}

// items are the batch's pictures, in its order.
func (b *Board) items() []int64 {
	var out []int64
	for _, c := range b.cells {
		out = append(out, c.items...)
	}
	return out
}

// Sheet is the contact sheet of the batch's pictures, each labelled with
// its values; a cell without a picture is drawn empty. It reads the
// files: call it off the UI goroutine.
func (b *Board) Sheet(ctx context.Context) (image.Image, error) {
	lib := b.host.Library()
	var cells []batch.SheetCell
	for _, c := range b.cells {
		sc := batch.SheetCell{Label: c.value}
		if len(c.items) > 0 {
			it, err := lib.Get(ctx, c.items[0])
			if err != nil {
				return nil, err
			}
			sc.Image, _ = imageio.DecodeFileFit(lib.Path(it), 512)
		}
		cells = append(cells, sc)
	}
	return batch.Sheet(cells, 256), nil
}

// saveSheet asks where to write the contact sheet, as a PNG.
func (b *Board) saveSheet() {
	work.Load(b.host.Work(), func(ctx context.Context) ([]byte, error) {
		img, err := b.Sheet(ctx)
		var buf bytes.Buffer
		if err == nil {
			err = png.Encode(&buf, img)
		}
		return buf.Bytes(), err
	}, func(data []byte, err error) {
		if err != nil {
			dialog.ShowError(err, b.host.Window())
			return
		}
		dialogs.SaveFile(b.host, catalogue.T("Save contact sheet"), "easel-batch-sheet.png", catalogue.T("contact sheet"), data)
	})
}

// exportFiles exports the batch's pictures, as the gallery exports a
// selection.
func (b *Board) exportFiles() {
	lib, ids := b.host.Library(), b.items()
	work.Load(b.host.Work(), func(ctx context.Context) ([]library.Item, error) {
		var items []library.Item
		for _, id := range ids {
			if it, err := lib.Get(ctx, id); err == nil {
				items = append(items, it)
			}
		}
		return items, nil
	}, func(items []library.Item, _ error) { dialogs.ExportMany(b.host, items, lib.Path, nil) })
}
