package dialogs

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/internal/pricing"
	"easel/internal/spend"
	"easel/internal/work"
	"easel/ui/kit"
)

// pricesEditor is Settings' "Prices and budget" tab for one profile: the
// currency it counts in, how the list prices in dollars convert to it,
// the gateway's group rate, the daily and monthly caps, and per model
// prices of its own over the list prices (empty fields keep the list's,
// shown as placeholders in the profile's currency). What the service
// says of the balance is shown with a way to ask again.
type pricesEditor struct {
	host    Host
	profile config.Profile
	// Currency, PerDollar and GroupRate are the table's; Daily and
	// Monthly the budget's caps.
	Currency       *widget.Select
	PerDollar      *widget.Entry
	GroupRate      *widget.Entry
	Daily, Monthly *widget.Entry
	models         []*modelPrices
	accordion      *widget.Accordion
	addName        *widget.Entry
	// keys are the profile's keys, each with the rate the user sets for
	// it (empty: the gateway's ratio for its group) and what is known of
	// its rate and balance, with their sources.
	keys          []*keyRate
	askAgain      *widget.Button
	perDollarItem *widget.FormItem
	form          *widget.Form
	// Box is the tab's content.
	Box fyne.CanvasObject
}

// keyRate is one key's row: its group, the user's own rate for it, and
// what the gateway said of it.
type keyRate struct {
	group string
	Rate  *widget.Entry
	info  *widget.Label
}

// modelPrices are one model's own prices.
type modelPrices struct {
	model                              string
	TextIn, ImageIn, ImageOut, TextOut *widget.Entry
	// pictures are the per-picture prices by size and quality.
	pictures map[[2]string]*widget.Entry
	sizes    []string
	quals    []string
	item     *widget.AccordionItem
}

// currencyWords name the currencies in the picker, in pricing.Currencies'
// order.
func currencyWords() []string {
	return []string{catalogue.T("US dollars ($)"), catalogue.T("Chinese yuan (¥)"), catalogue.T("Gateway quota units")}
}

func currencyWord(c string) string {
	if i := slices.Index(pricing.Currencies, c); i >= 0 {
		return currencyWords()[i]
	}
	return currencyWords()[0]
}

func currencyOf(word string) string {
	if i := slices.Index(currencyWords(), word); i >= 0 {
		return pricing.Currencies[i]
	}
	return pricing.USD
}

// number writes a figure for an entry: "" for 0.
func number(v float64) string {
	if v == 0 {
		return ""
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func newPricesEditor(h Host, p config.Profile) *pricesEditor {
	e := &pricesEditor{host: h, profile: p}
	t := p.Prices
	e.Currency = widget.NewSelect(currencyWords(), nil)
	e.Currency.SetSelected(currencyWord(t.Currency))
	e.Currency.OnChanged = func(string) { e.showPlaceholders() }
	e.PerDollar = &widget.Entry{Text: number(t.PerDollar)}
	e.PerDollar.OnChanged = func(string) { e.showPlaceholders() }
	e.GroupRate = &widget.Entry{Text: number(t.GroupRate), PlaceHolder: catalogue.T("1 — the gateway's group ratio, e.g. 0.8")}
	e.Daily = &widget.Entry{Text: number(p.Budget.Daily), PlaceHolder: catalogue.T("no cap")}
	e.Monthly = &widget.Entry{Text: number(p.Budget.Monthly), PlaceHolder: catalogue.T("no cap")}
	e.perDollarItem = kit.FormItem(catalogue.T("Conversion"), e.PerDollar, " ")
	e.form = widget.NewForm(
		kit.FormItem(catalogue.T("Currency"), e.Currency, catalogue.T("What the account is billed in: a gateway (new-api, one-api) may bill in its own quota units.")),
		e.perDollarItem,
		kit.FormItem(catalogue.T("Group rate"), e.GroupRate, catalogue.T("The gateway's multiplier for estimates at list prices, where a key has no rate of its own below.")),
		kit.FormItem(catalogue.T("Daily cap"), e.Daily, catalogue.T("A request that would take today's spend past it asks first.")),
		kit.FormItem(catalogue.T("Monthly cap"), e.Monthly, catalogue.T("The same for the calendar month.")),
	)
	names := make([]string, 0, len(pricing.Defaults)+len(t.Models))
	for m := range pricing.Defaults {
		names = append(names, m)
	}
	for m := range t.Models {
		if _, ok := pricing.Defaults[m]; !ok {
			names = append(names, m)
		}
	}
	sort.Strings(names)
	e.accordion = widget.NewAccordion()
	for _, m := range names {
		e.addModel(m, t.Models[m])
	}
	e.addName = &widget.Entry{PlaceHolder: catalogue.T("another model, as the service names it")}
	add := &widget.Button{Text: catalogue.T("Add prices for it"), Icon: theme.ContentAddIcon(), Importance: widget.LowImportance, OnTapped: func() {
		name := strings.TrimSpace(e.addName.Text)
		if name == "" || slices.ContainsFunc(e.models, func(mp *modelPrices) bool { return mp.model == name }) {
			return
		}
		e.addModel(name, pricing.Price{})
		e.accordion.Open(len(e.accordion.Items) - 1)
		e.addName.SetText("")
		e.showPlaceholders()
	}}
	e.askAgain = &widget.Button{Text: catalogue.T("Ask again"), Icon: theme.ViewRefreshIcon(), Importance: widget.LowImportance, OnTapped: e.forgetBalance}
	e.askAgain.Hide()
	keys := widget.NewForm()
	for _, g := range p.KeyGroups() {
		k := &keyRate{group: g, Rate: &widget.Entry{Text: number(t.KeyRates[g]), PlaceHolder: catalogue.T("the gateway's ratio for its group")}, info: kit.HintLabel("")}
		e.keys = append(e.keys, k)
		keys.Append(spend.KeyLabel(g), container.NewVBox(k.Rate, k.info))
	}
	e.Box = container.NewVBox(
		kit.HintLabel(catalogue.T("Easel estimates each request before it is sent and writes what it cost from the usage the service reports (View ▸ Spend…). The list prices are OpenAI's, with their source and date; set your own where your account charges differently.")),
		e.form,
		kit.Heading(catalogue.T("Prices per model")),
		kit.HintLabel(catalogue.T("Per million tokens, or per picture by size and quality; an empty field keeps the list price shown in grey. A model with no price says so rather than costing nothing.")),
		e.accordion,
		container.NewBorder(nil, nil, nil, add, e.addName),
		container.NewBorder(nil, nil, nil, e.askAgain, kit.Heading(catalogue.T("Keys: rate and balance"))),
		kit.HintLabel(catalogue.T("Each key of a gateway pays its own group's rate, read from the gateway where it publishes one; set a key's rate here to override it.")),
		keys,
	)
	e.showPlaceholders()
	e.showBalance()
	return e
}

// addModel adds model's row with own prices in it.
func (e *pricesEditor) addModel(model string, own pricing.Price) {
	mp := &modelPrices{model: model, pictures: map[[2]string]*widget.Entry{}}
	entry := func(v float64) *widget.Entry { return &widget.Entry{Text: number(v)} }
	mp.TextIn, mp.ImageIn, mp.ImageOut, mp.TextOut = entry(own.TextIn), entry(own.ImageIn), entry(own.ImageOut), entry(own.TextOut)
	list, listed := pricing.Lookup(model)
	form := widget.NewForm()
	chat := listed && list.ImageOut == 0 && list.PerImage == nil
	form.Append(catalogue.T("Text in, per million tokens"), mp.TextIn)
	if !chat {
		form.Append(catalogue.T("Image in, per million tokens"), mp.ImageIn)
		if !listed || list.PerImage == nil {
			form.Append(catalogue.T("Image out, per million tokens"), mp.ImageOut)
		}
	}
	if chat || !listed {
		form.Append(catalogue.T("Text out, per million tokens"), mp.TextOut)
	}
	content := []fyne.CanvasObject{form}
	if !chat {
		mp.sizes, mp.quals = []string{"1024x1024", "1536x1024", "1024x1536"}, []string{"low", "medium", "high"}
		if listed && list.PerImage != nil {
			mp.sizes, mp.quals = sortedKeys(list.PerImage), qualitiesOf(list.PerImage)
		}
		grid := container.NewGridWithColumns(len(mp.quals) + 1)
		grid.Add(widget.NewLabel(catalogue.T("Per picture")))
		for _, q := range mp.quals {
			grid.Add(widget.NewLabelWithStyle(q, fyne.TextAlignCenter, fyne.TextStyle{Bold: true}))
		}
		for _, size := range mp.sizes {
			grid.Add(widget.NewLabel(size))
			for _, q := range mp.quals {
				en := entry(own.PerImage[size][q])
				mp.pictures[[2]string{size, q}] = en
				grid.Add(en)
			}
		}
		content = append(content, grid)
	}
	source := catalogue.T("no list price: only what you set here")
	if listed {
		source = catalogue.F("list price from %s, %s", list.Source, list.Date)
	}
	content = append(content, kit.HintLabel(source))
	mp.item = widget.NewAccordionItem(model, container.NewVBox(content...))
	e.models = append(e.models, mp)
	e.accordion.Append(mp.item)
}

func sortedKeys(m map[string]map[string]float64) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func qualitiesOf(m map[string]map[string]float64) []string {
	var out []string
	for _, byQ := range m {
		for q := range byQ {
			if !slices.Contains(out, q) {
				out = append(out, q)
			}
		}
	}
	sort.Strings(out)
	slices.Reverse(out) // standard before hd
	return out
}

// table is the prices as the fields hold them; an entry that is not a
// figure is an error naming it.
func (e *pricesEditor) table() (pricing.Table, config.Budget, error) {
	var errs []string
	num := func(what string, en *widget.Entry) float64 {
		s := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(en.Text), "$"), "¥"))
		if s == "" {
			return 0
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || v < 0 {
			errs = append(errs, catalogue.F("%s: %q is not a price", what, en.Text))
			return 0
		}
		return v
	}
	t := pricing.Table{Currency: currencyOf(e.Currency.Selected)}
	if t.Currency == pricing.USD {
		t.Currency = "" // the default, written as nothing
	} else {
		t.PerDollar = num(catalogue.T("Conversion"), e.PerDollar)
	}
	t.GroupRate = num(catalogue.T("Group rate"), e.GroupRate)
	for _, k := range e.keys {
		if v := num(spend.KeyLabel(k.group), k.Rate); v > 0 {
			if t.KeyRates == nil {
				t.KeyRates = map[string]float64{}
			}
			t.KeyRates[k.group] = v
		}
	}
	b := config.Budget{Daily: num(catalogue.T("Daily cap"), e.Daily), Monthly: num(catalogue.T("Monthly cap"), e.Monthly)}
	for _, mp := range e.models {
		p := pricing.Price{TextIn: num(mp.model, mp.TextIn), ImageIn: num(mp.model, mp.ImageIn), ImageOut: num(mp.model, mp.ImageOut), TextOut: num(mp.model, mp.TextOut)}
		for key, en := range mp.pictures {
			if v := num(mp.model+" "+key[0]+" "+key[1], en); v > 0 {
				if p.PerImage == nil {
					p.PerImage = map[string]map[string]float64{}
				}
				if p.PerImage[key[0]] == nil {
					p.PerImage[key[0]] = map[string]float64{}
				}
				p.PerImage[key[0]][key[1]] = v
			}
		}
		if p.TextIn+p.ImageIn+p.ImageOut+p.TextOut > 0 || p.PerImage != nil {
			if t.Models == nil {
				t.Models = map[string]pricing.Price{}
			}
			t.Models[mp.model] = p
		}
	}
	if len(errs) > 0 {
		return t, b, fmt.Errorf("prices: %s", strings.Join(errs, "; "))
	}
	return t, b, nil
}

// apply puts the fields into p.
func (e *pricesEditor) apply(p *config.Profile) error {
	t, b, err := e.table()
	if err != nil {
		return err
	}
	p.Prices, p.Budget = t, b
	return nil
}

// fields are every field's text, to tell unsaved changes.
func (e *pricesEditor) fields() []string {
	out := []string{e.Currency.Selected, e.PerDollar.Text, e.GroupRate.Text, e.Daily.Text, e.Monthly.Text}
	for _, k := range e.keys {
		out = append(out, k.Rate.Text)
	}
	for _, mp := range e.models {
		out = append(out, mp.model, mp.TextIn.Text, mp.ImageIn.Text, mp.ImageOut.Text, mp.TextOut.Text)
		for _, s := range mp.sizes {
			for _, q := range mp.quals {
				out = append(out, mp.pictures[[2]string{s, q}].Text)
			}
		}
	}
	return out
}

// showPlaceholders writes the list prices, converted to the chosen
// currency (before the group rate), into the empty fields' placeholders.
func (e *pricesEditor) showPlaceholders() {
	cur := currencyOf(e.Currency.Selected)
	per := pricing.DefaultPerDollar(cur)
	if v, err := strconv.ParseFloat(strings.TrimSpace(e.PerDollar.Text), 64); err == nil && v > 0 {
		per = v
	}
	e.PerDollar.SetPlaceHolder(strconv.FormatFloat(pricing.DefaultPerDollar(cur), 'f', -1, 64))
	switch cur {
	case pricing.USD:
		e.perDollarItem.HintText = catalogue.T("List prices are in US dollars: nothing to convert.")
		e.PerDollar.Disable()
	case pricing.Quota:
		e.perDollarItem.HintText = catalogue.T("Quota units to the US dollar: new-api and one-api count 500,000 unless their owner changed it.")
		e.PerDollar.Enable()
	default:
		e.perDollarItem.HintText = catalogue.T("Yuan to the US dollar, as your gateway converts the list prices (its price page says).")
		e.PerDollar.Enable()
	}
	if e.form != nil {
		e.form.Refresh()
	}
	fig := func(v float64) string {
		if v == 0 {
			return ""
		}
		return strconv.FormatFloat(v*per, 'g', 4, 64)
	}
	for _, mp := range e.models {
		list, ok := pricing.Lookup(mp.model)
		if !ok {
			continue
		}
		mp.TextIn.SetPlaceHolder(fig(list.TextIn))
		mp.ImageIn.SetPlaceHolder(fig(list.ImageIn))
		mp.ImageOut.SetPlaceHolder(fig(list.ImageOut))
		mp.TextOut.SetPlaceHolder(fig(list.TextOut))
		for key, en := range mp.pictures {
			v := list.PerImage[key[0]][key[1]]
			if v == 0 {
				v = float64(pricing.OutputTokens(key[1], key[0])) * list.ImageOut / 1e6
			}
			en.SetPlaceHolder(fig(v))
		}
	}
}

// showBalance says, for each key of the profile, the rate it pays and
// where that came from, and what its service last said of its balance,
// read off the UI goroutine.
func (e *pricesEditor) showBalance() {
	ledger := e.host.Ledger()
	if ledger == nil || e.profile.ID == "" {
		for _, k := range e.keys {
			k.info.SetText(catalogue.T("Asked of the service once the profile is saved and used."))
		}
		return
	}
	p := e.profile
	type said struct {
		lines, gatewayRates []string
		unreported          bool
	}
	work.Load(e.host.Work(), func(ctx context.Context) (said, error) {
		lines := make([]string, len(e.keys))
		gatewayRates := make([]string, len(e.keys))
		unreported := false
		for i, k := range e.keys {
			key := p
			key.ActiveGroup = k.group
			f, _ := spend.Facts(ctx, ledger, key, nil, time.Now())
			rate, from := spend.KeyRate(p, k.group, f)
			if r, ok := f.GroupRatio(k.group); ok {
				gatewayRates[i] = catalogue.F("×%s, the gateway's ratio for its group", spend.FormatRate(r))
			}
			st, _ := spend.Balance(ctx, ledger, key, nil, time.Now())
			if b, known, _ := ledger.BalanceOf(ctx, p.ID, k.group); known && !b.Reported && f.Usage == nil {
				unreported = true
			}
			lines[i] = catalogue.F("Pays ×%s (%s). %s", spend.FormatRate(rate), spend.RateSourceText(from), st.Explain())
		}
		return said{lines, gatewayRates, unreported}, nil
	}, func(s said, _ error) {
		for i, k := range e.keys {
			k.info.SetText(s.lines[i])
			if s.gatewayRates[i] != "" {
				k.Rate.SetPlaceHolder(s.gatewayRates[i])
			}
		}
		if s.unreported {
			e.askAgain.Show()
		}
	})
}

// forgetBalance lets the next connection ask the service again.
func (e *pricesEditor) forgetBalance() {
	ledger := e.host.Ledger()
	work.Run(e.host.Work(), func(ctx context.Context) error { return ledger.ForgetBalance(ctx, e.profile.ID) }, func(err error) {
		if err == nil {
			e.askAgain.Hide()
			for _, k := range e.keys {
				k.info.SetText(catalogue.T("Easel will ask the service for its balance when the profile next connects."))
			}
		}
	})
}

// Picture is model's per-picture price field for size and quality, nil
// when it has none, for tests.
func (e *pricesEditor) Picture(model, size, quality string) *widget.Entry {
	for _, mp := range e.models {
		if mp.model == model {
			return mp.pictures[[2]string{size, quality}]
		}
	}
	return nil
}

// Key is the rate field and what is said of the key of group, for tests.
func (e *pricesEditor) Key(group string) (rate *widget.Entry, info string) {
	for _, k := range e.keys {
		if k.group == group {
			return k.Rate, k.info.Text
		}
	}
	return nil, ""
}
