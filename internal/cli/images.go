package cli

import (
	"context"
	"flag"
	"fmt"
	"image"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"easel/internal/api"
	"easel/internal/atomicfile"
	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/internal/imageio"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/markup"
	"easel/internal/roles"
	"easel/internal/spend"
)

// imageFlags are the options gen and edit share, named as the API names
// them.
type imageFlags struct {
	model, prompt, size, quality, background, format, moderation, responseFormat string
	complexity                                                                   string
	compression, n, partials, frames, frameMillis                                int
	stream, retryRefused, json                                                   bool
	out                                                                          string
	// report is --json's document, nil without it.
	report *jsonReport
	costFlags
	target
	fs *flag.FlagSet
}

func (f *imageFlags) register(fs *flag.FlagSet) {
	f.fs = fs
	f.target.register(fs)
	fs.StringVar(&f.model, "model", "gpt-image-1", catalogue.T("image model id, exactly as the service lists it"))
	fs.StringVar(&f.prompt, "prompt", "", catalogue.T("what to make (required)"))
	fs.StringVar(&f.size, "size", "", catalogue.T("auto, match (for edit: the first image's shape), 1024x1024, 1536x1024, 1024x1536 or a custom WxH"))
	fs.StringVar(&f.quality, "quality", "", catalogue.T("auto, low, medium, high; xhigh and max on GPT Image 2.5 and later; any value the model takes"))
	fs.StringVar(&f.background, "background", "", catalogue.T("auto, opaque or transparent (png or webp)"))
	fs.StringVar(&f.format, "format", "", catalogue.T("output format: png, jpeg or webp; gif and svg on GPT Image 2.6"))
	fs.StringVar(&f.complexity, "complexity", "", catalogue.T("low, medium or high: how much detail (GPT Image 2.6)"))
	fs.IntVar(&f.frames, "frames", 0, catalogue.T("frames of a GIF (--format gif)"))
	fs.IntVar(&f.frameMillis, "frame-ms", 0, catalogue.T("milliseconds each frame of a GIF shows"))
	fs.BoolVar(&f.retryRefused, "retry-refused", false, catalogue.T("send a value the service refused for this model before"))
	fs.BoolVar(&f.json, "json", false, catalogue.T("print one JSON document on stdout when done (files, each request's cost, notes, the error; see README) instead of one path a line"))
	fs.IntVar(&f.compression, "compression", -1, catalogue.T("output compression 0-100, for jpeg and webp"))
	fs.StringVar(&f.moderation, "moderation", "", catalogue.T("auto or low"))
	fs.IntVar(&f.n, "n", 1, catalogue.T("how many images, 1-10"))
	fs.BoolVar(&f.stream, "stream", false, catalogue.T("stream, with previews"))
	fs.IntVar(&f.partials, "partial-images", 0, catalogue.T("previews while streaming, 0-3"))
	fs.StringVar(&f.responseFormat, "response-format", "", catalogue.T("url or b64_json (dall-e models)"))
	fs.StringVar(&f.out, "out", ".", catalogue.T("folder to write images to"))
	f.costFlags.register(fs)
}

// client makes the profile's client; the profile's image model stands in
// for --model when the flag is not given.
func (f *imageFlags) client(ctx context.Context, env Env) (*api.Client, config.Profile, error) {
	c, p, err := f.target.client(ctx, env)
	if err == nil && p.ImageModel != "" && !given(f.fs, "model") {
		f.model = p.ImageModel
	}
	if err == nil && p.Image.Stream != nil && !given(f.fs, "stream") {
		// The profile's default, as the window's form starts from it.
		f.stream = *p.Image.Stream
	}
	return c, p, err
}

// reporting starts --json's document for command when it was asked for;
// finish prints it (with the command's error), once the command ends.
func (f *imageFlags) reporting(command string) {
	if f.json {
		f.report = newJSONReport(command)
	}
}

func (f *imageFlags) finish(env Env, err error) { f.report.print(env.Stdout, err) }

// folder is where the command's images go, its paths said as --json asks.
func (f *imageFlags) folder(env Env, name func(int) string) *folder {
	files := newFolder(env, f.out, name)
	files.report = f.report
	return files
}

// given reports whether the flag name was set on the command line.
func given(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func (f *imageFlags) options() api.ImageOptions {
	o := api.ImageOptions{Model: f.model, Size: f.size, Quality: f.quality, Background: f.background,
		OutputFormat: f.format, Moderation: f.moderation, N: f.n, Stream: f.stream,
		PartialImages: f.partials, ResponseFormat: f.responseFormat, Complexity: f.complexity,
		Frames: f.frames, FrameMillis: f.frameMillis}
	if f.compression >= 0 {
		c := f.compression
		o.OutputCompression = &c
	}
	return o
}

func runGen(ctx context.Context, args []string, env Env) (err error) {
	var f imageFlags
	fs := newFlags("gen", env)
	f.register(fs)
	background := fs.Bool("in-background", false, catalogue.T("render in the Responses API's background mode, for a long render: the service keeps it without a connection; `easel jobs --wait ID` brings it in if this run ends first"))
	if err := parse(fs, args); err != nil {
		return err
	}
	f.reporting("gen")
	defer func() { f.finish(env, err) }()
	if fs.NArg() > 0 {
		return usageErr(env, catalogue.T("gen takes no arguments besides flags; put the prompt in --prompt"))
	}
	c, p, err := f.client(ctx, env)
	if err != nil {
		return err
	}
	mem := openMemory(env)
	mem.retryRefused = f.retryRefused
	defer mem.close()
	req := api.GenerateRequest{Prompt: f.prompt, ImageOptions: f.options()}
	est := spend.WithHistory(ctx, mem.lib.Ledger(), spend.Image(mem.keyTable(ctx, p, c), &req, nil))
	if f.estimate {
		fmt.Fprintln(env.Stdout, est)
		return nil
	}
	if err := mem.withinBudget(ctx, p, est, f.overBudget); err != nil {
		return err
	}
	if err := mem.canKeep(f.out, max(req.N, 1), req.Size); err != nil {
		return err
	}
	if *background {
		return mem.render(ctx, env, c, p, jobs.Request{Generate: &req}, f.out)
	}
	if _, err := mem.send(ctx, env, c, p, jobs.Request{Generate: &req}, f.folder(env, numbered(stem()))); err != nil {
		return mem.refusal(ctx, env, p, req.Model, err)
	}
	return nil
}

// stem is the start of the names of a command's files: easel-<time>.
func stem() string { return "easel-" + time.Now().Format("20060102-150405") }

// repeated collects a flag given several times, in order.
type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, ",") }
func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }

// editFlags are edit's own flags, beside the image options.
type editFlags struct {
	images, roles               repeated
	mask, fidelity, marks, cont string
	keepArea                    bool
	feather, branch             int
}

func (e *editFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&e.cont, "continue", "", catalogue.T("go on from a gallery picture (its id, or a file Easel wrote): it is the first image, and the result is the next turn of its thread, kept in the gallery too"))
	fs.IntVar(&e.branch, "branch", 0, catalogue.T("with --continue, go on from this turn of the picture's thread instead (see easel thread): a branch beside the later turns"))
	fs.BoolVar(&e.keepArea, "keep", false, catalogue.T("keep the unmasked area: write a second copy of each result with the pixels the mask protects put back, as the window does (needs --mask; --size match pads a first image of a shape the model cannot make)"))
	fs.IntVar(&e.feather, "feather", 8, catalogue.T("with --keep, how many pixels the seam blends over"))
	fs.StringVar(&e.marks, "marks", "", catalogue.T("JSON file of marks over the first image (pen, arrow, circle, note; see README): markup for models that take it, else drawn on the first image"))
	fs.Var(&e.images, "image", catalogue.T("an input image; repeat in order (the first is the one the mask applies to)"))
	fs.StringVar(&e.mask, "mask", "", catalogue.T("PNG whose transparent pixels mark what to change in the first image"))
	fs.StringVar(&e.fidelity, "fidelity", "", catalogue.T("input fidelity: low or high"))
	fs.Var(&e.roles, "role", catalogue.T("N=ROLE: what input N (from 1) is for, said in the prompt as the window's reference board does: subject, style, product, background, person or logo; repeat for each"))
}

// roleList is --role's roles by input, n inputs long.
func (e *editFlags) roleList(env Env, n int) ([]roles.Role, error) {
	out := make([]roles.Role, n)
	for _, arg := range e.roles {
		num, name, ok := strings.Cut(arg, "=")
		i, err := strconv.Atoi(strings.TrimSpace(num))
		if !ok || err != nil || i < 1 || i > n {
			return nil, usageErr(env, catalogue.F("--role %s: give N=ROLE with N an input's place, 1 to %d", arg, n))
		}
		r, err := roles.Parse(name)
		if err != nil {
			return nil, usageErr(env, err.Error())
		}
		out[i-1] = r
	}
	return out, nil
}

// inputs are the edit's images in order: the picture --continue names
// first (from), then each --image.
func (e *editFlags) inputs(ctx context.Context, env Env) (from library.Item, images repeated, err error) {
	images = e.images
	if e.cont != "" {
		if from, err = continuedFile(ctx, env, e.cont, e.branch); err != nil {
			return from, nil, err
		}
		images = append(repeated{from.File}, images...)
	} else if e.branch > 0 {
		return from, nil, usageErr(env, catalogue.T("--branch goes with --continue"))
	}
	if len(images) == 0 {
		return from, nil, usageErr(env, catalogue.T("edit needs at least one --image (or --continue)"))
	}
	return from, images, nil
}

func runEdit(ctx context.Context, args []string, env Env) (err error) {
	var f imageFlags
	var e editFlags
	fs := newFlags("edit", env)
	f.register(fs)
	e.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	f.reporting("edit")
	defer func() { f.finish(env, err) }()
	from, images, err := e.inputs(ctx, env)
	if err != nil {
		return err
	}
	c, p, err := f.client(ctx, env)
	if err != nil {
		return err
	}
	if e.keepArea && !given(fs, "size") {
		// Kept, the result must have the first image's shape: left to
		// the service, the size could be any (#57: an 800x600 picture
		// came back 1536x1024, paid for and not put back).
		f.size = "match"
	}
	req := api.EditRequest{Prompt: f.prompt, ImageOptions: f.options(), InputFidelity: e.fidelity}
	keep, err := e.ready(env, &req, images, f.size == "match")
	if err != nil {
		return err
	}
	job := jobs.Request{Edit: &req, Keep: keep}
	if from.ID == 0 {
		_, err = sendEdit(ctx, env, &f, c, p, job, f.folder(env, numbered(stem())))
		return err
	}
	job.Parents, job.Continues = []int64{from.ID}, from.ID
	started := time.Now()
	_, err = sendEdit(ctx, env, &f, c, p, job, f.folder(env, numbered(stem())))
	if lib, lerr := openLedger(env); lerr == nil {
		tellTurns(ctx, env, lib, from.ID, started)
		_ = lib.Close()
	}
	return err
}

// ready reads the edit's images and mask into req and readies it as the
// window does (readyEdit); matching sizes it to the first image's shape.
// The keep it returns is --keep's, checked.
func (e *editFlags) ready(env Env, req *api.EditRequest, images repeated, matching bool) (*jobs.Keep, error) {
	var err error
	if req.Images, err = readInputs(env, images); err != nil {
		return nil, err
	}
	cfg, err := req.Images[0].Config()
	if err != nil {
		return nil, fmt.Errorf(catalogue.T("cannot read image %s: %w"), req.Images[0].Name, err)
	}
	first := image.Pt(cfg.Width, cfg.Height)
	if matching {
		// The window's "Match the first image": the nearest size of its
		// shape the model takes.
		req.Size = api.MatchSize(req.Model, first.X, first.Y)
	}
	if e.mask != "" {
		// The mask goes as it is: its pixels are the edit's meaning.
		data, err := os.ReadFile(e.mask)
		if err != nil {
			return nil, fmt.Errorf(catalogue.T("cannot read the mask %s: %w"), e.mask, err)
		}
		req.Mask = &api.InputImage{Name: filepath.Base(e.mask), ContentType: http.DetectContentType(data), Data: data}
	}
	var keep *jobs.Keep
	if e.keepArea {
		if keep, err = checkKeep(env, req, e.feather); err != nil {
			return nil, err
		}
	}
	said, err := e.roleList(env, len(req.Images))
	if err != nil {
		return nil, err
	}
	return keep, readyEdit(env, req, keep, e.marks, said, matching, first)
}

// continuedFile is the gallery picture --continue (and --branch) name,
// with File its path: the first image the edit sends.
func continuedFile(ctx context.Context, env Env, ref string, branch int) (library.Item, error) {
	lib, err := openLedger(env)
	if err != nil {
		return library.Item{}, err
	}
	defer lib.Close()
	it, err := continued(ctx, lib, ref, branch)
	if err != nil {
		return library.Item{}, err
	}
	it.File = lib.Path(it)
	return it, nil
}

// readyEdit readies an edit as the window does, in its order: colours
// to sRGB (jobs.InSRGB), then the padding a kept edit needs (planKeep),
// then the references' roles, then the marks.
func readyEdit(env Env, req *api.EditRequest, keep *jobs.Keep, marks string, said []roles.Role, matching bool, first image.Point) error {
	converted, err := jobs.InSRGB(req, keep)
	if err != nil {
		return err
	}
	for _, note := range converted {
		fmt.Fprintln(env.Stderr, "easel: "+note)
	}
	if keep != nil {
		if err = planKeep(env, req, keep, matching, first); err != nil {
			return err
		}
	}
	roles.Apply(req, said)
	if marks == "" {
		return nil
	}
	original, err := applyMarks(env, req, marks)
	if err != nil {
		return err
	}
	if original != nil && keep != nil && keep.First == nil {
		keep.First = original // kept from the picture, not from the marks
	}
	return nil
}

// planKeep readies an edit that keeps its unmasked area as the window
// does (jobs.PadFirst): with --size match, a first image of a shape the
// model cannot make goes padded; a size of another shape is refused
// before anything is paid, since nothing could be put back.
func planKeep(env Env, req *api.EditRequest, keep *jobs.Keep, matching bool, first image.Point) error {
	if shape, pad := jobs.PadsTo(keep, matching, req.Size, first); pad {
		if err := jobs.PadFirst(req, keep, shape); err != nil {
			return fmt.Errorf(catalogue.T("the first image could not be padded to the model's shape: %w"), err)
		}
		fmt.Fprintln(env.Stderr, "easel: "+catalogue.F("the model makes no %d×%d shape: the first image goes padded to %d×%d's (the padding protected), and each result is cropped back to %d×%d",
			first.X, first.Y, shape.X, shape.Y, first.X, first.Y))
		return nil
	}
	w, h, sized := api.ParseSize(req.Size)
	if !sized {
		return usageErr(env, catalogue.F("with --size %s the service picks the result's shape, so the unmasked area may not be put back; use --size match", req.Size))
	}
	if !imageio.SameShape(image.Pt(w, h), first) {
		return usageErr(env, catalogue.F("the result will be %dx%d and the first image is %dx%d: their shapes differ, so the unmasked area cannot be put back; use --size match", w, h, first.X, first.Y))
	}
	return nil
}

// checkKeep is the Keep of an edit asked to keep its unmasked area, or
// why it cannot: without a mask nothing says what to put back.
func checkKeep(env Env, req *api.EditRequest, feather int) (*jobs.Keep, error) {
	if req.Mask == nil {
		return nil, usageErr(env, catalogue.T("--keep needs --mask: the mask says which pixels to put back"))
	}
	return &jobs.Keep{Feather: max(0, feather)}, nil
}

// applyMarks puts the marks of the file at path into req as the window
// does (markup.Apply), and says on stderr how they went; original is the
// first image as it was when the marks were drawn on it.
func applyMarks(env Env, req *api.EditRequest, path string) (original []byte, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf(catalogue.T("cannot read the marks %s: %w"), path, err)
	}
	m, err := markup.Parse(data)
	if err != nil {
		return nil, fmt.Errorf(catalogue.T("cannot read the marks %s: %w"), path, err)
	}
	mode, original, err := markup.Apply(req, m)
	if err != nil {
		return nil, err
	}
	if s := mode.Sentence(); s != "" {
		fmt.Fprintln(env.Stderr, "easel: "+s)
	}
	return original, nil
}

// readInputs reads the edit's images as readInput does, as many at once
// as there are cores (each check reads a whole file, 50 MB at most, as a
// stream), and says their notices in the user's order; the first image
// that cannot be sent, in that order, is the error.
func readInputs(env Env, paths []string) ([]api.InputImage, error) {
	out := make([]api.InputImage, len(paths))
	notices := make([]string, len(paths))
	errs := make([]error, len(paths))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(paths)) {
		wg.Go(func() {
			for i := range next {
				out[i], notices[i], errs[i] = readInput(paths[i])
			}
		})
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()
	for i := range paths {
		if errs[i] != nil {
			return nil, errs[i]
		}
		if notices[i] != "" {
			fmt.Fprintln(env.Stderr, "easel: "+notices[i])
		}
	}
	return out, nil
}

// readInput checks an input image and prepares it as the window does
// (converted, turned upright or scaled down when it must be, said on
// a notice), or says why it cannot be sent. A file sent as it is stays
// on disk, read as it goes out.
func readInput(path string) (api.InputImage, string, error) {
	p, err := imageio.PrepareFile(path, filepath.Base(path))
	if err != nil {
		return api.InputImage{}, "", err
	}
	return api.InputImage{Name: filepath.Base(path), ContentType: p.ContentType, Data: p.Data, Path: p.Path, Size: p.Size}, p.Notice, nil
}

// progress says on stderr each preview, and of several images each one
// as it arrives, so a slow job is not silent; it sets arrived: a request
// keepFile writes data under dir as name+ext, or name-2+ext, name-3+ext…
// when taken (by an earlier run, another run at the same second, or a
// planted link): created whole and exclusively, never replacing or
// writing through anything. It returns the path written.
func keepFile(dir, name, ext string, data []byte) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf(catalogue.T("cannot create %s: %w"), dir, err)
	}
	path, err := atomicfile.WriteFree(dir, 9999, func(i int) string {
		if i == 0 {
			return name + ext
		}
		return fmt.Sprintf("%s-%d%s", name, i+1, ext)
	}, data)
	if err != nil {
		return "", fmt.Errorf(catalogue.T("cannot write %s: %w"), path, err)
	}
	return path, nil
}
