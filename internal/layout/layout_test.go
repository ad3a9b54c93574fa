package layout

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

type pkg struct {
	ImportPath string
	Dir        string
	Deps       []string
}

// list is `go list -json` of the module's packages matching patterns.
func list(t *testing.T, patterns ...string) []pkg {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command here (the Windows tests run under Wine); the Linux run checks this")
	}
	cmd := exec.Command("go", append([]string{"list", "-json"}, patterns...)...)
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

func TestInternalAndCmdNeverImportFyne(t *testing.T) {
	for _, p := range list(t, "./internal/...", "./cmd/...") {
		for _, d := range p.Deps {
			if strings.HasPrefix(d, "fyne.io/") {
				t.Errorf("%s depends on %s", p.ImportPath, d)
				break
			}
		}
	}
}

func TestImageRulesDoNotDependOnTheClient(t *testing.T) {
	for _, p := range list(t, "./internal/imageio") {
		for _, d := range p.Deps {
			if d == "easel/internal/api" {
				t.Errorf("%s depends on %s", p.ImportPath, d)
			}
		}
	}
}

// Ceilings on methods per type: the window's App hands work to the
// rooms rather than doing it, and no room becomes the next hub.
const (
	maxAppMethods  = 25
	maxTypeMethods = 30
)

func TestNoTypeInUIIsAHub(t *testing.T) {
	counts := map[string]int{}
	err := filepath.WalkDir("../../ui", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Recv == nil {
				continue
			}
			typ := fd.Recv.List[0].Type
			if star, ok := typ.(*ast.StarExpr); ok {
				typ = star.X
			}
			if id, ok := typ.(*ast.Ident); ok {
				counts[filepath.Dir(path)+"."+id.Name]++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, n := range counts {
		limit := maxTypeMethods
		if name == filepath.Join("..", "..", "ui")+".App" {
			limit = maxAppMethods
		}
		if n > limit {
			t.Errorf("%s has %d methods (at most %d): split what it does into types of their own", strings.TrimPrefix(name, "../../"), n, limit)
		}
	}
}
