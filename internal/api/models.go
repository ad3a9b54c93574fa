package api

import (
	"context"
	"net/http"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"easel/internal/capability"
	"easel/internal/catalogue"
)

// Models lists the model ids the service offers to this key, sorted.
func (c *Client) Models(ctx context.Context) (out []Model, err error) {
	defer func() {
		fitTimeout(err, "models", false)
		fitTooLong(err, "models")
		err = c.scrub.err(err)
	}()
	body, header, err := c.jsonAnswer(ctx, request{method: http.MethodGet, path: "models", firstByte: c.cfg.FirstByteTimeout},
		c.limitFor("models"), catalogue.T("the model list is not complete JSON"))
	if err != nil {
		return nil, err
	}
	data := gjson.GetBytes(body, "data")
	if !data.IsArray() {
		return nil, badResponse(catalogue.T("the answer holds no model list"), nil, header)
	}
	for _, m := range data.Array() {
		// A name is shown and sent back as it is: cleaned of anything a
		// terminal or the eye would take for something else.
		id := c.scrub.line(m.Get("id").String())
		if id == "" {
			continue
		}
		model := Model{ID: id, OwnedBy: c.scrub.line(m.Get("owned_by").String()), Created: time.Unix(m.Get("created").Int(), 0)}
		for _, t := range m.Get("supported_endpoint_types").Array() {
			model.EndpointTypes = append(model.EndpointTypes, Clean(t.String(), false))
		}
		out = append(out, model)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// WithServed is ms with the image models of served it does not list
// added, sorted: models that answered though the service does not list
// them (gateways' lists lag new models by days).
func WithServed(ms []Model, served []string) []Model {
	out := slices.Clone(ms)
	for _, id := range served {
		if !slices.ContainsFunc(out, func(m Model) bool { return m.ID == id }) {
			out = append(out, Model{ID: id, EndpointTypes: []string{EndpointImages}})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// ModelIDs is the ids of ms.
func ModelIDs(ms []Model) []string {
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	return ids
}

// Endpoint types, as gateways list them in supported_endpoint_types, that
// Easel's pickers filter by.
const (
	EndpointImages = "image-generation"
	EndpointChat   = "openai"
)

// ModelsFor is the ids of the models that serve endpoint. Gateways'
// lists are unreliable (new-api starts with every list empty, and later
// lists image models as also "openai"), so an image model never counts as
// a chat model: "image-generation" wins over anything else listed, and a
// model with no list is judged by its name for chat (ImageModelName).
// A model with no list may be an image model under any name, so the
// image picker keeps it.
func ModelsFor(ms []Model, endpoint string) []string {
	var out []string
	for _, m := range ms {
		if servesEndpoint(m, endpoint) {
			out = append(out, m.ID)
		}
	}
	return out
}

func servesEndpoint(m Model, endpoint string) bool {
	images := slices.Contains(m.EndpointTypes, EndpointImages)
	switch {
	case endpoint == EndpointChat && (images || len(m.EndpointTypes) == 0 && ImageModelName(m.ID)):
		return false
	case len(m.EndpointTypes) == 0:
		return true
	}
	return slices.Contains(m.EndpointTypes, endpoint)
}

// imageFamilies are the prefixes of the image models' names that
// gateways list: OpenAI's and the others resold beside them.
var imageFamilies = []string{"gpt-image", "chatgpt-image", "dall-e", "flux", "midjourney", "mj_", "stable-diffusion", "sd3", "sdxl", "imagen", "seedream", "kolors", "cogview", "wanx", "recraft", "ideogram"}

// ImageModelName reports whether id names an image model, by its family.
func ImageModelName(id string) bool {
	id = strings.ToLower(id)
	if i := strings.LastIndexByte(id, '/'); i >= 0 { // "openai/gpt-image-1"
		id = id[i+1:]
	}
	for _, f := range imageFamilies {
		if strings.HasPrefix(id, f) {
			return true
		}
	}
	return false
}

// Edits reports whether model can edit images, as its capability sheet
// says (dall-e-3 cannot). A model without a sheet (a gateway's own) is
// given the benefit of the doubt.
func Edits(model string) bool {
	s, ok := capability.Lookup(model)
	return !ok || s.Serves("edits")
}

// LinksByDefault reports whether model answers with links unless asked
// for b64_json: the dall-e models do; the GPT image models always send
// images inline.
func LinksByDefault(model string) bool {
	return strings.HasPrefix(strings.ToLower(model), "dall-e")
}
