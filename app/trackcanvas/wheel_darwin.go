package trackcanvas

// wheelNotchUnits is how far one notch of a mouse wheel scrolls in a
// Fyne scroll event on macOS (its driver's scroll speed).
const wheelNotchUnits = 10
