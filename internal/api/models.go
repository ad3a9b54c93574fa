package api

import (
	"context"
	"net/http"
	"sort"
	"time"

	"github.com/tidwall/gjson"
)

// Models lists the model ids the service offers to this key, sorted.
func (c *Client) Models(ctx context.Context) ([]Model, error) {
	resp, rctx, cancel, err := c.call(ctx, http.MethodGet, "models", nil, "", c.cfg.FirstByteTimeout, c.cfg.FirstByteTimeout)
	if err != nil {
		return nil, err
	}
	defer cancel()
	defer resp.Body.Close()
	body, err := readBody(resp.Body, resp.ContentLength, c.cfg.MaxResponse)
	if err != nil {
		return nil, c.readErr(rctx, err, "")
	}
	if !gjson.ValidBytes(body) {
		return nil, badResponse("the model list is not complete JSON", nil, resp.Header)
	}
	data := gjson.GetBytes(body, "data")
	if !data.IsArray() {
		return nil, badResponse("the answer holds no model list", nil, resp.Header)
	}
	var out []Model
	for _, m := range data.Array() {
		id := m.Get("id").String()
		if id == "" {
			continue
		}
		model := Model{ID: id, OwnedBy: m.Get("owned_by").String(), Created: time.Unix(m.Get("created").Int(), 0)}
		for _, t := range m.Get("supported_endpoint_types").Array() {
			model.EndpointTypes = append(model.EndpointTypes, t.String())
		}
		out = append(out, model)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// ModelIDs is the ids of ms.
func ModelIDs(ms []Model) []string {
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	return ids
}
