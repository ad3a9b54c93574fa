package room

import (
	"easel/internal/api"
	"easel/internal/jobs"
	"easel/ui/modelpick"
)

// SubmitImageJob is the send a tab's button makes, without the question
// about refused values (which needs a form to put the nearest in), for
// the tests of the plan's other questions.
func SubmitImageJob(h SendHost, model *modelpick.Picker, opts *api.ImageOptions, req jobs.Request, status func(string)) {
	submitAsked(h, model, opts, req, status, nil)
}
