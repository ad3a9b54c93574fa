package dialogs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/internal/library"
	"easel/internal/pricing"
	"easel/internal/spend"
	"easel/internal/work"
	"easel/ui/kit"
	"easel/ui/widgets/barchart"
	"easel/ui/widgets/choice"
)

// SpendView is what Easel's requests cost, from the ledger: totals by
// day, week or month as a stacked bar chart split by model, profile or
// kind, the same as a table, and an export of every request as CSV. The
// ledger is summed off the UI goroutine; the view is built from the sums.
type SpendView struct {
	h        Host
	period   *choice.Choice
	group    *choice.Choice
	currency *widget.Select
	chart    *barchart.Chart
	table    *widget.Table
	summary  *widget.Label
	// gateway is Easel's figure for the key in use beside the gateway's
	// own, where the gateway reports one.
	gateway *widget.Label
	export  *widget.Button
	// check opens the entries a person should look at (marked, may have
	// been billed, corrected), each with Correct…; hidden when none.
	check   *widget.Button
	toCheck []library.Entry
	rows    [][]string
	totals  []library.Total
	// settles is whether the gateway of the key in use keeps a running
	// figure for it, which settles each request's row: then a row says
	// how many of its requests it settled, and the summary how many wait.
	settles bool
	// loads counts the loads asked; an answer to an older one is
	// dropped.
	loads int
	// words are the choices' and kinds' words by their values.
	words map[string]string
	// Loaded, when set, is told each time a load has been shown (tests,
	// the benchmark).
	Loaded func()
	// Corrected, when set, is told once an entry's correction was written
	// or taken back: the status bar's spend follows it.
	Corrected func()
	d         dialog.Dialog
}

// The choices' words, and what they ask of the ledger.
var (
	periods = []string{library.ByDay, library.ByWeek, library.ByMonth}
	groups  = []string{library.ByModel, library.ByProfile, library.ByKind}
)

// ShowSpend opens the spend view over the window.
func ShowSpend(h Host) *SpendView {
	v := NewSpendView(h)
	v.d = dialog.NewCustom(catalogue.T("Spend"), catalogue.T("Close"), v.Content(), h.Window())
	size := h.Window().Canvas().Size()
	v.d.Resize(fyne.NewSize(size.Width*0.9, size.Height*0.9))
	v.d.Show()
	v.Load()
	return v
}

// NewSpendView makes the view's widgets; Load fills them.
func NewSpendView(h Host) *SpendView {
	v := &SpendView{h: h}
	v.chart = barchart.New(func(x float64) string { return v.money(x).String() })
	v.chart.Empty = catalogue.T("Nothing spent in this period")
	v.summary = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	v.gateway = &widget.Label{Wrapping: fyne.TextWrapWord}
	v.gateway.Hide()
	v.words = map[string]string{
		library.ByDay: catalogue.T("Day"), library.ByWeek: catalogue.T("Week"), library.ByMonth: catalogue.T("Month"),
		library.ByModel: catalogue.T("Model"), library.ByProfile: catalogue.T("Profile"), library.ByKind: catalogue.T("Kind"),
		library.SpendGenerate: catalogue.T("Text to image"), library.SpendEdit: catalogue.T("Edit"), library.SpendChat: catalogue.T("Chat"),
	}
	v.period = choice.New(v.labels(periods), func(string) { v.Load() })
	v.period.Horizontal, v.period.Required = true, true
	v.period.Selected = v.words[library.ByDay]
	v.group = choice.New(v.labels(groups), func(string) { v.Load() })
	v.group.Horizontal, v.group.Required = true, true
	v.group.Selected = v.words[library.ByModel]
	v.currency = widget.NewSelect(nil, func(string) { v.show() })
	v.currency.Hide()
	v.export = &widget.Button{Text: catalogue.T("Export CSV…"), Icon: theme.DocumentSaveIcon(), OnTapped: v.exportCSV}
	v.check = &widget.Button{Icon: theme.WarningIcon(), OnTapped: v.showToCheck}
	v.check.Hide()
	v.table = widget.NewTableWithHeaders(
		func() (int, int) { return len(v.rows), 6 },
		func() fyne.CanvasObject { return widget.NewLabel(catalogue.T("Wednesday 30 Sep 2026")) },
		func(id widget.TableCellID, o fyne.CanvasObject) {
			l := o.(*widget.Label)
			l.Alignment = fyne.TextAlignLeading
			if id.Col >= 2 {
				l.Alignment = fyne.TextAlignTrailing
			}
			l.SetText(v.rows[id.Row][id.Col])
		})
	v.table.ShowHeaderColumn = false
	v.table.CreateHeader = func() fyne.CanvasObject {
		return widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	v.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		o.(*widget.Label).SetText([]string{catalogue.T("When"), catalogue.T("What"), catalogue.T("Spent"), catalogue.T("Requests"), catalogue.T("Images"), catalogue.T("Settled by the gateway")}[id.Col])
	}
	for col, w := range []float32{190, 220, 110, 90, 80, 190} {
		v.table.SetColumnWidth(col, w)
	}
	return v
}

// Content is the view's layout: the choices, the summary, the chart over
// the table.
func (v *SpendView) Content() fyne.CanvasObject {
	choices := container.NewHBox(widget.NewLabel(catalogue.T("By")), v.period, widget.NewSeparator(), widget.NewLabel(catalogue.T("Split by")), v.group, v.currency)
	head := container.NewVBox(container.NewBorder(nil, nil, nil, container.NewHBox(v.check, v.export), choices), v.summary, v.gateway)
	split := container.NewVSplit(v.chart, v.table)
	split.Offset = 0.55
	return container.NewBorder(head, kit.HintLabel(catalogue.T("Amounts are what the gateway charges where it publishes its prices (each key at its group's rate), else the usage the service reported at the profile's prices (Settings ▸ Prices and budget); a request it reported none for, or that may have been billed, counts at its estimate.")), nil, nil, split)
}

// SetPeriod chooses library.ByDay, ByWeek or ByMonth without loading
// (the benchmark loads itself).
func (v *SpendView) SetPeriod(p string) {
	v.period.Selected = v.words[p]
	v.period.Refresh()
}

// labels are the words for values, in order.
func (v *SpendView) labels(values []string) []string {
	out := make([]string, len(values))
	for i, x := range values {
		out[i] = v.words[x]
	}
	return out
}

// value is the value of the choice whose word is label.
func (v *SpendView) value(values []string, label string) string {
	for _, x := range values {
		if v.words[x] == label {
			return x
		}
	}
	return values[0]
}

// Query is what the choices ask of the ledger at now.
func (v *SpendView) Query(now time.Time) library.SpendQuery { return v.query(now) }

// query is what the choices ask of the ledger now.
func (v *SpendView) query(now time.Time) library.SpendQuery {
	p, g := v.value(periods, v.period.Selected), v.value(groups, v.group.Selected)
	return library.SpendQuery{Period: p, Group: g, Since: spend.Range(p, now)}
}

// Load sums the ledger for the choices off the UI goroutine and shows it.
func (v *SpendView) Load() {
	ledger := v.h.Ledger()
	if ledger == nil || v.period == nil || v.group == nil {
		return
	}
	v.loads++
	n, q := v.loads, v.query(time.Now())
	p, client := v.h.Session().Current(), v.h.Session().Client()
	type read struct {
		rec     spend.Reconciliation
		recErr  error
		totals  []library.Total
		toCheck []library.Entry
	}
	work.Load(v.h.Work(), func(window context.Context) (read, error) {
		// The gateway's own figure first: reading it settles the ledger
		// the totals are then read from.
		r := read{recErr: errNoKey}
		if client != nil && p.ID != "" {
			ctx, cancel := context.WithTimeout(window, 20*time.Second)
			r.rec, r.recErr = spend.Reconcile(ctx, ledger, p, client, time.Now())
			cancel()
		}
		var err error
		r.totals, err = ledger.Spend(window, q)
		r.toCheck, _ = ledger.ToCheck(window, p.ID, q.Since, spend.MaxToCheck)
		return r, err
	}, func(r read, err error) {
		v.showGateway(r.rec, r.recErr)
		v.settles = r.recErr == nil && r.rec.HasGateway
		if n != v.loads {
			return // the choices changed since
		}
		v.setToCheck(r.toCheck)
		if err != nil {
			v.summary.SetText(catalogue.T("The ledger could not be read: ") + err.Error())
			return
		}
		v.Show(r.totals)
	})
}

// setToCheck shows how many entries of the period are to check.
func (v *SpendView) setToCheck(entries []library.Entry) {
	v.toCheck = entries
	if len(entries) == 0 {
		v.check.Hide()
		return
	}
	v.check.SetText(catalogue.N("%d to check…", len(entries), len(entries)))
	v.check.Show()
}

// ToCheck is the button's words, for tests; "" when hidden.
func (v *SpendView) ToCheck() string {
	if !v.check.Visible() {
		return ""
	}
	return v.check.Text
}

// OpenToCheck opens the list of entries to check, as its button does.
func (v *SpendView) OpenToCheck() { v.showToCheck() }

// showToCheck lists the entries to check, each as the command line's
// `easel spend --check` words it, with Correct….
func (v *SpendView) showToCheck() {
	rows := container.NewVBox()
	var d dialog.Dialog
	for _, e := range v.toCheck {
		line := &widget.Label{Text: spend.CheckLine(e), Wrapping: fyne.TextWrapWord}
		correct := &widget.Button{Text: catalogue.T("Correct…"), OnTapped: func() {
			d.Hide()
			v.ShowCorrect(e)
		}}
		actions := container.NewHBox(correct)
		if e.Corrected != nil {
			actions.Add(&widget.Button{Text: catalogue.T("Take back"), OnTapped: func() {
				d.Hide()
				v.uncorrect(e)
			}})
		}
		rows.Add(container.NewBorder(nil, nil, nil, container.NewCenter(actions), line))
	}
	intro := kit.HintLabel(catalogue.T("Figures Easel marked (a usage no request could make, a gateway's way of billing), requests that may have been billed, and those you corrected. Correct one to what the bill says: what Easel wrote is kept beside it."))
	d = dialog.NewCustom(catalogue.T("Ledger entries to check"), catalogue.T("Close"),
		container.NewBorder(intro, nil, nil, nil, container.NewVScroll(rows)), v.h.Window())
	size := v.h.Window().Canvas().Size()
	d.Resize(fyne.NewSize(size.Width*0.8, size.Height*0.7))
	d.Show()
}

// ShowCorrect asks what entry e really cost and why, and corrects it
// through spend.Correct (the command line's --correct).
func (v *SpendView) ShowCorrect(e library.Entry) {
	amount := kit.NewDialogEntry()
	current, _ := e.Spent()
	amount.SetText(strconv.FormatFloat(current, 'f', -1, 64))
	why := kit.NewDialogEntry()
	why.SetPlaceHolder(catalogue.T("the gateway's log, a refund…"))
	why.SetText(e.Correction)
	items := []*widget.FormItem{
		{Text: catalogue.F("Amount (%s)", e.Currency), Widget: amount, HintText: catalogue.F("Easel wrote %s; 0 if it was not billed.", pricing.Money{Amount: e.Written(), Currency: e.Currency})},
		{Text: catalogue.T("Why"), Widget: why},
	}
	ledger := v.h.Ledger()
	d := dialog.NewForm(catalogue.T("Correct this entry"), catalogue.T("Correct"), catalogue.T("Cancel"), items, func(ok bool) {
		if !ok || ledger == nil {
			return
		}
		text, reason := amount.Text, why.Text
		v.write(func() error {
			return spend.Correct(context.WithoutCancel(v.h.Work().Context()), ledger, e.ID, text, reason, time.Now())
		})
	}, v.h.Window())
	amount.Validator = func(s string) error {
		_, err := spend.ParseAmount(s)
		return err
	}
	kit.AnswerKeys(d, amount, why)
	d.Resize(fyne.NewSize(520, d.MinSize().Height))
	d.Show()
}

// write runs a change to the ledger off the UI goroutine (a correction,
// or taking one back), then loads the view again and tells Corrected,
// or shows why it could not be written.
func (v *SpendView) write(change func() error) {
	work.Run(v.h.Work(), func(ctx context.Context) error { return change() }, func(err error) {
		if err != nil {
			dialog.ShowError(err, v.h.Window())
			return
		}
		v.Load()
		if v.Corrected != nil {
			v.Corrected()
		}
	})
}

// uncorrect takes e's correction back.
func (v *SpendView) uncorrect(e library.Entry) {
	if ledger := v.h.Ledger(); ledger != nil {
		v.write(func() error { return ledger.Uncorrect(context.WithoutCancel(v.h.Work().Context()), e.ID) })
	}
}

// errNoKey stands for no key connected: nothing to reconcile.
var errNoKey = errors.New("no key")

// showGateway shows the gateway's figure for the key in use beside
// Easel's, where the gateway reports one.
func (v *SpendView) showGateway(r spend.Reconciliation, err error) {
	if err != nil || !r.HasGateway {
		v.gateway.Hide()
		return
	}
	v.gateway.SetText(strings.Join(r.Lines(), " "))
	v.gateway.Show()
}

// Gateway is the line that sets the gateway's figure beside Easel's, for
// tests; "" when hidden.
func (v *SpendView) Gateway() string {
	if !v.gateway.Visible() {
		return ""
	}
	return v.gateway.Text
}

// Show builds the view from totals summed for the current choices: the
// part that runs on the UI goroutine.
func (v *SpendView) Show(totals []library.Total) {
	v.totals = totals
	curs := spend.Currencies(totals)
	v.currency.Options = curs
	if len(curs) > 1 {
		if v.currency.Selected == "" || !contains(curs, v.currency.Selected) {
			v.currency.Selected = curs[0]
		}
		v.currency.Show()
	} else {
		v.currency.Selected = ""
		v.currency.Hide()
	}
	v.currency.Refresh()
	v.show()
	if v.Loaded != nil {
		v.Loaded()
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// cur is the currency shown.
func (v *SpendView) cur() string {
	if v.currency.Selected != "" {
		return v.currency.Selected
	}
	if c := spend.Currencies(v.totals); len(c) > 0 {
		return c[0]
	}
	return v.h.Session().Current().Prices.Money(0).Currency
}

func (v *SpendView) money(x float64) pricing.Money {
	return pricing.Money{Amount: x, Currency: v.cur()}
}

// show draws the totals in the chosen currency.
func (v *SpendView) show() {
	now := time.Now()
	q := v.query(now)
	bars := spend.Series(v.totals, q.Period, v.cur(), q.Since, now)
	groups := spend.Groups(bars)
	index := map[string]int{}
	names := make([]string, len(groups))
	for i, g := range groups {
		index[g], names[i] = i, v.groupName(q.Group, g)
	}
	chartBars := make([]barchart.Bar, len(bars))
	v.rows = v.rows[:0]
	sum, estimated, requests, settled := 0.0, 0.0, 0, 0
	for i, b := range bars {
		vals := make([]float64, len(groups))
		for _, p := range b.Parts {
			vals[index[p.Group]] = p.Amount
		}
		chartBars[i] = barchart.Bar{Label: barLabel(q.Period, b.Period), Values: vals}
	}
	for i := len(bars) - 1; i >= 0; i-- { // the table: newest first
		for _, p := range bars[i].Parts {
			images := ""
			if p.Images > 0 {
				images = fmt.Sprint(p.Images)
			}
			amount := v.money(p.Amount).String()
			if p.Estimated > 0 {
				amount = "≈ " + amount
			}
			v.rows = append(v.rows, []string{rowLabel(q.Period, bars[i].Period), names[index[p.Group]], amount, fmt.Sprint(p.Requests), images, v.settledCell(p)})
			sum, estimated, requests = sum+p.Amount, estimated+p.Estimated, requests+p.Requests
			settled += p.Settled
		}
	}
	v.chart.Set(names, chartBars)
	v.table.Refresh()
	span := map[string]string{library.ByDay: catalogue.T("the last 30 days"), library.ByWeek: catalogue.T("the last 12 weeks"), library.ByMonth: catalogue.T("the last 12 months")}[q.Period]
	text := catalogue.N("%s in %s · %d requests", requests, v.money(sum), span, requests)
	if estimated > 0 {
		text += catalogue.F(" · %s of it estimated", v.money(estimated))
	}
	if v.settles && settled < requests {
		text += catalogue.N(" · %d not yet settled by the gateway's figure", requests-settled, requests-settled)
	}
	v.summary.SetText(text)
}

// settledCell says how many of a row's requests the gateway's own figure
// settled: where the key in use has one, or where some were settled
// (another key's, an earlier gateway's); else nothing settles them and
// the cell says so with a dash.
func (v *SpendView) settledCell(p spend.Part) string {
	if p.Settled == 0 && !v.settles {
		return "—"
	}
	return catalogue.F("%d of %d", p.Settled, p.Requests)
}

// groupName is how the view names a group: a profile by its name, a
// kind by its tab.
func (v *SpendView) groupName(by, g string) string {
	switch by {
	case library.ByProfile:
		if p, ok := v.h.Session().Find(g); ok {
			return p.Name
		}
		switch g {
		case config.DemoID:
			return catalogue.T("Demo service")
		case config.EnvironmentID:
			return catalogue.T("Environment")
		}
	case library.ByKind:
		if w, ok := v.words[g]; ok {
			return w
		}
	}
	return g
}

// barLabel is a bar's label: the day, the week's Monday, the month.
func barLabel(period string, t time.Time) string {
	if period == library.ByMonth {
		return t.Format(catalogue.T("Jan"))
	}
	return t.Format(catalogue.T("2 Jan"))
}

// rowLabel is a table row's period.
func rowLabel(period string, t time.Time) string {
	switch period {
	case library.ByWeek:
		return catalogue.F("Week of %s", t.Format(catalogue.T("2 Jan 2006")))
	case library.ByMonth:
		return t.Format(catalogue.T("January 2006"))
	}
	return t.Format(catalogue.T("Mon 2 Jan 2006"))
}

// Rows are the table's rows, for tests.
func (v *SpendView) Rows() [][]string { return v.rows }

// Summary is the line above the chart, for tests.
func (v *SpendView) Summary() string { return v.summary.Text }

// Chart is the chart, for tests.
func (v *SpendView) Chart() *barchart.Chart { return v.chart }

// exportCSV writes every request in the view's range, one a line.
func (v *SpendView) exportCSV() {
	ledger := v.h.Ledger()
	if ledger == nil {
		return
	}
	names := map[string]string{config.DemoID: catalogue.T("Demo service"), config.EnvironmentID: catalogue.T("Environment")}
	for _, p := range v.h.Session().Profiles() {
		names[p.ID] = p.Name
	}
	since := v.query(time.Now()).Since
	name := "easel-spend-" + time.Now().Format("2006-01-02") + ".csv"
	SaveEncoded(v.h, catalogue.T("Export the spend"), name, catalogue.T("spend"), func() ([]byte, error) {
		var buf bytes.Buffer
		entries, err := ledger.Entries(v.h.Work().Context(), since)
		if err == nil {
			err = spend.WriteCSV(&buf, entries, names)
		}
		return buf.Bytes(), err
	})
}
