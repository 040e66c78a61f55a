package trackcanvas

// WheelNotchUnits is how far one notch of a mouse wheel scrolls in a
// Fyne scroll event on macOS (its driver's scroll speed).
const WheelNotchUnits = 10
