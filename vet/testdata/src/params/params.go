// Package params overrides model parameters per call.
package params

import (
	"example.com/app/pg"
	"github.com/promptgen/promptgen/runtime"
)

func good(f pg.TicketFeed, name string, t float64) {
	pg.Ticket.Request(f, runtime.Temperature(0.2), runtime.TopP(1), runtime.MaxTokens(300), runtime.Stop("###"))
	runtime.WithParameter("max_tokens", 300.0) // an integral float is an integer
	runtime.WithParameter("stop", "###")
	runtime.WithParameter("stop_sequences", []string{"a"})
	runtime.WithParameter("temperature", nil) // removes the parameter
	runtime.WithParameter("seed", -7)
	runtime.WithParameter(name, 3)    // names known at run time only
	runtime.WithParameter("top_k", t) // values too
	runtime.Temperature(t)
}

func bad() {
	runtime.WithParameter("temprature", 0.2)    // want `unknown model parameter "temprature" \(did you mean "temperature"\?\)`
	runtime.WithParameter("reasoning", 1)       // want `unknown model parameter "reasoning" \(known: "frequency_penalty", .*, "top_p"\)`
	runtime.WithParameter("temperature", 3)     // want `temperature must be between 0 and 2, not 3`
	runtime.WithParameter("max_tokens", 2.5)    // want `max_tokens takes an integer, not 2.5`
	runtime.WithParameter("max_tokens", 0)      // want `max_tokens must be at least 1, not 0`
	runtime.WithParameter("stop", 1)            // want `stop takes a string or a list of strings, not a number`
	runtime.WithParameter("temperature", "hot") // want `temperature takes a number, not a string`
	runtime.WithParameter("seed", true)         // want `seed takes an integer, not a bool`
	runtime.Temperature(2.5)                    // want `temperature must be between 0 and 2, not 2.5`
	runtime.TopP(-0.1)                          // want `top_p must be between 0 and 1, not -0.1`
	runtime.MaxTokens(0)                        // want `max_tokens must be at least 1, not 0`
	const hot = 9
	runtime.Temperature(hot) // want `temperature must be between 0 and 2, not 9`
}
