#!/usr/bin/python3
"""A real X11 drop target (GTK3) taking files as text/uri-list, as a file
manager or a browser's upload field does.

Usage: droptarget.py ; shows a 200x200 window at (0,0) titled droptarget
and prints each URI dropped on it, one per line, then "dropped".
"""
import gi
gi.require_version("Gtk", "3.0")
from gi.repository import Gtk, Gdk

w = Gtk.Window(title="droptarget")
w.move(0, 0)
w.set_default_size(200, 200)
area = Gtk.Label(label="drop here")
area.drag_dest_set(Gtk.DestDefaults.ALL, [], Gdk.DragAction.COPY)
area.drag_dest_add_uri_targets()
def on_data(widget, ctx, x, y, data, info, time):
    for u in data.get_uris():
        print(u, flush=True)
    print("dropped", flush=True)
area.connect("drag-data-received", on_data)
w.add(area)
w.connect("destroy", Gtk.main_quit)
w.show_all()
Gtk.main()
