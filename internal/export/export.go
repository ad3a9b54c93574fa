// Package export writes gallery items to a folder a designer chose: as
// PNG, JPEG or WebP with a quality, at their size or scaled to a long
// side, named from the prompt's first words, the date and the item's id,
// with the prompt and settings beside each (PNG text chunks or a JSON
// file). An existing file is never replaced; a file is written whole or
// not at all (a cancelled or failed export leaves no half-written file);
// the work runs on every core. The original's bytes are copied unchanged
// when the format is the same and nothing else is asked of them.
package export

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"

	"github.com/disintegration/imaging"

	"easel/internal/atomicfile"
	"easel/internal/c2pa"
	"easel/internal/catalogue"
	"easel/internal/framing"
	"easel/internal/imageio"
	"easel/internal/library"
)

// Metadata is how the prompt and settings go along.
type Metadata int

// The ways metadata goes along.
const (
	NoMetadata Metadata = iota
	// TextChunks writes them into PNG files as tEXt chunks (other
	// formats get a JSON file).
	TextChunks
	// Sidecar writes a JSON file beside each image.
	Sidecar
)

// Options are an export's choices.
type Options struct {
	// Dir is the folder written to.
	Dir string
	// Format is "png", "jpeg" or "webp"; "" keeps each item's own.
	Format string
	// Quality (1–100) is for JPEG and WebP.
	Quality int
	// LongSide scales each image so its longer side is this many
	// pixels (never up); 0 keeps the size.
	LongSide int
	Metadata Metadata
	// Workers is how many images are made at once; 0 is every core.
	Workers int
	// PathOfItem is the file of a gallery item by its id, "" when it is
	// gone: a composite's recipe names the Content Credentials of the
	// picture it was made from. Nil names none.
	PathOfItem func(id int64) string
}

// Result is what became of one item.
type Result struct {
	Item library.Item
	// Path is the file written, "" when it failed.
	Path string
	Err  error
}

// Name is an export's file name: the prompt's first words, the date made
// and the item's id, so a folder of exports reads as what they show.
func Name(it library.Item, format string) string {
	return fmt.Sprintf("%s-%s-%d%s", NameWords(it), it.Created.Format("20060102"), it.ID, imageio.Extension(format))
}

// NameWords are the words a file made of it is named by: its prompt's,
// or for a picture without one that was imported, its file's name's
// (a designer's "Logo final.png" goes on as logo-final, not as easel).
func NameWords(it library.Item) string {
	if strings.TrimSpace(it.Prompt) == "" && it.SourceName != "" {
		return PromptWords(strings.TrimSuffix(it.SourceName, filepath.Ext(it.SourceName)))
	}
	return PromptWords(it.Prompt)
}

// PromptWords is a prompt's first five words in lower case, joined by
// hyphens, at most 48 letters; "easel" for a prompt with none.
func PromptWords(prompt string) string {
	var words []string
	for _, w := range strings.FieldsFunc(strings.ToLower(prompt), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		words = append(words, w)
		if len(words) == 5 {
			break
		}
	}
	s := strings.Join(words, "-")
	if r := []rune(s); len(r) > 48 {
		s = strings.TrimRight(string(r[:48]), "-")
	}
	if s == "" {
		return "easel"
	}
	return s
}

// Run exports items, whose files pathOf gives, on opt.Workers goroutines,
// telling progress after each; it stops early when ctx is cancelled
// (what was written stays, whole). Results are in the items' order.
func Run(ctx context.Context, items []library.Item, pathOf func(library.Item) string, opt Options, progress func(done, total int)) []Result {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	results := make([]Result, len(items))
	var next, done atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(items) {
					return
				}
				if ctx.Err() != nil {
					results[i] = Result{Item: items[i], Err: ctx.Err()}
					continue
				}
				path, err := one(ctx, items[i], pathOf(items[i]), opt)
				results[i] = Result{Item: items[i], Path: path, Err: err}
				if progress != nil {
					progress(int(done.Add(1)), len(items))
				}
			}
		}()
	}
	wg.Wait()
	return results
}

// one exports one item.
func one(ctx context.Context, it library.Item, src string, opt Options) (string, error) {
	original, err := imageio.ReadFile(src)
	if err != nil {
		return "", fmt.Errorf("image %d: %w", it.ID, err)
	}
	format := opt.Format
	if format == "" {
		format = it.Format
	}
	meta := Describe(it)
	data, err := converted(original, it, format, opt, meta)
	if err != nil {
		return "", fmt.Errorf("image %d: %w", it.ID, err)
	}
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	signed := bytes.Equal(data, original) && c2pa.Present(original)
	if data, err = inFile(it, data, original, signed, format, opt, meta); err != nil {
		return "", fmt.Errorf("image %d: %w", it.ID, err)
	}
	path, err := writeFree(opt.Dir, Name(it, format), data)
	if err != nil {
		return "", err
	}
	if opt.Metadata == Sidecar || (opt.Metadata == TextChunks && (format != "png" || signed)) {
		js, _ := json.MarshalIndent(meta, "", "  ")
		// Named after the whole file name: the same picture exported
		// as PNG and as JPEG into one folder has a recipe for each.
		side := path + ".json"
		if err := atomicfile.WriteNewUnsynced(side, append(js, '\n'), 0o644); err != nil {
			return path, fmt.Errorf(catalogue.T("image %d was written, but not its settings: %w"), it.ID, err)
		}
	}
	return path, nil
}

// inFile is data, item it's export (original re-encoded, or the
// original itself when signed), with what goes in the file: the IPTC
// source type in XMP and, for a PNG, the recipe in text chunks; meta,
// the recipe, says what became of the original's Content Credentials
// and names a composite's ingredient. A file signed with Content
// Credentials written as it is stays byte for byte: anything written
// into it would turn its credential into "present but tampered", so its
// recipe goes beside it.
func inFile(it library.Item, data, original []byte, signed bool, format string, opt Options, meta map[string]any) ([]byte, error) {
	if signed {
		meta["content_credentials"] = "present, kept: the file is the signed original, byte for byte"
		return data, nil
	}
	if c2pa.Present(original) {
		meta["content_credentials"] = "not carried: the image was re-encoded, so the original's credential no longer applies"
	}
	if in := ingredientOf(it, opt); in != nil {
		meta["ingredient"] = in
	}
	if opt.Metadata != TextChunks {
		return data, nil
	}
	if source, ok := meta["digital_source_type"].(string); ok {
		// What made it, in XMP, where publishers' tools read it.
		prompt, _ := meta["prompt"].(string)
		data = withXMP(data, xmpPacket(source, prompt))
	}
	if format == "png" {
		return withText(data, meta)
	}
	return data, nil
}

// converted is original (item it's file) as format at opt's size: its
// own bytes when neither changes (an SVG or a GIF in its own format
// always: a drawing scales itself, and a GIF decoded to scale would lose
// its frames), else decoded, scaled and encoded with its colour profile
// carried, which meta notes.
func converted(original []byte, it library.Item, format string, opt Options, meta map[string]any) ([]byte, error) {
	same := format == it.Format
	if same && (opt.LongSide <= 0 || imageio.KeptWhole(format)) {
		return original, nil
	}
	img, err := imageio.DecodeBounded(bytes.NewReader(original), imageio.MaxPixels)
	if err != nil {
		return nil, err
	}
	scaled := false
	if b := img.Bounds(); opt.LongSide > 0 && max(b.Dx(), b.Dy()) > opt.LongSide {
		img = imaging.Fit(img, opt.LongSide, opt.LongSide, imaging.Lanczos)
		scaled = true
	}
	if same && !scaled {
		return original, nil
	}
	if space := imageio.SpaceOf(original); space != nil && format != "png" && format != "jpeg" {
		// A format written without a profile gets sRGB numbers: read
		// as sRGB, as it will be, it then shows the original's colours.
		if img, err = space.ToSRGB(img); err != nil {
			return nil, err
		}
		meta["colour_profile"] = "converted to sRGB from " + space.Label() + ": " + format + " is written without a profile"
		return encode(img, format, opt.Quality)
	}
	data, err := encode(img, format, opt.Quality)
	if err != nil {
		return nil, err
	}
	return carryProfile(data, original, format, meta), nil
}

// carryProfile is data, original re-encoded as format, with original's
// colour profile: the numbers are the original's, and without it an
// Adobe RGB or Display P3 picture would be read as sRGB, its colours
// shifted. meta says what became of the profile.
func carryProfile(data, original []byte, format string, meta map[string]any) []byte {
	icc, name, ok := imageio.EmbeddedProfile(original)
	if !ok {
		return data
	}
	with, carried := imageio.WithProfile(data, icc, name)
	if !carried {
		meta["colour_profile"] = "not carried: " + format + " is written without one, so viewers read the original's numbers as sRGB" + profileName(name)
		return data
	}
	meta["colour_profile"] = "carried from the original" + profileName(name)
	return with
}

// profileName is ": name" for a profile with a name.
func profileName(name string) string {
	if name == "" {
		return ""
	}
	return ": " + name
}

func encode(img image.Image, format string, quality int) ([]byte, error) {
	var buf bytes.Buffer
	if err := imageio.EncodeTo(&buf, img, format, quality); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writeFree writes data under name in dir, or under name-2, name-3…
// when a file has the name: nothing is ever replaced. Workers need no
// lock between them: a name is taken by a hard link, which fails when
// another took it first, and the next is tried.
func writeFree(dir, name string, data []byte) (string, error) {
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for n := 1; n < 10_000; n++ {
		candidate := name
		if n > 1 {
			candidate = fmt.Sprintf("%s-%d%s", stem, n, ext)
		}
		path := filepath.Join(dir, candidate)
		if _, err := os.Lstat(path); err == nil {
			continue
		}
		err := atomicfile.WriteNewUnsynced(path, data, 0o644)
		if err == nil {
			return path, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return "", err
		}
	}
	return "", fmt.Errorf(catalogue.T("no free name for %s in %s"), name, dir)
}

// Describe is the prompt and settings that go along with an export.
func Describe(it library.Item) map[string]any {
	m := map[string]any{
		"prompt":  it.Prompt,
		"model":   it.Model,
		"created": it.Created.Format("2006-01-02T15:04:05Z07:00"),
		"kind":    it.Kind,
		"width":   it.Width,
		"height":  it.Height,
		"id":      it.ID,
	}
	if it.RevisedPrompt != "" {
		m["revised_prompt"] = it.RevisedPrompt
	}
	p := it.Params
	for k, v := range map[string]string{"size": p.Size, "quality": p.Quality, "background": p.Background, "output_format": p.OutputFormat,
		"moderation": p.Moderation, "input_fidelity": p.InputFidelity} {
		if v != "" {
			m[k] = v
		}
	}
	if len(it.Parents) > 0 {
		m["parents"] = it.Parents
	}
	if t := SourceType(it); t != "" {
		m["digital_source_type"] = t
	}
	return m
}

// withText puts meta into a PNG as tEXt chunks after its header: the
// prompt under "Description" (the key image viewers show), everything
// under "easel" as JSON. The image data is unchanged.
func withText(png []byte, meta map[string]any) ([]byte, error) {
	js, _ := json.Marshal(meta)
	prompt, _ := meta["prompt"].(string)
	out, ok := framing.AfterHeader(png,
		framing.Chunk("tEXt", append([]byte("Description\x00"), latin1(prompt)...)),
		framing.Chunk("tEXt", append([]byte("easel\x00"), latin1(string(js))...)))
	if !ok {
		return nil, errors.New(catalogue.T("not a PNG"))
	}
	return out, nil
}

// latin1 is s as tEXt takes it: Latin-1; other letters become '?'.
func latin1(s string) []byte {
	out := make([]byte, 0, len(s))
	for _, r := range s {
		if r < 256 && r != 0 {
			out = append(out, byte(r))
		} else {
			out = append(out, '?')
		}
	}
	return out
}
