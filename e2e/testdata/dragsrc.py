#!/usr/bin/python3
# Copied from the workplace tools (../shared/tools/dragsrc.py) so that the
# repository alone runs its tests; e2e/drop_test.go drags from it.
"""A real X11 drag source (GTK3) offering files as text/uri-list.

Usage: dragsrc.py FILE... ; shows a 200x200 window at (0,0); drag from its
centre with xdotool to drop the files onto another window.
"""
import sys, pathlib
import gi
gi.require_version("Gtk", "3.0")
from gi.repository import Gtk, Gdk

uris = [pathlib.Path(p).resolve().as_uri() for p in sys.argv[1:]]
w = Gtk.Window(title="dragsrc")
w.move(0, 0)
w.set_default_size(200, 200)
b = Gtk.Button(label="drag me")
b.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, [], Gdk.DragAction.COPY)
b.drag_source_add_uri_targets()
def on_get(widget, ctx, data, info, time):
    data.set_uris(uris)
b.connect("drag-data-get", on_get)
b.connect("drag-end", lambda *a: print("drag-end", flush=True))
w.add(b)
w.connect("destroy", Gtk.main_quit)
w.show_all()
Gtk.main()
