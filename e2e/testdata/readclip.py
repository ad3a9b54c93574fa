#!/usr/bin/python3
# Prints the width and height of the image on the CLIPBOARD selection, as
# another app pasting it would read it (GTK), or "none".
import gi
gi.require_version("Gtk", "3.0")
from gi.repository import Gtk, Gdk

pix = Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD).wait_for_image()
print("none" if pix is None else "%d %d" % (pix.get_width(), pix.get_height()))
