package architecture

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

// hubBaseline are ui/'s types over the ceiling today, counted with the
// role types that only wrap them (type menus struct{ *App }) folded in
// (countMethods). Each figure may only go down, to the ceiling, and goes when it
// is reached: the test fails when a type grows past its figure and when
// a figure is higher than its type's count. None is left: ui.App, chat.Room
// and gallery.Room were brought to their ceilings by parts with their
// own state (session 22).
var hubBaseline = map[string]int{}

func TestNoTypeInUIIsAHub(t *testing.T) {
	checkHubs(t, "ui", maxTypeMethods, hubBaseline, map[string]int{"ui.App": maxAppMethods})
}

// maxInternalMethods is the ceiling for a type in internal/: higher than
// ui/'s, since a store's methods are its queries.
const maxInternalMethods = 35

// internalBaseline are internal/'s types over the ceiling today, by the
// same rule as hubBaseline. None is left: library.Library's journal,
// inputs, trash, aside folders and thumbnails, session.Session's keys
// and the demo service's books became stores of their own (session 22).
var internalBaseline = map[string]int{}

func TestNoTypeInInternalIsAHub(t *testing.T) {
	checkHubs(t, "internal", maxInternalMethods, internalBaseline, nil)
}

// checkHubs counts the methods of every type under dir (a folder of the
// module), each role type folded into the type it wraps, and holds each
// to limit (or its own figure in special), or to its baseline figure,
// which may only go down.
func checkHubs(t *testing.T, dir string, limit int, baseline, special map[string]int) {
	t.Helper()
	counts := countMethods(t, dir)
	for name, n := range counts {
		most := limit
		if v, ok := special[name]; ok {
			most = v
		}
		if base, ok := baseline[name]; ok {
			if n < base {
				t.Errorf("%s has %d methods with its roles, under its baseline of %d: lower the baseline to %d", name, n, base, max(n, most))
			}
			most = max(most, base)
		}
		if n > most {
			t.Errorf("%s has %d methods with its roles (at most %d): split what it does into parts with state of their own", name, n, most)
		}
	}
	for name, base := range baseline {
		if _, ok := counts[name]; !ok {
			t.Errorf("the baseline names %s (%d), which has no methods now: remove it", name, base)
		}
	}
}

// countMethods is the number of methods of each type declared under dir
// outside tests, by package path and name, with the role types (type
// menus struct{ *App }, type observer struct{ a *App }) folded into the
// type they wrap, and the functions that take a type of their package
// first (func keepPrompt(a *App)) counted as its methods: a role or a
// hub-first function carries the whole hub, so what it does is the
// hub's. A part with state of its own beside a pointer back is its own
// type.
func countMethods(t *testing.T, dir string) map[string]int {
	t.Helper()
	counts := map[string]int{}
	// roles maps a role type to the type it wraps, both by package;
	// firsts counts the functions that take a type first (hubFirst), of
	// which those of a type the package declares are its methods.
	roles := map[string]string{}
	firsts, declared := map[string]int{}, map[string]bool{}
	err := filepath.WalkDir(filepath.Join("../..", dir), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			if err == nil && d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		pkg := strings.TrimPrefix(filepath.ToSlash(filepath.Dir(path)), "../../")
		for _, decl := range f.Decls {
			if gd, ok := decl.(*ast.GenDecl); ok {
				for _, spec := range gd.Specs {
					if ts, ok := spec.(*ast.TypeSpec); ok {
						declared[pkg+"."+ts.Name.Name] = true
						if wrapped, ok := wrapsOne(ts); ok {
							roles[pkg+"."+ts.Name.Name] = pkg + "." + wrapped
						}
					}
				}
			}
			fd, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			if fd.Recv == nil {
				// A function that takes a type of its package first is
				// one of that type's methods written another way.
				if first, ok := hubFirst(fd); ok {
					firsts[pkg+"."+first]++
				}
				continue
			}
			typ := fd.Recv.List[0].Type
			if star, ok := typ.(*ast.StarExpr); ok {
				typ = star.X
			}
			if id, ok := typ.(*ast.Ident); ok {
				counts[pkg+"."+id.Name]++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, n := range firsts {
		if declared[name] {
			counts[name] += n
		}
	}
	for role, hub := range roles {
		counts[hub] += counts[role]
		delete(counts, role)
	}
	return counts
}

// wrapsOne reports whether ts is a role type: a struct of one pointer
// to a type of its own package, embedded or named, and nothing else, and
// the type it wraps. A named field (type observer struct{ app *App })
// carries the whole hub as much as an embedded one.
func wrapsOne(ts *ast.TypeSpec) (string, bool) {
	st, ok := ts.Type.(*ast.StructType)
	if !ok || st.Fields == nil || len(st.Fields.List) != 1 || len(st.Fields.List[0].Names) > 1 {
		return "", false
	}
	star, ok := st.Fields.List[0].Type.(*ast.StarExpr)
	if !ok {
		return "", false
	}
	id, ok := star.X.(*ast.Ident)
	if !ok {
		return "", false
	}
	return id.Name, true
}

// hubFirst reports a function whose first parameter is a pointer to a
// type of its own package (func promptsOf(a *App, …)), and that type:
// a method of the hub in all but its receiver.
func hubFirst(fd *ast.FuncDecl) (string, bool) {
	params := fd.Type.Params
	if params == nil || len(params.List) == 0 {
		return "", false
	}
	star, ok := params.List[0].Type.(*ast.StarExpr)
	if !ok {
		return "", false
	}
	id, ok := star.X.(*ast.Ident)
	if !ok {
		return "", false
	}
	return id.Name, true
}
