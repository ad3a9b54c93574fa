package cli

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"strings"

	"github.com/dustin/go-humanize"

	"easel/internal/c2pa"
	"easel/internal/catalogue"
	"easel/internal/imageio"
)

// runInfo says of each image file what it is, what it declares of its
// colours and whether it carries Content Credentials: on this machine,
// nothing is sent.
func runInfo(_ context.Context, args []string, env Env) error {
	fs := newFlags("info", env)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageErr(env, catalogue.T("info needs one or more image files"))
	}
	for _, path := range fs.Args() {
		data, err := imageio.ReadFile(path)
		if err != nil {
			return fmt.Errorf(catalogue.T("cannot read image %s: %w"), path, err)
		}
		cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
		if err != nil {
			return fmt.Errorf(catalogue.T("%s is not an image Easel can read: %v"), path, err)
		}
		fmt.Fprintln(env.Stdout, catalogue.F("%s: %s %d×%d, %s", path, strings.ToUpper(format), cfg.Width, cfg.Height, humanize.IBytes(uint64(len(data)))))
		fmt.Fprintln(env.Stdout, "  "+imageio.ColoursLine(data))
		if line := c2pa.Line(data); line != "" {
			fmt.Fprintln(env.Stdout, "  "+line)
		} else {
			fmt.Fprintln(env.Stdout, "  "+catalogue.T("Content Credentials: none"))
		}
	}
	return nil
}
