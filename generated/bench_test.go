package generated

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"text/template"

	"github.com/promptgen/promptgen/generated/internal/ttbench"
	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/tiktoken"
)

// The benchmarks render the same ~1.5 KB ticket digest four ways: the
// generated renderer (go backend), the same prompt generated with
// -renderer=text/template (internal/ttbench), a hand-written
// strings.Builder version (the baseline) and a hand-written text/template.

func benchFeed() TicketDigestFeed {
	f := TicketDigestFeed{
		Team: "Billing", Lead: "Grace Hopper", Period: "the week of 16 November",
		OpenCount: 42, SLAHours: 24,
		Escalation: &TicketDigestEscalation{Owner: "Alan", Reason: "duplicate charges on enterprise invoices"},
	}
	prios := []string{"high", "", "urgent", "low", ""}
	for i := range 10 {
		t := TicketDigestTicketsItem{
			ID: "T-" + strconv.Itoa(1000+i), Title: "Customer reports a problem with invoice export number " + strconv.Itoa(i),
			Customer: "Customer " + strconv.Itoa(i),
		}
		if p := prios[i%len(prios)]; p != "" {
			t.Priority = &p
		}
		f.Tickets = append(f.Tickets, t)
	}
	return f
}

// ttFeed is benchFeed as the feed of the text/template backend's package.
func ttFeed(tb testing.TB) ttbench.TicketDigestFeed {
	b, err := json.Marshal(benchFeed())
	if err != nil {
		tb.Fatal(err)
	}
	var f ttbench.TicketDigestFeed
	if err := json.Unmarshal(b, &f); err != nil {
		tb.Fatal(err)
	}
	return f
}

func handWritten(f TicketDigestFeed) string {
	var b strings.Builder
	b.Grow(2048)
	b.WriteString("You are the support operations assistant for the ")
	b.WriteString(f.Team)
	b.WriteString(" team.\nYour reader is ")
	b.WriteString(f.Lead)
	b.WriteString(", the team lead, who has two minutes to read this.\nSummarise the state of the queue for ")
	b.WriteString(f.Period)
	b.WriteString(" and propose the next three actions.\nBe factual and brief, use the ticket ids, and never invent tickets or customers.\n\nQueue: ")
	b.WriteString(strconv.Itoa(f.OpenCount))
	b.WriteString(" open tickets; the SLA is ")
	b.WriteString(strconv.Itoa(f.SLAHours))
	b.WriteString(" hours.\n")
	if f.Escalation != nil {
		b.WriteString("Escalation in progress: ")
		b.WriteString(f.Escalation.Owner)
		b.WriteString(" owns it (")
		b.WriteString(f.Escalation.Reason)
		b.WriteString(").\n")
	}
	b.WriteString("\nOldest tickets:\n")
	for i, t := range f.Tickets {
		b.WriteString(strconv.Itoa(i + 1))
		b.WriteString(". [")
		b.WriteString(t.ID)
		b.WriteString("] ")
		b.WriteString(t.Title)
		b.WriteString(" (priority: ")
		if t.Priority != nil {
			b.WriteString(*t.Priority)
		} else {
			b.WriteString("normal")
		}
		b.WriteString(", customer: ")
		b.WriteString(t.Customer)
		b.WriteString(")\n")
	}
	b.WriteString("\nAnswer with a short paragraph, then a numbered list of actions with an owner each.")
	return b.String()
}

var textTemplate = template.Must(template.New("digest").Funcs(template.FuncMap{"inc": func(i int) int { return i + 1 }}).Parse(
	`You are the support operations assistant for the {{.Team}} team.
Your reader is {{.Lead}}, the team lead, who has two minutes to read this.
Summarise the state of the queue for {{.Period}} and propose the next three actions.
Be factual and brief, use the ticket ids, and never invent tickets or customers.

Queue: {{.OpenCount}} open tickets; the SLA is {{.SLAHours}} hours.
{{with .Escalation}}Escalation in progress: {{.Owner}} owns it ({{.Reason}}).
{{end}}
Oldest tickets:
{{range $i, $t := .Tickets}}{{inc $i}}. [{{$t.ID}}] {{$t.Title}} (priority: {{with $t.Priority}}{{.}}{{else}}normal{{end}}, customer: {{$t.Customer}})
{{end}}
Answer with a short paragraph, then a numbered list of actions with an owner each.`))

func textTemplateRender(f TicketDigestFeed) string {
	var b bytes.Buffer
	if err := textTemplate.Execute(&b, f); err != nil {
		panic(err)
	}
	return b.String()
}

// TestBenchRenderersAgree keeps the benchmarked renderers honest:
// they must produce the same text.
func TestBenchRenderersAgree(t *testing.T) {
	f := benchFeed()
	got, err := TicketDigest.Render(f)
	if err != nil {
		t.Fatal(err)
	}
	if want := handWritten(f); got != want {
		t.Errorf("generated != hand-written:\n%s\n---\n%s", got, want)
	}
	if tt := textTemplateRender(f); tt != got {
		t.Errorf("text/template != generated:\n%s\n---\n%s", tt, got)
	}
	if tt, err := ttbench.TicketDigest.Render(ttFeed(t)); err != nil || tt != got {
		t.Errorf("text/template backend != generated (%v):\n%s\n---\n%s", err, tt, got)
	}
	if len(got) < 1400 || len(got) > 1700 {
		t.Errorf("output is %d bytes, want about 1.5 KB", len(got))
	}
	buf := make([]byte, 0, 4096)
	if allocs := testing.AllocsPerRun(100, func() { buf, _ = TicketDigest.AppendRender(buf[:0], f) }); allocs != 0 {
		t.Errorf("AppendRender into a reused buffer: %v allocs, want 0", allocs)
	}
	TicketDigest.Render(f) // teaches the size hint
	if allocs := testing.AllocsPerRun(100, func() { TicketDigest.Render(f) }); allocs != 1 {
		t.Errorf("Render: %v allocs, want 1", allocs)
	}
}

// TestTextTemplateBackendAllocs: the text/template backend allocates no
// more than the hand-written text/template of the same prompt, though it
// also checks the required and optional variables as Jinja2 does and the
// output's length before each iteration (issue 28).
func TestTextTemplateBackendAllocs(t *testing.T) {
	f, tf := benchFeed(), ttFeed(t)
	hand := testing.AllocsPerRun(100, func() { textTemplateRender(f) })
	backend := testing.AllocsPerRun(100, func() { ttbench.TicketDigest.Render(tf) })
	if backend > hand {
		t.Errorf("text/template backend: %v allocs per render, hand-written text/template %v", backend, hand)
	}
}

var sink string

func BenchmarkRender(b *testing.B) {
	f := benchFeed()
	b.Run("handwritten", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sink = handWritten(f)
		}
	})
	b.Run("generated", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sink, _ = TicketDigest.Render(f)
		}
	})
	b.Run("generated-append", func(b *testing.B) {
		b.ReportAllocs()
		buf := make([]byte, 0, 4096)
		for b.Loop() {
			buf, _ = TicketDigest.AppendRender(buf[:0], f)
		}
	})
	b.Run("generated-text-template", func(b *testing.B) {
		b.ReportAllocs()
		tf := ttFeed(b)
		for b.Loop() {
			sink, _ = ttbench.TicketDigest.Render(tf)
		}
	})
	b.Run("text-template", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sink = textTemplateRender(f)
		}
	})
}

// triageJSON is a typical answer to the triage_ticket prompt.
const triageJSON = `{"category": "billing", "priority": "high",
  "summary": "The customer was charged twice for the March invoice and wants one charge refunded.",
  "customer": {"sentiment": "negative", "churn_risk": 0.3, "mentioned_plan": "pro"},
  "actions": [
    {"owner": "billing", "task": "Refund the duplicate March charge", "due_in_hours": 24},
    {"owner": "support", "task": "Confirm the refund to the customer"}
  ],
  "tags": ["double-charge", "refund"]}`

// BenchmarkParseOutput compares the generated ParseOutput (extraction,
// decoding and validation) with plain json.Unmarshal of the same bytes
// into the same struct, the baseline.
func BenchmarkParseOutput(b *testing.B) {
	doc := []byte(triageJSON)
	b.Run("unmarshal", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		b.ReportAllocs()
		for b.Loop() {
			var v TriageTicketOutput
			if err := json.Unmarshal(doc, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("unmarshal+checks", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		b.ReportAllocs()
		for b.Loop() {
			var v TriageTicketOutput
			if err := json.Unmarshal(doc, &v); err != nil {
				b.Fatal(err)
			}
			if err := (&_TriageTicketOutputChecks{}).Validate(doc, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ParseOutput", func(b *testing.B) {
		b.SetBytes(int64(len(triageJSON)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := TriageTicket.ParseOutput(triageJSON); err != nil {
				b.Fatal(err)
			}
		}
	})
	fenced := "Here is the triage:\n\n```json\n" + triageJSON + "\n```\n"
	b.Run("ParseOutput/fenced", func(b *testing.B) {
		b.SetBytes(int64(len(fenced)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := TriageTicket.ParseOutput(fenced); err != nil {
				b.Fatal(err)
			}
		}
	})
	// The same answer as models often write it: repairs cost only here.
	messy := "Here is the triage:\n{category: 'billing', priority: HIGH, // urgent\n" +
		"  summary: \"The customer was charged twice for the March invoice and wants one charge refunded.\",\n" +
		"  customer: {sentiment: negative, churn_risk: \"0.3\", mentioned_plan: pro},\n" +
		"  actions: [{owner: billing, task: 'Refund the duplicate March charge', due_in_hours: 24.0},\n" +
		"    {owner: support, task: \"Confirm the refund to the customer\"},],\n  tags: [double-charge, refund],}"
	b.Run("ParseOutput/repaired", func(b *testing.B) {
		b.SetBytes(int64(len(messy)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := TriageTicket.ParseOutput(messy); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// busyThinkFeed is the kitchen/think fixture "full" with 12 entity types
// of 8 entities each: the Entities in Context section goes over its budget
// and drops types.
func busyThinkFeed(tb testing.TB) ThinkFeed {
	var f ThinkFeed
	if err := json.Unmarshal(readFixture(tb, "kitchen/think/full.json"), &f); err != nil {
		tb.Fatal(err)
	}
	f.Registry = nil
	for i := range 12 {
		g := ThinkRegistryItem{Type: "type_" + strconv.Itoa(i+1)}
		for j := range 8 {
			g.Entities = append(g.Entities, ThinkRegistryItemEntitiesItem{
				Ref: "e" + strconv.Itoa(i+1) + "_" + strconv.Itoa(j+1), Label: "entity " + strconv.Itoa(j+1) + " of type " + strconv.Itoa(i+1)})
		}
		f.Registry = append(f.Registry, g)
	}
	return f
}

// BenchmarkSections renders the Think prompt with its budgets enforced (one
// section truncated by items) against one token count of the prompt it
// renders, the unit the budget cost is measured in.
func BenchmarkSections(b *testing.B) {
	f := busyThinkFeed(b)
	prompt, err := Think.Render(f)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("render-with-budgets", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sink, _ = Think.Render(f)
		}
	})
	b.Run("count-prompt", func(b *testing.B) {
		b.ReportAllocs()
		tok := tiktoken.O200kBase()
		for b.Loop() {
			sinkInt = tok.Count(prompt)
		}
	})
}

var sinkInt int

func readFixture(tb testing.TB, name string) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", filepath.FromSlash(name)))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// agentFeed is a feed for every template of the agent set.
func agentFeed() AgentFeed {
	return AgentFeed{
		UserInput:      "Which plan includes single sign-on?",
		Context:        "Pricing: Starter $10, Team $25 (SSO included), Enterprise on request.",
		ActionResult:   "3 results: pricing, security, changelog",
		PreviousStates: []string{"searched for pricing", "opened the pricing page"},
	}
}

// TestSetOptionsAllocs holds a set's per-call options to what the
// benchmarks below measure: AppendRender into a reused buffer allocates
// once, for the Variant that picks the versions of the template's
// components (runtime.VariantFor), with or without per-call options,
// predefined variables and the system default included.
func TestSetOptionsAllocs(t *testing.T) {
	f := agentFeed()
	agent := NewAgent()
	buf := make([]byte, 0, 4096)
	for _, c := range []struct {
		name string
		key  string
		opts []runtime.Option
	}{
		{"no options", AgentKeyBrowseLink, nil},
		{"per-call version", AgentKeyBrowseLink, []runtime.Option{runtime.WithVersion("enterprise")}},
		{"per-call predefined variables", AgentKeyBrowseLink, []runtime.Option{runtime.WithPredefined(AgentPredefinedAcme)}},
		{"system default with predefined variables", "SubmitForm", []runtime.Option{runtime.WithType("support"), runtime.WithPredefined(AgentPredefinedAcme)}},
	} {
		got := testing.AllocsPerRun(100, func() {
			var err error
			if buf, err = agent.AppendRender(buf[:0], c.key, f, c.opts...); err != nil {
				t.Fatal(err)
			}
		})
		if got != 1 {
			t.Errorf("%s: AppendRender allocates %v times; want 1", c.name, got)
		}
	}
}

// BenchmarkSetResolve resolves keys of the agent set with its generated
// lookup: an exact hit, a namespaced key, and a key that misses every
// step (root space, type and version set) down to the system default.
func BenchmarkSetResolve(b *testing.B) {
	agent := NewAgent()
	for _, bc := range []struct {
		name  string
		key   string
		opts  []runtime.Option
		level runtime.Level
	}{
		{"exact", AgentKeyBrowseLink, nil, runtime.LevelKey},
		{"namespaced", "reflection/default", nil, runtime.LevelDefault},
		{"system-default-all-steps", "SubmitForm", []runtime.Option{runtime.WithRootSpace("R"), runtime.WithType("support"), runtime.WithVersion("v9")}, runtime.LevelSystemDefault},
	} {
		b.Run(bc.name, func(b *testing.B) {
			if r := agent.Resolve(bc.key, bc.opts...); r.Err != nil || r.Level != bc.level {
				b.Fatalf("%q at %v, %v; want %v", r.Path, r.Level, r.Err, bc.level)
			}
			b.ReportAllocs()
			for b.Loop() {
				agent.Resolve(bc.key, bc.opts...)
			}
		})
	}
}

// BenchmarkSetRender renders templates of the agent set: resolution
// through the fallback chain plus rendering, with and without per-call
// options.
func BenchmarkSetRender(b *testing.B) {
	f := agentFeed()
	agent := NewAgent()
	for _, bc := range []struct {
		name string
		key  string
		opts []runtime.Option
	}{
		{"exact", AgentKeyBrowseLink, nil},
		{"per-call-version", AgentKeyBrowseLink, []runtime.Option{runtime.WithVersion("enterprise")}},
		{"fallback-default", "SubmitForm", nil},
		{"system-default", "SubmitForm", []runtime.Option{runtime.WithType("support"), runtime.WithPredefined(AgentPredefinedAcme)}},
		{"predefined", AgentKeyBrowseLink, []runtime.Option{runtime.WithPredefined(AgentPredefinedAcme)}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := agent.Render(bc.key, f, bc.opts...); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(bc.name+"-append", func(b *testing.B) {
			b.ReportAllocs()
			buf := make([]byte, 0, 4096)
			for b.Loop() {
				var err error
				if buf, err = agent.AppendRender(buf[:0], bc.key, f, bc.opts...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
