// Package oletarget is a Windows window that takes dropped files the way
// Explorer and a browser do (an OLE drop target reading CF_HDROP), for the
// tests of dragging files out of Easel: oledrag's own test drops on one
// in its process, and e2e/wintarget puts one in a process of its own for
// the real window to drop on. It is empty on other systems.
package oletarget
