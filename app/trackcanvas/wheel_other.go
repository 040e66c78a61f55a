//go:build !darwin

package trackcanvas

// wheelNotchUnits is how far one notch of a mouse wheel scrolls in a
// Fyne scroll event on Linux, the BSDs and Windows (its driver's scroll
// speed).
const wheelNotchUnits = 25
