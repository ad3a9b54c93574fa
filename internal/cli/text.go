package cli

import (
	"context"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/demoservice"
	"easel/internal/spend"
)

func runModels(ctx context.Context, args []string, env Env) error {
	fs := newFlags("models", env)
	asJSON := jsonFlag(fs)
	var t target
	t.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	c, _, err := t.client(ctx, env)
	if err != nil {
		return err
	}
	ms, err := c.Models(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		doc := modelsDoc{jsonHead: head("models"), Models: make([]jsonModel, 0, len(ms))}
		for _, m := range ms {
			doc.Models = append(doc.Models, jsonModel{ID: m.ID, Endpoints: m.EndpointTypes, Lookalike: api.MarkLookalike(m.ID) != m.ID})
		}
		return printDoc(env.Stdout, doc)
	}
	for _, m := range ms {
		if len(m.EndpointTypes) > 0 {
			fmt.Fprintf(env.Stdout, "%s\t%s\n", api.MarkLookalike(m.ID), strings.Join(m.EndpointTypes, ","))
		} else {
			fmt.Fprintln(env.Stdout, api.MarkLookalike(m.ID))
		}
	}
	return nil
}

func runChat(ctx context.Context, args []string, env Env) error {
	fs := newFlags("chat", env)
	model := fs.String("model", "gpt-4o-mini", catalogue.T("chat model id"))
	system := fs.String("system", "", catalogue.T("system message"))
	temperature := fs.Float64("temperature", -1, catalogue.T("sampling temperature 0-2 (sent only when given)"))
	maxTokens := fs.Int("max-tokens", 0, catalogue.T("longest reply in tokens (sent only when given)"))
	noStream := fs.Bool("no-stream", false, catalogue.T("wait for the whole reply instead of streaming it"))
	var t target
	var cost costFlags
	t.register(fs)
	cost.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	msg := strings.TrimSpace(strings.Join(fs.Args(), " "))
	if msg == "" {
		return usageErr(env, catalogue.T("chat needs a message: easel chat [flags] MESSAGE"))
	}
	c, p, err := t.client(ctx, env)
	if err != nil {
		return err
	}
	if p.ChatModel != "" && !given(fs, "model") {
		*model = p.ChatModel
	}
	// A stream carries its usage only when asked (stream_options), and
	// the ledger prices the reply by it.
	req := api.ChatRequest{Model: *model, Stream: !*noStream, IncludeUsage: !*noStream}
	if *system != "" {
		req.Messages = append(req.Messages, api.Message{Role: api.RoleSystem, Content: *system})
	}
	req.Messages = append(req.Messages, api.Message{Role: api.RoleUser, Content: msg})
	if given(fs, "temperature") {
		req.Temperature = temperature
	}
	if given(fs, "max-tokens") {
		req.MaxTokens = maxTokens
	}
	est := spend.Chat(p.Prices, req)
	if cost.estimate {
		fmt.Fprintln(env.Stdout, est)
		return nil
	}
	mem := openMemory(env)
	defer mem.close()
	if err := mem.withinBudget(ctx, p, est, cost.overBudget); err != nil {
		return err
	}
	// A thinking model's reasoning goes to stderr, apart from the reply,
	// so a script reading stdout gets the reply alone.
	thought, arrived, sent := false, false, time.Now()
	req.OnReasoning = func(r string) { thought = true; fmt.Fprint(env.Stderr, r) }
	res, err := c.Chat(ctx, req, func(d string) { arrived = true; fmt.Fprint(env.Stdout, d) })
	mem.chargeChat(ctx, env, p, req, res, err, arrived, time.Since(sent))
	if res != nil && res.Reasoning != "" {
		if !thought {
			fmt.Fprint(env.Stderr, res.Reasoning)
		}
		fmt.Fprintln(env.Stderr)
	}
	if res != nil && res.Content != "" {
		fmt.Fprintln(env.Stdout)
	}
	return groupHint(ctx, env, p, *model, err)
}

func runServeDemo(ctx context.Context, args []string, env Env) error {
	fs := newFlags("serve-demo", env)
	addr := fs.String("addr", "127.0.0.1:8090", catalogue.T("address to listen on (keep it on loopback)"))
	key := fs.String("key", "", catalogue.T("bearer key to require; empty accepts any"))
	pace := fs.Duration("pace", demoservice.DemoPace, catalogue.T("delay between stream events"))
	balance := fs.Int("balance", 0, catalogue.T("images the demo account can pay for; 0 is unlimited"))
	gateway := fs.String("gateway", "", catalogue.T("behave like a gateway: new-api, sub2api, litellm, proxy, or quirks by name, comma-separated"))
	proxyLimit := fs.Duration("proxy-limit", demoservice.DefaultProxyLimit, catalogue.T("with the proxy-cut quirk, how long an answer may take"))
	console := fs.String("console", "", catalogue.T("bill each key and serve its figures as new-api, one-api or sub2api does"))
	unsigned := fs.Bool("unsigned", false, catalogue.T("answer without Content Credentials, as a gateway that re-encodes the provider's images does (by default each answer is signed with a test certificate, as OpenAI signs)"))
	answerProfile := fs.String("answer-profile", "", catalogue.T("an ICC profile file each PNG and JPEG answer declares, as a route that answers in another colour space than sRGB does"))
	drift := fs.Float64("drift", 0, catalogue.T("make each edit stray outside the marks: the colours of this share (0-1) of the rows the mask protects turned round"))
	responses := fs.String("responses", "", catalogue.T("play the Responses API as a gateway may: none (no such route) or drops (turns relayed without previous_response_id); by default served, as OpenAI does"))
	batches := fs.String("batches", "", catalogue.T("play the Batch API as a gateway may: none (no such route); by default served, as OpenAI does"))
	batchPace := fs.Duration("batch-pace", 0, catalogue.T("how long each step of a batch takes (validating, each request, finalizing): the 24 hours in minutes; 0 finishes a batch when first asked"))
	batchExpire := fs.Int("batch-expire-after", 0, catalogue.T("let a batch's window run out after this many of its requests were answered; 0 never"))
	uploadRate := fs.Int64("upload-rate", 0, catalogue.T("bytes a second to read an edit's upload at, as a slow link delivers it; 0 as fast as it comes"))
	var keys repeated
	fs.Var(&keys, "group-key", catalogue.T("with --console, a key of a group: KEY=GROUP[:RATIO[:LIMIT]] (limit in quota units, 0 unlimited); repeat for more"))
	if err := parse(fs, args); err != nil {
		return err
	}
	groups, err := groupKeys(keys)
	if err != nil {
		return usageErr(env, "--group-key: %v", err)
	}
	if err := demoKinds(env, *console, *responses, *batches); err != nil {
		return err
	}
	if host, _, err := net.SplitHostPort(*addr); err != nil || !api.IsLocalHost(host) {
		return usageErr(env, catalogue.T("--addr must be a loopback address such as 127.0.0.1:8090"))
	}
	quirks, err := demoservice.ParseQuirks(*gateway)
	if err != nil {
		return usageErr(env, catalogue.T("--gateway: %v"), err)
	}
	var profile []byte
	if *answerProfile != "" {
		if profile, err = os.ReadFile(*answerProfile); err != nil {
			return usageErr(env, "--answer-profile: %v", err)
		}
	}
	srv := demoservice.New(demoservice.Config{Key: *key, Pace: *pace, Balance: *balance, Quirks: quirks, ProxyLimit: *proxyLimit,
		Console: *console, Groups: groups, UploadRate: max(0, *uploadRate), Unsigned: *unsigned, AnswerProfile: profile,
		Drift: min(max(*drift, 0), 1), Responses: *responses, Batches: *batches, BatchPace: max(0, *batchPace), BatchExpireAfter: max(0, *batchExpire)})
	base, err := srv.Listen(ctx, *addr)
	if err != nil {
		return fmt.Errorf(catalogue.T("cannot listen on %s: %w"), *addr, err)
	}
	fmt.Fprintln(env.Stdout, catalogue.F("Easel demo service at %s — set OPENAI_BASE_URL=%s; Ctrl+C stops it", base, base))
	if len(quirks) > 0 {
		fmt.Fprintln(env.Stdout, catalogue.F("Behaving like a gateway: %s", joinQuirks(quirks)))
	}
	<-ctx.Done()
	time.Sleep(50 * time.Millisecond)
	return nil
}

// demoKinds checks the gateway kinds serve-demo is asked to play.
func demoKinds(env Env, console, responses, batches string) error {
	if console != "" && console != demoservice.ConsoleNewAPI && console != demoservice.ConsoleOneAPI && console != demoservice.ConsoleSub2API {
		return usageErr(env, catalogue.T("--console takes new-api, one-api or sub2api, not %q"), console)
	}
	if responses != demoservice.ResponsesServed && responses != demoservice.ResponsesNone && responses != demoservice.ResponsesDrops {
		return usageErr(env, catalogue.T("--responses takes none or drops, not %q"), responses)
	}
	if batches != demoservice.BatchesServed && batches != demoservice.BatchesNone {
		return usageErr(env, catalogue.T("--batches takes none, not %q"), batches)
	}
	return nil
}

func joinQuirks(qs []demoservice.Quirk) string {
	names := make([]string, len(qs))
	for i, q := range qs {
		names[i] = string(q)
	}
	return strings.Join(names, ", ")
}

// groupKeys reads --group-key values: KEY=GROUP[:RATIO[:LIMIT]], each key
// serving every demo model.
func groupKeys(values []string) (map[string]demoservice.Group, error) {
	if len(values) == 0 {
		return nil, nil
	}
	var models []string
	for _, m := range demoservice.DefaultModels {
		models = append(models, m.ID)
	}
	out := map[string]demoservice.Group{}
	for _, v := range values {
		key, rest, ok := strings.Cut(v, "=")
		parts := strings.Split(rest, ":")
		if !ok || key == "" || parts[0] == "" || len(parts) > 3 {
			return nil, fmt.Errorf(catalogue.T("%q is not KEY=GROUP[:RATIO[:LIMIT]]"), v)
		}
		g := demoservice.Group{Name: parts[0], Models: models}
		if len(parts) > 1 {
			r, err := strconv.ParseFloat(parts[1], 64)
			if err != nil || r <= 0 {
				return nil, fmt.Errorf(catalogue.T("%q is not KEY=GROUP[:RATIO[:LIMIT]]"), v)
			}
			g.Ratio = r
		}
		if len(parts) > 2 {
			l, err := strconv.ParseInt(parts[2], 10, 64)
			if err != nil || l < 0 {
				return nil, fmt.Errorf(catalogue.T("%q is not KEY=GROUP[:RATIO[:LIMIT]]"), v)
			}
			g.Limit = l
		}
		out[key] = g
	}
	return out, nil
}
