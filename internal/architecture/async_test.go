package architecture

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxGoInUI is how many go statements ui/ may hold outside its tests:
// the window starts its work through its scope (internal/work, via the
// hosts' Go), on a context that ends when the window closes. What is
// left is not a load: the window's own start, the signal watch, a drag's
// end, a memory release, a preview producer and a test host's loop.
const maxGoInUI = 10

// inspectUI walks every node of ui/'s product code (its tests aside),
// each with the file set that places it.
func inspectUI(t *testing.T, visit func(fset *token.FileSet, n ast.Node) bool) {
	t.Helper()
	err := filepath.WalkDir("../../ui", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool { return visit(fset, n) })
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestUIStartsWorkOneWay(t *testing.T) {
	goStmts := 0
	var where []string
	inspectUI(t, func(fset *token.FileSet, n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			goStmts++
			where = append(where, fset.Position(n.Pos()).String())
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok && id.Name == "context" && n.Sel.Name == "Background" {
				t.Errorf("%s: context.Background() in ui/: use the host's Context (the window's) or the task's", fset.Position(n.Pos()))
			}
		}
		return true
	})
	if goStmts > maxGoInUI {
		t.Errorf("%d go statements in ui/ (at most %d): start work with the host's Go\n%s", goStmts, maxGoInUI, strings.Join(where, "\n"))
	}
}

// maxHandLoadsInUI is how many tasks ui/ may start by hand on its scope
// (Work().Go) outside its tests: a load and the widgets it fills are
// work.Load, a write and its ending work.Run, and a load where only the
// newest counts latest.Run. What is left is work of another shape: a
// send that asks its questions as it goes, the budget's question, the
// Edit session's timed save and its read, a drop that shows each file
// as it is ready, a chat reply, a connection test and its listing, an
// export with its progress, a picker filling its thumbnails.
const maxHandLoadsInUI = 10

func TestUIWritesLoadsOnce(t *testing.T) {
	var where []string
	inspectUI(t, func(fset *token.FileSet, n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Go" {
			return true
		}
		if inner, ok := sel.X.(*ast.CallExpr); ok {
			if w, ok := inner.Fun.(*ast.SelectorExpr); ok && w.Sel.Name == "Work" {
				where = append(where, fset.Position(call.Pos()).String())
			}
		}
		return true
	})
	if len(where) > maxHandLoadsInUI {
		t.Errorf("%d tasks started by hand in ui/ (at most %d): a load is work.Load, a write work.Run\n%s", len(where), maxHandLoadsInUI, strings.Join(where, "\n"))
	}
}
