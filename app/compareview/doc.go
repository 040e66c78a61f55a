// Package compareview is the compare window: two runs loaded side by side
// (Window), their pictures drawn on one time scale with linked zoom and
// pan, the alignment chooser (at start, a marker, a span, an offset), the
// tooltip read from the picture, and the table of differences. The app
// opens one through Open with a Host, which gives it its Fyne window and
// says which file chooser to use.
package compareview
