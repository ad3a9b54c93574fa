// Package storetest reads and writes the system's key store the way
// another program would, not through go-keyring: the keyring tests (tag
// keyring) use it to prove that a key Easel saves is really in the
// system's store, and that one saved there by hand is found. Each
// platform's file names the tool it goes through.
package storetest
