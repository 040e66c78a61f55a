// Package paint is hecscope's one small drawing package: the formatters of
// times, durations, bytes, counts and rates; the one font stack (Go
// Regular and Go Bold faces by point size and scale, measured and drawn at
// device pixels, fitted with an ellipsis); the palette (one name and one
// colour per state, event and heap line, band colours kept away from them,
// light and dark theme furniture); and Canvas, the drawing surface with a
// raster backend (image.RGBA) and an SVG backend, so that a picture
// exported as PNG and as SVG comes from the same drawing code.
//
// paint depends on nothing else in hecscope: models and views import it.
package paint
