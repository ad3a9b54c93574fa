package ui

import (
	"reflect"
	"testing"

	"easel/ui/board"
	"easel/ui/chat"
	"easel/ui/edit"
	"easel/ui/gallery"
	"easel/ui/generate"
)

// maxHostMethods bounds what a tab may ask of the window: each declares
// the few methods it needs (room.SendHost is the largest, 12), never the
// whole window.
const maxHostMethods = 13

func TestEachTabDeclaresTheFewMethodsItNeeds(t *testing.T) {
	whole := reflect.TypeOf(&host{}).NumMethod()
	for name, constructor := range map[string]any{
		"Text to image": generate.New, "Edit": edit.New, "Gallery": gallery.New, "Chat": chat.New,
		"the comparison board": board.Open, "the batch board": board.OpenBatch,
	} {
		in := reflect.TypeOf(constructor).In(0)
		if in.Kind() != reflect.Interface {
			t.Errorf("%s takes a %s, not an interface of what it needs", name, in)
			continue
		}
		t.Logf("%s: %s, %d of the window's %d methods", name, in, in.NumMethod(), whole)
		if n := in.NumMethod(); n > maxHostMethods {
			t.Errorf("%s's host %s has %d methods of the window's %d (at most %d)", name, in, n, whole, maxHostMethods)
		}
	}
}
