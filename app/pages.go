package app

import (
	"fmt"
	"path/filepath"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/hecscope/hecscope/app/kit"
	"github.com/hecscope/hecscope/app/loaded"
	"github.com/hecscope/hecscope/app/trackcanvas"
)

// newStartPage builds the page shown when no file is open: the icon, an
// Open button, and the recent files, each a button that opens it.
func newStartPage(recent []string, choose func(), open func(path string)) fyne.CanvasObject {
	icon := canvas.NewImageFromResource(Icon)
	icon.FillMode = canvas.ImageFillContain
	icon.SetMinSize(fyne.NewSize(96, 96))

	title := widget.NewLabelWithStyle(Name, fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	title.SizeName = theme.SizeNameHeadingText
	tagline := widget.NewLabelWithStyle("A viewer for GHC eventlogs and heap profiles", fyne.TextAlignCenter, fyne.TextStyle{})

	openButton := widget.NewButtonWithIcon("Open…", theme.FolderOpenIcon(), choose)
	openButton.Importance = widget.HighImportance
	hint := widget.NewLabelWithStyle("or drop a .eventlog or .hp file onto this window", fyne.TextAlignCenter, fyne.TextStyle{Italic: true})
	hint.Importance = widget.LowImportance

	heading := widget.NewLabelWithStyle("Recent files", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	list := container.NewVBox()
	if len(recent) == 0 {
		none := widget.NewLabel("No recent files yet.")
		none.Importance = widget.LowImportance
		list.Add(none)
	}
	for _, p := range recent {
		b := widget.NewButtonWithIcon(filepath.Base(p)+"   "+filepath.Dir(p), theme.FileIcon(), func() { open(p) })
		b.Alignment = widget.ButtonAlignLeading
		b.Importance = widget.LowImportance
		list.Add(b)
	}

	column := container.NewVBox(
		container.NewCenter(icon), title, tagline,
		container.NewCenter(openButton), hint,
		widget.NewSeparator(), heading, list,
	)
	return container.NewVScroll(newColumn(column))
}

// loadingView shows a file being read: a progress bar with bytes read and
// the decoding rate, and the timeline of what has been read so far.
type loadingView struct {
	root    fyne.CanvasObject
	bar     *widget.ProgressBar
	detail  *widget.Label
	picture *trackcanvas.Picture
}

// newLoadingView shows the progress of loading path; segment, if not "",
// says which eventlog of it ("segment 2 of 4").
func newLoadingView(path, segment string) *loadingView {
	v := &loadingView{bar: widget.NewProgressBar(), detail: widget.NewLabel("Opening…"), picture: trackcanvas.NewPicture(nil)}
	v.detail.Alignment = fyne.TextAlignCenter
	what := filepath.Base(path)
	if segment != "" {
		what += ", " + segment
	}
	title := widget.NewLabelWithStyle("Loading "+what, fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	where := widget.NewLabelWithStyle(filepath.Dir(path), fyne.TextAlignCenter, fyne.TextStyle{})
	where.Importance = widget.LowImportance
	where.Truncation = fyne.TextTruncateEllipsis
	box := container.NewVBox(title, where, v.bar, v.detail)
	v.picture.Raster.Hide()
	top := newColumn(box)
	v.root = container.NewBorder(top, nil, nil, nil, v.picture.Raster)
	return v
}

func (v *loadingView) update(p loaded.Progress) {
	v.bar.SetValue(p.Fraction())
	v.detail.SetText(p.String())
	// The loaded log's own model (no longer growing) comes with the last
	// report, just before the view that shows it replaces this page:
	// drawing it here too cost the indexing of all its threads and spans
	// once more, at the load's peak. The last preview stays until then.
	if p.Model != nil && !p.Model.Growing {
		return
	}
	if r := trackcanvas.TimelineRender(p.Model); r != nil {
		v.picture.Set(r)
		v.picture.Raster.Show()
	}
}

// newErrorPage shows why a file could not be opened, with ways on.
func newErrorPage(err error, retry, choose func()) fyne.CanvasObject {
	icon := widget.NewIcon(theme.ErrorIcon())
	msg := widget.NewLabel(err.Error())
	msg.Wrapping = fyne.TextWrapWord
	msg.Alignment = fyne.TextAlignCenter
	buttons := container.NewCenter(container.NewHBox(
		widget.NewButtonWithIcon("Try Again", theme.ViewRefreshIcon(), retry),
		widget.NewButtonWithIcon("Open Another…", theme.FolderOpenIcon(), choose),
	))
	box := container.NewVBox(container.NewCenter(icon), msg, buttons)
	return container.NewCenter(newColumn(box))
}

// columnWidth is the width of the column of a page (start, loading, error)
// when the window is wider.
const columnWidth = 560

// newColumn centres o in a column columnWidth wide, or as wide as there is
// room for: unlike a fixed-size wrapper, it does not ask the window for
// more than o's own minimum size.
func newColumn(o fyne.CanvasObject) *fyne.Container {
	return container.New(columnLayout{}, o)
}

// columnLayout lays its objects out in a centred column (see newColumn).
type columnLayout struct{}

func (columnLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objects {
		m := o.MinSize()
		width := max(m.Width, min(size.Width, columnWidth))
		o.Resize(fyne.NewSize(width, m.Height))
		o.Move(fyne.NewPos((size.Width-width)/2, 0))
	}
}

func (columnLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objects {
		s = s.Max(o.MinSize())
	}
	return s
}

// showAbout shows the About dialog.
func showAbout(parent fyne.Window) {
	icon := canvas.NewImageFromResource(Icon)
	icon.FillMode = canvas.ImageFillContain
	icon.SetMinSize(fyne.NewSize(64, 64))
	text := widget.NewLabel(fmt.Sprintf("%s %s\nA viewer for GHC eventlogs.", Name, Version))
	text.Alignment = fyne.TextAlignCenter
	dialog.ShowCustom("About "+Name, "Close", container.NewVBox(container.NewCenter(icon), text), parent)
}

// newNotice is a banner that says what is wrong with a file, in the theme's
// warning colour so it reads on light and dark backgrounds alike. Its close
// button hides it, then calls closed (if not nil), which lays out again
// what holds it, so that what lies below takes its room.
func newNotice(text string, closed func()) *fyne.Container {
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameWarning))
	bg.CornerRadius = theme.InputRadiusSize()
	bg.FillColor = kit.WithAlpha(theme.Color(theme.ColorNameWarning), 0x40)
	bg.StrokeColor = theme.Color(theme.ColorNameWarning)
	bg.StrokeWidth = 1
	icon := widget.NewIcon(theme.WarningIcon())
	label := widget.NewLabel(text)
	label.Wrapping = fyne.TextWrapWord
	n := container.NewStack(bg)
	dismiss := widget.NewButtonWithIcon("", theme.CancelIcon(), func() {
		n.Hide()
		if closed != nil {
			closed()
		}
	})
	dismiss.Importance = widget.LowImportance
	n.Add(container.NewBorder(nil, nil, container.NewPadded(icon), container.NewCenter(dismiss), label))
	return n
}
