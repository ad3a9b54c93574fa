package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"strings"
	"time"
	"unicode"

	"easel/internal/api"
	"easel/internal/batch"
	"easel/internal/catalogue"
	"easel/internal/colour"
	"easel/internal/config"
	"easel/internal/cutout"
	"easel/internal/imageio"
	"easel/internal/jobs"
	"easel/internal/outpaint"
	"easel/internal/pricing"
	"easel/internal/spend"
)

// runOutpaint widens a picture: the original goes on a canvas of --size
// at --anchor, the service paints the new area, and the original's
// pixels are put back exactly in what is written.
func runOutpaint(ctx context.Context, args []string, env Env) (err error) {
	var f imageFlags
	var in, anchorName string
	var feather int
	fs := newFlags("outpaint", env)
	f.register(fs)
	fs.StringVar(&in, "image", "", catalogue.T("the picture to widen (required)"))
	fs.StringVar(&anchorName, "anchor", "center", catalogue.F("where the picture sits on the canvas: %s", strings.Join(outpaint.AnchorNames(), ", ")))
	fs.IntVar(&feather, "feather", 16, catalogue.T("pixels the seam blends over, into the new area only"))
	if err := parse(fs, args); err != nil {
		return err
	}
	f.reporting("outpaint")
	defer func() { f.finish(env, err) }()
	if in == "" || f.size == "" {
		return usageErr(env, catalogue.T("outpaint needs --image and --size (the canvas, such as 1536x1024)"))
	}
	anchor, err := outpaint.ParseAnchor(anchorName)
	if err != nil {
		return usageErr(env, "%s", err)
	}
	w, h, ok := api.ParseSize(f.size)
	if !ok {
		return usageErr(env, catalogue.F("the size %q is not a width and a height", f.size))
	}
	img, space, err := ownPicture(in)
	if err != nil {
		return err
	}
	plan, err := outpaint.Expand(img, image.Pt(w, h), anchor)
	if err != nil {
		return err
	}
	if plan.Scaled != (image.Point{}) {
		fmt.Fprintln(env.Stderr, "easel: "+catalogue.F("the picture is larger than the canvas, so it was scaled to %dx%d first", plan.Scaled.X, plan.Scaled.Y))
	}
	if !plan.Grows() {
		return usageErr(env, catalogue.T("the canvas is the picture's own size: give a larger --size"))
	}
	canvas, mask, err := plan.PNGs()
	if err != nil {
		return err
	}
	c, p, err := f.client(ctx, env)
	if err != nil {
		return err
	}
	opts := f.options()
	if err := sizeForCanvas(env, &opts, f.size, w, h); err != nil {
		return err
	}
	req := api.EditRequest{Prompt: f.prompt, ImageOptions: opts,
		Images: []api.InputImage{{Name: "canvas.png", ContentType: "image/png", Data: withSpace(canvas, space)}},
		Mask:   &api.InputImage{Name: "mask.png", ContentType: "image/png", Data: mask}}
	if err := readyEdit(env, &req, nil, "", nil, false, image.Point{}); err != nil {
		return err
	}
	files := f.folder(env, numbered(stem()))
	files.restore = func(k int, got api.Image) api.Image {
		out, err := restore(plan, got, feather, space)
		if err != nil {
			// Paid for: kept as the service sent it, and said.
			fmt.Fprintln(env.Stderr, "easel: "+catalogue.F("image %d came back at %dx%d, not the canvas's shape, so the picture could not be put back (%v): it is kept as the service sent it", k+1, got.Width, got.Height, err))
			return got
		}
		return out
	}
	_, err = sendEdit(ctx, env, &f, c, p, jobs.Request{Edit: &req}, files)
	return err
}

// listed reports whether size is one the spec names.
func listed(size string) bool {
	for _, s := range api.StandardSizes {
		if s == size {
			return true
		}
	}
	return false
}

// sizeForCanvas asks a model of fixed sizes for the one of the w×h
// canvas's shape (the result is scaled back onto the canvas), or says
// it makes none.
func sizeForCanvas(env Env, opts *api.ImageOptions, size string, w, h int) error {
	if api.TakesCustomSizes(opts.Model) || api.DefaultLimits.CheckSize(size) != nil || listed(size) {
		return nil
	}
	opts.Size = api.MatchSize(opts.Model, w, h)
	if rw, rh, _ := api.ParseSize(opts.Size); !imageio.SameShape(image.Pt(rw, rh), image.Pt(w, h)) {
		return usageErr(env, catalogue.F("%s makes only %s: a %dx%d canvas has none of their shapes, so the picture could not be put back; pick one of them as --size", opts.Model, strings.Join(api.StandardSizes, ", "), w, h))
	}
	return nil
}

// ownPicture is the picture at path decoded with its own numbers, and
// the colour space it declares (nil: sRGB): one in another space is
// widened in it and kept in it, its canvas converted to sRGB only as it
// is sent (jobs.InSRGB), as the window does.
func ownPicture(path string) (image.Image, *colour.Space, error) {
	data, err := imageio.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf(catalogue.T("cannot read image %s: %w"), path, err)
	}
	img, err := imageio.DecodeBounded(bytes.NewReader(data), imageio.MaxPixels)
	if err != nil {
		return nil, nil, fmt.Errorf(catalogue.T("cannot read image %s: %w"), path, err)
	}
	return img, imageio.SpaceOf(data), nil
}

// withSpace is data (a PNG Easel made) carrying space's profile; data
// itself for sRGB.
func withSpace(data []byte, space *colour.Space) []byte {
	if space != nil {
		if tagged, ok := imageio.WithProfile(data, space.ICC, space.Name); ok {
			return tagged
		}
	}
	return data
}

// restore puts the original back into one result, as a PNG: in the
// original's colour space when it declares one (space; nil is sRGB),
// the result taken into it and the profile carried.
func restore(plan *outpaint.Plan, got api.Image, feather int, space *colour.Space) (api.Image, error) {
	res, err := imageio.DecodeBounded(bytes.NewReader(got.Data), imageio.MaxPixels)
	if err != nil {
		return api.Image{}, err
	}
	if space != nil {
		if res, err = space.FromSRGB(res); err != nil {
			return api.Image{}, err
		}
	}
	out, err := plan.Restore(res, feather)
	if err != nil {
		return api.Image{}, err
	}
	var b bytes.Buffer
	if err := png.Encode(&b, out); err != nil {
		return api.Image{}, err
	}
	return api.Image{Data: withSpace(b.Bytes(), space), Format: "png", Width: out.Rect.Dx(), Height: out.Rect.Dy()}, nil
}

// sendEdit sends an edit as `easel edit` does: estimate (or print it and
// stop), budget, then the engine (send), its images into files.
// A nil result with a nil error is an estimate printed.
func sendEdit(ctx context.Context, env Env, f *imageFlags, c *api.Client, p config.Profile, job jobs.Request, files *folder) (*api.ImageResult, error) {
	req := job.Edit
	mem := openMemory(env)
	mem.retryRefused = f.retryRefused
	defer mem.close()
	est := spend.WithHistory(ctx, mem.lib.Ledger(), spend.Image(mem.keyTable(ctx, p, c), nil, req))
	if f.estimate {
		fmt.Fprintln(env.Stdout, est)
		return nil, nil
	}
	if err := mem.withinBudget(ctx, p, est, f.overBudget); err != nil {
		return nil, err
	}
	if err := mem.canKeep(f.out, max(req.N, 1), req.Size); err != nil {
		return nil, err
	}
	res, err := mem.send(ctx, env, c, p, job, files)
	if err != nil {
		return nil, mem.refusal(ctx, env, p, req.Model, err)
	}
	return res, nil
}

// runCutout makes a picture's flat background transparent, on this
// machine; nothing is sent.
func runCutout(_ context.Context, args []string, env Env) error {
	var in, out, key string
	var tolerance float64
	fs := newFlags("cutout", env)
	fs.StringVar(&in, "image", "", catalogue.T("the picture whose background to remove (required)"))
	fs.StringVar(&key, "key-colour", "", catalogue.T("the background's colour, such as #00ff00; the border's commonest colour when not given"))
	fs.StringVar(&key, "key-color", "", catalogue.T("the same as --key-colour"))
	fs.Float64Var(&tolerance, "tolerance", cutout.DefaultTolerance, catalogue.T("how far from the key a colour may be and still go, 1–441"))
	fs.StringVar(&out, "out", ".", catalogue.T("folder to write the transparent PNG to"))
	if err := parse(fs, args); err != nil {
		return err
	}
	if in == "" {
		return usageErr(env, catalogue.T("cutout needs --image"))
	}
	o := cutout.Options{Tolerance: tolerance}
	if key != "" {
		c, err := cutout.ParseColour(key)
		if err != nil {
			return usageErr(env, "%s", err)
		}
		o.Key = &c
	}
	img, err := imageio.DecodeFile(in)
	if err != nil {
		return fmt.Errorf(catalogue.T("cannot read image %s: %w"), in, err)
	}
	res := cutout.Key(img, o)
	fmt.Fprintln(env.Stderr, "easel: "+catalogue.F("keyed out %s: %.0f %% of the picture is now transparent", cutout.Hex(res.Key), 100*res.Cleared))
	if res.Cleared == 0 {
		return errors.New(catalogue.F("no pixel is within %g of %s: give the background's colour with --key-colour, or a larger --tolerance", o.Tolerance, cutout.Hex(res.Key)))
	}
	var b bytes.Buffer
	if err := png.Encode(&b, res.Image); err != nil {
		return err
	}
	_, err = newFolder(env, out, numbered(stem())).write("cutout", 0, api.Image{Data: b.Bytes(), Format: "png"})
	return err
}

// runBatch sends one prompt with {variables} once per row of values,
// with at most --concurrency requests in flight, writes each result and
// a contact sheet, and says which cells failed or were never sent.
func runBatch(ctx context.Context, args []string, env Env) (err error) {
	var f imageFlags
	var vars repeated
	var rows string
	var concurrency int
	var lane string
	var images repeated
	fs := newFlags("batch", env)
	f.register(fs)
	fs.Var(&vars, "var", catalogue.T("a variable and its values, name=a,b,c; repeat for more (crossed); size, quality, model, background and format set options"))
	fs.StringVar(&rows, "rows", "", catalogue.T("a CSV (or tab-separated) file whose first line names the variables, one request per line, instead of crossing --var"))
	fs.IntVar(&concurrency, "concurrency", 2, catalogue.T("requests in flight at once"))
	fs.StringVar(&lane, "lane", laneNow, catalogue.T("now: send each request at once; batch: send them as one batch of the Batch API, done within 24 hours at its lower price"))
	fs.Var(&images, "image", catalogue.T("a reference image every request edits, in order; repeat for more (up to 16): each row becomes an edit of them"))
	if err := parse(fs, args); err != nil {
		return err
	}
	if lane != laneNow && lane != laneBatch {
		return usageErr(env, catalogue.T("--lane takes now or batch, not %q"), lane)
	}
	f.reporting("batch")
	defer func() { f.finish(env, err) }()
	table, err := batchTable(vars, rows)
	if err != nil {
		return usageErr(env, "%s", err)
	}
	if _, err := batch.Plan(f.prompt, table, f.options()); err != nil {
		return usageErr(env, "%s", err) // said before the profile is read
	}
	c, p, err := f.client(ctx, env)
	if err != nil {
		return err
	}
	// Planned again: the profile's model stands in for --model now.
	cells, err := batch.Plan(f.prompt, table, f.options())
	if err != nil {
		return err
	}
	refs, err := readInputs(env, images)
	if err != nil {
		return err
	}
	mem := openMemory(env)
	mem.retryRefused = f.retryRefused
	defer mem.close()
	est := cellsEstimate(mem.keyTable(ctx, p, c), cells, len(refs))
	fmt.Fprintln(env.Stderr, "easel: "+catalogue.F("%d requests, %s", len(cells), lanePrices(est, cells[0].Options.Model)))
	if lane == laneBatch {
		est, _ = spend.InLane(est, spend.LaneBatch, cells[0].Options.Model)
	}
	if f.estimate {
		fmt.Fprintln(env.Stdout, est)
		return nil
	}
	if err := mem.withinBudget(ctx, p, est, f.overBudget); err != nil {
		return err
	}
	if err := mem.canKeep(f.out, est.Images, f.size); err != nil {
		return err
	}
	if lane == laneBatch {
		return mem.sendCells(ctx, env, c, p, cells, refs, f.prompt, f.out)
	}
	said := env
	said.Stderr = &lockedWriter{w: env.Stderr}
	said.Stdout = &lockedWriter{w: env.Stdout}
	stamp := time.Now().Format("20060102-150405")
	outcomes := batch.Run(ctx, cells, concurrency, func(ctx context.Context, i int, cell batch.Cell) (*api.ImageResult, error) {
		return mem.send(ctx, said, c, p, cellRequest(cell, refs), f.folder(said, cellNames(stamp, i, cell)))
	})
	return writeSheet(f.folder(env, nil), stamp, outcomes)
}

// sendCells sends a template's cells as one batch of the Batch API, each
// checked by the plan a live request is checked by.
func (m memory) sendCells(ctx context.Context, env Env, c *api.Client, p config.Profile, cells []batch.Cell, refs []api.InputImage, label, out string) error {
	var reqs []jobs.Request
	for _, cell := range cells {
		req := cellRequest(cell, refs)
		plan, _ := jobs.ReadPlan(ctx, m.lib, p, req)
		if err := m.refused(cell.Options.Model, plan.Advice); err != nil {
			return err
		}
		reqs = append(reqs, req)
	}
	return m.sendBatch(ctx, env, c, p, reqs, label, out)
}

// cellRequest is a cell's request: a generation, or an edit of refs when
// the batch has references.
func cellRequest(cell batch.Cell, refs []api.InputImage) jobs.Request {
	if len(refs) == 0 {
		return jobs.Request{Generate: &api.GenerateRequest{Prompt: cell.Prompt, ImageOptions: cell.Options}}
	}
	return jobs.Request{Edit: &api.EditRequest{Prompt: cell.Prompt, ImageOptions: cell.Options, Images: refs}}
}

// cellsEstimate is what the cells cost together at prices, each an edit
// of refs references when there are some.
func cellsEstimate(prices pricing.Table, cells []batch.Cell, refs int) pricing.Estimate {
	var est pricing.Estimate
	for i, cell := range cells {
		e := spend.Options(prices, cell.Options, cell.Prompt, refs, "")
		if i == 0 {
			est = e
		} else {
			est = est.Plus(e)
		}
	}
	return est
}

// cellNames names a batch cell's files: batch-<time>-<row>-<values>,
// then -2, -3… for a cell of several images.
func cellNames(stamp string, i int, cell batch.Cell) func(int) string {
	return func(k int) string {
		name := fmt.Sprintf("batch-%s-%02d-%s", stamp, i+1, fileWords(cell.Values))
		if k > 0 {
			name += fmt.Sprintf("-%d", k+1)
		}
		return name
	}
}

// batchTable is the rows file's table, or the variables crossed.
func batchTable(vars []string, rows string) (batch.Table, error) {
	if rows != "" {
		if len(vars) > 0 {
			return batch.Table{}, errors.New(catalogue.T("give --rows or --var, not both"))
		}
		file, err := os.Open(rows)
		if err != nil {
			return batch.Table{}, fmt.Errorf(catalogue.T("cannot read the rows %s: %w"), rows, err)
		}
		defer file.Close()
		return batch.ReadRows(file)
	}
	if len(vars) == 0 {
		return batch.Table{}, errors.New(catalogue.T("batch needs --var name=a,b (repeated) or --rows FILE.csv"))
	}
	var vs []batch.Var
	for _, s := range vars {
		v, err := batch.ParseVar(s)
		if err != nil {
			return batch.Table{}, err
		}
		vs = append(vs, v)
	}
	return batch.Cross(vs)
}

// writeSheet writes the batch's contact sheet, says on stderr which
// cells failed and which were never sent (their files are written as
// each cell ended), and makes the exit status 1 when any did.
func writeSheet(files *folder, stamp string, outcomes []batch.Outcome) error {
	env := files.env
	var sheet []batch.SheetCell
	failed, notRun := 0, 0
	for i, o := range outcomes {
		label := o.Cell.Label()
		switch {
		case !o.Ran:
			notRun++
			fmt.Fprintln(env.Stderr, "easel: "+catalogue.F("%d (%s): not sent", i+1, label))
		case o.Err != nil:
			failed++
			fmt.Fprintln(env.Stderr, "easel: "+catalogue.F("%d (%s): %s", i+1, label, failureLine(o.Err)))
		}
		if o.Result == nil || len(o.Result.Images) == 0 {
			sheet = append(sheet, batch.SheetCell{Label: label})
			continue
		}
		for _, img := range o.Result.Images {
			pic, _ := imageio.DecodeBounded(bytes.NewReader(img.Data), imageio.MaxPixels)
			sheet = append(sheet, batch.SheetCell{Image: pic, Label: label})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, batch.Sheet(sheet, 256)); err != nil {
		return err
	}
	path, err := keepFile(files.out, "batch-"+stamp+"-sheet", ".png", b.Bytes())
	if err != nil {
		return err
	}
	files.said(path, "sheet", "")
	if failed+notRun > 0 {
		return errors.New(catalogue.F("%d of %d requests failed and %d were not sent; the rest are written", failed, len(outcomes), notRun))
	}
	return nil
}

// failureLine is an error as one line, in the service's vocabulary where
// it is one.
func failureLine(err error) string {
	var ae *api.Error
	if errors.As(err, &ae) {
		return oneLine(ae.Line())
	}
	return oneLine(err.Error())
}

// fileWords makes values a file name's part: letters and digits, dashes
// between.
func fileWords(values []string) string {
	var b strings.Builder
	for _, v := range values {
		for _, r := range strings.ToLower(v) {
			switch {
			case unicode.IsLetter(r), unicode.IsDigit(r):
				b.WriteRune(r)
			default:
				if s := b.String(); s != "" && !strings.HasSuffix(s, "-") {
					b.WriteByte('-')
				}
			}
		}
		if s := b.String(); s != "" && !strings.HasSuffix(s, "-") {
			b.WriteByte('-')
		}
	}
	s := strings.Trim(b.String(), "-")
	if r := []rune(s); len(r) > 60 {
		s = string(r[:60])
	}
	return s
}
