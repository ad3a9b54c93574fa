//go:build race

package quarantine

// raceBuild: the race detector's runtime maps its shadow memory as the
// heap grows, and cannot under an address-space limit ("too many
// address space collisions"). A race-built child (the tests' easel)
// keeps its processor limit and the parent's wait, not the memory bound.
const raceBuild = true
