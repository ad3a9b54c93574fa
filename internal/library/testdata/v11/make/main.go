// Throwaway: makes the v11 library fixture with the code at the commit its README names.
package main

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"database/sql"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math/big"
	"os"
	"path/filepath"
	"time"

	"github.com/chai2010/webp"
	_ "modernc.org/sqlite"

	"easel/internal/api"
	"easel/internal/c2pa"
	"easel/internal/conversations"
	"easel/internal/honesty"
	"easel/internal/library"
)

func pic(w, h int, c color.NRGBA) image.Image {
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			cc := c
			cc.R += uint8(x * 2)
			cc.G += uint8(y * 2)
			if c.A < 255 && x < w/2 {
				cc.A = 0
			}
			m.Set(x, y, cc)
		}
	}
	return m
}

func enc(format string, m image.Image) api.Image {
	var buf bytes.Buffer
	switch format {
	case "png":
		png.Encode(&buf, m)
	case "jpeg":
		jpeg.Encode(&buf, m, &jpeg.Options{Quality: 80})
	case "webp":
		webp.Encode(&buf, m, &webp.Options{Quality: 80})
	}
	b := m.Bounds()
	return api.Image{Data: buf.Bytes(), Format: format, Width: b.Dx(), Height: b.Dy()}
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

func main() {
	dir := os.Args[1]
	l, err := library.Open(dir)
	must(err)
	ctx := context.Background()
	c80 := 80
	t0 := time.Date(2026, 10, 2, 9, 30, 0, 0, time.UTC)
	opts := api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024", Quality: "high", Background: "transparent", OutputFormat: "png", N: 2, Stream: true, PartialImages: 2}
	u := &api.Usage{InputTokens: 50, OutputTokens: 4160, TotalTokens: 4210}
	id1, err := l.Add(ctx, library.NewItem{Image: enc("png", pic(64, 64, color.NRGBA{10, 60, 200, 128})), Kind: "generate",
		Prompt: "a lighthouse at dusk, watercolour — soft light", Model: "gpt-image-1", Profile: "p-0a1b2c3d4e5f",
		Params: library.Params{ImageOptions: opts}, Usage: u, Created: t0, Duration: 41 * time.Second, JobID: "job-1", RequestID: "req_abc123"})
	must(err)
	// Schema 6: what the answer did of what was asked.
	report := honesty.Report{Checks: []honesty.Check{{Trait: honesty.Stream, Honoured: false, Asked: "yes", Got: "no"}, {Trait: honesty.Count, Honoured: false, Asked: "2", Got: "1"}}}
	id2, err := l.Add(ctx, library.NewItem{Image: enc("png", pic(64, 64, color.NRGBA{200, 60, 10, 255})), Kind: "generate",
		Prompt: "a lighthouse at dusk, watercolour — soft light", Model: "gpt-image-1", Profile: "p-0a1b2c3d4e5f",
		Params: library.Params{ImageOptions: opts}, Usage: u, Created: t0, Duration: 41 * time.Second, JobID: "job-1", RequestID: "req_abc123", Honesty: report})
	must(err)
	must(l.Memory().Learn(ctx, library.ServiceKey{Profile: "p-0a1b2c3d4e5f", Group: "vip", Model: "gpt-image-1", Endpoint: library.EndpointGenerate}, report.Checks, t0))
	// Schema 7: what the first job cost, tied to its images; a failed
	// request counted at its estimate; a balance and a service without.
	cost, low, high := 0.3328, 0.0218, 0.3328
	entry, err := l.Ledger().Record(ctx, library.Entry{At: t0, Profile: "p-0a1b2c3d4e5f", Model: "gpt-image-1", Kind: library.SpendGenerate, Outcome: library.Billed,
		Job: "job-1", Options: []byte(`{"Model":"gpt-image-1","N":2}`), Usage: u, Images: 2, EstimateLow: &low, EstimateHigh: &high, Cost: &cost, Currency: "USD"})
	must(err)
	must(l.Ledger().AttachItems(ctx, entry, []int64{id1, id2}))
	_, err = l.Ledger().Record(ctx, library.Entry{At: t0.Add(time.Hour), Profile: "p-99887766aabb", Model: "gpt-4.1", Kind: library.SpendChat, Outcome: library.Failed,
		EstimateLow: &low, EstimateHigh: &high, Currency: "CNY"})
	must(err)
	must(l.Ledger().SetBalance(ctx, "p-0a1b2c3d4e5f", "", library.Balance{Reported: true, Credit: 25, Used: 3.5, Checked: t0}))
	must(l.Ledger().SetBalance(ctx, "p-99887766aabb", "", library.Balance{Reported: false, Checked: t0}))
	// Schema 10: a request on a key of group "vip" priced at the gateway's
	// own figures, and one that may have been billed, with its note.
	gw := 0.1664
	_, err = l.Ledger().Record(ctx, library.Entry{At: t0.Add(3 * time.Hour), Profile: "p-0a1b2c3d4e5f", Model: "gpt-image-1", Kind: library.SpendGenerate,
		Outcome: library.Billed, Job: "job-vip", Images: 1, Cost: &gw, Currency: "USD", Group: "vip", Source: library.SourceGateway})
	must(err)
	_, err = l.Ledger().Record(ctx, library.Entry{At: t0.Add(4 * time.Hour), Profile: "p-0a1b2c3d4e5f", Model: "gpt-image-1", Kind: library.SpendGenerate,
		Outcome: library.Cancelled, Job: "job-maybe", EstimateLow: &low, EstimateHigh: &high, Currency: "USD", Group: "vip",
		Billing: library.MaybeBilled, Note: "the answer reported a usage no request could make"})
	must(err)
	must(l.Begin(ctx, library.Journalled{Job: "job-cut", Profile: "p-0a1b2c3d4e5f", Started: t0.Add(5 * time.Hour),
		Generate: &api.GenerateRequest{Prompt: "a harbour at dawn, cut off by a kill", ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1536x1024", Quality: "medium"}}}))
	must(err)
	o3 := api.ImageOptions{Model: "dall-e-3", Size: "1792x1024", Quality: "hd", OutputFormat: "jpeg", OutputCompression: &c80, ResponseFormat: "b64_json"}
	img3 := enc("jpeg", pic(96, 54, color.NRGBA{30, 140, 90, 255}))
	img3.RevisedPrompt = "A detailed photograph of a red fox sitting in fresh snow."
	id3, err := l.Add(ctx, library.NewItem{Image: img3, Kind: "generate", Prompt: "fox in snow", Model: "dall-e-3", Profile: "p-99887766aabb",
		Params: library.Params{ImageOptions: o3}, Created: t0.Add(time.Hour), Duration: 12 * time.Second, JobID: "job-2", RequestID: "req_def"})
	must(err)
	o4 := api.ImageOptions{Model: "gpt-image-1", Size: "auto", Quality: "medium", OutputFormat: "webp", OutputCompression: &c80, Moderation: "low"}
	id4, err := l.Add(ctx, library.NewItem{Image: enc("webp", pic(48, 80, color.NRGBA{120, 20, 160, 255})), Kind: "edit",
		Prompt: "put the fox from the second image beside the lighthouse in the first", Model: "gpt-image-1", Profile: "p-0a1b2c3d4e5f",
		Params: library.Params{ImageOptions: o4, InputFidelity: "high", HasMask: true}, Usage: &api.Usage{InputTokens: 700, OutputTokens: 1000, TotalTokens: 1700},
		Created: t0.Add(2 * time.Hour), Duration: 63 * time.Second, JobID: "job-3", RequestID: "req_ghi", Parents: []int64{id1, id3}})
	must(err)
	id5, err := l.Add(ctx, library.NewItem{Image: enc("png", pic(80, 48, color.NRGBA{250, 200, 0, 255})), Kind: "edit",
		Prompt: "make it night", Model: "gpt-image-1", Profile: "p-0a1b2c3d4e5f",
		Params: library.Params{ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1536x1024"}}, Created: t0.Add(3 * time.Hour), JobID: "job-4", Parents: []int64{id4}})
	must(err)
	// Schema 3: an edit made from two inputs and a mask, stored by
	// content, and its kept twin made from the same files.
	room, chair, msk := enc("png", pic(40, 30, color.NRGBA{200, 180, 160, 255})), enc("jpeg", pic(20, 20, color.NRGBA{150, 30, 30, 255})), enc("png", pic(40, 30, color.NRGBA{0, 0, 0, 128}))
	ins := []library.Input{{Name: "room.png", Data: room.Data}, {Name: "chair.jpg", Data: chair.Data}}
	m := &library.Input{Name: "mask.png", Data: msk.Data}
	id6, err := l.Add(ctx, library.NewItem{Image: enc("png", pic(40, 30, color.NRGBA{190, 170, 150, 255})), Kind: "edit",
		Prompt: "the chair from the second image in the first", Model: "gpt-image-1", Profile: "p-0a1b2c3d4e5f",
		Params:  library.Params{ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1536x1024"}, InputFidelity: "high", HasMask: true},
		Created: t0.Add(4 * time.Hour), JobID: "job-5", Inputs: ins, Mask: m})
	must(err)
	_, err = l.Add(ctx, library.NewItem{Image: enc("png", pic(40, 30, color.NRGBA{195, 175, 155, 255})), Kind: "kept",
		Prompt: "the chair from the second image in the first", Model: "gpt-image-1", Profile: "p-0a1b2c3d4e5f",
		Params:  library.Params{ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1536x1024"}, InputFidelity: "high", HasMask: true},
		Created: t0.Add(4 * time.Hour), JobID: "job-5", Parents: []int64{id6}, Inputs: ins, Mask: m})
	must(err)
	// Schema 4: a conversation with a system prompt, an image attached,
	// a reply with its thinking and usage, and a regenerated version.
	store, err := conversations.Open(ctx, l)
	must(err)
	temp := 0.7
	conv, err := store.Create(ctx, conversations.Conversation{Title: "Poster ideas", Model: "gpt-4o-mini", System: "be brief", Temperature: &temp})
	must(err)
	q, err := store.AddUser(ctx, conv, 0, "ideas for this room?", []conversations.NewImage{{Name: "room.png", Data: room.Data}})
	must(err)
	r1, err := store.StartReply(ctx, conv, q, "gpt-4o-mini")
	must(err)
	must(store.Finish(ctx, r1, conversations.Ending{State: conversations.Done, Content: "Try **deep blue**.", Reasoning: "a calm room", Usage: &api.Usage{InputTokens: 30, OutputTokens: 4}}))
	r2, err := store.StartReply(ctx, conv, q, "gpt-4o-mini")
	must(err)
	must(store.Finish(ctx, r2, conversations.Ending{State: conversations.Stopped, Content: "Amber and"}))
	must(store.SavePreset(ctx, "Brief", "be brief"))
	// Chinese in a prompt and in a reply, for the search of schema 8.
	q2, err := store.AddUser(ctx, conv, r1, "海报用什么颜色？", nil)
	must(err)
	r3, err := store.StartReply(ctx, conv, q2, "gpt-4o-mini")
	must(err)
	must(store.Finish(ctx, r3, conversations.Ending{State: conversations.Done, Content: "试试深蓝色的背景，配上暖色的标题。", Usage: &api.Usage{InputTokens: 12, OutputTokens: 20}}))
	_, err = l.Add(ctx, library.NewItem{Image: enc("png", pic(32, 32, color.NRGBA{160, 40, 40, 255})), Kind: "generate",
		Prompt: "复古海报，一只猫", Model: "gpt-image-1", Profile: "p-0a1b2c3d4e5f",
		Params: library.Params{ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024"}}, Created: t0.Add(5 * time.Hour), JobID: "job-6"})
	must(err)
	// Schema 11 (for schema 12's credentials): an answer signed with
	// Content Credentials, as OpenAI signs, its manifest made with a key
	// of the fixture's own.
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	must(err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(11), Subject: pkix.Name{Organization: []string{"Fixture signer"}},
		NotBefore: t0.Add(-time.Hour), NotAfter: t0.AddDate(10, 0, 0)}
	cert, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	must(err)
	manifest, err := c2pa.Sign("gpt-image-1", key, cert)
	must(err)
	signed := enc("png", pic(32, 32, color.NRGBA{20, 120, 220, 255}))
	signed.Data, _ = c2pa.Embed(signed.Data, manifest)
	_, err = l.Add(ctx, library.NewItem{Image: signed, Kind: "generate", Prompt: "a signed harbour", Model: "gpt-image-1", Profile: "p-0a1b2c3d4e5f",
		Params: library.Params{ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024"}}, Created: t0.Add(6 * time.Hour), JobID: "job-7"})
	must(err)
	must(l.SetFavorite(ctx, id1, true))
	must(l.SetFavorite(ctx, id4, true))
	_ = id2
	_ = id5
	// A file a crash left without a row: adopted as "recovered" on the next open.
	var buf bytes.Buffer
	png.Encode(&buf, pic(32, 32, color.NRGBA{0, 0, 0, 255}))
	must(os.MkdirAll(filepath.Join(dir, "images", "2026-10"), 0o700))
	must(os.WriteFile(filepath.Join(dir, "images", "2026-10", "20261002-120000-aabbccddeeff.png"), buf.Bytes(), 0o600))
	must(l.Close())
	l, err = library.Open(dir)
	must(err)
	items, err := l.List(ctx, library.Query{Limit: 100})
	must(err)
	var full []library.Item
	for _, it := range items {
		g, err := l.Get(ctx, it.ID)
		must(err)
		_, err = l.Thumbnail(g)
		must(err)
		full = append(full, g)
	}
	// What each item was made from, as this code reads it back.
	made := map[int64][]library.StoredInput{}
	for _, it := range full {
		s, err := l.Inputs(ctx, it.ID)
		must(err)
		if len(s) > 0 {
			made[it.ID] = s
		}
	}
	madeJSON, _ := json.MarshalIndent(made, "", "  ")
	must(os.WriteFile(filepath.Join(filepath.Dir(os.Args[2]), "inputs.json"), append(madeJSON, '\n'), 0o644))
	store, err = conversations.Open(ctx, l)
	must(err)
	path, err := store.Path(ctx, conv)
	must(err)
	convJSON, _ := json.MarshalIndent(path, "", "  ")
	must(os.WriteFile(filepath.Join(filepath.Dir(os.Args[2]), "conversation.json"), append(convJSON, '\n'), 0o644))
	must(l.Close())
	out, _ := json.MarshalIndent(full, "", "  ")
	must(os.WriteFile(os.Args[2], append(out, '\n'), 0o644))
	// A save a kill cut short: its pending record and finished file, but
	// no row. The next Easel to open it alone records it with its prompt.
	db, err := sql.Open("sqlite", filepath.Join(dir, "library.db"))
	must(err)
	meta := `{"Format":"png","Width":32,"Height":32,"Kind":"edit","Prompt":"saved as the process was killed","Model":"gpt-image-1","Params":{"Model":"gpt-image-1","Size":"1024x1024","HasMask":true},"CreatedMs":1759406400000,"JobID":"job-9","Parents":[1]}`
	_, err = db.Exec(`INSERT INTO pending (file, item, created_ms) VALUES (?, ?, ?)`, "images/2026-10/20261002-130000-0123456789ab.png", meta, 1759406400000)
	must(err)
	must(db.Close())
	buf.Reset()
	png.Encode(&buf, pic(32, 32, color.NRGBA{90, 90, 90, 255}))
	must(os.WriteFile(filepath.Join(dir, "images", "2026-10", "20261002-130000-0123456789ab.png"), buf.Bytes(), 0o600))
	fmt.Println(len(full), "items and one pending save")
}
