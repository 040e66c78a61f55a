package app

import (
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/paint"
)

// TestPicturesFollowTheme: under a light theme the window's timeline is
// drawn on the light palette, under a dark theme on the dark one, and
// switching the theme redraws it.
func TestPicturesFollowTheme(t *testing.T) {
	w, v, _ := openNav(t, parworkN2)
	for _, c := range []struct {
		variant fyne.ThemeVariant
		dark    bool
	}{{theme.VariantLight, false}, {theme.VariantDark, true}, {theme.VariantLight, false}} {
		fyne.CurrentApp().Settings().SetTheme(variantTheme{theme.DefaultTheme(), c.variant})
		if kit.DarkTheme() != c.dark {
			t.Fatalf("dark %v: darkTheme() = %v", c.dark, kit.DarkTheme())
		}
		img := canvasPicture(t, w, v)
		pal := paint.ThemeFor(c.dark)
		b := img.Bounds()
		at := func(x, y int) color.RGBA { return color.RGBAModel.Convert(img.At(x, y)).(color.RGBA) }
		if got := at(b.Min.X+20, b.Min.Y+8); got != pal.Header && got != pal.Background {
			t.Fatalf("dark %v: the timeline's background is %v, want %v", c.dark, got, pal.Background)
		}
		rules := 0 // pixels of the rules between rows, drawn in this palette's colour
		for y := b.Min.Y; y < b.Max.Y; y++ {
			if at(b.Min.X+60, y) == pal.Rule {
				rules++
			}
		}
		if rules == 0 {
			t.Fatalf("dark %v: no row rule of colour %v", c.dark, pal.Rule)
		}
	}
}
