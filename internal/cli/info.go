package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"path/filepath"
	"strings"

	"github.com/dustin/go-humanize"

	"easel/internal/applog"
	"easel/internal/c2pa"
	"easel/internal/catalogue"
	"easel/internal/imageio"
)

// runInfo says of each image file what it is, what it declares of its
// colours and whether it carries Content Credentials: on this machine,
// nothing is sent. A file that cannot be read is said and the others are
// still described; the exit status is then 1.
func runInfo(_ context.Context, args []string, env Env) error {
	fs := newFlags("info", env)
	asJSON := jsonFlag(fs)
	logPath := fs.Bool("log", false, catalogue.T("print where Easel's log is (to send with a report of what went wrong)"))
	if err := parse(fs, args); err != nil {
		return err
	}
	if *logPath {
		if env.Library == "" {
			return errors.New(catalogue.T("no gallery folder, so no log"))
		}
		fmt.Fprintln(env.Stdout, filepath.Join(env.Library, applog.Folder, applog.Name))
		return nil
	}
	if fs.NArg() == 0 {
		return usageErr(env, catalogue.T("info needs one or more image files"))
	}
	doc := infoDoc{jsonHead: head("info"), Files: []infoFile{}}
	var failed error
	for _, path := range fs.Args() {
		f, err := describeFile(path)
		doc.Files = append(doc.Files, f)
		if err != nil {
			failed = err
			if !*asJSON {
				fmt.Fprintln(env.Stderr, "easel: "+err.Error())
			}
			continue
		}
		if !*asJSON {
			fmt.Fprintln(env.Stdout, catalogue.F("%s: %s %d×%d, %s", path, f.Format, f.Width, f.Height, humanize.IBytes(uint64(f.Bytes))))
			fmt.Fprintln(env.Stdout, "  "+f.Colours)
			fmt.Fprintln(env.Stdout, "  "+f.Credentials)
		}
	}
	if *asJSON {
		if err := printDoc(env.Stdout, doc); err != nil {
			return err
		}
	}
	if failed != nil {
		return errSaid
	}
	return nil
}

// describeFile is what `easel info` says of the file at path.
func describeFile(path string) (infoFile, error) {
	f := infoFile{Path: path}
	data, err := imageio.ReadFile(path)
	if err != nil {
		err = fmt.Errorf(catalogue.T("cannot read image %s: %w"), path, err)
		f.Error = err.Error()
		return f, err
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		err = fmt.Errorf(catalogue.T("%s is not an image Easel can read: %v"), path, err)
		f.Error = err.Error()
		return f, err
	}
	f.Format, f.Width, f.Height, f.Bytes = strings.ToUpper(format), cfg.Width, cfg.Height, len(data)
	f.Colours = imageio.ColoursLine(data)
	if f.Credentials = c2pa.Line(data); f.Credentials == "" {
		f.Credentials = catalogue.T("Content Credentials: none")
	}
	return f, nil
}
