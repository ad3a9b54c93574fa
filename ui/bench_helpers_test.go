package ui

import (
	"image"

	"github.com/disintegration/imaging"

	"easel/internal/library"
)

// resizeFloor is the plain resize a thumbnail is compared with.
func resizeFloor(src image.Image) image.Image {
	return imaging.Fit(src, library.ThumbSize, library.ThumbSize, imaging.Linear)
}
