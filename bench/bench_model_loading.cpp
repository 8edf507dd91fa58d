// Model loading time against size: `kinevo model chain` text for N = 100, 1,000 and 10,000
// links (n = 2N coordinates, m = N constraints), parsed, differentiated and compiled to tapes
// (load_model_from_string, what `kinevo model info` does). Loading was cubic in n (a 1,000-link
// chain did not load in 30 s); the target is linear: 1,000 links < 1 s, 10,000 < 10 s.
// Run by hand: build/bench/bench_model_loading (figures in docs/benchmarks.md).
#include <benchmark/benchmark.h>

#include <string>

#include "kinevo/mechanics/model/chain_model.hpp"
#include "kinevo/mechanics/model/model.hpp"

namespace {

using namespace kinevo::mechanics;

void load_chain(benchmark::State& state) {
  chain_options o;
  o.links = static_cast<int>(state.range(0));
  const std::string text = chain_model_text(o);
  for (auto _ : state) {
    model m = load_model_from_string(text, "chain.toml");
    benchmark::DoNotOptimize(m);
  }
  state.counters["coordinates"] = 2.0 * static_cast<double>(o.links);
  state.counters["bytes"] = static_cast<double>(text.size());
}

// One iteration for the large chains: each takes seconds, and a repeat tells nothing new.
BENCHMARK(load_chain)->Arg(100)->Unit(benchmark::kMillisecond);
BENCHMARK(load_chain)->Arg(1000)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(load_chain)->Arg(10000)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
