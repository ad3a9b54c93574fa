package architecture

import (
	"go/ast"
	"go/token"
	"strings"
	"testing"
)

// maxFuncFieldsInUI is the most func-typed fields ui/'s structs may hold,
// widget callbacks in Fyne's OnX style aside. Bundles of closures over a
// hub (hostVerbs, windowVerbs: 20 between them) hid what a part reached;
// a part gets the narrow interface it uses, or the part that owns the
// state. 140 at the review of #58, 118 before session 31, 63 after; it
// may only go down.
const maxFuncFieldsInUI = 63

func TestUIPartsAreNotClosureBundles(t *testing.T) {
	var where []string
	inspectUI(t, func(fset *token.FileSet, n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok {
			return true
		}
		st, ok := ts.Type.(*ast.StructType)
		if !ok {
			return true
		}
		for _, field := range st.Fields.List {
			if _, ok := field.Type.(*ast.FuncType); !ok {
				continue
			}
			if len(field.Names) == 0 {
				where = append(where, fset.Position(field.Pos()).String()+" "+ts.Name.Name)
			}
			for _, name := range field.Names {
				if !strings.HasPrefix(name.Name, "On") {
					where = append(where, fset.Position(name.Pos()).String()+" "+ts.Name.Name+"."+name.Name)
				}
			}
		}
		return true
	})
	if len(where) > maxFuncFieldsInUI {
		t.Errorf("%d func-typed fields in ui/'s structs (at most %d): give a part the interface it uses, not closures over a hub\n%s",
			len(where), maxFuncFieldsInUI, strings.Join(where, "\n"))
	}
}
