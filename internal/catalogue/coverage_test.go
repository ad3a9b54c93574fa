package catalogue

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// translated are the folders whose every user-visible text goes through
// the catalogue; the test fails on a literal one of them shows without
// it. The other folders are still to be moved over (#28); a folder is
// added here once it is.
var translated = []string{
	"ui", "ui/chrome", "ui/jobview", "ui/room", "ui/generate", "ui/edit", "ui/chat", "ui/gallery",
	"ui/dialogs", "ui/imageform", "ui/kit", "ui/modelpick",
	"ui/widgets/barchart", "ui/widgets/transcript", "ui/widgets/maskpaint", "ui/widgets/compare",
	"ui/widgets/zoomview", "ui/widgets/thumbgrid", "ui/widgets/picture", "ui/widgets/reorder",
	"ui/widgets/composer", "ui/widgets/zoomarea",
	// The packages below show no widgets; what they say is returned as
	// text. Their sentences go through the catalogue by hand: api's
	// failure names, hints and pre-flight checks, honesty, session,
	// pricing and spend. Still to move (#28): the command line's own
	// lines (cli), library's and wording's causes, api's gateway
	// vocabulary and transport words, and the demo service's replies.
	"internal/api",
}

// shows are the calls whose string arguments a person reads.
var shows = map[string]bool{
	"NewLabel": true, "NewLabelWithStyle": true, "NewButton": true, "NewButtonWithIcon": true, "NewCheck": true,
	"NewFormItem": true, "NewAccordionItem": true, "NewTabItem": true, "NewTabItemWithIcon": true, "NewMenuItem": true,
	"NewMenu": true, "NewConfirm": true, "NewInformation": true, "ShowInformation": true, "NewCustom": true,
	"NewCustomConfirm": true, "NewCustomWithoutButtons": true, "NewForm": true, "HintLabel": true, "Heading": true,
	"FormItem": true, "PromptEntry": true, "SetText": true, "SetPlaceHolder": true, "SetConfirmText": true,
	"SetDismissText": true, "ShowResult": true, "SetTitle": true, "NewError": true, "status": true, "say": true,
	"NewSender": true, "NewList": true, "Format": true, "NewSelect": true, "NewRadioGroup": true,
}

// shownFields are the struct fields a person reads.
var shownFields = map[string]bool{"Text": true, "PlaceHolder": true, "Title": true, "HintText": true}

// sameInEveryLanguage are names a translation keeps as they are.
var sameInEveryLanguage = map[string]bool{"PNG": true, "JPEG": true, "WebP": true}

// visible reports a literal a person would read: one with a letter.
func visible(lit *ast.BasicLit) (string, bool) {
	if lit == nil || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	if err != nil || sameInEveryLanguage[s] {
		return "", false
	}
	return s, strings.IndexFunc(s, unicode.IsLetter) >= 0
}

// literal is e as a string literal, or the format of a fmt.Sprintf whose
// result is shown.
func literal(e ast.Expr) *ast.BasicLit {
	switch x := e.(type) {
	case *ast.BasicLit:
		return x
	case *ast.CallExpr:
		if sel, ok := x.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Sprintf" && len(x.Args) > 0 {
			if l, ok := x.Args[0].(*ast.BasicLit); ok {
				return l
			}
		}
	case *ast.BinaryExpr:
		if l := literal(x.X); l != nil {
			return l
		}
		return literal(x.Y)
	}
	return nil
}

func root(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// walkGo calls f on every non-test Go file under the folders.
func walkGo(t *testing.T, folders []string, f func(path string, file *ast.File, fset *token.FileSet)) {
	t.Helper()
	base := root(t)
	for _, folder := range folders {
		err := filepath.WalkDir(filepath.Join(base, folder), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && p != filepath.Join(base, folder) {
				return filepath.SkipDir // each folder is listed on its own
			}
			if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			fset := token.NewFileSet()
			file, err := parser.ParseFile(fset, p, nil, 0)
			if err != nil {
				return err
			}
			f(p, file, fset)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// Every text the translated folders show goes through the catalogue: a
// literal passed to a label, a button, a dialog or a status line fails
// the test, with where it is.
func TestEveryShownTextGoesThroughTheCatalogue(t *testing.T) {
	walkGo(t, translated, func(path string, file *ast.File, fset *token.FileSet) {
		report := func(lit *ast.BasicLit) {
			if s, ok := visible(lit); ok {
				t.Errorf("%s: %q is shown without the catalogue: wrap it in catalogue.T, F or N", fset.Position(lit.Pos()), s)
			}
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CallExpr:
				name := ""
				switch fn := x.Fun.(type) {
				case *ast.SelectorExpr:
					name = fn.Sel.Name
				case *ast.Ident:
					name = fn.Name
				}
				if shows[name] {
					for _, a := range x.Args {
						report(literal(a))
						if list, ok := a.(*ast.CompositeLit); ok { // options: []string{"Brush", …}
							for _, el := range list.Elts {
								report(literal(el))
							}
						}
					}
				}
			case *ast.KeyValueExpr:
				if k, ok := x.Key.(*ast.Ident); ok && shownFields[k.Name] {
					report(literal(x.Value))
				}
			case *ast.AssignStmt:
				for i, l := range x.Lhs {
					if sel, ok := l.(*ast.SelectorExpr); ok && shownFields[sel.Sel.Name] && i < len(x.Rhs) {
						report(literal(x.Rhs[i]))
					}
				}
			}
			return true
		})
	})
}

// spoken are the packages without widgets whose words a person reads:
// their errors, the sentences they return, the lines they print.
var spoken = []string{
	"internal/api", "internal/library", "internal/imageio", "internal/wording", "internal/cli",
	"internal/honesty", "internal/session", "internal/pricing", "internal/spend", "internal/conversations",
	"internal/config", "internal/export", "internal/secrets",
}

func init() { // the window's own errors too
	for _, f := range translated {
		if !slices.Contains(spoken, f) {
			spoken = append(spoken, f)
		}
	}
}

// phrase reports a literal that reads as words: two of them at least,
// with a space between (not a file name), and not SQL.
func phrase(s string) bool {
	if !strings.Contains(s, " ") {
		return false
	}
	for _, sql := range []string{"SELECT ", "INSERT ", "UPDATE ", "DELETE ", "CREATE ", "PRAGMA ", "ALTER ", "DROP "} {
		if strings.HasPrefix(strings.TrimSpace(s), sql) {
			return false
		}
	}
	for _, sql := range []string{" LIKE ?", "(SELECT ", " IN ("} { // a piece of a query built up
		if strings.Contains(s, sql) {
			return false
		}
	}
	words := 0
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' }) {
		if len([]rune(f)) >= 2 {
			words++
		}
	}
	return words >= 2
}

// Every error, returned sentence and printed line of the packages that
// speak without widgets goes through the catalogue: an errors.New,
// fmt.Errorf, returned or printed phrase fails the test, with where.
func TestEverySpokenSentenceGoesThroughTheCatalogue(t *testing.T) {
	walkGo(t, spoken, func(path string, file *ast.File, fset *token.FileSet) {
		report := func(e ast.Expr) {
			lit, ok := e.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return
			}
			if s, err := strconv.Unquote(lit.Value); err == nil && phrase(s) {
				t.Errorf("%s: %q is said without the catalogue", fset.Position(lit.Pos()), s)
			}
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.GenDecl:
				return x.Tok != token.VAR && x.Tok != token.CONST // package-level values: names, SQL, tables
			case *ast.CallExpr:
				if f, ok := x.Fun.(*ast.Ident); ok && len(spokenCalls[f.Name]) > 0 {
					for _, i := range spokenCalls[f.Name] {
						if i < len(x.Args) {
							reportAll(x.Args[i], report)
						}
					}
				}
				if sel, ok := x.Fun.(*ast.SelectorExpr); ok && len(x.Args) > 0 {
					switch sel.Sel.Name {
					case "New", "Errorf", "Sprintf":
						if pkg, ok := sel.X.(*ast.Ident); ok && (pkg.Name == "errors" || pkg.Name == "fmt") {
							report(x.Args[0])
						}
					case "Fprintf", "Fprintln", "Fprint":
						for _, a := range x.Args[1:] {
							report(a)
						}
					}
				}
			case *ast.ReturnStmt:
				for _, r := range x.Results {
					reportAll(r, report)
				}
			case *ast.AssignStmt:
				// e.Message = "…", e.Hint = "…" + cause: what an error
				// card or the command line prints of an api.Error.
				for i, l := range x.Lhs {
					if sel, ok := l.(*ast.SelectorExpr); ok && spokenFields[sel.Sel.Name] && i < len(x.Rhs) {
						reportAll(x.Rhs[i], report)
					}
				}
			case *ast.CompositeLit:
				if id, ok := x.Type.(*ast.Ident); ok && id.Name == "formatError" && len(x.Elts) > 0 {
					reportAll(x.Elts[0], report)
				}
			case *ast.KeyValueExpr:
				if k, ok := x.Key.(*ast.Ident); ok && spokenFields[k.Name] {
					reportAll(x.Value, report)
				}
			}
			return true
		})
	})
}

// spokenFields are the fields of an error a person reads (api.Error's
// Message and Hint): Easel's own words set there are said like the rest.
var spokenFields = map[string]bool{"Message": true, "Hint": true}

// spokenCalls are a package's own helpers whose arguments (by position)
// become an error's words: api's badResponse, preflight and formatError.
var spokenCalls = map[string][]int{"badResponse": {0}, "preflight": {2, 3}}

// reportAll reports e and every literal it is built from with +.
func reportAll(e ast.Expr, report func(ast.Expr)) {
	if b, ok := e.(*ast.BinaryExpr); ok && b.Op == token.ADD {
		reportAll(b.X, report)
		reportAll(b.Y, report)
		return
	}
	report(e)
}

// catalogueCalls are the English texts passed to T, F and N anywhere in
// the program, with where.
func catalogueCalls(t *testing.T) map[string]string {
	out := map[string]string{}
	var folders []string
	base := root(t)
	_ = filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			name := d.Name()
			if strings.HasPrefix(name, ".") || name == "testdata" || name == "dist" || name == "node_modules" {
				return filepath.SkipDir
			}
			rel, _ := filepath.Rel(base, p)
			folders = append(folders, rel)
		}
		return nil
	})
	walkGo(t, folders, func(path string, file *ast.File, fset *token.FileSet) {
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			var name string
			switch fn := call.Fun.(type) {
			case *ast.SelectorExpr:
				if pkg, ok := fn.X.(*ast.Ident); ok && pkg.Name == "catalogue" {
					name = fn.Sel.Name
				}
			case *ast.Ident: // inside this package (Duration)
				if file.Name.Name == "catalogue" {
					name = fn.Name
				}
			}
			if name != "T" && name != "F" && name != "N" {
				return true
			}
			if lit, ok := call.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				s, _ := strconv.Unquote(lit.Value)
				out[s] = fset.Position(lit.Pos()).String()
			} else {
				t.Errorf("%s: catalogue.%s takes a literal, so the tests can see every message", fset.Position(call.Pos()), name)
			}
			return true
		})
	})
	return out
}

// Every message the program asks for has its entry in English and in
// every other language, and no language has a message nobody asks for.
func TestEveryMessageIsInEveryLanguage(t *testing.T) {
	used := catalogueCalls(t)
	if len(used) == 0 {
		t.Fatal("no catalogue call found: the scan is broken")
	}
	for text, where := range used {
		for _, l := range Languages() {
			if !Has(l.Tag, text) {
				t.Errorf("%s: %q has no %s (%s) entry", where, text, l.Name, l.Tag)
			}
		}
	}
	for _, l := range Languages() {
		for _, k := range Keys(l.Tag) {
			if _, ok := used[k]; !ok {
				t.Errorf("%s has %q, which nothing asks for", l.Tag, k)
			}
		}
	}
	if os.Getenv("EASEL_CATALOGUE_LIST") != "" {
		for text := range used {
			t.Log(text)
		}
	}
}

// Every form of a message fills the same verbs as its key, in the same
// order: a plural's "one" form that drops the %d would print
// "%!(EXTRA int=1)" to the designer.
func TestEveryFormFillsTheKeysVerbs(t *testing.T) {
	// A verb fills the argument its [n] names, else the one after the
	// last filled; what matters is which argument gets which verb.
	verb := regexp.MustCompile(`%(\[([0-9]+)\])?[-+# 0]*[0-9]*(\.[0-9]+)?([a-zA-Z%])`)
	verbs := func(s string) string {
		var filled []string
		next := 1
		for _, m := range verb.FindAllStringSubmatch(s, -1) {
			if m[4] == "%" {
				continue
			}
			if m[2] != "" {
				next, _ = strconv.Atoi(m[2])
			}
			filled = append(filled, fmt.Sprintf("%d:%s", next, m[4]))
			next++
		}
		slices.Sort(filled)
		return strings.Join(filled, " ")
	}
	for tag, data := range Files() {
		var entries map[string]json.RawMessage
		if err := json.Unmarshal(data, &entries); err != nil {
			t.Fatal(err)
		}
		for key, raw := range entries {
			if strings.HasPrefix(key, "@") {
				continue
			}
			var forms map[string]string
			if json.Unmarshal(raw, &forms) != nil {
				var one string
				if err := json.Unmarshal(raw, &one); err != nil {
					t.Fatalf("%s: %q is neither text nor plural forms", tag, key)
				}
				forms = map[string]string{"text": one}
			}
			for form, text := range forms {
				if verbs(text) != verbs(key) {
					t.Errorf("%s: %q (%s) is %q: it fills %q, the key %q", tag, key, form, text, verbs(text), verbs(key))
				}
			}
		}
	}
}
